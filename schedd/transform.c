/*
 * transform.c: job transforms (sc_transform.h) and the schedd's user
 * maps for userMap().
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_log.h"
#include "ks_mem.h"
#include "ks_text.h"
#include "sc_transform.h"
#include "sc_transform_int.h"

/* A user map: "* key value" lines (HTCondor's map file form with the
 * method "*"; a key in slashes is a regular expression, not supported
 * here and skipped with a log line). */
struct map_entry {
	char *key, *value;
};

struct user_map {
	char *name;
	struct map_entry *e;
	size_t n;
};

struct sc_transforms {
	struct transform *t;
	size_t n;
	struct user_map *maps;
	size_t nmaps;
	classad_env *env;
};

/* ---- user maps ------------------------------------------------------- */

static void load_map(struct sc_transforms *T, ks_daemon *d, const char *name)
{
	char key[300];
	snprintf(key, sizeof(key), "CLASSAD_USER_MAPFILE_%s", name);
	char *file = ks_config_get(d->cfg, key, NULL);
	char *text = NULL;
	if (file && *file) {
		FILE *f = fopen(file, "r");
		if (f) {
			text = ks_read_all(f, NULL);
			fclose(f);
		} else {
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "cannot read %s (%s): user map %s is "
				      "empty",
				      file, key, name);
		}
	} else {
		snprintf(key, sizeof(key), "CLASSAD_USER_MAPDATA_%s", name);
		text = ks_config_get(d->cfg, key, NULL);
	}
	free(file);
	struct user_map m = {.name = ks_xstrdup(name)};
	for (char *save = NULL,
		  *line = strtok_r(text ? text : (char[]){""}, "\n", &save);
	     line; line = strtok_r(NULL, "\n", &save)) {
		const char *p = line;
		char *method = sc_transform_word(&p), *k = sc_transform_word(&p);
		char *value = ks_xstrdup(ks_trim((char *)sc_transform_skip_ws(p)));
		if (method && method[0] != '#' && k && *value && k[0] != '/') {
			m.e = ks_xrealloc(m.e, (m.n + 1) * sizeof(*m.e));
			m.e[m.n].key = k;
			m.e[m.n++].value = value;
			k = value = NULL;
		} else if (k && k[0] == '/') {
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "user map %s: regular expression keys "
				      "are not supported (%s)", name, k);
		}
		free(method);
		free(k);
		free(value);
	}
	free(text);
	T->maps = ks_xrealloc(T->maps, (T->nmaps + 1) * sizeof(*T->maps));
	T->maps[T->nmaps++] = m;
}

static bool usermap(void *arg, const char *map, const char *input,
		    char **output)
{
	struct sc_transforms *T = arg;
	for (size_t i = 0; i < T->nmaps; i++) {
		if (strcasecmp(T->maps[i].name, map) != 0)
			continue;
		for (size_t k = 0; k < T->maps[i].n; k++)
			if (strcmp(T->maps[i].e[k].key, input) == 0) {
				*output = ks_xstrdup(T->maps[i].e[k].value);
				return true;
			}
		return false;
	}
	return false;
}

struct sc_transforms *sc_transforms_load(struct sc_schedd *s)
{
	ks_daemon *d = s->d;
	char *names = ks_config_get(d->cfg, "JOB_TRANSFORM_NAMES", NULL);
	char *maps = ks_config_get(d->cfg, "SCHEDD_CLASSAD_USER_MAP_NAMES", NULL);
	if ((!names || !*names) && (!maps || !*maps)) {
		free(names);
		free(maps);
		return NULL;
	}
	struct sc_transforms *T = ks_xcalloc(1, sizeof(*T));
	char *save = NULL;
	for (char *n = strtok_r(names ? names : (char[]){""}, " ,\t", &save); n;
	     n = strtok_r(NULL, " ,\t", &save)) {
		char key[300];
		snprintf(key, sizeof(key), "JOB_TRANSFORM_%s", n);
		/* raw: $(MY.x) and the transform's macros are its own */
		const char *raw = ks_config_raw(d->cfg, key, NULL);
		if (!raw || !*raw) {
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "%s is not defined; transform %s is "
				      "skipped", key, n);
			continue;
		}
		struct transform t = {0};
		int bad = sc_transform_parse(n, raw, &t);
		if (bad)
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "JOB_TRANSFORM_%s line %d does not parse; "
				      "the transform is not used", n, bad);
		if (!bad) {
			T->t = ks_xrealloc(T->t, (T->n + 1) * sizeof(*T->t));
			T->t[T->n++] = t;
		} else {
			sc_transform_free(&t);
		}
	}
	save = NULL;
	for (char *n = strtok_r(maps ? maps : (char[]){""}, " ,\t", &save); n;
	     n = strtok_r(NULL, " ,\t", &save))
		load_map(T, d, n);
	free(names);
	free(maps);
	T->env = classad_env_new();
	classad_env_set_usermap(T->env, usermap, T);
	return T;
}

