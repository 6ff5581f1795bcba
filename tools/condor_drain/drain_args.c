/*
 * drain_args.c: condor_drain's command line, after HTCondor's drain.cpp
 * parseArgv(): options come before the one machine, each may be
 * abbreviated down to the length HTCondor allows, and they are tried in
 * its order, since that order decides what "-r" or "-re" means.
 */
#include <stdlib.h>
#include <string.h>

#include "classad.h"
#include "drain.h"
#include "ks_version.h"
#include "sdt.h"

/* The version kestrel's daemons advertise (ks_version.h). */
#define DRN_VERSION KS_CONDOR_VERSION_LINES

/* HTCondor's drain usage(): always on stderr, always exit status 1,
 * even for -help. */
static int usage(const char *prog, FILE *err)
{
	fprintf(err,
		"Usage: %s [OPTIONS] machine\n"
		"\nOPTIONS:\n"
		"-cancel           End draining (all of it, or -request-id's).\n"
		"-debug            Print debugging messages on the terminal\n"
		"-graceful         (default) Jobs keep their retirement and "
		"vacate time.\n"
		"-quick            Jobs keep their vacate time, not their "
		"retirement time.\n"
		"-fast             Jobs are killed at once.\n"
		"-reason <text>    The reason the machine advertises while "
		"draining.\n"
		"-resume-on-completion    Once drained, take jobs again.\n"
		"-exit-on-completion      Once drained, the STARTD exits for "
		"good.\n"
		"-restart-on-completion   Once drained, the STARTD restarts.\n"
		"-reconfig-on-completion  Once drained, the STARTD reconfigures "
		"and takes jobs again.\n"
		"-request-id <id>  With -cancel: the request to end.\n"
		"-check <expr>     Drain only if <expr> is true on every slot.\n"
		"-start <expr>     The START expression while draining.\n",
		prog);
	return 1;
}

static int another(const char *prog, const char *opt, FILE *err)
{
	fprintf(err, "%s: '%s' requires another argument\n", prog, opt);
	return usage(prog, err);
}

const char *drn_completion_flag(int on_completion)
{
	switch (on_completion) {
	case DRN_RESUME:
		return "-resume-on-completion";
	case DRN_EXIT:
		return "-exit-on-completion";
	case DRN_RESTART:
		return "-restart-on-completion";
	case DRN_RECONFIG:
		return "-reconfig-on-completion";
	default:
		return "on-completion";
	}
}

/* A second -*-on-completion is refused, naming the first. */
static int completion(struct drn_opts *o, const char *opt, int which,
		      FILE *err)
{
	if (o->on_completion) {
		fprintf(err, "%s: '%s' conflicts with previous use of '%s'\n",
			o->prog, opt, drn_completion_flag(o->on_completion));
		return usage(o->prog, err);
	}
	o->on_completion = which;
	return DRN_GO;
}

/* HTCondor inserts -check and -start unchecked and drops one that does
 * not parse, which would drain without the check asked for: refuse it
 * here instead. */
static int bad_expr(const char *opt, const char *text, FILE *err)
{
	struct ks_err e = {0};
	classad_expr *x = classad_parse_expr(text, strlen(text), &e);
	if (x) {
		classad_expr_free(x);
		return DRN_GO;
	}
	fprintf(err, "ERROR: the %s expression '%s' is not valid: %s\n", opt,
		text, e.msg);
	return 2;
}

int drn_parse(int argc, char **argv, struct drn_opts *o, FILE *out,
	      FILE *err)
{
	*o = (struct drn_opts){0};
	o->prog = argc > 0 ? argv[0] : "condor_drain";
	const char *prog = o->prog;
	int i = 1, st;
	for (; i < argc; i++) {
		const char *a = argv[i];
		bool has = i + 1 < argc;
		if (sdt_dash_prefix(a, "help", 1)) {
			return usage(prog, err);
		} else if (sdt_dash_prefix(a, "version", 1)) {
			fputs(DRN_VERSION, out);
			return 0;
		} else if (sdt_dash_colon_prefix(a, "debug", 3, NULL)) {
			o->debug = true;
		} else if (sdt_dash_prefix(a, "verbose", 4)) {
			o->verbose = true;
		} else if (sdt_dash_prefix(a, "pool", 1)) {
			if (!has)
				return another(prog, a, err);
			o->pool = argv[++i];
		} else if (sdt_dash_prefix(a, "cancel", 1)) {
			o->cancel = true;
		} else if (sdt_dash_prefix(a, "fast", 1)) {
			o->how_fast = DRN_FAST;
		} else if (sdt_dash_prefix(a, "quick", 1)) {
			o->how_fast = DRN_QUICK;
		} else if (sdt_dash_prefix(a, "graceful", 1)) {
			o->how_fast = DRN_GRACEFUL;
		} else if (sdt_dash_prefix(a, "resume-on-completion", 1)) {
			if ((st = completion(o, a, DRN_RESUME, err)) != DRN_GO)
				return st;
		} else if (sdt_dash_prefix(a, "exit-on-completion", 2)) {
			if ((st = completion(o, a, DRN_EXIT, err)) != DRN_GO)
				return st;
		} else if (sdt_dash_prefix(a, "restart-on-completion", 4)) {
			if ((st = completion(o, a, DRN_RESTART, err)) != DRN_GO)
				return st;
		} else if (sdt_dash_prefix(a, "reconfig-on-completion", 3)) {
			if ((st = completion(o, a, DRN_RECONFIG, err)) != DRN_GO)
				return st;
		} else if (sdt_dash_prefix(a, "reason", 3)) {
			if (!has)
				return another(prog, a, err);
			o->reason = argv[++i];
		} else if (sdt_dash_prefix(a, "request-id", 3)) {
			if (!has)
				return another(prog, a, err);
			o->request_id = argv[++i];
		} else if (sdt_dash_prefix(a, "check", 2)) {
			if (!has)
				return another(prog, a, err);
			o->check = argv[++i];
		} else if (sdt_dash_prefix(a, "start", 5)) {
			if (!has)
				return another(prog, a, err);
			o->start = argv[++i];
		} else if (a[0] != '-') {
			break; /* the machine: the options end here */
		} else {
			fprintf(err, "ERROR: unexpected argument: %s\n", a);
			return 2;
		}
	}
	if (i != argc - 1) {
		fprintf(err, "ERROR: must specify one target machine\n");
		return 2;
	}
	o->target = argv[i];
	if (!o->cancel && o->request_id) {
		fprintf(err, "ERROR: -request-id may only be used with "
			     "-cancel\n");
		return 2;
	}
	if (o->cancel) {
		if (o->check) {
			fprintf(err, "ERROR: -check may not be used with "
				     "-cancel\n");
			return 2;
		}
		if (o->on_completion) {
			fprintf(err, "ERROR: cannot use an -on-completion "
				     "option with -cancel\n");
			return 2;
		}
		if (o->reason) {
			fprintf(err, "ERROR: cannot use -reason with -cancel\n");
			return 2;
		}
	}
	if (o->check && (st = bad_expr("-check", o->check, err)) != DRN_GO)
		return st;
	if (o->start && (st = bad_expr("-start", o->start, err)) != DRN_GO)
		return st;
	return DRN_GO;
}
