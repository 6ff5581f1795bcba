/*
 * dslot.c: dynamic slots.  A claim on a partitionable slot carves a new
 * slot (slot1_1, slot1_2, ...) holding what the job asks for, rounded as
 * MODIFY_REQUEST_EXPR_REQUEST{CPUS,MEMORY,DISK} say; the partitionable
 * slot keeps (and advertises) what is left.  Custom resources are carved
 * the same way, by the job's Request<name>: a resource with ids gives the
 * dynamic slot the first ones still free.  When the dynamic slot's claim
 * ends it goes, and its resources go back.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_commands.h"
#include "ks_mem.h"
#include "sd_startd.h"

/* A request of the job, after its MODIFY_REQUEST_EXPR_ rounding: the
 * expression is evaluated with the job (its Request* attributes, given
 * their JOB_DEFAULT_REQUEST* when it has none) as MY. */
static double request(ks_daemon *d, const classad *job, const char *attr,
		      double def)
{
	char knob[96];
	snprintf(knob, sizeof(knob), "JOB_DEFAULT_%s", attr);
	for (char *p = knob + 12; *p; p++)
		*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
	classad *ad = classad_copy(job);
	if (!classad_lookup(ad, attr)) {
		char *text = ks_config_get(d->cfg, knob, NULL);
		if (!text || classad_insert_text(ad, attr, text, NULL) != 0)
			classad_insert_real(ad, attr, def);
		free(text);
	}
	double out = def;
	classad_eval_real(ad, attr, NULL, &out);
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
			out = (double)v.u.i;
		else if (v.type == CLASSAD_REAL)
			out = v.u.r;
		classad_value_clear(&v);
	}
	classad_expr_free(e);
	free(modify);
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

struct sd_slot *sd_dslot_carve(ks_daemon *d, struct sd_slot *p,
			       const classad *job, char *why, size_t size)
{
	struct startd *sd = d->ctx;
	double cpus = request(d, job, "RequestCpus", 1);
	double memory = request(d, job, "RequestMemory", 128);
	double disk = request(d, job, "RequestDisk", 1024);
	if (cpus < 1)
		cpus = 1; /* a static share of a CPU is not carved */
	if (cpus > p->left_cpus + 1e-9 || memory > p->left_memory ||
	    disk > (double)p->left_disk) {
		snprintf(why, size,
			 "%s has Cpus %g, Memory %d MiB, Disk %lld KiB left; the "
			 "job asks for %g, %g MiB, %g KiB",
			 p->short_name, p->left_cpus, p->left_memory,
			 (long long)p->left_disk, cpus, memory, disk);
		return NULL;
	}
	double *want = ks_xcalloc(p->spec.nres + 1, sizeof(*want));
	if (!custom_requests(d, p, job, want, why, size)) {
		free(want);
		return NULL;
	}
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
	snprintf(buf, sizeof(buf), "%s@%s", s->spec.name, sd->hostname);
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

bool sd_dslot_sweep(ks_daemon *d)
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
	return any;
}
