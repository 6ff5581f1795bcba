/*
 * submit.c: QMGMT_WRITE_CMD: a new cluster id, a whole cluster queued in
 * one transaction, condor_qedit's SetAttribute.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ks_log.h"
#include "ks_mem.h"
#include "ks_wire.h"
#include "sc_cmds.h"
#include "sc_holds.h"
#include "sc_events.h"
#include "sc_local.h"
#include "sc_policy.h"

static void reply_int(struct ks_request *req, const char *name, int64_t v)
{
	classad *ad = classad_new();
	classad_insert_int(ad, name, v);
	ks_reply(req, KS_REPLY_OK, &ad, 1, false);
	classad_free(ad);
}

/* The text condor_submit looks for in a refusal by a submission limit
 * (HTCondor's submit prints it after "Failed to create proc"). */
#define WOULD_EXCEED "Number of submitted jobs would exceed "

static void new_cluster(struct sc_schedd *s, struct ks_request *req)
{
	int id;
	struct ks_err err = {0};
	long total = (long)sc_queue_size(s);
	if (total >= s->max_jobs_submitted) {
		/* HTCondor's NewCluster() refusal, word for word */
		ks_reply_error(req, "MAX_JOBS_SUBMITTED exceeded. Current=%ld, "
				    "Limit=%ld",
			       total, s->max_jobs_submitted);
		return;
	}
	if (sc_queue_new_cluster(s, &id, &err)) {
		ks_reply_error(req, "cannot make a new cluster: %s", err.msg);
		return;
	}
	reply_int(req, "ClusterId", id);
}

/* A job submitted on hold (its own JobStatus, in the cluster ad or a
 * proc's) keeps the status it was submitted with as InitialJobStatus,
 * and its hold counts, as in HTCondor's schedd.  The ads are not chained
 * yet: what is looked up is the ad's own. */
static void held_at_submit(classad *ad)
{
	int64_t st = 0, code = 0;
	if (classad_eval_int(ad, "JobStatus", NULL, &st) && st == SC_HELD)
		classad_insert_int(ad, "InitialJobStatus", st);
	if (classad_eval_int(ad, "HoldReasonCode", NULL, &code))
		sc_holds_count_in(ad, (int)code);
}

/* What the schedd itself sets in every job it accepts. */
static void stamp(struct sc_schedd *s, const char *owner, int cluster,
		  classad *cl_ad, classad **procs, size_t n)
{
	time_t now = time(NULL);
	char user[512];
	snprintf(user, sizeof(user), "%s@%s", owner, s->uid_domain);
	classad_insert_int(cl_ad, "ClusterId", cluster);
	classad_insert_int(cl_ad, "QDate", (int64_t)now);
	classad_insert_string(cl_ad, "Owner", owner);
	classad_insert_string(cl_ad, "User", user);
	classad_insert_int(cl_ad, "EnteredCurrentStatus", (int64_t)now);
	classad_insert_int(cl_ad, "TotalSubmitProcs", (int64_t)n);
	if (!classad_lookup(cl_ad, "JobStatus"))
		classad_insert_int(cl_ad, "JobStatus", SC_IDLE);
	held_at_submit(cl_ad);
	for (size_t i = 0; i < n; i++) {
		held_at_submit(procs[i]);
		char gid[600];
		snprintf(gid, sizeof(gid), "%s#%d.%zu#%lld", s->d->name,
			 cluster, i, (long long)now);
		classad_insert_int(procs[i], "ProcId", (int64_t)i);
		classad_insert_string(procs[i], "GlobalJobId", gid);
		/* a proc may not claim another cluster or owner */
		classad_delete(procs[i], "ClusterId");
		classad_delete(procs[i], "Owner");
		classad_delete(procs[i], "User");
		classad_delete(procs[i], "QDate");
	}
}

struct owner_count {
	const char *owner;
	long n;
};

