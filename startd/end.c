/*
 * end.c: a job's end, kept until its claimer has had it, even through
 * the startd's death (docs/startd.md, "After a startd's death").
 *
 * A job's end is its starter's result ad and the output files it left
 * for transfer.  The startd keeps it for a claimer that lost it (its
 * schedd was down when the job ended) until the claim runs another job
 * or ends; the schedd records the end before it does either.  Should the
 * startd die meanwhile, the end must still reach the claimer, or the
 * job would run a second time.  So it is on disk, in EXECUTE, under
 * names that hold the slot and this startd's pid and start time (one
 * set per slot, never another life's):
 *
 *   .claim_<tag>   the claim's record: its id, and the ClusterId,
 *                  ProcId and JobLeaseDuration of its job, written by
 *                  the startd (0600, its account) before each of its
 *                  starters starts, removed when the claim ends; none
 *                  for a job that cannot reconnect (no lease)
 *   .result_<tag>  the starter's result ad, which it writes (whole, then
 *                  renamed into place) before it exits, for its startd's
 *                  account; read from there when the starter has ended
 *   .output_<tag>  the output files the starter left
 *   .hold_<tag>    the startd's order to hold the job (WANT_HOLD), which
 *                  the starter reads into its result (sd_hold.h)
 *
 * The last two go when the claim runs its next job or ends, with the
 * end in memory.  The id is a secret: it is never on a command line, and
 * only the startd's account (and root) can read the record.
 *
 * A starting startd keeps every end that an earlier one left with its
 * record (an "orphan"): the claim itself died with that startd, but a
 * claimer reconnecting with its id gets the end as from a claim whose
 * job ended while it was away, and releases it once it has recorded it.
 * A record without a result is a job whose starter died without one
 * (killed, or ended by this startd as a leftover): it is kept too, and a
 * reconnect for that job is refused as for a claim that is gone, but
 * saying that the job was lost (KS_RECONNECT_JOB_LOST), so that its
 * claimer, which may not have heard that it started, logs that it ran
 * instead of running it again as if it never had.
 * An orphan no claimer comes for goes after its job's lease: its
 * schedd gives up reconnecting by then.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_priv.h"
#include "ks_text.h"
#include "ks_wire.h"
#include "sd_startd.h"
#include "sr_file.h"

/* How many bytes a claim's record or a result ad may have: both are
 * small. */
#define RECORD_MAX 4096
#define RESULT_MAX (1u << 20)

/* The names of an end's files. */
static const char *const kinds[] = {"claim", "result", "output", "hold"};

/* dir/.<what>_<tag> (new string). */
static char *file_of(const char *dir, const char *what, const char *tag)
{
	size_t n = strlen(dir) + strlen(what) + strlen(tag) + 4;
	char *path = ks_xmalloc(n);
	snprintf(path, n, "%s/.%s_%s", dir, what, tag);
	return path;
}

char *sd_end_path(ks_daemon *d, const struct sd_slot *s, const char *what)
{
	char *execute = ks_config_get(d->cfg, "EXECUTE", NULL);
	if (!execute || !*execute) {
		free(execute);
		return NULL;
	}
	char tag[300];
	snprintf(tag, sizeof(tag), "%s_%ld_%ld", s->short_name,
		 (long)getpid(), d->start_time);
	char *path = file_of(execute, what, tag);
	free(execute);
	return path;
}

/* ---- a claim's end ------------------------------------------------------ */

