/*
 * query.c: QUERY_JOB_ADS (condor_q) and QUERY_SCHEDD_HISTORY
 * (condor_history), answered as a stream so a big queue costs a piece of
 * memory at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ks_log.h"
#include "ks_mem.h"
#include "ks_query.h"
#include "ks_wire.h"
#include "sc_cmds.h"

/* Bytes of ads per message. */
#define CHUNK (256 * 1024)

struct jobq {
	struct sc_schedd *s;
	classad *query; /* a reference: its constraint is read as we go */
	const classad_expr *req;
	struct ks_projection proj;
	bool proj_private; /* the projection names ClaimId */
	/* each job gets the schedd's clock as ServerTime (HTCondor's
	 * SendServerTime, true unless the query says not): the whole ad,
	 * or a projection naming it */
	bool server_time;
	int64_t limit;
	/* an "only my jobs" query (HTCondor's MyJobs) of a user who is not
	 * a queue superuser: whose jobs it sees and counts as "My" */
	char *me;
	/* where the walk is: the cluster index and proc in the queue may
	 * shift between pieces, so the walk remembers ids */
	int cluster, proc;
	long sent;
	long counts[3][SC_NSTATUS]; /* query, my, all */
	bool done;
};

static void summary_counts(classad *ad, const char *prefix, const long *c)
{
	static const struct {
		const char *name;
		int st;
	} names[] = {
		{"Idle", SC_IDLE},	   {"Running", SC_RUNNING},
		{"Removed", SC_REMOVED},   {"Completed", SC_COMPLETED},
		{"Held", SC_HELD},	   {"Suspended", SC_SUSPENDED},
	};
	char buf[64];
	long total = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		long v = c[names[i].st];
		if (names[i].st == SC_RUNNING)
			v += c[SC_TRANSFERRING];
		snprintf(buf, sizeof(buf), "%s%s", prefix, names[i].name);
		classad_insert_int(ad, buf, v);
		total += v;
	}
	snprintf(buf, sizeof(buf), "%sJobs", prefix);
	classad_insert_int(ad, buf, total);
}

struct walk {
	struct jobq *q;
	struct classad_buf *out;
	size_t start;
};

static int walk_job(struct sc_job *j, void *arg)
{
	struct walk *w = arg;
	struct jobq *q = w->q;
	if (j->cluster < q->cluster ||
	    (j->cluster == q->cluster && j->proc < q->proc))
		return 0;
	if (w->out->len - w->start >= CHUNK) {
		q->cluster = j->cluster;
		q->proc = j->proc;
		return 1;
	}
	int st = j->status >= 0 && j->status < SC_NSTATUS ? j->status : 0;
	q->counts[2][st]++;
	bool mine = q->me && strcmp(j->owner, q->me) == 0;
	if (mine)
		q->counts[1][st]++;
	if ((q->me && !mine) || !ks_query_matches(j->ad, q->req))
		return 0;
	q->counts[0][st]++;
	if (q->limit >= 0 && q->sent >= q->limit)
		return 0;
	q->sent++;
	if (q->proj.n && !q->proj_private && !q->server_time) {
		/* the projected attributes are looked up through the chain:
		 * no whole copy of the job */
		ks_projection_encode(w->out, j->ad, &q->proj);
		return 0;
	}
	classad *flat = sc_job_flat(j);
	/* a capability, as HTCondor keeps it private */
	classad_delete(flat, "ClaimId");
	if (q->server_time)
		classad_insert_int(flat, "ServerTime", (int64_t)time(NULL));
	ks_projection_encode(w->out, flat, &q->proj);
	classad_free(flat);
	return 0;
}

static bool job_piece(ks_daemon *d, void *arg, struct classad_buf *out)
{
	(void)d;
	struct jobq *q = arg;
	struct walk w = {q, out, out->len};
	if (sc_queue_each(q->s, walk_job, &w))
		return true;
	classad *sum = classad_new();
	classad_insert_string(sum, "MyType", "Summary");
	summary_counts(sum, "", q->counts[0]);
	summary_counts(sum, "Allusers", q->counts[2]);
	if (q->me) {
		summary_counts(sum, "My", q->counts[1]);
		classad_insert_string(sum, "MyName", q->me);
	}
	/* the tools time running jobs by the schedd's clock */
	classad_insert_int(sum, "ServerTime", (int64_t)time(NULL));
	ks_wire_encode_ad(out, sum);
	classad_free(sum);
	return false;
}

static void job_done(void *arg)
{
	struct jobq *q = arg;
	classad_free(q->query);
	ks_projection_free(&q->proj);
	free(q->me);
	free(q);
}