static int count_owner(struct sc_job *j, void *arg)
{
	struct owner_count *c = arg;
	char *o = NULL;
	if (classad_eval_string(j->ad, "Owner", NULL, &o) &&
	    !strcmp(o, c->owner))
		c->n++;
	free(o);
	return 0;
}

/* The limit that n more jobs of owner would pass, or NULL: as HTCondor's
 * NewProc() checks each job in turn, the first job to pass one names it
 * (MAX_JOBS_SUBMITTED, then MAX_JOBS_PER_OWNER, then
 * MAX_JOBS_PER_SUBMISSION for the same job). */
static const char *limit_passed(struct sc_schedd *s, const char *owner,
				size_t n)
{
	long total = (long)sc_queue_size(s);
	struct owner_count c = {owner, 0};
	if (s->max_jobs_per_owner < LONG_MAX)
		sc_queue_each(s, count_owner, &c);
	/* the index of the first job each limit stops */
	long at[3] = {s->max_jobs_submitted - total,
		      s->max_jobs_per_owner < LONG_MAX
			      ? s->max_jobs_per_owner - c.n
			      : LONG_MAX,
		      s->max_jobs_per_submission};
	static const char *const names[3] = {"MAX_JOBS_SUBMITTED",
					     "MAX_JOBS_PER_OWNER",
					     "MAX_JOBS_PER_SUBMISSION"};
	int which = -1;
	for (int k = 0; k < 3; k++) {
		long first = at[k] < 0 ? 0 : at[k];
		if ((size_t)first < n &&
		    (which < 0 || first < (at[which] < 0 ? 0 : at[which])))
			which = k;
	}
	return which < 0 ? NULL : names[which];
}

static void submit(struct sc_schedd *s, struct ks_request *req)
{
	int64_t cluster = -1;
	classad_eval_int(req->ads[0], "ClusterId", NULL, &cluster);
	if (req->n < 3 || cluster < 1) {
		ks_reply_error(req, "Submit carries a ClusterId, the cluster "
				    "ad and at least one proc ad");
		return;
	}
	char *owner = sc_identity_owner(req->identity);
	if (strcmp(owner, "unauthenticated") == 0 || !*owner) {
		ks_reply_error(req, "the schedd does not take jobs from an "
				    "unauthenticated user");
		free(owner);
		return;
	}
	size_t n = req->n - 2;
	const char *limit = limit_passed(s, owner, n);
	if (limit) {
		ks_log_printf(s->d->log, KS_D_ALWAYS,
			      "submission of cluster %lld (%zu jobs) from %s "
			      "refused: %s", (long long)cluster, n,
			      req->identity, limit);
		ks_reply_error(req, WOULD_EXCEED "%s", limit);
		free(owner);
		return;
	}
	classad *cl_ad = classad_copy(req->ads[1]);
	classad **procs = ks_xmalloc(n * sizeof(*procs));
	for (size_t i = 0; i < n; i++)
		procs[i] = classad_copy(req->ads[2 + i]);
	stamp(s, owner, (int)cluster, cl_ad, procs, n);
	for (size_t i = 0; i < n; i++)
		classad_chain(procs[i], cl_ad);

	struct ks_err err = {0};
	char *warnings = NULL;
	int rc = sc_policy_submit(s, cl_ad, procs, n, &warnings, &err);
	for (size_t i = 0; i < n; i++)
		classad_chain(procs[i], NULL);
	if (rc == 0)
		rc = sc_queue_submit(s, (int)cluster, cl_ad, procs, n, &err);
	else {
		classad_free(cl_ad);
		for (size_t i = 0; i < n; i++)
			classad_free(procs[i]);
	}
	free(procs);
	if (rc) {
		ks_log_printf(s->d->log, KS_D_ALWAYS,
			      "submission of cluster %lld from %s refused: %s",
			      (long long)cluster, req->identity, err.msg);
		ks_reply_error(req, "%s", err.msg);
		free(owner);
		free(warnings);
		return;
	}
	ks_log_printf(s->d->log, KS_D_ALWAYS,
		      "cluster %lld: %zu jobs submitted by %s",
		      (long long)cluster, n, req->identity);
	for (size_t i = 0; i < n; i++) {
		struct sc_job *j = sc_queue_find(s, (int)cluster, (int)i);
		if (j)
			sc_event_submit(s, j, warnings);
	}
	classad *ad = classad_new();
	classad_insert_int(ad, "ClusterId", cluster);
	classad_insert_int(ad, "NumJobs", (int64_t)n);
	if (warnings)
		classad_insert_string(ad, "Warnings", warnings);
	ks_reply(req, KS_REPLY_OK, &ad, 1, false);
	classad_free(ad);
	free(owner);
	free(warnings);
	sc_submitters_changed(s);
	sc_local_start_idle(s);
}

