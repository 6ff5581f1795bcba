/*
 * args.c: the command line of condor_rm, condor_hold and
 * condor_release, read as HTCondor's rm.cpp reads it: "C.P" arguments
 * are job ids, "C" a cluster and anything else a user, these and
 * -constraint become one constraint, -all stands alone; the messages
 * and exit statuses are HTCondor's.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "act.h"
#include "ks_addr.h"
#include "ks_mem.h"
#include "tfmt.h"

bool act_mode_of(const char *prog, enum act_mode *mode)
{
	const char *base = strrchr(prog, '/');
	base = base ? base + 1 : prog;
	const char *us = strchr(base, '_');
	if (!us)
		return false;
	if (strncasecmp(us, "_hold", 5) == 0)
		*mode = ACT_HOLD;
	else if (strncasecmp(us, "_release", 8) == 0)
		*mode = ACT_RELEASE;
	else if (strncasecmp(us, "_rm", 3) == 0)
		*mode = ACT_REMOVE;
	else
		return false;
	return true;
}

void act_usage(FILE *err, const struct act_opts *o)
{
	const char *word = o->mode == ACT_HOLD ? "Hold"
			   : o->mode == ACT_RELEASE ? "Release" : "Remove";
	bool rm = o->mode == ACT_REMOVE || o->mode == ACT_REMOVE_X;
	fprintf(err, "Usage: %s [options] [constraints]\n", o->prog);
	fputs(" where [options] is zero or more of:\n"
	      "  -help               Display this message and exit\n"
	      "  -version            Display version information and exit\n"
	      "  -long               Display the schedd's whole result ad\n"
	      "  -totals             Display how many jobs succeeded and failed\n"
	      "  -name schedd_name   Act on the queue of this schedd\n"
	      "  -pool hostname      Find the schedd in this pool's collector\n"
	      "  -addr <ip:port>     Connect to the schedd at this address\n",
	      err);
	if (rm)
		fputs("  -reason reason      Set the jobs' RemoveReason\n"
		      "  -forcex             Remove jobs already being removed (the X state)\n"
		      "                      at once, without waiting for their execute side\n",
		      err);
	else if (o->mode == ACT_RELEASE)
		fputs("  -reason reason      Set the jobs' ReleaseReason\n", err);
	else
		fputs("  -reason reason      Set the jobs' HoldReason\n"
		      "  -subcode number     Set the jobs' HoldReasonSubCode\n",
		      err);
	fputs(" and where [constraints] is one of:\n", err);
	fprintf(err, "  cluster.proc        %s the given job\n", word);
	fprintf(err, "  cluster             %s the given cluster of jobs\n", word);
	fprintf(err, "  user                %s all jobs owned by user\n", word);
	fprintf(err, "  -constraint expr    %s all jobs matching the boolean expression\n",
		word);
	fprintf(err, "  -all                %s all jobs (cannot be used with other constraints)\n",
		word);
	fprintf(err, "  -held               %s only held jobs (may be combined with the above constraints)\n",
		word);
}

void act_opts_free(struct act_opts *o)
{
	qt_idlist_free(&o->ids);
	free(o->constraint);
	free(o->usercluster);
	memset(o, 0, sizeof *o);
}

/* HTCondor's addConstraint(): the first stands alone, a second wraps
 * both in parentheses and the whole becomes "complex". */
static void act_add_constraint(struct act_opts *o, const char *c,
			       enum act_ctype t)
{
	if (o->ctype == ACT_CT_NONE || o->ctype == ACT_CT_ALL) {
		free(o->constraint);
		o->constraint = ks_xstrdup(c);
		o->ctype = t;
		return;
	}
	struct classad_buf b = {0};
	if (o->ctype == ACT_CT_COMPLEX)
		classad_buf_printf(&b, "%s && (%s)", o->constraint, c);
	else
		classad_buf_printf(&b, "(%s) && (%s)", o->constraint, c);
	free(o->constraint);
	o->constraint = b.data;
	o->ctype = ACT_CT_COMPLEX;
}