void sd_end_record(ks_daemon *d, struct sd_slot *s)
{
	struct sd_claim *c = &s->claim;
	int64_t lease = 0, job[2] = {-1, -1};
	if (!s->job ||
	    !classad_eval_int(s->job, "JobLeaseDuration", NULL, &lease) ||
	    lease < 0)
		lease = 0;
	if (s->job) {
		classad_eval_int(s->job, "ClusterId", NULL, &job[0]);
		classad_eval_int(s->job, "ProcId", NULL, &job[1]);
	}
	/* a claimer that cannot reconnect (no lease) has no use for it */
	if (c->recorded ? c->recorded_lease == lease &&
				  c->recorded_job[0] == job[0] &&
				  c->recorded_job[1] == job[1]
			: lease == 0)
		return;
	char *path = sd_end_path(d, s, "claim");
	if (!path)
		return;
	if (lease == 0) {
		unlink(path);
		c->recorded = false;
		free(path);
		return;
	}
	classad *ad = classad_new();
	classad_insert_string(ad, "ClaimId", c->id);
	classad_insert_int(ad, "JobLeaseDuration", lease);
	classad_insert_string(ad, "Slot", s->short_name);
	if (job[0] >= 0 && job[1] >= 0) {
		classad_insert_int(ad, "ClusterId", job[0]);
		classad_insert_int(ad, "ProcId", job[1]);
	}
	char *text = classad_unparse(ad, CLASSAD_FMT_OLD);
	classad_free(ad);
	struct ks_err err = {0};
	if (sr_file_replace(path, text, strlen(text), false, 0, 0, &err)) {
		/* the job runs; only its end would not outlive the startd */
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: the claim's record: %s", s->short_name,
			      err.msg);
		unlink(path);
		c->recorded = false;
	} else {
		c->recorded = true;
		c->recorded_lease = lease;
		c->recorded_job[0] = job[0];
		c->recorded_job[1] = job[1];
	}
	free(text);
	free(path);
}

classad *sd_end_read_result(const char *path, char *why, size_t size)
{
	size_t len = 0;
	char *text = sr_file_read(path, RESULT_MAX, &len);
	if (!text) {
		int e = errno;
		snprintf(why, size, "cannot read %s: %s", path,
			 e == EFBIG ? "larger than a result can be"
				    : strerror(e));
		errno = e;
		return NULL;
	}
	struct ks_err err = {0};
	classad *ad = classad_parse(text, len, CLASSAD_FMT_OLD, NULL, &err);
	free(text);
	if (!ad) {
		snprintf(why, size, "%s is not a result ad: %s", path,
			 err.msg);
		errno = EINVAL;
	}
	return ad;
}

void sd_end_collect(ks_daemon *d, const char *slot, const char *dir,
		    classad *result, struct ks_xfer_set *outputs)
{
	ks_xfer_set_free(outputs);
	outputs->nofollow = true;
	if (!dir || !result)
		return;
	int eno = 0;
	struct ks_err err = {0};
	/* the job's files, which its owner alone may read, as the starter
	 * (root) left them: read as root, links not followed */
	struct ks_priv_saved root;
	int rc = ks_priv_to_root(&root, &err);
	if (rc == 0) {
		rc = ks_xfer_add_path(outputs, dir, "", &eno, &err);
		ks_priv_restore(&root);
	}
	if (rc) {
		ks_xfer_set_free(outputs);
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: the job's output cannot be sent: %s", slot,
			      err.msg);
		char *had = classad_eval_string_dup(result,
						    "TransferOutputError");
		if (!had) {
			classad_insert_string(result, "TransferOutputError",
					      err.msg);
			classad_insert_int(result, "TransferOutputErrno", eno);
		}
		free(had);
	} else if (outputs->n) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: %zu output files (%llu bytes) for the "
			      "claimer", slot, outputs->n,
			      (unsigned long long)outputs->bytes);
	}
}

classad **sd_end_final_ads(classad *result, const struct ks_xfer_set *outputs,
			   size_t *n)
{
	classad **ads = ks_xmalloc((1 + outputs->n) * sizeof(*ads));
	ads[0] = result;
	for (size_t i = 0; i < outputs->n; i++)
		ads[1 + i] = outputs->ads[i];
	*n = 1 + outputs->n;
	return ads;
}

void sd_end_reply_reconnect(struct ks_request *req, classad *result,
			    const struct ks_xfer_set *outputs)
{
	classad *now = classad_new();
	classad_insert_int(now, "StarterPid", 0);
	classad_insert_bool(now, "Reconnected", true);
	ks_reply(req, KS_REPLY_OK, &now, 1, true);
	classad_free(now);
	size_t n = 0;
	classad **ads = sd_end_final_ads(result, outputs, &n);
	ks_reply(req, KS_REPLY_OK, ads, n, false);
	free(ads);
}

