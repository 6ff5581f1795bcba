/*
 * dslot.c: dynamic slots.  A claim on a partitionable slot carves a new
 * slot (slot1_1, slot1_2, ...) holding what the job asks for, rounded as
 * MODIFY_REQUEST_EXPR_REQUEST{CPUS,MEMORY,DISK} say; the partitionable
 * slot keeps (and advertises) what is left.  Custom resources are carved
 * the same way, by the job's Request<name>: a resource with ids gives the
 * dynamic slot the first ones still free.  A partitionable slot with a
 * consumption policy (it advertises Consumption<name> for each resource)
 * hands out instead what those expressions say for the job, as HTCondor
 * does.  When the dynamic slot's claim ends it goes, and its resources go
 * back.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_text.h"
#include "sd_startd.h"

/* Puts the job's request attr into ad (a copy of the job) as the startd
 * reads it: the job's own, else JOB_DEFAULT_<ATTR>, else *def (none when
 * def is NULL), then rounded by MODIFY_REQUEST_EXPR_<ATTR> (evaluated
 * with the job as MY) when that gives a number. */
static void fix_request(ks_daemon *d, classad *ad, const char *attr,
			const double *def)
{
	char knob[96];
	snprintf(knob, sizeof(knob), "JOB_DEFAULT_%s", attr);
	for (char *p = knob + 12; *p; p++)
		*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
	if (!classad_lookup(ad, attr)) {
		char *text = ks_config_get(d->cfg, knob, NULL);
		if ((!text || classad_insert_text(ad, attr, text, NULL) != 0) &&
		    def)
			classad_insert_real(ad, attr, *def);
		free(text);
	}
	snprintf(knob, sizeof(knob), "MODIFY_REQUEST_EXPR_%s", attr);
	for (char *p = knob + 20; *p; p++)
		*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
	char *modify = ks_config_get(d->cfg, knob, NULL);
	classad_expr *e = modify ? classad_parse_expr(modify, strlen(modify), NULL)
				 : NULL;
	if (e) {
		classad_value v = CLASSAD_VALUE_INIT;
		classad_eval_expr(ad, e, NULL, &v);
		if (v.type == CLASSAD_INTEGER)
			classad_insert_int(ad, attr, v.u.i);
		else if (v.type == CLASSAD_REAL)
			classad_insert_real(ad, attr, v.u.r);
		classad_value_clear(&v);
	}
	classad_expr_free(e);
	free(modify);
}

/* A request of the job, as fix_request() makes it; def when that is not
 * a number. */
static double request(ks_daemon *d, const classad *job, const char *attr,
		      double def)
{
	classad *ad = classad_copy(job);
	fix_request(d, ad, attr, &def);
	double out = def;
	classad_eval_real(ad, attr, NULL, &out);
	classad_free(ad);
	return out;
}

void sd_dslot_init(struct sd_slot *p)
{
	p->left_cpus = p->spec.cpus;
	p->left_memory = p->spec.memory;
	p->left_disk = p->spec.disk;
	size_t n = p->spec.nres;
	p->left_res = n ? ks_xcalloc(n, sizeof(*p->left_res)) : NULL;
	for (size_t j = 0; j < n; j++) {
		const struct sd_slot_res *r = &p->spec.res[j];
		struct sd_slot_res *l = &p->left_res[j];
		l->name = ks_xstrdup(r->name);
		l->amount = r->amount;
		l->nids = r->nids;
		l->ids = r->nids ? ks_xmalloc(r->nids * sizeof(*l->ids)) : NULL;
		for (size_t k = 0; k < r->nids; k++)
			l->ids[k] = ks_xstrdup(r->ids[k]);
	}
}

