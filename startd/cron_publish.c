/*
 * cron_publish.c: the ads the cron jobs published, kept by name and
 * merged into slot ads the way HTCondor's startd merges its named ads:
 * in the order they were first published, each into the slots it
 * targets (SLOTS, then SlotMergeConstraint, SlotName or Name, SlotTypeId,
 * SlotId), custom resource monitors (METRICS) summed or peaked rather
 * than replaced.
 */
#include "cron_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"

/* Attributes that target slots rather than describe them. */
static bool targeting(const char *name)
{
	static const char *const names[] = {"Name", "SlotID",
					    "SlotMergeConstraint", "SlotName",
					    "SlotTypeId"};
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (!strcasecmp(name, names[i]))
			return true;
	return false;
}

const struct cron_metric *sd_cron_metric(const struct cron_params *p,
					 const char *attr)
{
	for (size_t i = 0; i < p->nmetrics; i++)
		if (!strcmp(p->metrics[i].attr, attr))
			return &p->metrics[i];
	return NULL;
}

static bool number(const classad *ad, const classad_expr *e, double *out)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr(ad, e, NULL, &v);
	bool ok = true;
	if (v.type == CLASSAD_INTEGER)
		*out = (double)v.u.i;
	else if (v.type == CLASSAD_REAL)
		*out = v.u.r;
	else
		ok = false;
	classad_value_clear(&v);
	return ok;
}

/* Adds from into to as HTCondor aggregates monitor ads: each metric
 * summed (SUM) or kept at its largest (PEAK), the bookkeeping attributes
 * left out, the rest copied. */
static void aggregate(const sd_cron *c, const struct cron_params *p,
		      classad *to, const classad *from)
{
	size_t pos = 0;
	const char *name;
	const classad_expr *e;
	while (classad_next(from, &pos, &name, &e)) {
		const struct cron_metric *m = sd_cron_metric(p, name);
		if (m) {
			double nv, ov;
			if (!number(from, e, &nv)) {
				ks_log_printf(c->log, KS_D_ALWAYS,
					      "CronJob: '%s': metric %s is not "
					      "a number; ignored",
					      p->name, name);
				continue;
			}
			const classad_expr *old = classad_lookup(to, name);
			if (old && number(to, old, &ov))
				nv = m->peak ? (ov > nv ? ov : nv) : ov + nv;
			classad_insert_real(to, name, nv);
		} else if (!strncmp(name, "StartOfJob", 10) ||
			   !strcmp(name, "ResetStartOfJob") ||
			   !strcmp(name, "SlotMergeConstraint")) {
			continue;
		} else {
			classad_insert(to, name, classad_expr_ref(e));
		}
	}
}

static size_t count_but(const classad *ad, const char *ignore)
{
	size_t pos = 0, n = 0;
	const char *name;
	const classad_expr *e;
	while (classad_next(ad, &pos, &name, &e))
		n += strcasecmp(name, ignore) != 0;
	return n;
}

/* HTCondor's ClassAdsAreSame() with one attribute ignored. */
static bool same(const classad *a, const classad *b, const char *ignore)
{
	if (!a || !b || count_but(a, ignore) != count_but(b, ignore))
		return false;
	size_t pos = 0;
	const char *name;
	const classad_expr *e;
	while (classad_next(a, &pos, &name, &e)) {
		if (!strcasecmp(name, ignore))
			continue;
		const classad_expr *o = classad_lookup(b, name);
		if (!o || !classad_expr_same(e, o))
			return false;
	}
	return true;
}

