/*
 * own_query.c: a startd answering QUERY_STARTD_ADS itself, as HTCondor's
 * does for tools that must not depend on the collector: condor_who asks
 * the startd of its own machine which slots run jobs, and a slot ad there
 * is as fresh as the startd's state, not as old as the last update.
 *
 * The answer is what the collector would give for the same query ad: the
 * slot ads the startd would send it (private ads left out), kept when the
 * query's Requirements holds, at most LimitResults of them, projected,
 * and streamed in the collector's pieces.  Other daemons do not serve the
 * command, and say so as for any command they do not know.
 */
#include "daemon_int.h"

#include <stdlib.h>

#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_query.h"
#include "ks_wire.h"

/* About as much as one reply message carries, as the collector's. */
#define OWN_CHUNK (256u * 1024)

struct own_reply {
	classad **ads;
	size_t n, next;
	struct ks_projection proj;
};

static bool own_piece(ks_daemon *d, void *arg, struct classad_buf *out)
{
	(void)d;
	struct own_reply *q = arg;
	size_t start = out->len;
	while (q->next < q->n && out->len - start < OWN_CHUNK)
		ks_projection_encode(out, q->ads[q->next++], &q->proj);
	return q->next < q->n;
}

static void own_done(void *arg)
{
	struct own_reply *q = arg;
	for (size_t i = 0; i < q->n; i++)
		classad_free(q->ads[i]);
	free(q->ads);
	ks_projection_free(&q->proj);
	free(q);
}

void kd_cmd_query_own(ks_daemon *d, struct ks_request *req)
{
	/* UPDATE_STARTD_AD is code 0, the default: a daemon with no ads of
	 * its own has it too */
	bool startd = (d->ops->make_ads || d->ops->make_ad) &&
		      d->ops->update_code == KS_UPDATE_STARTD_AD;
	if (!startd) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "command %d (QUERY_STARTD_ADS) from %s: not a "
			      "command of this daemon", req->code,
			      req->identity);
		ks_reply_error(req, "command %d (QUERY_STARTD_ADS) is not "
			       "served by the %s", req->code, d->subsys);
		return;
	}
	if (req->n != 1) {
		ks_reply_error(req, "QUERY_STARTD_ADS needs one query ad");
		return;
	}
	const classad *qad = req->ads[0];
	const classad_expr *r = classad_lookup(qad, "Requirements");
	int64_t limit = -1;
	classad_eval_int(qad, "LimitResults", NULL, &limit);
	struct own_reply *q = ks_xcalloc(1, sizeof(*q));
	ks_projection_read(qad, &q->proj);
	size_t all;
	q->ads = kd_public_ads(d, &all);
	for (size_t i = 0; i < all; i++) {
		bool keep = (limit < 0 || q->n < (size_t)limit) &&
			    ks_query_matches(q->ads[i], r);
		if (keep)
			q->ads[q->n++] = q->ads[i];
		else
			classad_free(q->ads[i]);
	}
	ks_log_printf(d->log, KS_D_FULLDEBUG, "QUERY_STARTD_ADS from %s: %zu "
		      "of %zu ads", req->identity, q->n, all);
	ks_reply_stream(req, KS_REPLY_OK, own_piece, own_done, q);
}