void sd_dslot_left_attrs(const struct sd_slot *p, classad *ad)
{
	if (p->spec.fractional_cpus)
		classad_insert_real(ad, "Cpus", p->left_cpus);
	else
		classad_insert_int(ad, "Cpus", (int64_t)(p->left_cpus + 0.1));
	classad_insert_int(ad, "Memory", p->left_memory);
	classad_insert_int(ad, "Disk", p->left_disk);
	classad_insert_int(ad, "NumDynamicSlots", p->children);
	for (size_t j = 0; p->left_res && j < p->spec.nres; j++) {
		const struct sd_slot_res *l = &p->left_res[j];
		classad_insert_int(ad, l->name, (int64_t)l->amount);
		if (!p->spec.res[j].nids)
			continue;
		/* the ids still free */
		struct classad_buf ids = {0};
		for (size_t k = 0; k < l->nids; k++) {
			if (k)
				classad_buf_add(&ids, ",", 1);
			classad_buf_add(&ids, l->ids[k], strlen(l->ids[k]));
		}
		char attr[256];
		snprintf(attr, sizeof(attr), "Assigned%s", l->name);
		classad_insert_string(ad, attr, ids.data ? ids.data : "");
		free(ids.data);
	}
}

/* The job's requests of p's custom resources, into want[] (whole units);
 * false with why filled when one is more than p has left. */
static bool custom_requests(ks_daemon *d, const struct sd_slot *p,
			    const classad *job, double *want, char *why,
			    size_t size)
{
	for (size_t j = 0; j < p->spec.nres; j++) {
		const struct sd_slot_res *l = &p->left_res[j];
		char attr[128];
		snprintf(attr, sizeof(attr), "Request%s", l->name);
		double w = request(d, job, attr, 0);
		/* whole units (w may be huge or NaN: compared before cast) */
		want[j] = !(w > 0) ? 0 : w > l->amount ? w
						       : ceil(w - 1e-6);
		if (want[j] > l->amount + 1e-9) {
			snprintf(why, size,
				 "%s has %g %s left; the job asks for %g",
				 p->short_name, l->amount, l->name, want[j]);
			return false;
		}
	}
	return true;
}

/* Moves want[] of p's custom resources (and as many of their free ids)
 * into dynamic slot s. */
static void carve_custom(struct sd_slot *p, struct sd_slot *s,
			 const double *want)
{
	size_t n = p->spec.nres;
	s->spec.nres = n;
	s->spec.res = n ? ks_xcalloc(n, sizeof(*s->spec.res)) : NULL;
	for (size_t j = 0; j < n; j++) {
		struct sd_slot_res *l = &p->left_res[j], *r = &s->spec.res[j];
		r->name = ks_xstrdup(l->name);
		r->amount = want[j];
		l->amount -= want[j];
		size_t take = p->spec.res[j].nids ? (size_t)want[j] : 0;
		if (take > l->nids)
			take = l->nids;
		r->nids = take;
		if (!take)
			continue;
		r->ids = ks_xmalloc(take * sizeof(*r->ids));
		memcpy(r->ids, l->ids, take * sizeof(*r->ids));
		memmove(l->ids, l->ids + take, (l->nids - take) * sizeof(*l->ids));
		l->nids -= take;
	}
}

static bool holds_id(const struct sd_slot_res *r, const char *id)
{
	for (size_t k = 0; k < r->nids; k++)
		if (strcmp(r->ids[k], id) == 0)
			return true;
	return false;
}

/* Gives dynamic slot s's custom resources back to p; p's free ids stay
 * in the order of its share. */
static void give_back_custom(struct sd_slot *p, struct sd_slot *s)
{
	for (size_t j = 0; p->left_res && j < p->spec.nres && j < s->spec.nres;
	     j++) {
		struct sd_slot_res *l = &p->left_res[j], *r = &s->spec.res[j];
		const struct sd_slot_res *all = &p->spec.res[j];
		l->amount += r->amount;
		if (!r->nids)
			continue;
		char **ids = ks_xmalloc(all->nids * sizeof(*ids));
		size_t n = 0;
		for (size_t k = 0; k < all->nids; k++)
			if (holds_id(l, all->ids[k]) || holds_id(r, all->ids[k]))
				ids[n++] = ks_xstrdup(all->ids[k]);
		for (size_t k = 0; k < l->nids; k++)
			free(l->ids[k]);
		free(l->ids);
		l->ids = ids;
		l->nids = n;
	}
}

/* What a job takes from p: Cpus, Memory, Disk and want[] of its custom
 * resources (whole units). */
struct share {
	double cpus, memory, disk;
	double *want; /* p->spec.nres + 1 entries */
};

/* The share by the job's requests; false with why filled when p has too
 * little left. */
