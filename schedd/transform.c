/*
 * transform.c: job transforms (sc_transform.h) and the schedd's user
 * maps for userMap().
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <pcre2.h>
#include <stdarg.h>
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

/* A transform that cannot be used, or a statement it has that does
 * nothing here, told where an administrator looks: the log and, when
 * the log is a file, the schedd's standard error (the master's, when it
 * started the schedd), at start-up and at every reconfig. */
static void tell(ks_daemon *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void tell(ks_daemon *d, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ks_log_printf(d->log, KS_D_ERROR, "%s", msg);
	if (ks_log_path(d->log))
		fprintf(stderr, "condor_schedd: %s\n", msg);
}

static void notes(ks_daemon *d, const struct transform *t)
{
	if (t->universe_line)
		tell(d, "WARNING: JOB_TRANSFORM_%s line %d: UNIVERSE does "
			"nothing in the schedd (it is the job router's); the "
			"transform applies to jobs of any universe its "
			"REQUIREMENTS lets through",
		     t->name, t->universe_line);
	if (t->loops)
		tell(d, "WARNING: JOB_TRANSFORM_%s line %d: the schedd applies "
			"a transform once to each job; the TRANSFORM "
			"statement's loop is not run",
		     t->name, t->transform_line);
	if (t->unread_line)
		tell(d, "WARNING: JOB_TRANSFORM_%s line %d is not read: the "
			"TRANSFORM statement at line %d ends the transform",
		     t->name, t->unread_line, t->transform_line);
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
	for (char *cur = names, *n; (n = ks_list_cut(&cur));) {
		char key[300];
		snprintf(key, sizeof(key), "JOB_TRANSFORM_%s", n);
		/* raw: $(MY.x) and the transform's macros are its own */
		const char *raw = ks_config_raw(d->cfg, key, NULL);
		if (!raw || !*sc_transform_skip_ws(raw)) {
			tell(d, "ERROR: %s is not defined; transform %s is not "
				"used", key, n);
			continue;
		}
		if (*sc_transform_skip_ws(raw) == '[') {
			tell(d, "ERROR: %s is in the old ClassAd form, which is "
				"not supported; transform %s is not used", key, n);
			continue;
		}
		struct transform t;
		struct ks_err err = {0};
		int bad = sc_transform_parse(n, raw, &t, &err);
		if (bad) {
			tell(d, "ERROR: %s line %d: %s; transform %s is not used",
			     key, bad, err.msg, n);
			sc_transform_free(&t);
			continue;
		}
		notes(d, &t);
		T->t = ks_xrealloc(T->t, (T->n + 1) * sizeof(*T->t));
		T->t[T->n++] = t;
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s set up as transform rule #%zu", key, T->n);
	}
	for (char *cur = maps, *n; (n = ks_list_cut(&cur));)
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
			classad_value v = CLASSAD_VALUE_INIT;
			const char *str = NULL;
			/* a string as its text, as HTCondor expands it */
			if (e && classad_expr_is_literal(e, &v))
				str = classad_value_str(&v, NULL);
			if (str)
				classad_buf_add(&b, str, strlen(str));
			else if (e)
				classad_expr_unparse_buf(&b, e, false);
			else
				classad_buf_add(&b, "undefined", 9);
			classad_value_clear(&v);
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

/* ---- the job as a transform sees it ---------------------------------- */

static bool has_name(const struct macros *m, const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcasecmp(m->name[i], name) == 0)
			return true;
	return false;
}

static void drop_name(struct macros *m, const char *name)
{
	for (size_t i = m->n; i-- > 0;)
		if (strcasecmp(m->name[i], name) == 0) {
			free(m->name[i]);
			free(m->value[i]);
			m->name[i] = m->name[m->n - 1];
			m->value[i] = m->value[--m->n];
		}
}

/* proc, chained to its cluster ad, and what the transforms deleted from
 * it that the cluster ad holds: an undefined attribute of proc hides
 * the cluster's until finish() takes both away. */
struct job {
	classad *proc;
	struct macros deleted;
};

static const classad_expr *job_get(const struct job *j, const char *name)
{
	return has_name(&j->deleted, name) ? NULL
					   : classad_lookup(j->proc, name);
}

/* Takes the reference to e. */
static void job_put(struct job *j, const char *name, classad_expr *e)
{
	drop_name(&j->deleted, name);
	classad_insert(j->proc, name, e);
}

static void job_delete(struct job *j, const char *name)
{
	if (!job_get(j, name))
		return;
	classad_delete(j->proc, name);
	if (classad_lookup(j->proc, name)) {
		classad_insert_text(j->proc, name, "undefined", NULL);
		set_macro(&j->deleted, name, "");
	}
}

/* True if proc itself, not its cluster ad, has attribute name. */
static bool own(const classad *proc, const char *name)
{
	size_t pos = 0;
	const char *n;
	const classad_expr *e;
	while (classad_next(proc, &pos, &n, &e))
		if (strcasecmp(n, name) == 0)
			return true;
	return false;
}

/* An attribute deleted from a job leaves the job's ad, as the language
 * says, rather than staying undefined in it: one its cluster ad holds
 * leaves the cluster ad too, and the cluster's other jobs that keep it
 * get it as their own. */
static void finish(classad *cl_ad, struct job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < jobs[i].deleted.n; k++) {
			const char *name = jobs[i].deleted.name[k];
			classad_expr *keep =
				classad_expr_ref(classad_lookup(cl_ad, name));
			for (size_t o = 0; keep && o < n; o++)
				if (!has_name(&jobs[o].deleted, name) &&
				    !own(jobs[o].proc, name))
					classad_insert(jobs[o].proc, name,
						       classad_expr_ref(keep));
			if (keep)
				classad_delete(cl_ad, name);
			classad_expr_free(keep);
			classad_delete(jobs[i].proc, name);
		}
	}
}