/* Users and clusters are ORed together. */
static void act_add_usercluster(struct act_opts *o, const char *c,
				enum act_ctype t)
{
	if (!o->usercluster) {
		o->usercluster = ks_xstrdup(c);
		o->uctype = t;
		return;
	}
	struct classad_buf b = {0};
	classad_buf_printf(&b, "%s || %s", o->usercluster, c);
	free(o->usercluster);
	o->usercluster = b.data;
	o->uctype = ACT_CT_COMPLEX;
}

static void act_arg(struct act_opts *o, const char *a, FILE *err)
{
	int c, p;
	char buf[128];
	switch (qt_act_id(a, &c, &p)) {
	case QT_ARG_CLUSTER:
		snprintf(buf, sizeof buf, "ClusterId == %d", c);
		act_add_usercluster(o, buf, ACT_CT_CLUSTER);
		break;
	case QT_ARG_JOB:
		qt_idlist_add(&o->ids, c, p);
		break;
	case QT_ARG_BAD_CLUSTER:
		fprintf(err, "Invalid cluster # from %s.\n", a);
		o->bad_arg = true;
		break;
	case QT_ARG_BAD_PROC:
		fprintf(err, "Invalid proc # from %s.\n", a);
		o->bad_arg = true;
		break;
	case QT_ARG_USER: {
		char *q = qt_quote(a);
		struct classad_buf b = {0};
		classad_buf_printf(&b, "Owner == %s", q);
		act_add_usercluster(o, b.data, ACT_CT_USER);
		tf_buf_free(&b);
		free(q);
		break;
	}
	}
}

static int act_needs(const struct act_opts *o, const char *flag, FILE *err)
{
	fprintf(err, "%s: %s requires another argument\n", o->prog, flag);
	return 1;
}

