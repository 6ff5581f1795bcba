/*
 * layout.c: the slots of condor_startd (sd_layout.h).
 *
 * Runs once at start-up.  The steps are HTCondor 25's, in its order, so
 * that a configuration gets the same slots (and the same refusals):
 * count the slots of each type; turn each slot type's description into a
 * request in machine units; take the explicit amounts from the machine
 * slot by slot; hand out the auto shares of what is left; bind the ids of
 * custom resources to the slots in slot order.
 */
#include "sd_layout.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "ks_text.h"

/* HTCondor's tolerance when it checks that an amount is left. */
#define FLOOR (-0.000001)

/* An amount's suffix scales it up to the resource's unit and no further:
 * memory is in MiB (M), disk and swap in KiB (K). */
#define SCALE_NONE 99
#define SCALE_KIB 1
#define SCALE_MIB 2

enum share_kind { SH_UNSET, SH_AUTO, SH_FRACTION, SH_AMOUNT };

struct share {
	enum share_kind kind;
	double v;  /* a fraction (0.25) or an amount */
	int scale; /* an amount's suffix: K 1, M 2, G 3, T 4, P 5 */
};

/* A slot type's request in machine units; auto amounts are settled once
 * every slot has taken its explicit ones. */
struct request {
	bool fractional;
	bool cpus_auto, mem_auto, swap_auto, disk_auto;
	double cpus;
	int mem;
	int64_t swap, disk;
	bool *res_auto;       /* per machine resource */
	double *res;
	char **constr;        /* per machine resource, NULL entries */
	classad_expr **want;  /* constr parsed */
};

/* What is left of the machine for one kind of slot (backfill slots have
 * their own), and how many slots want an auto share of each resource. */
struct pool {
	int cpus, cpus_auto;
	int mem, mem_auto;
	int64_t swap;
	int swap_auto;
	int64_t disk;
	int disk_auto;
	double *res;
	int *res_auto;
	double *cap, *cnt; /* custom auto shares: what is left, for how many */
};

struct build {
	const ks_config *cfg;
	const struct sd_machine *m;
	size_t nres;
	int ntypes;
	int *count;
	bool *pslot, *backfill;
	struct request *req;
	struct pool main, bk;
	struct sd_slot_spec *slots;
	size_t n;
};

/* ---- reading the configuration ------------------------------------------- */

static char *type_knob(const struct build *b, int type, const char *suffix)
{
	char name[96];
	snprintf(name, sizeof(name), "SLOT_TYPE_%d%s", type, suffix);
	return ks_config_get(b->cfg, name, NULL);
}

static bool type_bool(const struct build *b, int type, const char *suffix,
		      bool def)
{
	char name[96];
	snprintf(name, sizeof(name), "SLOT_TYPE_%d%s", type, suffix);
	bool v = def;
	ks_config_bool(b->cfg, name, &v);
	return v;
}

/* An integer knob: 1 when set (*out filled), 0 when not, or an error. */
static int int_knob(const ks_config *cfg, const char *name, int64_t *out,
		    struct ks_err *err)
{
	char *v = ks_config_get(cfg, name, NULL);
	if (!v)
		return 0;
	int rc = 1;
	if (!ks_config_int(cfg, name, out))
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"%s = %.60s is not an integer", name, v);
	else if (*out < 0 || *out > 100000)
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"%s = %lld: give a number of slots from 0",
				name, (long long)*out);
	free(v);
	return rc;
}

/* How many slots of each type: NUM_SLOTS_TYPE_<t>, or if none is set,
 * NUM_SLOTS slots of type 0. */
static int count_slots(struct build *b, struct ks_err *err)
{
	static const char *const forbidden[] = {"SLOT_TYPE_0",
						"NUM_SLOTS_TYPE_0"};
	for (size_t i = 0; i < 2; i++) {
		char *v = ks_config_get(b->cfg, forbidden[i], NULL);
		free(v);
		if (v)
			return ks_err_set(err, KS_EINVAL, 0, 0, 0,
					  "%s may not be set: slot type 0 is "
					  "the NUM_SLOTS layout; use slot "
					  "types from 1",
					  forbidden[i]);
	}
	bool any = false;
	for (int t = 1; t < b->ntypes; t++) {
		char name[64];
		snprintf(name, sizeof(name), "NUM_SLOTS_TYPE_%d", t);
		int64_t v = 0;
		int rc = int_knob(b->cfg, name, &v, err);
		if (rc < 0)
			return rc;
		b->count[t] = (int)v;
		any = any || v;
		b->backfill[t] = type_bool(b, t, "_BACKFILL", false);
		b->pslot[t] = type_bool(b, t, "_PARTITIONABLE", false);
	}
	b->pslot[0] = type_bool(b, 0, "_PARTITIONABLE", true);
	b->backfill[0] = type_bool(b, 0, "_BACKFILL", false);
	if (any)
		return 0;
	int64_t v = b->pslot[0] ? 1 : b->m->cpus;
	int rc = int_knob(b->cfg, "NUM_SLOTS", &v, err);
	if (rc < 0)
		return rc;
	b->count[0] = (int)v;
	return 0;
}