/* ---- applying -------------------------------------------------------- */

static int set_text(struct job *j, const char *attr, const char *text,
		    const struct transform *t, const struct step *st,
		    struct ks_err *err)
{
	struct ks_err perr = {0};
	classad_expr *e = classad_parse_expr(text, strlen(text), &perr);
	if (e) {
		job_put(j, attr, e);
		return 0;
	}
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

/* COPY or RENAME of attribute from to the name to (a new name that is
 * not valid is skipped, as HTCondor skips it, with a log line). */
static void copy_attr(struct sc_schedd *s, const struct transform *t,
		      const struct step *st, struct job *j, const char *from,
		      const char *to)
{
	if (!sc_transform_attr_ok(to)) {
		ks_log_printf(s->d->log, KS_D_ALWAYS,
			      "JOB_TRANSFORM_%s line %d: %s of %s: the new name "
			      "\"%s\" is not a valid attribute name; skipped",
			      t->name, st->line,
			      st->op == OP_COPY ? "COPY" : "RENAME", from, to);
		return;
	}
	classad_expr *e = classad_expr_ref(job_get(j, from));
	if (!e)
		return;
	if (st->op == OP_RENAME)
		job_delete(j, from);
	job_put(j, to, e);
}

/* tmpl with \0 .. \9 replaced by the whole match and its groups (those
 * the pattern has; any other backslash stays).  New string. */
static char *substitute(const char *tmpl, const char *subject,
			const PCRE2_SIZE *ov, int groups)
{
	struct classad_buf b = {0};
	classad_buf_add(&b, "", 0);
	for (const char *p = tmpl; *p; p++) {
		int k = p[0] == '\\' && isdigit((unsigned char)p[1])
				? p[1] - '0'
				: -1;
		if (k < 0 || k >= groups) {
			classad_buf_add(&b, p, 1);
			continue;
		}
		if (ov[2 * k] != PCRE2_UNSET)
			classad_buf_add(&b, subject + ov[2 * k],
					ov[2 * k + 1] - ov[2 * k]);
		p++;
	}
	return b.data;
}

struct match {
	char *from, *to;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct match *)a)->from,
		      ((const struct match *)b)->from);
}

