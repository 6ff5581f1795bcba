/*
 * test_args.c: condor_vacate's and condor_drain's command lines, and the
 * HTCondor rules they rest on (flag prefixes, daemon names): what each
 * flag and abbreviation means, the messages and exit statuses of a bad
 * command line.  In-process, through vac_parse() and drn_parse().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "drain.h"
#include "sdt.h"
#include "vacate.h"

#define MAXARGS 16

/* One parse: the command line (which the options point into, so it
 * lives as long as they are read) and what the parse wrote. */
struct run {
	char buf[512];
	char *argv[MAXARGS];
	int argc;
	int status;
	char *out, *err;
	size_t nout, nerr;
};

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
	free(r);
}

/* Splits line on spaces into r's argv (no quoting needed here) and
 * opens r's output streams. */
static struct run *prepare(const char *line, FILE **out, FILE **err)
{
	struct run *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	snprintf(r->buf, sizeof(r->buf), "%s", line);
	for (char *t = strtok(r->buf, " "); t && r->argc < MAXARGS - 1;
	     t = strtok(NULL, " "))
		r->argv[r->argc++] = t;
	*out = open_memstream(&r->out, &r->nout);
	*err = open_memstream(&r->err, &r->nerr);
	return r;
}

static struct run *vacate(const char *line, struct ct_opts *o)
{
	FILE *out, *err;
	struct run *r = prepare(line, &out, &err);
	r->status = vac_parse(r->argc, r->argv, o, out, err);
	fclose(out);
	fclose(err);
	return r;
}

static struct run *drain(const char *line, struct drn_opts *o)
{
	FILE *out, *err;
	struct run *r = prepare(line, &out, &err);
	r->status = drn_parse(r->argc, r->argv, o, out, err);
	fclose(out);
	fclose(err);
	return r;
}

/* ---- HTCondor's rules ------------------------------------------------- */

static void test_dash_prefix(void **state)
{
	(void)state;
	assert_true(sdt_dash_prefix("-h", "help", 0));
	assert_true(sdt_dash_prefix("-help", "help", 0));
	assert_false(sdt_dash_prefix("-helpme", "help", 0));
	assert_false(sdt_dash_prefix("-", "help", 0));
	assert_false(sdt_dash_prefix("help", "help", 0));
	assert_false(sdt_dash_prefix("-f", "fast", 2));
	assert_true(sdt_dash_prefix("-fa", "fast", 2));
	/* "--" asks for the whole word */
	assert_true(sdt_dash_prefix("--fast", "fast", 2));
	assert_false(sdt_dash_prefix("--fas", "fast", 2));
	/* min -1: exactly the word */
	assert_true(sdt_dash_prefix("-f", "f", -1));
	assert_false(sdt_dash_prefix("-fa", "f", -1));
	const char *colon = "x";
	assert_true(sdt_dash_colon_prefix("-debug:D_ALL", "debug", 1, &colon));
	assert_non_null(colon);
	assert_string_equal(colon, ":D_ALL");
	assert_true(sdt_dash_colon_prefix("-d", "debug", 1, &colon));
	assert_null(colon);
	assert_false(sdt_dash_colon_prefix("-dx", "debug", 1, &colon));
}