/* Removes path (a tree for a directory); a failure other than its
 * absence is logged. */
static void remove_logged(ks_daemon *d, const char *path)
{
	if (ks_xfer_remove_tree(path) != 0 && errno != ENOENT)
		ks_log_printf(d->log, KS_D_ALWAYS, "cannot remove %s: %s",
			      path, strerror(errno));
}

void sd_end_drop(ks_daemon *d, struct sd_slot *s, bool claim_ends)
{
	struct sd_claim *c = &s->claim;
	classad_free(c->result);
	c->result = NULL;
	ks_xfer_set_free(&c->outputs);
	bool record = claim_ends && c->recorded;
	if (((struct startd *)d->ctx)->keep_ends) {
		/* the next startd keeps them for the claimer, which may not
		 * have had them: as after a kill, but for sure */
		free(c->output_dir);
		free(c->result_file);
		c->output_dir = c->result_file = NULL;
		c->recorded = c->recorded && !claim_ends;
		return;
	}
	if (!c->output_dir && !c->result_file && !record)
		return;
	/* (as root: the starter left the job's files in it) */
	struct ks_priv_saved root;
	bool up = ks_priv_to_root(&root, NULL) == 0;
	if (c->output_dir)
		remove_logged(d, c->output_dir);
	if (c->result_file)
		remove_logged(d, c->result_file);
	free(c->output_dir);
	free(c->result_file);
	c->output_dir = c->result_file = NULL;
	if (record) {
		char *path = sd_end_path(d, s, "claim");
		if (path)
			remove_logged(d, path);
		free(path);
		c->recorded = false;
	}
	if (up)
		ks_priv_restore(&root);
}

/* ---- the ends an earlier startd left ------------------------------------ */

struct sd_orphan {
	char id[400];    /* the claim id it answers to */
	char *tag;       /* names its files (file_of()) */
	char *slot;      /* the slot it was on, for the log */
	classad *result; /* its ClusterId and ProcId alone when lost */
	bool lost;       /* its starter left no result */
	int64_t lease;   /* its job's JobLeaseDuration */
	int64_t expires; /* time() it goes unless a claimer keeps it */
};

/* Whether tag can be the tail of an end's file name (sd_end_path()):
 * "slot1_2_812_1700000000", never a temporary file's "....tmp". */