static bool share_by_request(ks_daemon *d, const struct sd_slot *p,
			     const classad *job, struct share *sh, char *why,
			     size_t size)
{
	sh->cpus = request(d, job, "RequestCpus", 1);
	sh->memory = request(d, job, "RequestMemory", 128);
	sh->disk = request(d, job, "RequestDisk", 1024);
	if (sh->cpus < 1)
		sh->cpus = 1; /* a static share of a CPU is not carved */
	if (sh->cpus > p->left_cpus + 1e-9 || sh->memory > p->left_memory ||
	    sh->disk > (double)p->left_disk) {
		snprintf(why, size,
			 "%s has Cpus %g, Memory %d MiB, Disk %lld KiB left; the "
			 "job asks for %g, %g MiB, %g KiB",
			 p->short_name, p->left_cpus, p->left_memory,
			 (long long)p->left_disk, sh->cpus, sh->memory, sh->disk);
		return false;
	}
	return custom_requests(d, p, job, sh->want, why, size);
}

/* Whether p's ad (pad) carries a consumption policy: Consumption<name>
 * for every resource of MachineResources but Swap, as HTCondor asks. */
static bool has_policy(const classad *pad)
{
	char *res = NULL;
	if (!classad_eval_string(pad, "MachineResources", NULL, &res))
		return false;
	bool all = true, any = false;
	size_t pos = 0, n;
	for (const char *q; all && (q = ks_list_next(res, &pos, &n));) {
		char attr[160];
		snprintf(attr, sizeof(attr), "Consumption%.*s", (int)n, q);
		if (!(n == 4 && strncasecmp(q, "Swap", 4) == 0)) {
			all = classad_lookup(pad, attr) != NULL;
			any = true;
		}
		q += n;
	}
	free(res);
	return all && any;
}

/* What p's Consumption<name> says for job (TARGET): a number not below 0,
 * else -1 with why filled. */
static double consumption(const struct sd_slot *p, const classad *pad,
			  const classad *job, const char *name, char *why,
			  size_t size)
{
	char attr[160];
	snprintf(attr, sizeof(attr), "Consumption%s", name);
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr_in_match(pad, job, classad_lookup(pad, attr), NULL,
				   &v);
	double out = -1;
	if (v.type == CLASSAD_INTEGER)
		out = (double)v.u.i;
	else if (v.type == CLASSAD_REAL)
		out = v.u.r;
	else if (v.type == CLASSAD_BOOLEAN)
		out = v.u.b ? 1 : 0;
	if (!(out >= 0) || isinf(out)) {
		char *text = classad_value_unparse(&v, false);
		snprintf(why, size,
			 "%s's %s is %s for this job, not a number of at least 0",
			 p->short_name, attr, text ? text : "unknown");
		free(text);
		out = -1;
	}
	classad_value_clear(&v);
	return out;
}

/* The share by p's consumption policy (pad is p's ad): each resource's
 * Consumption<name> evaluated against the job, its RequestCpus, Memory
 * and Disk read as fix_request() reads them (a custom resource it does
 * not ask for counts as 0).  As HTCondor: a value that is not a number of at least 0,
 * more than p has left, or 0 for every resource refuses the claim; a
 * dynamic slot gets at least 1/128 of a CPU. */
