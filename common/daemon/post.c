/* post.c: what a daemon sends its collector (updates, invalidations),
 * through its loop and one message at a time: two messages on two
 * connections at once could reach the collector in either order, and an
 * update sent before a dynamic slot was deleted must not bring it back
 * after the invalidation.  While the collector is slow or stopped, the
 * queue holds at most one update (updates queued meanwhile become one
 * whole update, made when it is sent) and the invalidations. */
#include "daemon_int.h"

#include <stdlib.h>

#include "ks_mem.h"
#include "ks_pool.h"

struct kd_post {
	struct kd_post *next;
	int code;
	classad **ads; /* owned; NULL for a whole update made when sent */
	size_t n;
	unsigned flags;
	bool update;
};

static void free_post(struct kd_post *p)
{
	for (size_t i = 0; i < p->n; i++)
		classad_free(p->ads[i]);
	free(p->ads);
	free(p);
}

static void start_next(ks_daemon *d);

static void on_posted(void *arg, ks_call *c, int rc, const struct ks_err *err)
{
	ks_daemon *d = arg;
	struct ks_daemon_priv *p = d->priv;
	struct kd_post *done = p->posts;
	p->post_call = NULL;
	p->posts = done->next;
	if (!p->posts)
		p->posts_tail = NULL;
	kd_posted(d, ks_call_code(c), done->update, rc,
		  rc ? (err ? err->msg : "failed") : NULL);
	free_post(done);
	start_next(d);
}

static void start_next(ks_daemon *d)
{
	static const struct ks_call_ops ops = {NULL, on_posted};
	struct ks_daemon_priv *p = d->priv;
	while (p->posts && !p->post_call) {
		struct kd_post *e = p->posts;
		if (!e->ads) /* a whole update, as the daemon has it now */
			e->ads = kd_update_ads(d, &e->n);
		char *addr = NULL;
		struct ks_err err = {0};
		if (e->n && ks_collector_addr(d->cfg, NULL, &addr, &err) == 0) {
			p->post_call = ks_call_post(
				d->calls, d->cfg, addr, e->code, e->ads, e->n,
				e->flags, KD_COLLECTOR_TIMEOUT_MS, &ops, d);
			free(addr);
			return;
		}
		p->posts = e->next;
		if (!p->posts)
			p->posts_tail = NULL;
		if (e->n)
			kd_posted(d, e->code, e->update, err.code, err.msg);
		free_post(e);
	}
}

void kd_post(ks_daemon *d, int code, classad **ads, size_t n, unsigned flags,
	     bool update)
{
	struct ks_daemon_priv *p = d->priv;
	if (update) {
		/* an update not yet on its way takes this one's place,
		 * whole (the two may name different ads) */
		for (struct kd_post *e = p->posts; e; e = e->next) {
			if (!e->update || (e == p->posts && p->post_call))
				continue;
			for (size_t i = 0; i < e->n; i++)
				classad_free(e->ads[i]);
			free(e->ads);
			e->ads = NULL;
			e->n = 0;
			for (size_t i = 0; i < n; i++)
				classad_free(ads[i]);
			free(ads);
			return;
		}
	}
	struct kd_post *e = ks_xcalloc(1, sizeof(*e));
	*e = (struct kd_post){NULL, code, ads, n, flags, update};
	if (p->posts_tail)
		p->posts_tail->next = e;
	else
		p->posts = e;
	p->posts_tail = e;
	start_next(d);
}

void kd_posts_free(ks_daemon *d)
{
	struct ks_daemon_priv *p = d->priv;
	while (p->posts) {
		struct kd_post *e = p->posts;
		p->posts = e->next;
		free_post(e);
	}
	p->posts_tail = NULL;
	p->post_call = NULL; /* (the daemon's calls are freed with it) */
}
