/*
 * dslot.c: dynamic slots.  A claim on a partitionable slot carves a new
 * slot (slot1_1, slot1_2, ...) holding what the job asks for, rounded as
 * MODIFY_REQUEST_EXPR_REQUEST{CPUS,MEMORY,DISK} say; the partitionable
 * slot keeps (and advertises) what is left.  When the dynamic slot's
 * claim ends it goes, and its resources go back.
 */
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
	struct sd_slot *s = ks_xcalloc(1, sizeof(*s));
	s->id = p->id;
	s->type = p->type;
	s->parent = p->id;
	s->sub = ++p->last_sub;
	/* its share, as a static slot of the same type would have it (no
	 * custom resources: those are not carved yet) */
	s->spec = p->spec;
	s->spec.nres = 0;
	s->spec.res = NULL;
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
	s->claim.out_fd = -1;
	sd_slot_configure(s, d->cfg, d->log);
	sd_claim_new_id(d, s);
	p->left_cpus -= cpus;
	p->left_memory -= (int)memory;
	p->left_disk -= (int64_t)disk;
	p->children++;
	sd->slots = ks_xrealloc(sd->slots, (sd->nslots + 1) * sizeof(*sd->slots));
	sd->slots[sd->nslots++] = s;
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "%s: carved %s (Cpus %g, Memory %g MiB, Disk %g KiB)",
		      p->short_name, s->short_name, cpus, memory, disk);
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
		sd_slot_clear(s);
		free(s);
		memmove(sd->slots + i, sd->slots + i + 1,
			(sd->nslots - i - 1) * sizeof(*sd->slots));
		sd->nslots--;
		any = true;
	}
	return any;
}