static struct jobq *start_query(struct sc_schedd *s, struct ks_request *req)
{
	if (req->n != 1) {
		ks_reply_error(req, "a query carries exactly one query ad");
		return NULL;
	}
	struct jobq *q = ks_xcalloc(1, sizeof(*q));
	q->s = s;
	q->query = classad_ref(req->ads[0]);
	q->req = classad_lookup(q->query, "Requirements");
	q->limit = -1;
	classad_eval_int(q->query, "LimitResults", NULL, &q->limit);
	ks_projection_read(q->query, &q->proj);
	bool names_time = !q->proj.n;
	for (size_t k = 0; k < q->proj.n; k++) {
		if (strcasecmp(q->proj.names[k], "ClaimId") == 0)
			q->proj_private = true;
		if (strcasecmp(q->proj.names[k], "ServerTime") == 0)
			names_time = true;
	}
	q->server_time = true;
	classad_eval_bool(q->query, "SendServerTime", NULL, &q->server_time);
	q->server_time = q->server_time && names_time;
	return q;
}

/* Whose jobs an "only my jobs" query sees, as HTCondor's schedd decides:
 * a query with MyJobs (condor_q without -allusers) sees the asker's own
 * jobs, known by the connection's identity (else the query's Me), unless
 * the asker is a queue superuser, who sees every job, as a personal
 * pool's user does.  NULL: every job. */
static char *only_mine(const struct sc_schedd *s, const classad *query,
		       const char *identity)
{
	const classad_expr *mine = classad_lookup(query, "MyJobs");
	bool b = true, knob = true;
	ks_config_bool(s->d->cfg, "CONDOR_Q_ONLY_MY_JOBS", &knob);
	if (!knob || !mine ||
	    (classad_eval_bool(query, "MyJobs", NULL, &b) && !b))
		return NULL;
	char *me = identity && *identity ? sc_identity_owner(identity) : NULL;
	if (!me && !classad_eval_string(query, "Me", NULL, &me))
		return NULL;
	if (!*me || sc_is_super_user(s, identity ? identity : me)) {
		free(me);
		return NULL;
	}
	return me;
}

void sc_cmd_query(ks_daemon *d, struct ks_request *req)
{
	struct sc_schedd *s = d->ctx;
	struct jobq *q = start_query(s, req);
	if (!q)
		return;
	q->me = only_mine(s, q->query, req->identity);
	ks_reply_stream(req, KS_REPLY_OK, job_piece, job_done, q);
}

/* History: read from the store in one snapshot, then sent in pieces. */
struct histq {
	struct jobq *q;
	struct classad_buf text; /* the records, encoded */
	size_t pos;
};

static int hist_one(classad *ad, void *arg)
{
	struct histq *h = arg;
	struct jobq *q = h->q;
	/* condor_history -since: the walk (newest first) stops at the
	 * first job it is true of, which is not sent */
	const classad_expr *since = classad_lookup(q->query, "Since");
	if (since) {
		classad_value v = CLASSAD_VALUE_INIT;
		classad_eval_expr(ad, since, NULL, &v);
		bool stop = v.type == CLASSAD_BOOLEAN && v.u.b;
		classad_value_clear(&v);
		if (stop)
			return 1;
	}
	if (!ks_query_matches(ad, q->req))
		return 0;
	ks_projection_encode(&h->text, ad, &q->proj);
	q->sent++;
	return q->limit >= 0 && q->sent >= q->limit;
}

/* The records are whole (length-prefixed); a piece ends on a record
 * boundary. */
static bool hist_piece(ks_daemon *d, void *arg, struct classad_buf *out)
{
	(void)d;
	struct histq *h = arg;
	if (h->pos >= h->text.len)
		return false; /* nothing (text.data may be NULL) */
	size_t end = h->pos;
	while (end < h->text.len && end - h->pos < CHUNK) {
		const unsigned char *p = (const unsigned char *)h->text.data + end;
		uint32_t len = ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
				(uint32_t)p[2] << 8 | p[3]) &
			       ~KS_WIRE_NEW_SYNTAX;
		end += 4 + len;
	}
	if (end > h->text.len)
		end = h->text.len;
	classad_buf_add(out, h->text.data + h->pos, end - h->pos);
	h->pos = end;
	return h->pos < h->text.len;
}

static void hist_done(void *arg)
{
	struct histq *h = arg;
	job_done(h->q);
	free(h->text.data);
	free(h);
}

void sc_cmd_history(ks_daemon *d, struct ks_request *req)
{
	struct sc_schedd *s = d->ctx;
	struct jobq *q = start_query(s, req);
	if (!q)
		return;
	struct histq *h = ks_xcalloc(1, sizeof(*h));
	h->q = q;
	sc_history_each(s, hist_one, h);
	ks_reply_stream(req, KS_REPLY_OK, hist_piece, hist_done, h);
}
