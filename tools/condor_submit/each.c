/*
 * each.c: the jobs of a description (submit.h): each queue statement's
 * items and repetitions in order, one ad each, and whether the
 * description asks for late materialization.
 */
#include <limits.h>
#include <stdlib.h>

#include "submit.h"

int sub_each_job(const ks_config *cfg, const struct sub_file *sf,
		 long cluster, const char *iwd, const char *user,
		 long long now, sub_job_fn fn, void *arg, long *njobs,
		 struct ks_err *err)
{
	long proc = 0;
	*njobs = 0;
	struct sub_memo *memo = sub_memo_new();
	int rc = 0;
	for (size_t qi = 0; qi < sf->nqueues && rc == 0; qi++) {
		const struct sub_queue *q = &sf->queues[qi];
		size_t nitems = q->listed ? q->nrows : 1;
		for (size_t r = 0; r < nitems && rc == 0; r++)
			for (long step = 0; step < q->count && rc == 0; step++) {
				struct sub_job_ctx c = {
					.file = sf, .queue = q, .row = r,
					.cluster = cluster, .proc = proc,
					.step = step, .item_index = q->index ? q->index[r] : (long)r,
					.iwd = iwd, .user = user, .cfg = cfg,
					.qdate = now, .memo = memo};
				classad *ad = sub_job_ad(&c, err);
				if (!ad) {
					rc = err->code ? err->code : KS_EINVAL;
					break;
				}
				rc = fn(arg, ad, err);
				if (rc)
					break;
				proc++;
				*njobs = proc;
			}
	}
	sub_memo_free(memo);
	return rc;
}

int sub_factory(const ks_config *cfg, const struct sub_file *sf,
		const char *iwd, const char *user, bool *factory,
		struct ks_err *err)
{
	*factory = false;
	if (!sf->nqueues)
		return 0;
	/* what is set before the first queue statement decides */
	struct sub_job_ctx c = {.file = sf, .queue = &sf->queues[0],
				.iwd = iwd, .user = user, .cfg = cfg};
	static const char *const keys[][2] = {
		{"max_materialize", "JobMaterializeLimit"},
		{"max_idle", "JobMaterializeMaxIdle"},
		{"materialize_max_idle", "JobMaterializeMaxIdle"}};
	for (size_t i = 0; i < 3 && !*factory; i++) {
		char *v = sub_param(&c, keys[i][0], keys[i][1]);
		long long n = 0;
		int rc = v && (!sub_value_int(v, &n) || n < INT_MIN ||
			       n >= INT_MAX)
				 ? ks_err_set(err, KS_EINVAL, 0, 0, 0,
					      "%s=%s is invalid, must eval to an "
					      "integer.", keys[i][0], v)
				 : 0;
		*factory = v != NULL;
		free(v);
		if (rc)
			return rc;
	}
	/* a factory is made of one queue statement, the description's
	 * last */
	if (*factory && (sf->nqueues > 1 || sf->queues[0].nvars_set < sf->nvars))
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "Extra data found after queue statement");
	return 0;
}
