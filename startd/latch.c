/* latch.c: latched expressions, CpuIsBusy and CpuBusyTime (sd_latch.h). */
#include "sd_latch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "ks_text.h"

static struct sd_latch *find(struct sd_latch *v, size_t n, const char *name,
			     size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(v[i].name) == len &&
		    strncasecmp(v[i].name, name, len) == 0)
			return &v[i];
	return NULL;
}

/* Adds the names of list to v (n of them, room for cap) unless there;
 * a name the old set had comes with its state. */
static void add_names(const char *list, struct sd_latch **v, size_t *n,
		      size_t *cap, struct sd_latch *old, size_t nold)
{
	size_t pos = 0, len;
	for (const char *p; (p = ks_list_next(list, &pos, &len));) {
		if (!find(*v, *n, p, len)) {
			if (*n == *cap) {
				*cap = *cap ? *cap * 2 : 4;
				*v = ks_xrealloc(*v, *cap * sizeof(**v));
			}
			struct sd_latch *was = find(old, nold, p, len);
			struct sd_latch *l = &(*v)[(*n)++];
			if (was) {
				*l = *was;
				was->name = NULL; /* moved */
			} else {
				*l = (struct sd_latch){0};
				l->name = ks_xmalloc(len + 1);
				memcpy(l->name, p, len);
				l->name[len] = '\0';
			}
		}
	}
}

void sd_latches_configure(struct sd_latches *l, const char *user_list,
			  const char *system_list)
{
	struct sd_latch *v = NULL;
	size_t n = 0, cap = 0;
	add_names(user_list, &v, &n, &cap, l->v, l->n);
	add_names(system_list, &v, &n, &cap, l->v, l->n);
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	l->v = v;
	l->n = n;
}

/* The attribute's value as HTCondor's startd reads a latch: a number,
 * booleans as 0 and 1, reals truncated. */
static bool number_of(const classad *ad, const char *name, int64_t *out)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, name, NULL, &v);
	bool ok = true;
	if (v.type == CLASSAD_INTEGER)
		*out = v.u.i;
	else if (v.type == CLASSAD_BOOLEAN)
		*out = v.u.b ? 1 : 0;
	else if (v.type == CLASSAD_REAL && v.u.r > -9.2e18 && v.u.r < 9.2e18)
		*out = (int64_t)v.u.r;
	else
		ok = false;
	classad_value_clear(&v);
	return ok;
}

/* CpuBusy as the older startd read it: CpuBusy, else CPU_BUSY; false
 * when neither says true or false. */
static bool cpu_busy(const classad *ad)
{
	static const char *const names[] = {"CpuBusy", "CPU_BUSY"};
	for (size_t i = 0; i < 2; i++) {
		classad_value v = CLASSAD_VALUE_INIT;
		classad_eval_attr(ad, names[i], NULL, &v);
		bool b = false, known = classad_value_bool(&v, &b);
		classad_value_clear(&v);
		if (known)
			return b;
	}
	return false;
}

bool sd_latches_update(struct sd_latches *l, const classad *ad, int64_t now)
{
	bool any = false;
	for (size_t i = 0; i < l->n; i++) {
		struct sd_latch *x = &l->v[i];
		int64_t value = 0;
		bool defined = number_of(ad, x->name, &value);
		bool changed = defined ? !x->defined || value != x->value
				       : x->defined;
		x->defined = defined;
		if (defined)
			x->value = value;
		if (changed) {
			x->changed_at = now;
			any = true;
		}
	}
	bool busy = cpu_busy(ad);
	if (busy != l->cpu_busy || !l->cpu_busy_since) {
		l->cpu_busy = busy;
		l->cpu_busy_since = now;
	}
	return any;
}

void sd_latches_publish(const struct sd_latches *l, classad *ad, int64_t now)
{
	bool cpu_busy_latched = false;
	for (size_t i = 0; i < l->n; i++) {
		const struct sd_latch *x = &l->v[i];
		char attr[300];
		if (strcasecmp(x->name, "CpuBusy") == 0)
			cpu_busy_latched = true;
		/* a constant has no value worth latching: only its time */
		const classad_expr *e = classad_lookup(ad, x->name);
		snprintf(attr, sizeof(attr), "%sValue", x->name);
		if (x->defined && e && !classad_expr_is_literal(e, NULL))
			classad_insert_int(ad, attr, x->value);
		snprintf(attr, sizeof(attr), "%sTime", x->name);
		if (x->changed_at > 0)
			classad_insert_int(ad, attr, x->changed_at);
	}
	if (!l->cpu_busy_since)
		return; /* not evaluated yet */
	classad_insert_bool(ad, "CpuIsBusy", l->cpu_busy);
	if (!cpu_busy_latched) {
		int64_t t = l->cpu_busy && now > l->cpu_busy_since
				    ? now - l->cpu_busy_since
				    : 0;
		classad_insert_int(ad, "CpuBusyTime", t);
	}
}

void sd_latches_clear(struct sd_latches *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	*l = (struct sd_latches){0};
}
