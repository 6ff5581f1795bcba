/*
 * run.c: condor_rm/hold/release once the arguments are read: find the
 * schedd, act on the job ids (one message per job), then on the
 * constraint (one message for all), then, after a release that went
 * well, ask the schedd to reschedule, as HTCondor's tools do.
 */
#include <stdlib.h>
#include <string.h>

#include "act.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "tfmt.h"

/* The command ad of ACT_ON_JOBS; ids or constraint. */
static classad *act_command(const struct act_opts *o, const char *ids,
			    const char *constraint, struct ks_err *err)
{
	classad *ad = classad_new();
	classad_insert_string(ad, "JobAction", act_action_name(o->mode));
	if (ids)
		classad_insert_string(ad, "ActionIds", ids);
	if (constraint &&
	    classad_insert_text(ad, "ActionConstraint", constraint, err)) {
		classad_free(ad);
		return NULL;
	}
	if (o->reason)
		classad_insert_string(ad, "Reason", o->reason);
	if (o->mode == ACT_HOLD && o->subcode)
		classad_insert_text(ad, "HoldReasonSubCode", o->subcode, NULL);
	return ad;
}

/* One ACT_ON_JOBS; *result new (classad_free()) or NULL with the reason
 * in err. */
static int act_send(ks_conn *c, const struct act_opts *o, const char *ids,
		    const char *constraint, classad **result, struct ks_err *err)
{
	*result = NULL;
	classad *cmd = act_command(o, ids, constraint, err);
	if (!cmd)
		return KS_EPARSE;
	classad **reply = NULL;
	size_t n = 0;
	int rc = qt_call(c, KS_ACT_ON_JOBS, &cmd, 1, &reply, &n, err);
	classad_free(cmd);
	if (rc == 0 && n == 0)
		rc = ks_err_set(err, KS_EPROTO, 0, 0, 0,
				"the schedd's answer has no result ad");
	if (rc == 0) {
		*result = reply[0];
		reply[0] = NULL;
	}
	ks_ads_free(reply, n);
	return rc;
}

static void act_show(FILE *out, const struct act_opts *o, const classad *r)
{
	if (o->dash_long) {
		char *text = classad_unparse(r, CLASSAD_FMT_OLD);
		fprintf(out, "%s\n", text);
		free(text);
	} else if (o->totals) {
		act_print_totals(out, r);
	}
}

static bool act_by_ids(ks_conn *c, const struct act_opts *o, FILE *out,
		       FILE *err)
{
	char *ids = qt_idlist_text(&o->ids);
	classad *r = NULL;
	struct ks_err e = {0};
	bool had_error = false;
	if (act_send(c, o, ids, NULL, &r, &e) != 0) {
		fprintf(err, "%s\n", e.msg);
		had_error = true;
	} else {
		act_show(out, o, r);
		act_print_id_results(out, err, o->mode, r, &o->ids, &had_error);
	}
	classad_free(r);
	free(ids);
	return had_error;
}

static bool act_by_constraint(ks_conn *c, const struct act_opts *o,
			      FILE *out, FILE *err)
{
	char *what = NULL;
	char *constraint = act_constraint(o, &what);
	if (!constraint)
		return false;
	const char *jobs = o->held ? "held jobs" : "jobs";
	classad *r = NULL;
	struct ks_err e = {0};
	bool had_error = false, done = false;
	const char *why = "";
	if (act_send(c, o, NULL, constraint, &r, &e) != 0) {
		had_error = true;
		why = e.msg;
	} else {
		act_show(out, o, r);
		done = act_succeeded(r);
		long long total;
		if (!done && tf_ad_int(r, "TotalJobAds", &total) && total == 0) {
			/* nothing to act on is not an error */
			snprintf(e.msg, sizeof e.msg,
				 "%s:0:There are no jobs in the queue", o->prog);
			why = e.msg;
		} else if (!done) {
			had_error = true;
		}
	}
	if (done) {
		fprintf(out, "All %s%s have been %s\n", jobs, what,
			act_word(o->mode, true));
	} else {
		fprintf(err, "%s\n", why);
		if (had_error)
			fprintf(err, "Couldn't find/%s all %s%s\n",
				act_word(o->mode, false), jobs, what);
	}
	classad_free(r);
	free(constraint);
	free(what);
	return had_error;
}