void sc_transforms_free(struct sc_transforms *T)
{
	if (!T)
		return;
	for (size_t i = 0; i < T->n; i++)
		sc_transform_free(&T->t[i]);
	free(T->t);
	for (size_t i = 0; i < T->nmaps; i++) {
		for (size_t k = 0; k < T->maps[i].n; k++) {
			free(T->maps[i].e[k].key);
			free(T->maps[i].e[k].value);
		}
		free(T->maps[i].e);
		free(T->maps[i].name);
	}
	free(T->maps);
	classad_env_free(T->env);
	free(T);
}

/* ---- applying -------------------------------------------------------- */

struct macros {
	char **name, **value;
	size_t n;
};

static const char *macro(const struct macros *m, const char *name, size_t len)
{
	for (size_t i = m->n; i-- > 0;)
		if (strlen(m->name[i]) == len &&
		    strncasecmp(m->name[i], name, len) == 0)
			return m->value[i];
	return NULL;
}

static void set_macro(struct macros *m, const char *name, const char *value)
{
	m->name = ks_xrealloc(m->name, (m->n + 1) * sizeof(char *));
	m->value = ks_xrealloc(m->value, (m->n + 1) * sizeof(char *));
	m->name[m->n] = ks_xstrdup(name);
	m->value[m->n++] = ks_xstrdup(value);
}

static void free_macros(struct macros *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->name[i]);
		free(m->value[i]);
	}
	free(m->name);
	free(m->value);
}

/* text with $(MY.attr), the transform's macros and configuration macros
 * put in.  New string. */
static char *expand(struct sc_schedd *s, const struct macros *m,
		    const classad *job, const char *text)
{
	struct classad_buf b = {0};
	classad_buf_add(&b, "", 0);
	for (const char *p = text; *p;) {
		const char *open = strstr(p, "$(");
		const char *close = open ? strchr(open + 2, ')') : NULL;
		if (!close) {
			classad_buf_add(&b, p, strlen(p));
			break;
		}
		classad_buf_add(&b, p, (size_t)(open - p));
		const char *name = open + 2;
		size_t len = (size_t)(close - name);
		if (len > 3 && strncasecmp(name, "MY.", 3) == 0) {
			char attr[256];
			snprintf(attr, sizeof(attr), "%.*s", (int)(len - 3),
				 name + 3);
			const classad_expr *e = classad_lookup(job, attr);
			if (e)
				classad_expr_unparse_buf(&b, e, false);
			else
				classad_buf_add(&b, "undefined", 9);
		} else if (macro(m, name, len)) {
			const char *v = macro(m, name, len);
			classad_buf_add(&b, v, strlen(v));
		} else {
			char knob[256];
			snprintf(knob, sizeof(knob), "%.*s", (int)len, name);
			char *v = ks_config_get(s->d->cfg, knob, NULL);
			if (v)
				classad_buf_add(&b, v, strlen(v));
			free(v);
		}
		p = close + 1;
	}
	return b.data;
}

static int set_text(classad *proc, const char *attr, const char *text,
		    const struct transform *t, const struct step *st,
		    struct ks_err *err)
{
	struct ks_err perr = {0};
	if (classad_insert_text(proc, attr, text, &perr) == 0)
		return 0;
	return ks_err_set(err, KS_EINVAL, 0, 0, 0,
			  "JOB_TRANSFORM_%s line %d: %s does not parse: %s",
			  t->name, st->line, text, perr.msg);
}