bool sd_cron_store_ad(sd_cron *c, struct cron_job *j, const char *name,
		      classad *ad)
{
	struct cron_ad **pp = &c->ads;
	while (*pp && strcmp((*pp)->name, name))
		pp = &(*pp)->next;
	if (!*pp) {
		*pp = ks_xcalloc(1, sizeof(**pp));
		(*pp)->name = ks_xstrdup(name);
		(*pp)->job = j;
		(*pp)->ad = ad;
		return true;
	}
	struct cron_ad *a = *pp;
	size_t n = strlen(j->p->prefix) + sizeof("LastUpdate");
	char *lu = ks_xmalloc(n);
	strcpy(lu, j->p->prefix);
	strcat(lu, "LastUpdate");
	bool changed = !same(ad, a->ad, lu);
	free(lu);
	if (j->p->nmetrics && a->ad) {
		aggregate(c, j->p, a->ad, ad);
		classad_free(ad);
	} else {
		classad_free(a->ad);
		a->ad = ad;
	}
	return changed;
}

static bool truth(const classad_value *v)
{
	switch (v->type) {
	case CLASSAD_BOOLEAN:
		return v->u.b;
	case CLASSAD_INTEGER:
		return v->u.i != 0;
	case CLASSAD_REAL:
		return v->u.r != 0.0;
	default:
		return false;
	}
}

/* HTCondor's StartdNamedClassAd::ShouldMergeInto(). */
static bool targets(const classad *from, const classad *slot)
{
	const classad_expr *smc = classad_lookup(from, "SlotMergeConstraint");
	if (smc) {
		classad_value v = CLASSAD_VALUE_INIT;
		classad_eval_expr_in_match(from, slot, smc, NULL, &v);
		bool t = truth(&v);
		classad_value_clear(&v);
		return t;
	}
	char *want = NULL, *have = NULL;
	if ((classad_eval_string(from, "SlotName", NULL, &want) ||
	     classad_eval_string(from, "Name", NULL, &want)) &&
	    classad_eval_string(slot, "Name", NULL, &have) && *want) {
		bool t = !strncmp(have, want, strlen(want));
		free(want);
		free(have);
		return t;
	}
	free(want);
	free(have);
	int64_t a, b;
	if (classad_eval_int(from, "SlotTypeId", NULL, &a) &&
	    classad_eval_int(slot, "SlotTypeId", NULL, &b))
		return a == b;
	if (classad_eval_int(from, "SlotID", NULL, &a) &&
	    classad_eval_int(slot, "SlotID", NULL, &b))
		return a == b;
	return true;
}

/* Merges from into into; a slot ad takes no targeting attributes, a
 * daemon's ad all but its identity. */
static void merge(classad *into, const classad *from, bool daemon)
{
	size_t pos = 0;
	const char *name;
	const classad_expr *e;
	while (classad_next(from, &pos, &name, &e))
		if (daemon ? strcasecmp(name, "Name") &&
				     strcasecmp(name, "MyType")
			   : !targeting(name))
			classad_insert(into, name, classad_expr_ref(e));
}

/* Whether a's ad goes into ad: for a daemon's ad (slot 0) always. */
static bool goes_into(const struct cron_ad *a, int slot, const classad *ad)
{
	if (!a->ad)
		return false;
	if (!slot)
		return true;
	return sd_cron_in_slots(a->job->p, slot) && targets(a->ad, ad);
}

static void publish(const sd_cron *c, int slot, classad *ad)
{
	if (!c || !ad)
		return;
	for (const struct cron_ad *a = c->ads; a; a = a->next)
		if (!a->job->p->nmetrics && goes_into(a, slot, ad))
			merge(ad, a->ad, !slot);
	/* a slot may hold several instances of a monitored resource: their
	 * ads add up rather than replace one another */
	classad *acc = NULL;
	for (const struct cron_ad *a = c->ads; a; a = a->next)
		if (a->job->p->nmetrics && goes_into(a, slot, ad)) {
			if (!acc)
				acc = classad_new();
			aggregate(c, a->job->p, acc, a->ad);
		}
	if (acc)
		merge(ad, acc, !slot);
	classad_free(acc);
}

void sd_cron_publish(const sd_cron *c, int slot, classad *ad)
{
	if (slot > 0)
		publish(c, slot, ad);
}

void sd_cron_publish_daemon(const sd_cron *c, classad *ad)
{
	publish(c, 0, ad);
}
