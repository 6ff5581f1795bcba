/*
 * test_who.c: condor_who's command line and its reading of a log
 * directory, in-process (the tool against real daemons: who_test.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "who.h"

/* ---- the command line -------------------------------------------------- */

/* Parses the arguments (NULL-terminated); returns who_parse()'s answer,
 * the options in *o and what went to err in errbuf.  The options borrow
 * the argument vector, so it outlives the call (until the next). */
static int parse(struct who_opts *o, char *errbuf, size_t size, ...)
{
	static const char *argv[32];
	int argc = 1;
	argv[0] = "condor_who";
	va_list ap;
	va_start(ap, size);
	for (const char *a; (a = va_arg(ap, const char *)) && argc < 31;)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	FILE *err = fmemopen(errbuf, size, "w");
	memset(errbuf, 0, size);
	int rc = who_parse(argc, argv, o, err);
	fclose(err);
	return rc;
}

static void test_abbreviations(void **state)
{
	(void)state;
	struct who_opts o;
	char e[4096];
	assert_int_equal(parse(&o, e, sizeof(e), "-l", NULL), WHO_GO);
	assert_true(o.dash_long);
	who_opts_free(&o);
	assert_int_equal(parse(&o, e, sizeof(e), "-lo", "-dae", NULL), WHO_GO);
	assert_true(o.dash_long);
	assert_true(o.daemons);
	who_opts_free(&o);
	assert_int_equal(parse(&o, e, sizeof(e), "-log", "/x", "-addr", "<1.2.3.4:5>",
			       "-verb", NULL),
			 WHO_GO);
	assert_int_equal(o.nlogdirs, 1);
	assert_string_equal(o.logdirs[0], "/x");
	assert_int_equal(o.naddrs, 1);
	assert_true(o.verbose);
	who_opts_free(&o);
	assert_int_equal(parse(&o, e, sizeof(e), "-wide:120", NULL), WHO_GO);
	assert_false(o.wide);
	assert_int_equal(o.forced_width, 120);
	who_opts_free(&o);
	assert_int_equal(parse(&o, e, sizeof(e), "-w", NULL), WHO_GO);
	assert_true(o.wide);
	who_opts_free(&o);
	/* too short, or spelled with two dashes */
	assert_int_equal(parse(&o, e, sizeof(e), "-v", NULL), 1);
	assert_string_equal(e, "Error: -v is not a valid argument\n");
	who_opts_free(&o);
	assert_int_equal(parse(&o, e, sizeof(e), "--long", NULL), 1);
	assert_string_equal(e, "Error: --long is not a valid argument\n");
	who_opts_free(&o);
	/* -debug takes a following D_ list with it */
	assert_int_equal(parse(&o, e, sizeof(e), "-debug", "D_FULLDEBUG", "-l",
			       NULL),
			 WHO_GO);
	assert_true(o.debug);
	assert_true(o.dash_long);
	who_opts_free(&o);
}

static void test_af(void **state)
{
	(void)state;
	struct who_opts o;
	char e[4096];
	assert_int_equal(parse(&o, e, sizeof(e), "-af:h", "Name", "#PID",
			       "JobId", "-long", NULL),
			 WHO_GO);
	assert_int_equal(o.nitems, 1);
	assert_true(o.items[0].af);
	assert_string_equal(o.items[0].opts, "h");
	assert_int_equal(o.items[0].argc, 3);
	assert_string_equal(o.items[0].argv[1], "#PID");
	assert_true(o.dash_long);
	who_opts_free(&o);
	/* an unknown "#NAME" is no expression either */
	assert_int_equal(parse(&o, e, sizeof(e), "-af", "#NOPE", NULL), 1);
	assert_memory_equal(e, "ERROR: could not parse -af option\n\n", 35);
	who_opts_free(&o);
	assert_int_equal(parse(&o, e, sizeof(e), "-format", "%d", "JobPid",
			   "-constraint", "SlotID > 1", "-lim", "3", NULL),
			 WHO_GO);
	assert_int_equal(o.nitems, 1);
	assert_string_equal(o.items[0].expr, "JobPid");
	assert_int_equal(o.nconstraints, 1);
	assert_int_equal(o.limit, 3);
	who_opts_free(&o);
}

static void test_refused(void **state)
{
	(void)state;
	struct who_opts o;
	char e[4096];
	assert_int_equal(parse(&o, e, sizeof(e), "-allpids", NULL), 1);
	assert_string_equal(e, "Error: -allpids is not supported by kestrel's "
			       "condor_who; use -address or -logdir\n");
	who_opts_free(&o);
	assert_int_equal(parse(&o, e, sizeof(e), "-snap:2", NULL), 1);
	assert_string_equal(e, "Error: -snap:2 is not supported by kestrel's "
			       "condor_who\n");
	who_opts_free(&o);
	assert_int_equal(parse(&o, e, sizeof(e), "-h", NULL), 1);
	assert_memory_equal(e, "Usage: condor_who ", 18);
	who_opts_free(&o);
}