/* ---- slot type descriptions ---------------------------------------------- */

static const char *skip_blanks(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static bool number(const char *s, double *v, const char **end)
{
	char *e;
	*v = strtod(s, &e);
	*end = e;
	return e != s && isfinite(*v) && *v >= 0;
}

/* A share: auto, minimal, a percentage, a fraction, or an amount with an
 * optional K/M/G/T/P suffix.  Stricter than HTCondor, which reads any text
 * as some number: what is not one of these is an error here. */
static bool parse_share(const char *s, struct share *sh, bool *minimal)
{
	*sh = (struct share){0};
	if (!strcasecmp(s, "auto") || !strcasecmp(s, "automatic")) {
		sh->kind = SH_AUTO;
		return true;
	}
	if (!strcasecmp(s, "min") || !strcasecmp(s, "minimal")) {
		sh->kind = SH_FRACTION;
		sh->v = 1.0 / 128;
		*minimal = true;
		return true;
	}
	double v;
	const char *e;
	if (!number(s, &v, &e))
		return false;
	e = skip_blanks(e);
	if (*e == '%') {
		sh->kind = SH_FRACTION;
		sh->v = v / 100;
		return !*skip_blanks(e + 1);
	}
	if (*e == '/') {
		double d;
		if (!number(skip_blanks(e + 1), &d, &e) || d <= 0)
			return false;
		sh->kind = SH_FRACTION;
		sh->v = v / d;
		return !*skip_blanks(e);
	}
	sh->kind = SH_AMOUNT;
	sh->v = v;
	const char *units = "KMGTP";
	const char *u = *e ? strchr(units, toupper((unsigned char)*e)) : NULL;
	if (u) {
		sh->scale = (int)(u - units) + 1;
		e++;
		if (*e == 'i' || *e == 'I')
			e++;
		if (*e == 'b' || *e == 'B')
			e++;
	}
	return !*skip_blanks(e);
}

/* A share of total in the resource's unit, as HTCondor computes it: a
 * fraction of the total, or an amount scaled up to native; integral
 * resources are truncated first (so "disk=1.5G" is 1 GiB, as there). */
static double of_total(const struct share *sh, double total, bool integral,
		       int native)
{
	double v = sh->kind == SH_FRACTION ? sh->v * total : sh->v;
	if (integral)
		v = trunc(v);
	if (sh->kind == SH_AMOUNT)
		for (int s = sh->scale; s > native; s--)
			v *= 1024;
	return v;
}

/* Which built-in resource attr names: any leading part of cpus, ram,
 * memory, swap, virtualmemory or disk, case ignored ('c', "mem", "virt"),
 * as HTCondor has accepted since 8.1.4. */
static char builtin_resource(const char *attr)
{
	size_t n = strlen(attr);
	if (!n)
		return 0;
	if (!strncasecmp(attr, "cpus", n))
		return 'c';
	if (!strncasecmp(attr, "ram", n) || !strncasecmp(attr, "memory", n))
		return 'm';
	if (!strncasecmp(attr, "swap", n) ||
	    !strncasecmp(attr, "virtualmemory", n))
		return 's';
	if (!strncasecmp(attr, "disk", n))
		return 'd';
	return 0;
}

static int bad_type(struct ks_err *err, int type, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad_type(struct ks_err *err, int type, const char *fmt, ...)
{
	char buf[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return ks_err_set(err, KS_EINVAL, 0, 0, 0, "SLOT_TYPE_%d: %s", type,
			  buf);
}

static int set_int(int *out, double v, const char *what, int type,
		   struct ks_err *err)
{
	if (!(v <= INT_MAX))
		return bad_type(err, type, "the %s share is too large", what);
	*out = (int)v;
	return 0;
}

/* Disk and swap, in KiB, as set_int(): what no machine has (or what does
 * not even fit the type) is refused rather than wrapped around. */
static int set_int64(int64_t *out, double v, const char *what, int type,
		     struct ks_err *err)
{
	if (!(v < 9.0e18))
		return bad_type(err, type, "the %s share is too large", what);
	*out = (int64_t)v;
	return 0;
}

/* Turns the description of slot type t into its request: HTCondor's
 * buildSlotRequest, token by token. */
static int parse_type(struct build *b, int t, const char *desc,
		      struct ks_err *err)
{
	const struct sd_machine *m = b->m;
	struct request *r = &b->req[t];
	struct share blanket = {.kind = SH_AUTO};
	struct share cpus = {0}, mem = {0}, swap = {0}, disk = {0};
	struct share *res = ks_xcalloc(b->nres + 1, sizeof(*res));
	double cpus_low = 1;
	int rc = 0;
	/* newlines alone separate the lines of a multi-line value, commas a
	 * list that has them; otherwise blanks do too */
	const char *delims = strchr(desc, '\n')  ? "\n"
			     : strchr(desc, ',') ? ",\r\n"
						 : ", \t\r\n";
	char *copy = ks_xstrdup(desc);
	for (char *p = copy; *p && !rc;) {
		size_t len = strcspn(p, delims);
		char *next = p[len] ? p + len + 1 : p + len;
		p[len] = '\0';
		char *tok = ks_trim(p);
		p = next;
		if (!*tok)
			continue;
		bool minimal = false;
		char *eq = strchr(tok, '=');
		if (!eq) {
			if (!parse_share(tok, &blanket, &minimal) ||
			    (blanket.kind == SH_AMOUNT && blanket.v > 0) ||
			    (blanket.kind == SH_FRACTION && blanket.v > 1))
				rc = bad_type(err, t,
					      "\"%.40s\" is invalid: give a "
					      "percentage (25%%), a fraction "
					      "(1/4), or a list (c=1, r=25%%, "
					      "s=25%%, d=25%%)",
					      tok);
			if (minimal) {
				r->fractional = true;
				cpus_low = 0;
			}
			continue;
		}
		*eq = '\0';
		char *attr = ks_trim(tok), *val = ks_trim(eq + 1), *constr = NULL;
		char *colon = strchr(val, ':');
		if (colon) {
			*colon = '\0';
			constr = ks_trim(colon + 1);
			val = ks_trim(val);
		}
		struct share sh;
		if (!*attr || !*val || !parse_share(val, &sh, &minimal)) {
			rc = bad_type(err, t,
				      "cannot read \"%.30s=%.40s\": give a "
				      "resource, then auto, a percentage, a "
				      "fraction or an amount",
				      attr, val);
			continue;
		}
		size_t j = 0;
		while (j < b->nres && strcasecmp(m->res[j].name, attr))
			j++;
		if (j < b->nres) {
			res[j] = sh;
			free(r->constr[j]);
			r->constr[j] = constr && *constr ? ks_xstrdup(constr)
							 : NULL;
			continue;
		}
		switch (builtin_resource(attr)) {
		case 'c':
			cpus = sh;
			cpus_low = r->fractional ? 0 : 1;
			break;
		case 'm':
			mem = sh;
			break;
		case 's':
			swap = sh;
			break;
		case 'd':
			disk = sh;
			break;
		default:
			/* asking for none, or for a share, of a resource this
			 * machine lacks is allowed, so that one configuration
			 * serves machines with and without it */
			if (sh.kind == SH_AMOUNT && sh.v > 0)
				rc = bad_type(err, t,
					      "unknown resource \"%.40s\": use "
					      "cpus, memory, disk, swap or the "
					      "name of a MACHINE_RESOURCE",
					      attr);
		}
	}
	free(copy);
	if (rc) {
		free(res);
		return rc;
	}

	double low = r->fractional ? 0 : 1;
	if (cpus.kind == SH_UNSET) {
		cpus = blanket;
		cpus_low = low;
	}
	r->cpus_auto = cpus.kind == SH_AUTO;
	if (!r->cpus_auto) {
		r->cpus = fmax(of_total(&cpus, m->cpus, false, SCALE_NONE),
			       cpus_low);
		/* the CPUs left are counted in an int, as HTCondor does */
		if (!(r->cpus <= INT_MAX) && rc == 0)
			rc = bad_type(err, t, "the cpus share is too large");
	}

	double mem_low = mem.kind == SH_UNSET ? low : 1;
	if (mem.kind == SH_UNSET)
		mem = blanket;
	r->mem_auto = mem.kind == SH_AUTO;
	if (!r->mem_auto && rc == 0)
		rc = set_int(&r->mem,
			     fmax(of_total(&mem, m->memory, true, SCALE_MIB),
				  mem_low),
			     "memory", t, err);

	if (swap.kind == SH_UNSET)
		swap = blanket;
	r->swap_auto = swap.kind == SH_AUTO;
	if (!r->swap_auto && rc == 0)
		rc = set_int64(&r->swap,
			       fmax(of_total(&swap, (double)m->swap, true,
					     SCALE_KIB),
				    0),
			       "swap", t, err);

	double disk_low = disk.kind == SH_UNSET ? 0 : 1024;
	if (disk.kind == SH_UNSET)
		disk = blanket;
	r->disk_auto = disk.kind == SH_AUTO;
	if (!r->disk_auto && rc == 0)
		rc = set_int64(&r->disk,
			       fmax(of_total(&disk, (double)m->disk, true,
					     SCALE_KIB),
				    disk_low),
			       "disk", t, err);

	for (size_t j = 0; j < b->nres; j++) {
		struct share *s = res[j].kind == SH_UNSET ? &blanket : &res[j];
		r->res_auto[j] = s->kind == SH_AUTO;
		if (!r->res_auto[j])
			r->res[j] = fmax(of_total(s, m->res[j].quantity, false,
						  SCALE_NONE),
					 0);
		if (r->constr[j] && !rc) {
			struct ks_err perr = {0};
			r->want[j] = classad_parse_expr(
				r->constr[j], strlen(r->constr[j]), &perr);
			if (!r->want[j])
				rc = bad_type(err, t,
					      "the constraint \"%.40s\" of %s "
					      "does not parse: %.60s",
					      r->constr[j], m->res[j].name,
					      perr.msg);
		}
	}
	free(res);
	return rc;
}

/* ---- taking from the machine --------------------------------------------- */

static void pool_init(struct pool *p, const struct sd_machine *m,
		      size_t nres)
{
	p->cpus = m->cpus;
	p->mem = m->memory;
	p->swap = m->swap;
	p->disk = m->disk;
	p->res = ks_xcalloc(nres + 1, sizeof(*p->res));
	p->res_auto = ks_xcalloc(nres + 1, sizeof(*p->res_auto));
	p->cap = ks_xcalloc(nres + 1, sizeof(*p->cap));
	p->cnt = ks_xcalloc(nres + 1, sizeof(*p->cnt));
	for (size_t j = 0; j < nres; j++)
		p->res[j] = m->res[j].quantity;
}

static void pool_free(struct pool *p)
{
	free(p->res);
	free(p->res_auto);
	free(p->cap);
	free(p->cnt);
}

static void appendf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void appendf(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	if (len + 1 >= size)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/* Takes a slot's explicit amounts from p, all or nothing.  On a shortage
 * returns false with short_of listing what is short. */
static bool take(struct pool *p, const struct request *r,
		 const struct sd_machine *m, size_t nres, char *short_of,
		 size_t size)
{
	/* as in HTCondor, whole CPUs are counted: what is left is truncated
	 * to an integer at each step */
	int cpus = p->cpus;
	if (!r->cpus_auto && !(r->fractional && r->cpus < .5))
		cpus = (int)(p->cpus - r->cpus);
	int mem = r->mem_auto ? p->mem : p->mem - r->mem;
	int64_t swap = r->swap_auto ? p->swap : p->swap - r->swap;
	int64_t disk = r->disk_auto ? p->disk : p->disk - r->disk;
	short_of[0] = '\0';
	if (cpus < FLOOR)
		appendf(short_of, size, ", Cpus %g (%d left)", r->cpus,
			p->cpus);
	if (mem < FLOOR)
		appendf(short_of, size, ", Memory %d MiB (%d left)", r->mem,
			p->mem);
	if (swap < FLOOR)
		appendf(short_of, size, ", VirtualMemory %lld KiB (%lld left)",
			(long long)r->swap, (long long)p->swap);
	if (disk < FLOOR)
		appendf(short_of, size, ", Disk %lld KiB (%lld left)",
			(long long)r->disk, (long long)p->disk);
	for (size_t j = 0; j < nres; j++)
		if (!r->res_auto[j] && p->res[j] - r->res[j] < FLOOR)
			appendf(short_of, size, ", %s %g (%g left)",
				m->res[j].name, r->res[j], p->res[j]);
	if (short_of[0])
		return false;
	p->cpus = cpus;
	p->cpus_auto += r->cpus_auto;
	p->mem = mem;
	p->mem_auto += r->mem_auto;
	p->swap = swap;
	p->swap_auto += r->swap_auto;
	p->disk = disk;
	p->disk_auto += r->disk_auto;
	for (size_t j = 0; j < nres; j++) {
		if (r->res_auto[j])
			p->res_auto[j]++;
		else
			p->res[j] -= r->res[j];
	}
	return true;
}

static const char *ordinal(int n)
{
	static const char *const names[] = {"first",  "second", "third",
					    "fourth", "fifth",  "sixth",
					    "seventh", "eighth", "ninth",
					    "tenth"};
	return n >= 1 && n <= 10 ? names[n - 1] : "next";
}

static const char *advice(int type, char *buf, size_t size)
{
	if (type == 0)
		snprintf(buf, size, "NUM_SLOTS");
	else
		snprintf(buf, size, "SLOT_TYPE_%d or NUM_SLOTS_TYPE_%d", type,
			 type);
	return buf;
}

/* Settles slot s's auto shares from what its pool has left, as HTCondor's
 * computeAutoShares: every auto slot gets the same share of CPUs, memory,
 * swap and disk; custom resources go out in whole units, the odd ones to
 * the first slots. */
static int settle(struct build *b, struct sd_slot_spec *s,
		  const struct request *r, struct ks_err *err)
{
	struct pool *p = s->backfill ? &b->bk : &b->main;
	char why[160] = "", adv[64];
	if (r->cpus_auto) {
		double v = (double)p->cpus / p->cpus_auto;
		if (r->fractional ? v <= 0 : v < 1)
			snprintf(why, sizeof(why),
				 "%d Cpus left for %d slots with an auto "
				 "share: less than %s each%s",
				 p->cpus, p->cpus_auto,
				 r->fractional ? "anything" : "one",
				 s->type == 0 ? "; NUM_SLOTS may not exceed "
						"NUM_CPUS"
					      : "");
		s->cpus = v;
	}
	if (!why[0] && r->mem_auto) {
		int v = p->mem / p->mem_auto;
		if (v < 1)
			snprintf(why, sizeof(why),
				 "%d MiB of Memory left for %d slots with an "
				 "auto share: less than 1 MiB each",
				 p->mem, p->mem_auto);
		s->memory = v;
	}
	if (!why[0] && r->swap_auto) {
		int64_t v = p->swap / p->swap_auto;
		if (v <= 0)
			snprintf(why, sizeof(why),
				 "no VirtualMemory is left for the %d slots "
				 "with an auto share of it",
				 p->swap_auto);
		s->swap = v;
	}
	if (!why[0] && r->disk_auto) {
		int64_t v = p->disk / p->disk_auto;
		if (v <= 0)
			snprintf(why, sizeof(why),
				 "no Disk is left for the %d slots with an "
				 "auto share of it",
				 p->disk_auto);
		s->disk = v;
	}
	if (why[0])
		return ks_err_set(err, KS_ERANGE, 0, 0, 0,
				  "cannot make %s (slot type %d): %s; lower "
				  "%s",
				  s->name, s->type, why,
				  advice(s->type, adv, sizeof(adv)));
	for (size_t j = 0; j < b->nres; j++) {
		if (!r->res_auto[j])
			continue;
		if (p->res[j] < 1) {
			s->res[j].amount = 0;
		} else {
			double v = ceil(p->cap[j] / p->cnt[j]);
			s->res[j].amount = v;
			p->cap[j] -= v;
		}
		p->cnt[j] -= 1;
	}
	return 0;
}

/* ---- ids of custom resources --------------------------------------------- */

static bool truthy(const classad_value *v)
{
	return (v->type == CLASSAD_BOOLEAN && v->u.b) ||
	       (v->type == CLASSAD_INTEGER && v->u.i) ||
	       (v->type == CLASSAD_REAL && v->u.r != 0);
}

/* Whether id k of r suits a constraint: a number is an index into the
 * ids, a string an id (case ignored), anything else is evaluated against
 * the id's properties. */
static bool id_suits(const struct sd_res *r, size_t k, const classad_expr *want)
{
	if (!want)
		return true;
	classad_value v = CLASSAD_VALUE_INIT;
	bool ok = false;
	if (classad_expr_is_literal(want, &v)) {
		if (v.type == CLASSAD_INTEGER)
			ok = v.u.i == (int64_t)k;
		else if (v.type == CLASSAD_REAL)
			ok = (int64_t)v.u.r == (int64_t)k;
		else if (v.type == CLASSAD_STRING)
			ok = !strcasecmp(classad_value_str(&v, NULL),
					 r->ids[k]);
		classad_value_clear(&v);
		if (ok)
			return true;
	}
	if (!r->props || !r->props[k])
		return false;
	classad_eval_expr(r->props[k], want, NULL, &v);
	ok = truthy(&v);
	classad_value_clear(&v);
	return ok;
}

/* Gives each slot, in slot order, its number of each resource's ids: the
 * first free ones that suit its constraint (backfill slots take theirs
 * from the end, from a separate count, as HTCondor does). */
static int bind_ids(struct build *b, struct ks_err *err)
{
	const struct sd_machine *m = b->m;
	for (size_t j = 0; j < b->nres; j++) {
		const struct sd_res *r = &m->res[j];
		if (!r->nids)
			continue;
		bool *taken = ks_xcalloc(r->nids, sizeof(*taken));
		bool *bktaken = ks_xcalloc(r->nids, sizeof(*bktaken));
		for (size_t i = 0; i < b->n; i++) {
			struct sd_slot_spec *s = &b->slots[i];
			struct sd_slot_res *sr = &s->res[j];
			int want = (int)sr->amount;
			const classad_expr *c = b->req[s->type].want[j];
			bool *own = s->backfill ? bktaken : taken;
			for (size_t n = 0; n < r->nids && (int)sr->nids < want;
			     n++) {
				size_t k = s->backfill ? r->nids - 1 - n : n;
				if (own[k] || !id_suits(r, k, c))
					continue;
				own[k] = true;
				sr->ids = ks_xrealloc(
					sr->ids,
					(sr->nids + 1) * sizeof(*sr->ids));
				sr->ids[sr->nids++] = ks_xstrdup(r->ids[k]);
			}
			if ((int)sr->nids < want) {
				free(taken);
				free(bktaken);
				return ks_err_set(
					err, KS_ERANGE, 0, 0, 0,
					"cannot make %s (slot type %d): it "
					"gets %d %s but only %zu of their ids "
					"are left%s%.60s",
					s->name, s->type, want, r->name,
					sr->nids,
					sr->constraint ? " that match " : "",
					sr->constraint ? sr->constraint : "");
			}
		}
		free(taken);
		free(bktaken);
	}
	return 0;
}

/* ---- the layout ---------------------------------------------------------- */

static void describe(const struct sd_machine *m, struct sd_slot_spec *s)
{
	snprintf(s->desc, sizeof(s->desc),
		 "Cpus: %g, Memory: %d MiB, Disk: %lld KiB, VirtualMemory: "
		 "%lld KiB",
		 s->cpus, s->memory, (long long)s->disk, (long long)s->swap);
	for (size_t j = 0; j < s->nres; j++) {
		appendf(s->desc, sizeof(s->desc), ", %s: %g", m->res[j].name,
			s->res[j].amount);
		for (size_t k = 0; k < s->res[j].nids; k++)
			appendf(s->desc, sizeof(s->desc), "%s%s",
				k ? "," : " (", s->res[j].ids[k]);
		if (s->res[j].nids)
			appendf(s->desc, sizeof(s->desc), ")");
	}
}

static void name_slot(const struct build *b, struct sd_slot_spec *s)
{
	char *prefix = type_knob(b, s->type, "_NAME_PREFIX");
	if (!prefix)
		prefix = ks_config_get(b->cfg, "STARTD_RESOURCE_PREFIX", NULL);
	snprintf(s->name, sizeof(s->name), "%.40s%d",
		 prefix ? prefix : "slot", s->id);
	free(prefix);
}

static void request_free(struct request *r, size_t nres)
{
	for (size_t j = 0; j < nres; j++) {
		free(r->constr[j]);
		classad_expr_free(r->want[j]);
	}
	free(r->constr);
	free(r->want);
	free(r->res);
	free(r->res_auto);
}

static int make_slots(struct build *b, struct ks_err *err)
{
	const struct sd_machine *m = b->m;
	size_t total = 0;
	for (int t = 0; t < b->ntypes; t++)
		total += (size_t)b->count[t];
	b->slots = ks_xcalloc(total + 1, sizeof(*b->slots));
	char short_of[160], adv[64];
	for (int t = 0; t < b->ntypes; t++) {
		if (!b->count[t])
			continue;
		char *desc = t ? type_knob(b, t, "") : NULL;
		int rc = parse_type(b, t, desc ? desc : "", err);
		free(desc);
		if (rc)
			return rc;
		for (int k = 0; k < b->count[t]; k++) {
			struct sd_slot_spec *s = &b->slots[b->n++];
			const struct request *r = &b->req[t];
			s->id = (int)b->n;
			s->type = t;
			s->partitionable = b->pslot[t];
			s->backfill = b->backfill[t];
			s->fractional_cpus = r->fractional;
			name_slot(b, s);
			s->cpus = r->cpus;
			s->memory = r->mem;
			s->swap = r->swap;
			s->disk = r->disk;
			s->nres = b->nres;
			s->res = ks_xcalloc(b->nres + 1, sizeof(*s->res));
			for (size_t j = 0; j < b->nres; j++) {
				s->res[j].name = ks_xstrdup(m->res[j].name);
				s->res[j].amount = r->res[j];
				if (r->constr[j])
					s->res[j].constraint =
						ks_xstrdup(r->constr[j]);
			}
			struct pool *p = s->backfill ? &b->bk : &b->main;
			if (!take(p, r, m, b->nres, short_of, sizeof(short_of)))
				return ks_err_set(
					err, KS_ERANGE, 0, 0, 0,
					"cannot make %s, the %s slot of type "
					"%d: it asks for more than the %s "
					"left:%s; lower %s",
					s->name, ordinal(k + 1), t,
					s->backfill ? "backfill slots have"
						    : "machine has",
					short_of + 1,
					advice(t, adv, sizeof(adv)));
		}
	}
	struct pool *pools[] = {&b->main, &b->bk};
	for (size_t i = 0; i < 2; i++)
		for (size_t j = 0; j < b->nres; j++) {
			pools[i]->cap[j] = pools[i]->res[j];
			pools[i]->cnt[j] = pools[i]->res_auto[j];
		}
	for (size_t i = 0; i < b->n; i++) {
		int rc = settle(b, &b->slots[i], &b->req[b->slots[i].type],
				err);
		if (rc)
			return rc;
	}
	/* TotalDisk: what the slots were given of the disk, all of it if
	 * any slot took an auto share */
	int64_t given = 0;
	for (size_t i = 0; i < 2; i++) {
		int64_t g = pools[i]->disk_auto ? m->disk
						: m->disk - pools[i]->disk;
		given = g > given ? g : given;
	}
	for (size_t i = 0; i < b->n; i++) {
		struct sd_slot_spec *s = &b->slots[i];
		s->total_disk = given;
		s->disk_share = m->disk > 0 ? (double)s->disk / (double)m->disk
					    : 0;
	}
	int rc = bind_ids(b, err);
	for (size_t i = 0; !rc && i < b->n; i++)
		describe(m, &b->slots[i]);
	return rc;
}

int sd_layout_build(const ks_config *cfg, const struct sd_machine *m,
		    struct sd_slot_spec **slots, size_t *n, struct ks_err *err)
{
	*slots = NULL;
	*n = 0;
	ks_err_clear(err);
	struct build b = {.cfg = cfg, .m = m, .nres = m->nres};
	int64_t max_types = 10;
	ks_config_int(cfg, "MAX_SLOT_TYPES", &max_types);
	if (max_types < 0 || max_types > 1000)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "MAX_SLOT_TYPES = %lld is out of range",
				  (long long)max_types);
	b.ntypes = (int)max_types + 1;
	b.count = ks_xcalloc((size_t)b.ntypes, sizeof(*b.count));
	b.pslot = ks_xcalloc((size_t)b.ntypes, sizeof(*b.pslot));
	b.backfill = ks_xcalloc((size_t)b.ntypes, sizeof(*b.backfill));
	b.req = ks_xcalloc((size_t)b.ntypes, sizeof(*b.req));
	for (int t = 0; t < b.ntypes; t++) {
		b.req[t].res = ks_xcalloc(b.nres + 1, sizeof(double));
		b.req[t].res_auto = ks_xcalloc(b.nres + 1, sizeof(bool));
		b.req[t].constr = ks_xcalloc(b.nres + 1, sizeof(char *));
		b.req[t].want = ks_xcalloc(b.nres + 1, sizeof(classad_expr *));
	}
	pool_init(&b.main, m, b.nres);
	pool_init(&b.bk, m, b.nres);
	int rc = count_slots(&b, err);
	if (!rc)
		rc = make_slots(&b, err);
	if (rc) {
		sd_layout_free(b.slots, b.n);
	} else if (b.n) {
		*slots = b.slots;
		*n = b.n;
	} else {
		free(b.slots);
	}
	for (int t = 0; t < b.ntypes; t++)
		request_free(&b.req[t], b.nres);
	free(b.req);
	free(b.count);
	free(b.pslot);
	free(b.backfill);
	pool_free(&b.main);
	pool_free(&b.bk);
	return rc;
}

void sd_slot_spec_clear(struct sd_slot_spec *s)
{
	if (!s)
		return;
	for (size_t j = 0; j < s->nres; j++) {
		struct sd_slot_res *r = &s->res[j];
		free(r->name);
		for (size_t k = 0; k < r->nids; k++)
			free(r->ids[k]);
		free(r->ids);
		free(r->constraint);
	}
	free(s->res);
	s->res = NULL;
	s->nres = 0;
}

void sd_layout_free(struct sd_slot_spec *slots, size_t n)
{
	for (size_t i = 0; slots && i < n; i++)
		sd_slot_spec_clear(&slots[i]);
	free(slots);
}

const char *sd_layout_describe(const struct sd_slot_spec *s)
{
	return s->desc;
}

/* ---- the slot ad --------------------------------------------------------- */

/* HTCondor's cleaning of a name for use as an attribute: blanks trimmed,
 * characters other than letters, digits and '_' made '_', runs of '_'
 * made one. */
static void clean_attr(char *s)
{
	char *t = ks_trim(s);
	char *w = s;
	for (; *t; t++) {
		char c = isalnum((unsigned char)*t) ? *t : '_';
		if (c == '_' && w > s && w[-1] == '_')
			continue;
		*w++ = c;
	}
	*w = '\0';
}

static void insert_number(classad *ad, const char *name, double v)
{
	double ip;
	if (modf(v, &ip) == 0 && fabs(v) < 9e18)
		classad_insert_int(ad, name, (int64_t)v);
	else
		classad_insert_real(ad, name, v);
}

/* The properties of a slot's ids, as HTCondor's ComputeDevProps with its
 * default (verbose nested) form: what all the ids share, then one nested
 * ad per id with its Id.  Returns a new ad or NULL. */
static classad *id_props(const struct sd_res *r, const struct sd_slot_res *sr)
{
	if (!r->props || !sr->nids)
		return NULL;
	const classad **pa = ks_xcalloc(sr->nids, sizeof(*pa));
	for (size_t i = 0; i < sr->nids; i++)
		for (size_t k = 0; k < r->nids; k++)
			if (!strcmp(r->ids[k], sr->ids[i]))
				pa[i] = r->props[k];
	classad *out = pa[0] ? classad_copy(pa[0]) : classad_new();
	for (size_t i = 1; i < sr->nids; i++) {
		if (!pa[i])
			continue;
		size_t pos = 0, ndrop = 0;
		const char *name;
		char **drop = NULL;
		const classad_expr *e;
		while (classad_next(out, &pos, &name, &e)) {
			const classad_expr *o = classad_lookup(pa[i], name);
			if (!o || !classad_expr_same(o, e)) {
				drop = ks_xrealloc(drop,
						   (ndrop + 1) * sizeof(*drop));
				drop[ndrop++] = ks_xstrdup(name);
			}
		}
		for (size_t d = 0; d < ndrop; d++) {
			classad_delete(out, drop[d]);
			free(drop[d]);
		}
		free(drop);
	}
	for (size_t i = 0; i < sr->nids; i++) {
		if (!pa[i])
			continue;
		classad *one = classad_copy(pa[i]);
		classad_insert_string(one, "Id", sr->ids[i]);
		char *text = classad_unparse(one, CLASSAD_FMT_NEW);
		char *attr = ks_xstrdup(sr->ids[i]);
		clean_attr(attr);
		if (*attr)
			classad_insert_text(out, attr, text, NULL);
		free(attr);
		free(text);
		classad_free(one);
	}
	free(pa);
	return out;
}

static void join_ids(char *const *ids, size_t n, char **out)
{
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(ids[i]) + 1;
	char *s = ks_xmalloc(len);
	s[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, ids[i]);
	}
	*out = s;
}

void sd_layout_slot_attrs(const struct sd_machine *m,
			  const struct sd_slot_spec *s, classad *ad)
{
	char attr[256];
	classad_insert_int(ad, "SlotID", s->id);
	classad_insert_int(ad, "SlotTypeID", s->type);
	classad_insert_string(ad, "SlotType",
			      s->partitionable ? "Partitionable" : "Static");
	if (s->partitionable)
		classad_insert_bool(ad, "PartitionableSlot", true);
	if (s->backfill)
		classad_insert_bool(ad, "BackfillSlot", true);

	/* the slot's share: whole CPUs unless the type allows fractions,
	 * rounded as HTCondor rounds them */
	if (s->fractional_cpus) {
		classad_insert_real(ad, "Cpus", s->cpus);
		classad_insert_real(ad, "TotalSlotCpus", s->cpus);
	} else {
		classad_insert_int(ad, "Cpus", (int64_t)(s->cpus + 0.1));
		classad_insert_int(ad, "TotalSlotCpus",
				   (int64_t)(s->cpus + 0.1));
	}
	classad_insert_int(ad, "Memory", s->memory);
	classad_insert_int(ad, "TotalSlotMemory", s->memory);
	classad_insert_int(ad, "Disk", s->disk);
	classad_insert_real(ad, "TotalSlotDisk", (double)s->disk);
	classad_insert_int(ad, "VirtualMemory", s->swap);

	/* the machine's */
	classad_insert_real(ad, "TotalCpus", m->cpus);
	classad_insert_int(ad, "TotalMemory", m->memory);
	classad_insert_int(ad, "TotalDisk", s->total_disk);
	classad_insert_int(ad, "DetectedDisk", m->detected_disk);
	classad_insert_int(ad, "TotalVirtualMemory", m->swap);
	classad_insert_int(ad, "DetectedCpus", m->detected_cores);
	classad_insert_int(ad, "DetectedMemory", m->detected_memory);

	size_t rlen = strlen("Cpus Memory Disk Swap") + 1;
	for (size_t j = 0; j < m->nres; j++)
		rlen += strlen(m->res[j].name) + 1;
	char *resources = ks_xmalloc(rlen);
	strcpy(resources, "Cpus Memory Disk Swap");
	for (size_t j = 0; j < m->nres; j++) {
		const struct sd_res *r = &m->res[j];
		strcat(resources, " ");
		strcat(resources, r->name);
		snprintf(attr, sizeof(attr), "Detected%s", r->name);
		insert_number(ad, attr, r->quantity);
		snprintf(attr, sizeof(attr), "Total%s", r->name);
		insert_number(ad, attr, r->quantity);
		if (r->noffline) {
			char *ids;
			join_ids(r->offline, r->noffline, &ids);
			snprintf(attr, sizeof(attr), "Offline%s", r->name);
			classad_insert_string(ad, attr, ids);
			free(ids);
		}
	}
	classad_insert_string(ad, "MachineResources", resources);
	free(resources);

	for (size_t j = 0; j < s->nres && j < m->nres; j++) {
		const struct sd_slot_res *sr = &s->res[j];
		classad_insert_int(ad, sr->name, (int64_t)sr->amount);
		snprintf(attr, sizeof(attr), "TotalSlot%s", sr->name);
		classad_insert_int(ad, attr, (int64_t)sr->amount);
		if (!sr->nids)
			continue;
		char *ids;
		join_ids(sr->ids, sr->nids, &ids);
		snprintf(attr, sizeof(attr), "Assigned%s", sr->name);
		classad_insert_string(ad, attr, ids);
		free(ids);
		classad *props = id_props(&m->res[j], sr);
		size_t pos = 0;
		const char *name;
		const classad_expr *e;
		while (props && classad_next(props, &pos, &name, &e)) {
			snprintf(attr, sizeof(attr), "%s_%s", sr->name, name);
			classad_insert(ad, attr, classad_expr_ref(e));
		}
		classad_free(props);
	}
	if (m->extra)
		classad_update(ad, m->extra);
}