/* COPY, RENAME or DELETE /re/: every attribute of the job whose name
 * matches, found first and then changed in name order (as HTCondor). */
static void regex_op(struct sc_schedd *s, const struct transform *t,
		     const struct step *st, struct job *j, const char *tmpl)
{
	struct match *m = NULL;
	size_t n = 0;
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(st->re, NULL);
	const classad *ads[2] = {j->proc, classad_chained_parent(j->proc)};
	for (int a = 0; a < 2 && ads[a]; a++) {
		size_t pos = 0;
		const char *name;
		const classad_expr *e;
		while (classad_next(ads[a], &pos, &name, &e)) {
			bool seen = !job_get(j, name);
			for (size_t i = 0; !seen && i < n; i++)
				seen = strcasecmp(m[i].from, name) == 0;
			if (seen)
				continue;
			int rc = pcre2_match(st->re, (PCRE2_SPTR)name,
					     strlen(name), 0, 0, md, NULL);
			if (rc <= 0)
				continue;
			m = ks_xrealloc(m, (n + 1) * sizeof(*m));
			m[n].from = ks_xstrdup(name);
			m[n++].to = tmpl ? substitute(tmpl, name,
						      pcre2_get_ovector_pointer(md),
						      rc)
					 : NULL;
		}
	}
	pcre2_match_data_free(md);
	if (n)
		qsort(m, n, sizeof(*m), by_name);
	for (size_t i = 0; i < n; i++) {
		if (st->op == OP_DELETE)
			job_delete(j, m[i].from);
		else
			copy_attr(s, t, st, j, m[i].from, m[i].to);
		free(m[i].from);
		free(m[i].to);
	}
	free(m);
}

/* 0, 1 when the job does not meet the transform's REQUIREMENTS (the
 * last one, as in HTCondor), or KS_EINVAL. */
static int requirements(struct sc_schedd *s, struct sc_transforms *T,
			const struct transform *t, struct job *j,
			struct ks_err *err)
{
	size_t last = t->n;
	for (size_t i = 0; i < t->n; i++)
		if (t->steps[i].op == OP_REQUIREMENTS)
			last = i;
	if (last == t->n)
		return 0;
	struct macros m = {0};
	int rc = 0;
	for (size_t i = 0; i <= last; i++) {
		const struct step *st = &t->steps[i];
		if (st->op != OP_MACRO && i != last)
			continue;
		char *text = expand(s, &m, j->proc, st->b);
		if (st->op == OP_MACRO) {
			set_macro(&m, st->a, text);
		} else {
			classad_value v = CLASSAD_VALUE_INIT;
			bool ok = false;
			rc = eval_text(T, j->proc, text, &v, t, st, err);
			if (rc == 0 && !(classad_value_bool(&v, &ok) && ok))
				rc = 1;
			classad_value_clear(&v);
		}
		free(text);
	}
	free_macros(&m);
	return rc;
}

/* Names in an if condition: MY.attr the job's attribute (as ClassAd
 * text; none when the job has no attr, so that "defined MY.attr" asks
 * whether it has one), then the transform's macros, then the
 * configuration's. */
struct names {
	struct sc_schedd *s;
	const struct macros *m;
	const struct job *j;
	char *buf; /* the last attribute's text */
};

static const char *look_up(void *arg, const char *name, size_t len)
{
	struct names *L = arg;
	char key[256];
	snprintf(key, sizeof(key), "%.*s", (int)len, name);
	if (strncasecmp(key, "MY.", 3) == 0) {
		const classad_expr *e = job_get(L->j, key + 3);
		classad_value v = CLASSAD_VALUE_INIT;
		const char *str = NULL;
		if (e && classad_expr_is_literal(e, &v))
			str = classad_value_str(&v, NULL);
		free(L->buf);
		L->buf = str ? ks_xstrdup(str)
			 : e ? classad_expr_unparse(e, false)
			     : NULL;
		classad_value_clear(&v);
		return L->buf;
	}
	const char *v = macro(L->m, name, len);
	return v ? v : ks_config_raw(L->s->d->cfg, key, NULL);
}