int act_parse_args(int argc, const char *const *argv, struct act_opts *o,
		   FILE *out, FILE *err)
{
	enum act_mode mode = o->mode;
	const char *prog = o->prog;
	memset(o, 0, sizeof *o);
	o->mode = mode;
	o->prog = prog;
	if (argc < 2) {
		fprintf(err, "You did not specify any jobs\n");
		act_usage(err, o);
		return 1;
	}
	const char *c;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool has = i + 1 < argc;
		if (a[0] != '-') {
			if (o->ctype == ACT_CT_ALL) {
				act_usage(err, o);
				return 1;
			}
			act_arg(o, a, err);
		} else if (tf_flag(a, "debug", 1, &c)) {
			/* kestrel's tools log nothing to the console */
		} else if (tf_flag(a, "long", 1, NULL)) {
			o->dash_long = true;
		} else if (tf_flag(a, "totals", 3, NULL)) {
			o->totals = true;
		} else if (tf_flag(a, "constraint", 1, NULL)) {
			if (!has || argv[i + 1][0] == '-')
				return act_needs(o, "-constraint", err);
			act_add_constraint(o, argv[++i], ACT_CT_SIMPLE);
		} else if (tf_flag(a, "all", 1, NULL)) {
			if (o->ctype != ACT_CT_NONE || o->usercluster) {
				fprintf(err, "%s: can't mix -all with other constraints\n",
					o->prog);
				return 1;
			}
			act_add_constraint(o, "ClusterId >= 0", ACT_CT_ALL);
		} else if (tf_flag(a, "held", 3, NULL) ||
			   tf_flag(a, "hold", 3, NULL)) {
			o->held = true;
		} else if (tf_flag(a, "addr", 2, NULL)) {
			if (!has || argv[i + 1][0] == '-')
				return act_needs(o, "-addr", err);
			struct ks_addr ad;
			if (argv[i + 1][0] != '<' ||
			    ks_addr_parse(argv[i + 1], 0, &ad, NULL) != 0) {
				fprintf(err, "%s: \"%s\" is not a valid address\n",
					o->prog, argv[i + 1]);
				fprintf(err, "Should be of the form <ip.address.here:port>\n");
				fprintf(err, "For example: <123.456.789.123:6789>\n");
				return 1;
			}
			o->addr = argv[++i];
		} else if (tf_flag(a, "reason", 1, NULL)) {
			if (!has)
				return act_needs(o, "-reason", err);
			o->reason = argv[++i];
		} else if (tf_flag(a, "subcode", 1, NULL)) {
			if (!has)
				return act_needs(o, "-subcode", err);
			char *end;
			const char *s = argv[++i];
			strtol(s, &end, 10);
			if (end == s || *end) {
				fprintf(err, "Invalid -subcode %s!\n", s);
				return 1;
			}
			o->subcode = s;
		} else if (tf_flag(a, "forcex",
				   o->mode == ACT_REMOVE ? 1 : 2, NULL)) {
			if (o->mode != ACT_REMOVE && o->mode != ACT_REMOVE_X) {
				fprintf(err, "-forcex is only valid with condor_rm\n");
				act_usage(err, o);
				return 1;
			}
			o->mode = ACT_REMOVE_X;
		} else if (tf_flag(a, "name", 1, NULL)) {
			if (!has)
				return act_needs(o, "-name", err);
			o->name = argv[++i];
		} else if (tf_flag(a, "pool", 1, NULL)) {
			if (!has)
				return act_needs(o, "-pool", err);
			o->pool = argv[++i];
		} else if (tf_flag(a, "version", 1, NULL)) {
			fputs(QT_VERSION, out);
			return 0;
		} else if (tf_flag(a, "help", 1, NULL)) {
			act_usage(err, o);
			return 0;
		} else {
			fprintf(err, "Unrecognized option: %s\n", a);
			act_usage(err, o);
			return 1;
		}
	}
	if (o->ctype == ACT_CT_NONE && !o->usercluster && o->ids.n == 0 &&
	    !o->held) {
		fprintf(err, "You did not specify any jobs\n");
		act_usage(err, o);
		return 1;
	}
	/* with -held every job id becomes a constraint, so that the held
	 * filter applies to it too */
	if (o->held && o->ids.n) {
		for (size_t i = 0; i < o->ids.n; i++) {
			char buf[128];
			snprintf(buf, sizeof buf,
				 "(ClusterId == %d && ProcId == %d)",
				 o->ids.v[i].cluster, o->ids.v[i].proc);
			act_add_usercluster(o, buf, ACT_CT_COMPLEX);
			o->uctype = ACT_CT_COMPLEX;
		}
		qt_idlist_free(&o->ids);
	}
	return -1;
}

char *act_constraint(const struct act_opts *o, char **what)
{
	struct act_opts t = *o;
	/* the copy shares nothing it frees: the strings are duplicated */
	t.constraint = o->constraint ? ks_xstrdup(o->constraint) : NULL;
	if (o->usercluster)
		act_add_constraint(&t, o->usercluster, o->uctype);
	*what = NULL;
	if (t.ctype == ACT_CT_NONE && !o->held) {
		free(t.constraint);
		return NULL;
	}
	struct classad_buf w = {0};
	const char *c = t.constraint ? t.constraint : "";
	switch (t.ctype) {
	case ACT_CT_USER:
	case ACT_CT_CLUSTER: {
		const char *eq = strstr(c, " == ");
		classad_buf_printf(&w, t.ctype == ACT_CT_USER ? " of user %s"
							       : " in cluster %s",
				   eq ? eq + 4 : c);
		break;
	}
	case ACT_CT_NONE:
	case ACT_CT_ALL:
		break;
	default:
		classad_buf_printf(&w, " matching constraint (%s)", c);
		break;
	}
	*what = w.data ? w.data : ks_xstrdup("");
	struct classad_buf r = {0};
	if (o->held) {
		if (t.constraint && *t.constraint)
			classad_buf_printf(&r, "%s && (JobStatus == 5)",
					   t.constraint);
		else
			tf_buf_add(&r, "JobStatus == 5");
	} else {
		tf_buf_add(&r, c);
	}
	free(t.constraint);
	return r.data;
}