static void test_daemon_name(void **state)
{
	(void)state;
	ks_config *cfg = ks_config_new("TOOL", NULL);
	/* with NO_DNS, nothing is looked up */
	assert_int_equal(ks_config_set(cfg, "NO_DNS", "true", "test"), 0);
	char *n = sdt_daemon_name(cfg, "slot1@exec");
	assert_string_equal(n, "slot1@exec");
	free(n);
	n = sdt_daemon_name(cfg, "exec.example.org");
	assert_string_equal(n, "exec.example.org");
	free(n);
	n = sdt_daemon_name(cfg, "exec");
	assert_string_equal(n, "exec"); /* kestrel keeps a bare name */
	free(n);
	assert_int_equal(ks_config_set(cfg, "DEFAULT_DOMAIN_NAME",
				       "example.org", "test"), 0);
	n = sdt_daemon_name(cfg, "exec");
	assert_string_equal(n, "exec.example.org");
	free(n);
	ks_config_free(cfg);
	assert_string_equal(sdt_host_part("slot1@a@b.org"), "b.org");
	assert_string_equal(sdt_host_part("b.org"), "b.org");
	char buf[64];
	sdt_bare_addr("<127.0.0.1:9618?sock=startd_1>", buf, sizeof(buf));
	assert_string_equal(buf, "<127.0.0.1:9618>");
	sdt_bare_addr("<127.0.0.1:9618>", buf, sizeof(buf));
	assert_string_equal(buf, "<127.0.0.1:9618>");
}

/* ---- condor_vacate ---------------------------------------------------- */

static void test_vacate_targets(void **state)
{
	(void)state;
	struct ct_opts o;
	struct run *r = vacate("condor_vacate host1 -name slot2@host2 -addr "
			      "<127.0.0.1:5>", &o);
	assert_int_equal(r->status, CT_GO);
	assert_int_equal(o.ntargets, 3);
	assert_string_equal(o.targets[0], "host1");
	assert_string_equal(o.targets[1], "slot2@host2");
	assert_string_equal(o.targets[2], "<127.0.0.1:5>");
	assert_int_equal(o.mode, CT_GRACEFUL);
	assert_string_equal(o.prog, "condor_vacate");
	run_free(r);
	ct_opts_free(&o);

	/* the program name is the path's last part; later speeds win */
	r = vacate("/usr/bin/condor_vacate -fa -g -fast -d -p cm -all", &o);
	assert_int_equal(r->status, CT_GO);
	assert_string_equal(o.prog, "condor_vacate");
	assert_int_equal(o.mode, CT_FAST);
	assert_true(o.debug);
	assert_true(o.all);
	assert_non_null(o.pool);
	assert_int_equal(o.ntargets, 0);
	run_free(r);
	ct_opts_free(&o);

	r = vacate("condor_vacate -annex-name a1", &o);
	assert_int_equal(r->status, CT_GO);
	assert_string_equal(o.constraint, "AnnexName =?= \"a1\"");
	run_free(r);
	ct_opts_free(&o);

	r = vacate("condor_vacate -constraint x -annex-slots", &o);
	assert_int_equal(r->status, CT_GO);
	assert_string_equal(o.constraint, "(x) && (IsAnnex)");
	run_free(r);
	ct_opts_free(&o);
}