static bool tag_ok(const char *tag)
{
	if (!*tag)
		return false;
	for (const char *p = tag; *p; p++)
		if (!(*p == '_' || (*p >= '0' && *p <= '9') ||
		      (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
			return false;
	return true;
}

/* The ids of the job that the claim's record rec names (new ad), or
 * NULL when it names none. */
static classad *job_of(const classad *rec)
{
	int64_t job[2];
	if (!classad_eval_int(rec, "ClusterId", NULL, &job[0]) ||
	    !classad_eval_int(rec, "ProcId", NULL, &job[1]))
		return NULL;
	classad *ad = classad_new();
	classad_insert_int(ad, "ClusterId", job[0]);
	classad_insert_int(ad, "ProcId", job[1]);
	return ad;
}

/* The orphan of EXECUTE's record .claim_<tag>, or NULL with why filled
 * when it is none; *usual then says it is none for the usual reason (no
 * result, and no job named: none had started). */
static struct sd_orphan *read_orphan(const char *execute, const char *tag,
				     char *why, size_t size, bool *usual)
{
	*usual = false;
	char *path = file_of(execute, "claim", tag);
	size_t len = 0;
	char *text = sr_file_read(path, RECORD_MAX, &len);
	classad *rec = text ? classad_parse(text, len, CLASSAD_FMT_OLD, NULL,
					    NULL)
			    : NULL;
	free(text);
	char *id = classad_eval_string_dup(rec, "ClaimId");
	int64_t lease = 0;
	classad_eval_int(rec, "JobLeaseDuration", NULL, &lease);
	struct sd_orphan *o = NULL;
	if (!id || !*id || strlen(id) >= sizeof(o->id) || lease <= 0) {
		snprintf(why, size, "%s is not a claim's record", path);
	} else {
		char *rpath = file_of(execute, "result", tag);
		classad *result = sd_end_read_result(rpath, why, size);
		*usual = !result && errno == ENOENT;
		free(rpath);
		bool lost = *usual && (result = job_of(rec));
		char *how = lost ? NULL
				 : classad_eval_string_dup(result,
							   "JobExitReason");
		if (result && !how && !lost)
			snprintf(why, size, "its result has no JobExitReason");
		if (how || lost) {
			o = ks_xcalloc(1, sizeof(*o));
			o->lost = lost;
			memcpy(o->id, id, strlen(id) + 1);
			o->tag = ks_xstrdup(tag);
			o->slot = classad_eval_string_dup(rec, "Slot");
			if (!o->slot)
				o->slot = ks_xstrdup("?");
			o->result = result;
			o->lease = lease;
			o->expires = sd_now() + lease;
			result = NULL;
		}
		free(how);
		classad_free(result);
	}
	free(id);
	classad_free(rec);
	free(path);
	return o;
}

void sd_orphans_restore(ks_daemon *d, const char *execute)
{
	struct startd *sd = d->ctx;
	DIR *dir = opendir(execute);
	if (!dir)
		return; /* (clear_execute() says why) */
	int64_t now = sd_now();
	struct dirent *de;
	while ((de = readdir(dir))) {
		static const char pre[] = ".claim_";
		const char *tag = de->d_name + sizeof(pre) - 1;
		if (strncmp(de->d_name, pre, sizeof(pre) - 1) != 0 ||
		    !tag_ok(tag))
			continue;
		char why[600] = "";
		bool usual = false;
		struct sd_orphan *o = read_orphan(execute, tag, why,
						  sizeof(why), &usual);
		if (!o) {
			ks_log_printf(d->log, usual ? KS_D_FULLDEBUG
						    : KS_D_ALWAYS,
				      "the claim of %s/.claim_%s left no job's "
				      "end to keep: %s", execute, tag, why);
			continue;
		}
		char *how = classad_eval_string_dup(o->result, "JobExitReason");
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: kept the job's end (%s) that an earlier "
			      "startd left, for its claimer to reconnect to "
			      "within %lld s (its lease)", o->slot,
			      how	   ? how
			      : o->lost ? "lost: its starter left no result"
					: "?",
			      (long long)(o->expires - now));
		free(how);
		sd->orphans = ks_xrealloc(sd->orphans, (sd->norphans + 1) *
						      sizeof(*sd->orphans));
		sd->orphans[sd->norphans++] = o;
	}
	closedir(dir);
	free(sd->orphan_dir);
	sd->orphan_dir = ks_xstrdup(execute);
}

bool sd_orphans_own(ks_daemon *d, const char *name)
{
	struct startd *sd = d->ctx;
	for (size_t i = 0; i < sd->norphans; i++)
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			size_t n = strlen(kinds[k]);
			if (name[0] == '.' &&
			    strncmp(name + 1, kinds[k], n) == 0 &&
			    name[1 + n] == '_' &&
			    strcmp(name + 2 + n, sd->orphans[i]->tag) == 0)
				return true;
		}
	return false;
}

/* Removes orphan i, in memory and on disk. */
static void drop_orphan(ks_daemon *d, size_t i)
{
	struct startd *sd = d->ctx;
	struct sd_orphan *o = sd->orphans[i];
	/* (as root: the starter left the job's files) */
	struct ks_priv_saved root;
	bool up = ks_priv_to_root(&root, NULL) == 0;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		char *path = file_of(sd->orphan_dir, kinds[k], o->tag);
		remove_logged(d, path);
		free(path);
	}
	if (up)
		ks_priv_restore(&root);
	sd->orphans[i] = sd->orphans[--sd->norphans];
	classad_free(o->result);
	free(o->tag);
	free(o->slot);
	free(o);
}