static bool share_by_policy(ks_daemon *d, const struct sd_slot *p,
			    const classad *pad, const classad *job,
			    struct share *sh, char *why, size_t size)
{
	classad *jc = classad_copy(job);
	static const double defs[] = {1, 128, 1024};
	fix_request(d, jc, "RequestCpus", &defs[0]);
	fix_request(d, jc, "RequestMemory", &defs[1]);
	fix_request(d, jc, "RequestDisk", &defs[2]);
	for (size_t j = 0; j < p->spec.nres; j++) {
		char attr[160];
		snprintf(attr, sizeof(attr), "Request%s", p->spec.res[j].name);
		if (!classad_lookup(jc, attr))
			classad_insert_int(jc, attr, 0);
	}
	bool ok = true, any = false;
	static const char *const std[] = {"Cpus", "Memory", "Disk"};
	double v[3];
	for (size_t i = 0; i < 3 && ok; i++) {
		v[i] = consumption(p, pad, jc, std[i], why, size);
		ok = v[i] >= 0;
		any = any || v[i] > 0;
	}
	if (ok && (v[0] > p->left_cpus + 1e-9 || v[1] > p->left_memory ||
		   v[2] > (double)p->left_disk)) {
		snprintf(why, size,
			 "%s has Cpus %g, Memory %d MiB, Disk %lld KiB left; its "
			 "consumption policy takes %g, %g MiB, %g KiB for the job",
			 p->short_name, p->left_cpus, p->left_memory,
			 (long long)p->left_disk, v[0], v[1], v[2]);
		ok = false;
	}
	for (size_t j = 0; j < p->spec.nres && ok; j++) {
		const struct sd_slot_res *l = &p->left_res[j];
		double w = consumption(p, pad, jc, l->name, why, size);
		ok = w >= 0;
		any = any || w > 0;
		sh->want[j] = w > l->amount ? w : ceil(w - 1e-6);
		if (ok && sh->want[j] > l->amount + 1e-9) {
			snprintf(why, size,
				 "%s has %g %s left; its consumption policy "
				 "takes %g for the job",
				 p->short_name, l->amount, l->name, sh->want[j]);
			ok = false;
		}
	}
	classad_free(jc);
	if (ok && !any) {
		snprintf(why, size,
			 "%s's consumption policy takes nothing of any resource "
			 "for this job", p->short_name);
		ok = false;
	}
	if (!ok)
		return false;
	sh->cpus = v[0] >= 1.0 / 128 ? v[0]
		   : p->left_cpus < 1.0 / 128 ? p->left_cpus : 1.0 / 128;
	sh->memory = floor(v[1]);
	sh->disk = ceil(v[2]);
	return true;
}

struct sd_slot *sd_dslot_carve(ks_daemon *d, struct sd_slot *p,
			       const classad *job, char *why, size_t size)
{
	struct startd *sd = d->ctx;
	struct share sh = {0};
	sh.want = ks_xcalloc(p->spec.nres + 1, sizeof(*sh.want));
	classad *pad = sd_slot_ad_now(d, p);
	bool policy = has_policy(pad);
	bool ok = policy ? share_by_policy(d, p, pad, job, &sh, why, size)
			 : share_by_request(d, p, job, &sh, why, size);
	classad_free(pad);
	if (!ok) {
		if (policy)
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "%s: consumption policy: %s",
				      p->short_name, why);
		free(sh.want);
		return NULL;
	}
	double cpus = sh.cpus, memory = sh.memory, disk = sh.disk;
	double *want = sh.want;
	struct sd_slot *s = ks_xcalloc(1, sizeof(*s));
	s->id = p->id;
	s->type = p->type;
	s->parent = p->id;
	s->sub = ++p->last_sub;
	/* its share, as a static slot of the same type would have it */
	s->spec = p->spec;
	carve_custom(p, s, want);
	free(want);
	s->spec.partitionable = false;
	s->spec.cpus = cpus;
	s->spec.memory = (int)memory;
	s->spec.disk = (int64_t)disk;
	/* the parent's name is short ("slot1"): it and "_<M>" fit */
	char name[96];
	snprintf(name, sizeof(name), "%.40s_%d", p->spec.name, s->sub);
	memcpy(s->spec.name, name, strlen(name) + 1);
	char buf[400];
	snprintf(buf, sizeof(buf), "%s@%s", s->spec.name, sd->slot_host);
	s->name = ks_xstrdup(buf);
	s->short_name = ks_xstrdup(s->spec.name);
	s->st = (struct sd_slot_state){.state = SD_UNCLAIMED,
				       .activity = SD_IDLE};
	s->entered_state = s->entered_activity = sd_now();
	sd_slot_configure(s, d->cfg, d->log);
	sd_claim_new_id(d, s);
	p->left_cpus -= cpus;
	p->left_memory -= (int)memory;
	p->left_disk -= (int64_t)disk;
	p->children++;
	sd->slots = ks_xrealloc(sd->slots, (sd->nslots + 1) * sizeof(*sd->slots));
	sd->slots[sd->nslots++] = s;
	sd_all_changed(d); /* TotalSlots, in every ad */
	struct classad_buf custom = {0};
	for (size_t j = 0; j < s->spec.nres; j++) {
		const struct sd_slot_res *r = &s->spec.res[j];
		classad_buf_printf(&custom, ", %s %g", r->name, r->amount);
		for (size_t k = 0; k < r->nids; k++)
			classad_buf_printf(&custom, "%s%s", k ? "," : " (",
					   r->ids[k]);
		if (r->nids)
			classad_buf_add(&custom, ")", 1);
	}
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "%s: carved %s (Cpus %g, Memory %g MiB, Disk %g KiB%s)",
		      p->short_name, s->short_name, cpus, memory, disk,
		      custom.data ? custom.data : "");
	free(custom.data);
	return s;
}

