/*
 * commands.c: what condor_negotiator answers besides the commands every
 * daemon serves (docs/schedd.md, "Negotiator commands"): RESCHEDULE and
 * the accountant's commands condor_userprio sends.
 */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "ks_commands.h"
#include "ks_wire.h"
#include "negotiator.h"

static char *name_of(const struct ks_request *req)
{
	char *s = NULL;
	if (req->n && classad_eval_string(req->ads[0], "Name", NULL, &s) &&
	    *s)
		return s;
	free(s);
	return NULL;
}

static void reply_ok(struct ks_request *req)
{
	ks_reply(req, KS_REPLY_OK, NULL, 0, false);
}

/* As HTCondor's: one cycle for any number of RESCHEDULEs that come
 * before it starts; the cycle timer keeps NEGOTIATOR_CYCLE_DELAY and
 * NEGOTIATOR_MIN_INTERVAL. */
void ng_cmd_reschedule(ks_daemon *d, struct ks_request *req)
{
	struct negotiator *ng = d->ctx;
	reply_ok(req);
	if (ng->reschedule)
		return;
	ng->reschedule = true;
	ks_log_printf(d->log, KS_D_FULLDEBUG, "RESCHEDULE from %s",
		      req->identity);
	ng_schedule(d, 0);
}

void ng_cmd_get_priority(ks_daemon *d, struct ks_request *req)
{
	struct negotiator *ng = d->ctx;
	/* GET_PRIORITY_ROLLUP: groups count their subgroups' usage */
	classad *ad = ng_acct_report_rollup(
		ng->acct, req->code == KS_GET_PRIORITY_ROLLUP);
	if (ng->limits)
		ng_limits_publish(ng->limits, ad);
	ks_reply(req, KS_REPLY_OK, &ad, 1, false);
	classad_free(ad);
}

/* Name and a number from the request, or an error reply (false). */
static bool name_and_number(struct ks_request *req, const char *attr,
			    char **name, double *v)
{
	*name = name_of(req);
	if (!*name || !req->n ||
	    !classad_eval_real(req->ads[0], attr, NULL, v) || !isfinite(*v)) {
		ks_reply_error(req, "the request needs Name (a submitter) and "
				    "%s (a number)", attr);
		free(*name);
		*name = NULL;
		return false;
	}
	return true;
}

static void done(ks_daemon *d, struct ks_request *req, int rc,
		 const struct ks_err *err)
{
	if (rc) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "cannot store the accountant: %s", err->msg);
		ks_reply_error(req, "the change was made but could not be "
				    "stored: %s", err->msg);
		return;
	}
	reply_ok(req);
}

void ng_cmd_set_factor(ks_daemon *d, struct ks_request *req)
{
	struct negotiator *ng = d->ctx;
	char *name;
	double f;
	if (!name_and_number(req, "PriorityFactor", &name, &f))
		return;
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "Setting the priority factor of %s to %f", name, f);
	if (f < NG_MIN_PRIORITY_FACTOR)
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "Error: invalid priority factor: %f, using %f",
			      f, NG_MIN_PRIORITY_FACTOR);
	struct ks_err err = {0};
	int rc = ng_acct_set_factor(ng->acct, name, f, &err);
	done(d, req, rc, &err);
	free(name);
}

void ng_cmd_set_priority(ks_daemon *d, struct ks_request *req)
{
	struct negotiator *ng = d->ctx;
	char *name;
	double p;
	if (!name_and_number(req, "Priority", &name, &p))
		return;
	ks_log_printf(d->log, KS_D_ALWAYS, "Setting the priority of %s to %f",
		      name, p);
	struct ks_err err = {0};
	int rc = ng_acct_set_priority(ng->acct, name, p, &err);
	done(d, req, rc, &err);
	free(name);
}

void ng_cmd_reset_usage(ks_daemon *d, struct ks_request *req)
{
	struct negotiator *ng = d->ctx;
	char *name = name_of(req);
	if (name)
		ks_log_printf(d->log, KS_D_ALWAYS, "Resetting the usage of %s",
			      name);
	else
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "Resetting the usage of all users");
	struct ks_err err = {0};
	int rc = ng_acct_reset_usage(ng->acct, name, time(NULL), &err);
	done(d, req, rc, &err);
	free(name);
}

void ng_cmd_delete_user(ks_daemon *d, struct ks_request *req)
{
	struct negotiator *ng = d->ctx;
	char *name = name_of(req);
	if (!name) {
		ks_reply_error(req, "the request needs Name (the record to "
				    "delete)");
		return;
	}
	ks_log_printf(d->log, KS_D_ALWAYS, "Deleting accounting record of %s",
		      name);
	struct ks_err err = {0};
	int rc = ng_acct_delete(ng->acct, name, &err);
	done(d, req, rc, &err);
	free(name);
}