/* The schedd's address: -addr, or the collector's. */
static int act_locate(const struct act_opts *o, const ks_config *cfg,
		      struct qt_schedd *s, FILE *err)
{
	memset(s, 0, sizeof *s);
	if (o->addr) {
		s->addr = ks_xstrdup(o->addr);
		s->name = ks_xstrdup(o->addr);
		return 0;
	}
	struct ks_err e = {0};
	int rc = qt_schedd_find(cfg, o->pool, o->name, s, &e);
	if (rc == 0)
		return 0;
	if (o->name && rc == KS_ENOTFOUND)
		fprintf(err, "Error: cannot get address of schedd %s\n", o->name);
	else
		fprintf(err, "%s: %s\n", o->prog, e.msg);
	return 1;
}

static bool act_forcex_allowed(const ks_config *cfg, FILE *err)
{
	char *v = ks_config_get(cfg, "ALLOW_FORCE_RM", NULL);
	if (!v)
		return true;
	classad_expr *e = classad_parse_expr(v, strlen(v), NULL);
	free(v);
	if (!e) {
		fprintf(err, "The configuration setting ALLOW_FORCE_RM may be invalid.  Treating as TRUE.\n");
		return true;
	}
	classad_value val = CLASSAD_VALUE_INIT;
	classad_eval_expr(NULL, e, NULL, &val);
	bool ok = true;
	if (val.type == CLASSAD_BOOLEAN)
		ok = val.u.b;
	classad_value_clear(&val);
	classad_expr_free(e);
	return ok;
}

int act_main(int argc, const char *const *argv, FILE *out, FILE *err)
{
	struct act_opts o = {0};
	o.prog = argc > 0 && argv[0] ? argv[0] : "condor_rm";
	const char *base = strrchr(o.prog, '/');
	o.prog = base ? base + 1 : o.prog;
	if (!act_mode_of(o.prog, &o.mode)) {
		fprintf(err, "Unrecognized command name, \"%s\"\n", o.prog);
		act_usage(err, &o);
		return 1;
	}
	int rc = act_parse_args(argc, argv, &o, out, err);
	if (rc >= 0) {
		act_opts_free(&o);
		return rc;
	}
	struct ks_err e = {0};
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &e);
	if (!cfg) {
		fprintf(err, "ERROR: %s\n", e.msg);
		act_opts_free(&o);
		return 1;
	}
	struct qt_schedd s;
	if (act_locate(&o, cfg, &s, err)) {
		ks_config_free(cfg);
		act_opts_free(&o);
		return 1;
	}
	if (o.mode == ACT_REMOVE_X && !act_forcex_allowed(cfg, err)) {
		fprintf(err, "Remove aborted. condor_rm -forcex has been disabled by the administrator.\n");
		qt_schedd_free(&s);
		ks_config_free(cfg);
		act_opts_free(&o);
		return 1;
	}
	ks_conn *c = NULL;
	bool had_error = o.bad_arg;
	if (ks_conn_open(cfg, s.addr, 0, &c, &e) != 0) {
		fprintf(err, "%s: %s\n", o.prog, e.msg);
		had_error = true;
	} else {
		if (o.ids.n) {
			if (o.constraint)
				fprintf(err, "Warning, -constraint is ignored for fully qualified job ids\n");
			had_error |= act_by_ids(c, &o, out, err);
		}
		had_error |= act_by_constraint(c, &o, out, err);
		if (o.mode == ACT_RELEASE && !had_error) {
			classad **reply = NULL;
			size_t n = 0;
			if (qt_call(c, KS_RESCHEDULE, NULL, 0, &reply, &n, &e) != 0)
				fprintf(err, "%s\n", e.msg);
			ks_ads_free(reply, n);
		}
	}
	ks_conn_close(c);
	qt_schedd_free(&s);
	ks_config_free(cfg);
	act_opts_free(&o);
	return had_error ? 1 : 0;
}