static struct sd_slot *parent_of(struct startd *sd, const struct sd_slot *s)
{
	for (size_t i = 0; i < sd->nslots; i++)
		if (sd->slots[i]->spec.partitionable &&
		    sd->slots[i]->id == s->parent)
			return sd->slots[i];
	return NULL;
}

/* Deletes the dynamic slots whose claim has ended, giving their
 * resources back; true if there were any (and then a claim waiting for
 * some of them may have its slot: sd_pslot_preempt_resume()). */
static bool dslot_sweep(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	bool any = false;
	for (size_t i = 0; i < sd->nslots;) {
		struct sd_slot *s = sd->slots[i];
		if (!s->dead) {
			i++;
			continue;
		}
		struct sd_slot *p = parent_of(sd, s);
		if (p) {
			p->left_cpus += s->spec.cpus;
			p->left_memory += s->spec.memory;
			p->left_disk += s->spec.disk;
			give_back_custom(p, s);
			p->children--;
		}
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: deleted; its resources go back to %s",
			      s->short_name, p ? p->short_name : "nobody");
		/* its ad leaves the collector with it */
		classad *q = classad_new();
		classad_insert_string(q, "MyType", "Query");
		classad_insert_string(q, "TargetType", "Machine");
		classad_insert_string(q, "Name", s->name);
		struct classad_buf req = {0};
		classad_buf_add(&req, "TARGET.Name == ", 15);
		classad_quote_string_buf(&req, s->name, strlen(s->name));
		classad_insert_text(q, "Requirements", req.data, NULL);
		free(req.data);
		ks_daemon_send(d, KS_INVALIDATE_STARTD_ADS, &q, 1);
		classad_free(q);
		sd_claim_remove_ids(d, s);
		sd_slot_clear(s);
		free(s);
		memmove(sd->slots + i, sd->slots + i + 1,
			(sd->nslots - i - 1) * sizeof(*sd->slots));
		sd->nslots--;
		sd_all_changed(d);
		any = true;
	}
	if (any)
		sd_pslot_preempt_resume(d);
	return any;
}

/* Lends p the resources of dynamic slots with[0..n) (sign 1), or takes
 * them back (-1): amounts only, for sd_dslot_fits(). */
static void lend(struct sd_slot *p, struct sd_slot *const *with, size_t n,
		 int sign)
{
	for (size_t i = 0; i < n; i++) {
		const struct sd_slot *w = with[i];
		p->left_cpus += sign * w->spec.cpus;
		p->left_memory += sign * w->spec.memory;
		p->left_disk += sign * w->spec.disk;
		for (size_t j = 0; p->left_res && j < p->spec.nres &&
				   j < w->spec.nres; j++)
			p->left_res[j].amount += sign * w->spec.res[j].amount;
	}
}

bool sd_dslot_fits(ks_daemon *d, struct sd_slot *p, const classad *job,
		   struct sd_slot *const *with, size_t n, char *why,
		   size_t size)
{
	lend(p, with, n, 1);
	struct share sh = {0};
	sh.want = ks_xcalloc(p->spec.nres + 1, sizeof(*sh.want));
	classad *pad = sd_slot_ad_now(d, p);
	bool ok = has_policy(pad)
			  ? share_by_policy(d, p, pad, job, &sh, why, size)
			  : share_by_request(d, p, job, &sh, why, size);
	classad_free(pad);
	free(sh.want);
	lend(p, with, n, -1);
	return ok;
}

const struct sd_feature sd_dslot_feature = {
	.name = "dynamic slots",
	.pass = dslot_sweep,
};