/* Attributes only the schedd sets. */
static bool protected_attr(const char *name)
{
	static const char *const names[] = {
		"ClusterId", "ProcId",	   "Owner",	"User",
		"MyType",    "TargetType", "JobStatus", "GlobalJobId",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(name, names[i]) == 0)
			return true;
	return false;
}

struct set_attr {
	const char *name;
	classad_expr *value;
};

static int set_one(struct sc_schedd *s, struct sc_job *j, void *arg)
{
	struct set_attr *a = arg;
	return sc_job_set_parsed(s, j, a->name,
				 classad_expr_ref(a->value)) == 0
		       ? SC_AR_SUCCESS
		       : SC_AR_BAD_STATUS;
}

static void set_attribute(struct sc_schedd *s, struct ks_request *req)
{
	char *name = NULL;
	classad_eval_string(req->ads[0], "Attribute", NULL, &name);
	/* the text where the request holds it, parsed once for every job
	 * (a 10 MB value is not copied once more per job) */
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(req->ads[0], "Value", NULL, &v);
	size_t vlen = 0;
	const char *value = classad_value_str(&v, &vlen);
	if (!name || !*name || !value) {
		ks_reply_error(req, "SetAttribute needs Attribute and Value");
	} else if (protected_attr(name)) {
		ks_reply_error(req, "attribute %s may not be changed", name);
	} else {
		struct ks_err err = {0};
		classad_expr *e = classad_parse_expr(value, vlen, &err);
		if (!e) {
			ks_reply_error(req, "the value of %s does not parse: %s",
				       name, err.msg);
		} else {
			struct set_attr a = {name, e};
			struct sc_select_totals t = {0};
			classad *result = classad_new();
			/* all or nothing, answered once in the store */
			sc_queue_begin(s);
			if (sc_select(s, req->ads[0], req->identity, set_one,
				      &a, &t, result, &err)) {
				sc_queue_abort(s);
				ks_reply_error(req, "%s", err.msg);
			} else if (sc_queue_commit(s, &err)) {
				ks_reply_error(req, "the job queue could not be "
						    "written, so nothing was "
						    "changed: %s", err.msg);
			} else {
				sc_select_report(&t, result);
				ks_reply(req, KS_REPLY_OK, &result, 1, false);
			}
			classad_free(result);
			classad_expr_free(e);
		}
	}
	free(name);
	classad_value_clear(&v);
}

void sc_cmd_qmgmt(ks_daemon *d, struct ks_request *req)
{
	struct sc_schedd *s = d->ctx;
	char *op = NULL;
	if (req->n < 1 || !classad_eval_string(req->ads[0], "Op", NULL, &op)) {
		ks_reply_error(req, "QMGMT_WRITE_CMD carries an ad with Op");
		return;
	}
	if (strcmp(op, "NewCluster") == 0)
		new_cluster(s, req);
	else if (strcmp(op, "Submit") == 0)
		submit(s, req);
	else if (strcmp(op, "SetAttribute") == 0)
		set_attribute(s, req);
	else
		ks_reply_error(req, "QMGMT_WRITE_CMD: unknown Op \"%s\"", op);
	free(op);
}
