/*
 * schedd.c: NEGOTIATE and PERMISSION_AND_AD on one connection
 * (schedd.h).
 */
#include "schedd.h"

#include <stdlib.h>
#include <string.h>

#include "ks_client.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_wire.h"

/* Matches go to the schedd in messages of at most this many pairs
 * (halved again when a message would still be too big). */
#define MAX_PAIRS 4096

struct ng_schedd {
	ks_conn *conn;
	char *submitter;
	struct ng_request *req;
	size_t nreq;
	classad **out; /* pairs of ads to send */
	size_t nout, capout;
	size_t nmatch;  /* of them, matches (the others rejections) */
};

static void take_request(ng_schedd *s, classad *ad, size_t *bad)
{
	int64_t ac, count = 1;
	if (!classad_eval_int(ad, "AutoClusterId", NULL, &ac)) {
		(*bad)++;
		classad_free(ad);
		return;
	}
	if (!classad_eval_int(ad, "ResourceRequestCount", NULL, &count) ||
	    count < 1)
		count = 1;
	struct ng_request *r;
	s->req = ks_xrealloc(s->req, (s->nreq + 1) * sizeof(*s->req));
	r = &s->req[s->nreq++];
	r->ad = ad;
	r->autocluster = ac;
	r->count = count;
	r->done = false;
	if (!classad_eval_int(ad, "ClusterId", NULL, &r->cluster))
		r->cluster = -1;
	if (!classad_eval_int(ad, "ProcId", NULL, &r->proc))
		r->proc = -1;
}

/* The error text of a refusal: its ErrorString, or the code. */
static int refused(const char *what, int code, classad **ads, size_t n,
		   struct ks_err *err)
{
	char *why = NULL;
	if (n)
		classad_eval_string(ads[0], "ErrorString", NULL, &why);
	ks_err_set(err, code == KS_REPLY_DENIED ? KS_EPERM : KS_EPROTO, 0, 0,
		   0, "%s %s: %s", what,
		   code == KS_REPLY_DENIED ? "refused" : "failed",
		   why ? why : "no reason given");
	free(why);
	return err ? err->code : KS_EPROTO;
}

int ng_schedd_negotiate(const ks_config *cfg, const char *addr,
			const char *submitter, const char *sig_attrs,
			int timeout_ms,
			ng_schedd **out, size_t *bad, struct ks_err *err)
{
	*out = NULL;
	*bad = 0;
	ng_schedd *s = ks_xcalloc(1, sizeof(*s));
	s->submitter = ks_xstrdup(submitter);
	int rc = ks_conn_open(cfg, addr, timeout_ms, &s->conn, err);
	if (rc == 0) {
		classad *q = classad_new();
		classad_insert_string(q, "Submitter", submitter);
		if (sig_attrs)
			classad_insert_string(q, "AutoClusterAttrs", sig_attrs);
		rc = ks_conn_send(s->conn, KS_NEGOTIATE, &q, 1, 0, err);
		classad_free(q);
	}
	bool more = rc == 0;
	while (rc == 0 && more) {
		int code;
		classad **ads = NULL;
		size_t n = 0;
		rc = ks_conn_recv(s->conn, &code, &ads, &n, &more, err);
		if (rc)
			break;
		if (code != KS_REPLY_OK) {
			rc = refused("NEGOTIATE", code, ads, n, err);
			ks_ads_free(ads, n);
			break;
		}
		for (size_t i = 0; i < n; i++)
			take_request(s, ads[i], bad);
		free(ads);
	}
	if (rc) {
		ng_schedd_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

size_t ng_schedd_count(const ng_schedd *s)
{
	return s->nreq;
}

struct ng_request *ng_schedd_request(ng_schedd *s, size_t i)
{
	return i < s->nreq ? &s->req[i] : NULL;
}

/* Appends a pair: the first ad about autocluster (new), then second
 * (taken). */
static classad *add_pair(ng_schedd *s, int64_t autocluster, classad *second)
{
	if (s->nout + 2 > s->capout) {
		s->capout = s->capout ? s->capout * 2 : 64;
		s->out = ks_xrealloc(s->out, s->capout * sizeof(*s->out));
	}
	classad *m = classad_new();
	classad_insert_int(m, "AutoClusterId", autocluster);
	classad_insert_string(m, "Submitter", s->submitter);
	s->out[s->nout++] = m;
	s->out[s->nout++] = second;
	return m;
}

void ng_schedd_add_match(ng_schedd *s, int64_t autocluster,
			 const char *claim_id, const classad *slot)
{
	classad *m = add_pair(s, autocluster, classad_ref(slot));
	classad_insert_string(m, "ClaimId", claim_id);
	s->nmatch++;
}

void ng_schedd_add_match_dslots(ng_schedd *s, int64_t autocluster,
				const char *claim_id, const classad *slot,
				const char *dslot_claims)
{
	classad *m = add_pair(s, autocluster, classad_ref(slot));
	classad_insert_string(m, "ClaimId", claim_id);
	classad_insert_string(m, "PreemptDslotClaims", dslot_claims);
	s->nmatch++;
}

void ng_schedd_add_rejection(ng_schedd *s, int64_t autocluster,
			     const char *reason)
{
	classad *m = add_pair(s, autocluster, classad_new());
	classad_insert_string(m, "RejectReason", reason);
}

size_t ng_schedd_matches(const ng_schedd *s)
{
	return s->nmatch;
}

/* Sends pairs [from, from + npairs) as PERMISSION_AND_AD messages,
 * splitting a message the wire cannot carry. */
static int send_pairs(ng_schedd *s, size_t from, size_t npairs,
		      struct ks_err *err)
{
	int rc = ks_conn_send(s->conn, KS_PERMISSION_AND_AD,
			      s->out + 2 * from, 2 * npairs, 0, err);
	if (rc == KS_ERANGE && npairs > 1) {
		size_t half = npairs / 2;
		rc = send_pairs(s, from, half, err);
		return rc ? rc : send_pairs(s, from + half, npairs - half, err);
	}
	if (rc)
		return rc;
	int code;
	classad **ads = NULL;
	size_t n = 0;
	bool more;
	rc = ks_conn_recv(s->conn, &code, &ads, &n, &more, err);
	if (rc == 0 && code != KS_REPLY_OK)
		rc = refused("PERMISSION_AND_AD", code, ads, n, err);
	ks_ads_free(ads, n);
	return rc;
}

int ng_schedd_finish(ng_schedd *s, struct ks_err *err)
{
	int rc = 0;
	size_t pairs = s->nout / 2;
	for (size_t at = 0; rc == 0 && at < pairs; at += MAX_PAIRS)
		rc = send_pairs(s, at,
				pairs - at < MAX_PAIRS ? pairs - at : MAX_PAIRS,
				err);
	ks_conn_close(s->conn);
	s->conn = NULL;
	return rc;
}

void ng_schedd_free(ng_schedd *s)
{
	if (!s)
		return;
	ks_conn_close(s->conn);
	for (size_t i = 0; i < s->nreq; i++)
		classad_free(s->req[i].ad);
	free(s->req);
	ks_ads_free(s->out, s->nout);
	free(s->submitter);
	free(s);
}