/* ---- the log directory ------------------------------------------------- */

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void rmtree(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_logdir(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_who.XXXXXX";
	assert_non_null(mkdtemp(dir));
	/* an earlier life before the last banner counts for nothing */
	put(dir, "MasterLog",
	    "01/01/26 10:00:00 ** condor_master (kestrel) STARTING UP\n"
	    "01/01/26 10:00:00 ** PID = 100\n"
	    "01/01/26 10:00:00 Started DaemonCore process \"/s/condor_schedd\", "
	    "pid and pgroup = 101\n"
	    "01/01/26 11:00:00 ******************************************\n"
	    "01/01/26 11:00:00 ** condor_master (kestrel) STARTING UP\n"
	    "01/01/26 11:00:00 ** PID = 200\n"
	    "01/01/26 11:00:00 ** MASTER listening on <127.0.0.1:7>\n"
	    "01/01/26 11:00:00 Started DaemonCore process "
	    "\"/s/condor_collector\", pid and pgroup = 201\n"
	    "01/01/26 11:00:00 Started DaemonCore process \"/s/condor_startd\", "
	    "pid and pgroup = 202\n"
	    "01/01/26 11:00:00 Started DaemonCore process "
	    "\"/s/condor_negotiator\", pid and pgroup = 203\n"
	    "01/01/26 11:00:01 The STARTD (pid 202) exited with status 4\n"
	    "01/01/26 11:00:02 restarting STARTD in 10 seconds\n"
	    "01/01/26 11:00:12 Started DaemonCore process \"/s/condor_startd\", "
	    "pid and pgroup = 204\n"
	    "01/01/26 11:00:13 The NEGOTIATOR (pid 203) died on signal 9\n"
	    "01/01/26 11:00:14 The COLLECTOR (pid 201) exited with status 0\n");
	put(dir, "StartLog",
	    "x ** condor_startd (kestrel) STARTING UP\n"
	    "x ** STARTD listening on <127.0.0.1:8?sock=startd_8>\n");
	put(dir, ".startd_address", "<127.0.0.1:9?sock=s>\n$CondorVersion$\n");
	put(dir, "CollectorLog", "");
	put(dir, "CollectorLog.old", "");
	put(dir, "MatchLog", "");
	put(dir, "NegotiatorLog", "");
	put(dir, "SchedLog", "");
	put(dir, "StarterLog.slot1", "");
	put(dir, "StarterLog.slot1.old", "");
	put(dir, ".startd_claim_id.slot1", "");

	struct who_logdir l;
	who_logdir_scan(dir, true, &l);
	const char *order[] = {"Collector", "Master", "Negotiator", "Schedd",
			       "Slot1", "Startd"};
	assert_int_equal(l.n, 6);
	for (size_t i = 0; i < 6; i++)
		assert_string_equal(l.d[i].name, order[i]);
	struct who_daemon *d = who_logdir_find(&l, "Master");
	assert_string_equal(d->pid, "200");
	assert_string_equal(d->addr, "<127.0.0.1:7>");
	assert_string_equal(d->exit_code, "");
	d = who_logdir_find(&l, "Startd");
	/* the restart's pid; the address file before the log's */
	assert_string_equal(d->pid, "204");
	assert_string_equal(d->exit_code, "");
	assert_string_equal(d->addr, "<127.0.0.1:9?sock=s>");
	assert_string_equal(d->log, "StartLog");
	d = who_logdir_find(&l, "Collector");
	assert_string_equal(d->pid, "201");
	assert_string_equal(d->exit_code, "0");
	assert_string_equal(d->log_old, "CollectorLog.old");
	d = who_logdir_find(&l, "Negotiator");
	assert_string_equal(d->exit_code, "sig9");
	assert_string_equal(d->log, "NegotiatorLog");
	/* a daemon the master did not start in its last life has no pid */
	assert_string_equal(who_logdir_find(&l, "Schedd")->pid, "");
	d = who_logdir_find(&l, "Slot1");
	assert_string_equal(d->log, "StarterLog.slot1");
	assert_string_equal(d->log_old, "StarterLog.slot1.old");
	who_logdir_free(&l);

	/* the master's own end, as kestrel's and HTCondor's master log it */
	put(dir, "MasterLog",
	    "x ** condor_master (kestrel) STARTING UP\n"
	    "x ** PID = 300\n"
	    "x **** condor_master (kestrel) pid 300 EXITING WITH STATUS 0\n");
	who_logdir_scan(dir, false, &l);
	d = who_logdir_find(&l, "Master");
	assert_string_equal(d->pid, "300");
	assert_string_equal(d->exit_code, "0");
	who_logdir_free(&l);
	put(dir, "MasterLog",
	    "x ** condor_master (CONDOR_MASTER) STARTING UP\n"
	    "x **** condor_master (condor_MASTER) pid 400 EXITING WITH "
	    "STATUS 3\n");
	who_logdir_scan(dir, false, &l);
	d = who_logdir_find(&l, "Master");
	assert_string_equal(d->pid, "400");
	assert_string_equal(d->exit_code, "3");
	who_logdir_free(&l);
	rmtree(dir);
}

static void test_subsys(void **state)
{
	(void)state;
	char buf[64];
	who_daemon_subsys("Startd", buf, sizeof(buf));
	assert_string_equal(buf, "STARTD");
	who_daemon_subsys("SharedPort", buf, sizeof(buf));
	assert_string_equal(buf, "SHARED_PORT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abbreviations),
		cmocka_unit_test(test_af),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_logdir),
		cmocka_unit_test(test_subsys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