static void test_vacate_refused(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		int status;
		const char *err; /* the first line of stderr */
	} cases[] = {
		{"condor_vacate -foo", 1, "ERROR: invalid argument \"-foo\"\n"},
		{"condor_vacate -f", 1, "ERROR: ambiguous parameter: \"-f\"\n"},
		{"condor_vacate -a", 1, "ERROR: ambiguous parameter: \"-a\"\n"},
		{"condor_vacate -n", 1, "ERROR: ambiguous parameter: \"-n\"\n"},
		{"condor_vacate -co", 1, "ERROR: ambigous parameter: \"-co\"\n"},
		{"condor_vacate -s", 1, "ERROR: ambiguous argument \"-s\"\n"},
		{"condor_vacate -startd", 1,
		 "ERROR: Can't specify a daemon flag with condor_vacate.\n"},
		{"condor_vacate -da x", 1,
		 "ERROR: Can't specify a daemon flag with condor_vacate.\n"},
		{"condor_vacate -peaceful", 1,
		 "ERROR: \"-peaceful\" is not valid with condor_vacate\n"},
		{"condor_vacate -full", 1,
		 "ERROR: \"-full\" is not valid with condor_vacate\n"},
		{"condor_vacate -exec x", 1, "ERROR: \"-exec\" is not valid "
					     "with condor_vacate without "
					     "-drain\n"},
		{"condor_vacate -name", 1,
		 "ERROR: -name requires another argument\n"},
		{"condor_vacate -name -fast", 1,
		 "ERROR: -name requires another argument\n"},
		{"condor_vacate -addr", 1,
		 "ERROR: -addr requires another argument\n"},
		{"condor_vacate -pool", 1,
		 "ERROR: -pool requires another argument\n"},
		{"condor_vacate -constraint", 1,
		 "ERROR: -constraint requires another argument\n"},
		{"condor_vacate -constraint a -constraint b", 1,
		 "ERROR: only one -constraint argument is allowed\n"},
		{"condor_vacate -constraint a host1", 1,
		 "ERROR: use of -constraint or -annex conflicts with other "
		 "arguments containing names or addresses.\n"},
		{"condor_vacate -help", 0, "Usage: condor_vacate "},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ct_opts o;
		struct run *r = vacate(cases[i].line, &o);
		if (r->status != cases[i].status ||
		    strncmp(r->err, cases[i].err, strlen(cases[i].err)) != 0)
			fail_msg("%s: status %d, stderr:\n%s", cases[i].line,
				 r->status, r->err);
		/* the rest end with HTCondor's hint or its whole usage,
		 * but for a second -constraint, which exits at once */
		static const char hint[] =
			"Use \"-help\" to see usage information\n";
		size_t nh = sizeof(hint) - 1;
		bool ends = r->nerr >= nh &&
			    strcmp(r->err + r->nerr - nh, hint) == 0;
		if (!ends && !strstr(r->err, "Usage:") &&
		    !strstr(r->err, "only one -constraint"))
			fail_msg("%s: no hint: %s", cases[i].line, r->err);
		run_free(r);
		ct_opts_free(&o);
	}
}

static void test_vacate_version(void **state)
{
	(void)state;
	struct ct_opts o;
	struct run *r = vacate("condor_vacate -version", &o);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "$CondorVersion: 25."));
	assert_int_equal(r->nerr, 0);
	run_free(r);
	ct_opts_free(&o);
}

/* ---- condor_drain ----------------------------------------------------- */

static void test_drain_flags(void **state)
{
	(void)state;
	struct drn_opts o;
	struct run *r = drain("condor_drain exec1", &o);
	assert_int_equal(r->status, DRN_GO);
	assert_false(o.cancel);
	assert_int_equal(o.how_fast, DRN_GRACEFUL);
	assert_int_equal(o.on_completion, DRN_NOTHING);
	assert_null(o.reason);
	assert_non_null(o.target);
	run_free(r);

	/* HTCondor's abbreviations, in its order of trying them */
	static const struct {
		const char *line;
		int how_fast, on_completion;
		bool cancel, verbose;
	} cases[] = {
		{"condor_drain -q m", DRN_QUICK, 0, false, false},
		{"condor_drain -f m", DRN_FAST, 0, false, false},
		{"condor_drain -f -g m", DRN_GRACEFUL, 0, false, false},
		{"condor_drain -r m", 0, DRN_RESUME, false, false},
		{"condor_drain -re m", 0, DRN_RESUME, false, false},
		{"condor_drain -resume-on-completion m", 0, DRN_RESUME, false,
		 false},
		{"condor_drain -ex m", 0, DRN_EXIT, false, false},
		{"condor_drain -rest m", 0, DRN_RESTART, false, false},
		{"condor_drain -restart m", 0, DRN_RESTART, false, false},
		{"condor_drain -rec m", 0, DRN_RECONFIG, false, false},
		{"condor_drain -c m", 0, 0, true, false},
		{"condor_drain --cancel m", 0, 0, true, false},
		{"condor_drain -verb m", 0, 0, false, true},
		{"condor_drain -debug:D_ALL -deb m", 0, 0, false, false},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r = drain(cases[i].line, &o);
		if (r->status != DRN_GO || o.how_fast != cases[i].how_fast ||
		    o.on_completion != cases[i].on_completion ||
		    o.cancel != cases[i].cancel ||
		    o.verbose != cases[i].verbose)
			fail_msg("%s: status %d how %d completion %d cancel %d "
				 "verbose %d\n%s",
				 cases[i].line, r->status, o.how_fast,
				 o.on_completion, o.cancel, o.verbose, r->err);
		run_free(r);
	}

	r = drain("condor_drain -rea why -check true -start false -p cm m", &o);
	assert_int_equal(r->status, DRN_GO);
	assert_non_null(o.reason);
	assert_non_null(o.check);
	assert_non_null(o.start);
	assert_non_null(o.pool);
	run_free(r);

	r = drain("condor_drain -cancel -req 3 m", &o);
	assert_int_equal(r->status, DRN_GO);
	assert_non_null(o.request_id);
	run_free(r);

	r = drain("condor_drain -ver", &o);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "$CondorVersion: 25."));
	run_free(r);
}