static int eval_text(struct sc_transforms *T, const classad *proc,
		     const char *text, classad_value *v,
		     const struct transform *t, const struct step *st,
		     struct ks_err *err)
{
	struct ks_err perr = {0};
	classad_expr *e = classad_parse_expr(text, strlen(text), &perr);
	if (!e)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "JOB_TRANSFORM_%s line %d: %s does not "
				  "parse: %s",
				  t->name, st->line, text, perr.msg);
	classad_eval_expr(proc, e, T->env, v);
	classad_expr_free(e);
	return 0;
}

static int apply_one(struct sc_schedd *s, struct sc_transforms *T,
		     const struct transform *t, classad *proc,
		     struct ks_err *err)
{
	struct macros m = {0};
	int rc = 0;
	/* REQUIREMENTS decides before anything changes, wherever it is */
	for (size_t i = 0; rc == 0 && i < t->n; i++) {
		const struct step *st = &t->steps[i];
		if (st->op != OP_MACRO && st->op != OP_REQUIREMENTS)
			continue;
		char *text = expand(s, &m, proc, st->b);
		if (st->op == OP_MACRO) {
			set_macro(&m, st->a, text);
		} else {
			classad_value v = CLASSAD_VALUE_INIT;
			bool ok = false;
			rc = eval_text(T, proc, text, &v, t, st, err);
			if (rc == 0 && !(classad_value_bool(&v, &ok) && ok))
				rc = 1; /* not for this job */
			classad_value_clear(&v);
		}
		free(text);
	}
	free_macros(&m);
	m = (struct macros){0};
	for (size_t i = 0; rc == 0 && i < t->n; i++) {
		const struct step *st = &t->steps[i];
		char *text = st->b ? expand(s, &m, proc, st->b) : NULL;
		classad_value v = CLASSAD_VALUE_INIT;
		switch (st->op) {
		case OP_MACRO:
			set_macro(&m, st->a, text);
			break;
		case OP_REQUIREMENTS:
			break;
		case OP_DEFAULT:
			if (classad_lookup(proc, st->a))
				break;
			/* fall through */
		case OP_SET:
			rc = set_text(proc, st->a, text, t, st, err);
			break;
		case OP_EVALSET:
			rc = eval_text(T, proc, text, &v, t, st, err);
			if (rc == 0)
				classad_insert_value(proc, st->a, &v);
			break;
		case OP_EVALMACRO:
			rc = eval_text(T, proc, text, &v, t, st, err);
			if (rc == 0) {
				const char *str = classad_value_str(&v, NULL);
				char *u = str ? NULL
					     : classad_value_unparse(&v, false);
				set_macro(&m, st->a, str ? str : u);
				free(u);
			}
			break;
		case OP_COPY:
		case OP_RENAME: {
			const classad_expr *e = classad_lookup(proc, st->a);
			if (e) {
				classad_insert(proc, st->b, classad_expr_ref(e));
				if (st->op == OP_RENAME) {
					classad_delete(proc, st->a);
					if (classad_lookup(proc, st->a))
						classad_insert_text(proc, st->a,
								    "undefined",
								    NULL);
				}
			}
			break;
		}
		case OP_DELETE:
			classad_delete(proc, st->a);
			/* the cluster's value would show through */
			if (classad_lookup(proc, st->a))
				classad_insert_text(proc, st->a, "undefined",
						    NULL);
			break;
		}
		classad_value_clear(&v);
		free(text);
	}
	free_macros(&m);
	return rc == 1 ? 0 : rc;
}

int sc_transforms_apply(struct sc_schedd *s, struct sc_transforms *T,
			classad *cl_ad, classad *proc, struct ks_err *err)
{
	(void)cl_ad;
	for (size_t i = 0; T && i < T->n; i++) {
		int rc = apply_one(s, T, &T->t[i], proc, err);
		if (rc)
			return rc;
	}
	return 0;
}