/* An if, elif, else or endif line, its condition read in the job. */
static int if_line(struct sc_schedd *s, const struct macros *m,
		   const struct job *j, struct ks_ifs *ifs,
		   const struct transform *t, const struct step *st,
		   struct ks_err *err)
{
	struct names L = {s, m, j, NULL};
	struct ks_expand_opts o = {.lookup = look_up, .arg = &L,
				   .cfg = s->d->cfg, .self_empty = true};
	char msg[200];
	int rc = ks_ifs_line(ifs, st->b, &o, msg, sizeof(msg));
	free(L.buf);
	if (rc >= 0)
		return 0;
	return ks_err_set(err, KS_EINVAL, 0, 0, 0,
			  "JOB_TRANSFORM_%s line %d: %s", t->name, st->line,
			  msg);
}

static int apply_one(struct sc_schedd *s, struct sc_transforms *T,
		     const struct transform *t, struct job *j,
		     struct ks_err *err)
{
	/* REQUIREMENTS decides before anything changes, wherever it is */
	int rc = requirements(s, T, t, j, err);
	struct macros m = {0};
	struct ks_ifs ifs = KS_IFS_INIT;
	for (size_t i = 0; rc == 0 && i < t->n; i++) {
		const struct step *st = &t->steps[i];
		if (st->op == OP_IF) {
			rc = if_line(s, &m, j, &ifs, t, st, err);
			continue;
		}
		if (!ks_ifs_enabled(&ifs))
			continue;
		char *text = st->b ? expand(s, &m, j->proc, st->b) : NULL;
		classad_value v = CLASSAD_VALUE_INIT;
		switch (st->op) {
		case OP_MACRO:
			set_macro(&m, st->a, text);
			break;
		case OP_REQUIREMENTS:
		case OP_IF:
			break;
		case OP_DEFAULT:
			if (job_get(j, st->a))
				break;
			/* fall through */
		case OP_SET:
			rc = set_text(j, st->a, text, t, st, err);
			break;
		case OP_EVALSET:
			rc = eval_text(T, j->proc, text, &v, t, st, err);
			if (rc == 0) {
				drop_name(&j->deleted, st->a);
				classad_insert_value(j->proc, st->a, &v);
			}
			break;
		case OP_EVALMACRO:
			rc = eval_text(T, j->proc, text, &v, t, st, err);
			if (rc == 0) {
				const char *str = classad_value_str(&v, NULL);
				char *u = str ? NULL
					     : classad_value_unparse(&v, false);
				set_macro(&m, st->a, str ? str : u);
				free(u);
			}
			break;
		case OP_COPY:
		case OP_RENAME:
		case OP_DELETE:
			if (st->re)
				regex_op(s, t, st, j, text);
			else if (st->op == OP_DELETE)
				job_delete(j, st->a);
			else
				copy_attr(s, t, st, j, st->a, ks_trim(text));
			break;
		}
		classad_value_clear(&v);
		free(text);
	}
	free_macros(&m);
	return rc == 1 ? 0 : rc;
}

int sc_transforms_apply(struct sc_schedd *s, struct sc_transforms *T,
			classad *cl_ad, classad **procs, size_t n,
			struct ks_err *err)
{
	if (!T || !T->n)
		return 0;
	struct job *jobs = ks_xcalloc(n ? n : 1, sizeof(*jobs));
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		jobs[i].proc = procs[i];
		for (size_t k = 0; rc == 0 && k < T->n; k++)
			rc = apply_one(s, T, &T->t[k], &jobs[i], err);
	}
	if (rc == 0)
		finish(cl_ad, jobs, n);
	for (size_t i = 0; i < n; i++)
		free_macros(&jobs[i].deleted);
	free(jobs);
	return rc;
}