static void test_drain_refused(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		int status;
		const char *err;
	} cases[] = {
		{"condor_drain", 2, "ERROR: must specify one target machine\n"},
		{"condor_drain a b", 2,
		 "ERROR: must specify one target machine\n"},
		/* options end at the machine */
		{"condor_drain m -fast", 2,
		 "ERROR: must specify one target machine\n"},
		{"condor_drain -x m", 2, "ERROR: unexpected argument: -x\n"},
		{"condor_drain -s m", 2, "ERROR: unexpected argument: -s\n"},
		{"condor_drain --canc m", 2,
		 "ERROR: unexpected argument: --canc\n"},
		{"condor_drain -request-id 3 m", 2,
		 "ERROR: -request-id may only be used with -cancel\n"},
		{"condor_drain -cancel -check true m", 2,
		 "ERROR: -check may not be used with -cancel\n"},
		{"condor_drain -cancel -resume-on-completion m", 2,
		 "ERROR: cannot use an -on-completion option with -cancel\n"},
		{"condor_drain -cancel -reason x m", 2,
		 "ERROR: cannot use -reason with -cancel\n"},
		{"condor_drain -check a== m", 2,
		 "ERROR: the -check expression 'a==' is not valid: "},
		{"condor_drain -start ( m", 2,
		 "ERROR: the -start expression '(' is not valid: "},
		{"condor_drain -resume-on-completion -exit-on-completion m", 1,
		 "condor_drain: '-exit-on-completion' conflicts with previous "
		 "use of '-resume-on-completion'\nUsage: condor_drain "},
		{"condor_drain -reason", 1,
		 "condor_drain: '-reason' requires another argument\n"
		 "Usage: condor_drain "},
		{"condor_drain -pool", 1,
		 "condor_drain: '-pool' requires another argument\n"},
		/* HTCondor's condor_drain -help exits 1 */
		{"condor_drain -help", 1, "Usage: condor_drain [OPTIONS] "
					  "machine\n"},
		{"condor_drain -h", 1, "Usage: condor_drain [OPTIONS] "},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct drn_opts o;
		struct run *r = drain(cases[i].line, &o);
		if (r->status != cases[i].status ||
		    strncmp(r->err, cases[i].err, strlen(cases[i].err)) != 0)
			fail_msg("%s: status %d, stderr:\n%s", cases[i].line,
				 r->status, r->err);
		assert_int_equal(r->nout, 0);
		run_free(r);
	}
	assert_string_equal(drn_completion_flag(DRN_RECONFIG),
			    "-reconfig-on-completion");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dash_prefix),
		cmocka_unit_test(test_daemon_name),
		cmocka_unit_test(test_vacate_targets),
		cmocka_unit_test(test_vacate_refused),
		cmocka_unit_test(test_vacate_version),
		cmocka_unit_test(test_drain_flags),
		cmocka_unit_test(test_drain_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