/* A reconnecting claimer gets the end as from a claim whose job ended
 * while it was away (claim.c's reconnect()): the output files are read
 * again from disk for each. */
bool sd_end_is_for(const classad *req, const classad *ad)
{
	int64_t want, have;
	const char *ids[] = {"ClusterId", "ProcId"};
	for (size_t i = 0; i < 2; i++)
		if (classad_eval_int(req, ids[i], NULL, &want) &&
		    (!ad || !classad_eval_int(ad, ids[i], NULL, &have) ||
		     have != want))
			return false;
	return true;
}

static void give_end(ks_daemon *d, struct sd_orphan *o,
		     struct ks_request *req)
{
	if (!sd_end_is_for(req->ads[0], o->result)) {
		ks_reply_error(req, "%s ran no such job to reconnect to",
			       o->slot);
		return;
	}
	if (o->lost) {
		ks_reply_error(req, "%s: %s", o->slot, KS_RECONNECT_JOB_LOST);
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: told %s, reconnecting, that its job was lost "
			      "with an earlier startd", o->slot, req->identity);
		return;
	}
	struct startd *sd = d->ctx;
	char *dir = file_of(sd->orphan_dir, "output", o->tag);
	struct ks_xfer_set outputs = {0};
	if (access(dir, F_OK) == 0)
		sd_end_collect(d, o->slot, dir, o->result, &outputs);
	free(dir);
	sd_end_reply_reconnect(req, o->result, &outputs);
	ks_xfer_set_free(&outputs);
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "%s: %s reconnected and was given its job's end, which "
		      "an earlier startd left", o->slot, req->identity);
}

bool sd_orphan_command(ks_daemon *d, struct ks_request *req)
{
	struct startd *sd = d->ctx;
	if (!sd->norphans || !req->n)
		return false;
	char *id = classad_eval_string_dup(req->ads[0], "ClaimId");
	size_t i = 0;
	while (id && i < sd->norphans && !sd_claim_id_is(sd->orphans[i]->id, id))
		i++;
	bool found = id && i < sd->norphans;
	free(id);
	if (!found)
		return false;
	struct sd_orphan *o = sd->orphans[i];
	bool again = false;
	switch (req->code) {
	case KS_ACTIVATE_CLAIM:
		if (classad_eval_bool(req->ads[0], "Reconnect", NULL, &again) &&
		    again) {
			o->expires = sd_now() + o->lease;
			give_end(d, o, req);
		} else {
			ks_reply_error(req, "the claim on %s ended with the "
				       "startd that ran its job: it takes no "
				       "more jobs", o->slot);
		}
		break;
	case KS_RELEASE_CLAIM:
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: the job's end an earlier startd left was "
			      "released by %s", o->slot, req->identity);
		drop_orphan(d, i);
		ks_reply(req, KS_REPLY_OK, NULL, 0, false);
		break;
	case KS_ALIVE:
		/* its claimer is there: it keeps the end as long as a claim
		 * would be kept */
		o->expires = sd_now() + o->lease;
		ks_reply(req, KS_REPLY_OK, NULL, 0, false);
		break;
	default:
		ks_reply_error(req, "%s runs no job", o->slot);
		break;
	}
	return true;
}

void sd_orphans_expire(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	int64_t now = sd_now();
	for (size_t i = sd->norphans; i-- > 0;) {
		struct sd_orphan *o = sd->orphans[i];
		if (now <= o->expires)
			continue;
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: no claimer came for the job's end an earlier "
			      "startd left within its lease (%lld s): removed",
			      o->slot, (long long)o->lease);
		drop_orphan(d, i);
	}
}

void sd_orphans_free(struct startd *sd)
{
	for (size_t i = 0; i < sd->norphans; i++) {
		classad_free(sd->orphans[i]->result);
		free(sd->orphans[i]->tag);
		free(sd->orphans[i]->slot);
		free(sd->orphans[i]);
	}
	free(sd->orphans);
	free(sd->orphan_dir);
	sd->orphans = NULL;
	sd->norphans = 0;
	sd->orphan_dir = NULL;
}
