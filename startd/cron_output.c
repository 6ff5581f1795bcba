/*
 * cron_output.c: a cron job's output turned into named ads.
 *
 * Lines end at '\n' or NUL, as HTCondor's line buffer has them; each
 * "Name = value" line (the job's PREFIX prepended) goes into the ad being
 * read, and a line starting with '-' ends that ad.  The text after the
 * '-' names the ad and may ask for a collector update; it stays pending
 * until an ad with at least one line ends, as HTCondor keeps it.
 */
#include "cron_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ks_mem.h"
#include "ks_text.h"

void sd_cron_text_add(struct classad_buf *t, const char *s, size_t n,
		      size_t max)
{
	if (t->len >= max)
		return;
	classad_buf_add(t, s, n < max - t->len ? n : max - t->len);
}

void sd_cron_text_free(struct classad_buf *t)
{
	free(t->data);
	*t = (struct classad_buf){0};
}

typedef void (*line_fn)(struct cron_job *j, char *line, size_t len,
			bool overlong);

/* Cuts bytes into lines for fn; an unfinished line waits in L. */
static void feed(struct cron_job *j, struct cron_lines *L, const char *buf,
		 size_t n, line_fn fn)
{
	while (n) {
		size_t k = 0;
		while (k < n && buf[k] != '\n' && buf[k] != '\0')
			k++;
		if (L->t.len + k > L->max)
			L->overlong = true;
		sd_cron_text_add(&L->t, buf, k, L->max);
		if (k == n)
			return;
		size_t len = L->t.len;
		if (len && L->t.data[len - 1] == '\r')
			len--;
		char empty[1] = "";
		if (L->t.data)
			L->t.data[len] = '\0';
		fn(j, L->t.data ? L->t.data : empty, len, L->overlong);
		L->t.len = 0;
		L->overlong = false;
		buf += k + 1;
		n -= k + 1;
	}
}

static char *trim(char *s, size_t *len)
{
	while (*len && (*s == ' ' || *s == '\t')) {
		s++;
		(*len)--;
	}
	while (*len && (s[*len - 1] == ' ' || s[*len - 1] == '\t' ||
			s[*len - 1] == '\r'))
		(*len)--;
	s[*len] = '\0';
	return s;
}

/* "update:<bool>": the value, if it is one. */
static bool bool_word(const char *s, bool *out)
{
	struct ks_err err;
	classad_expr *e = classad_parse_expr(s, strlen(s), &err);
	if (!e)
		return false;
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr(NULL, e, NULL, &v);
	bool ok = classad_value_bool(&v, out);
	classad_value_clear(&v);
	classad_expr_free(e);
	return ok;
}

/* Files ad (taken) under the job's name or "name.tag", then tells the
 * daemon, with the update request as HTCondor's StartdCronJob::Publish
 * works it out. */
static void publish(struct cron_job *j, classad *ad)
{
	sd_cron *c = j->mgr;
	const char *jname = j->p->name;
	char *name = NULL;
	bool wants_update = false;
	enum cron_autopub ap = c->autopub;
	const char *s = j->sep ? j->sep : "";
	/* a benchmark's ad is its job's, whatever follows its '-' (HTCondor's
	 * condor_mips ends its output with "--") */
	if (!strcasecmp(c->prefix, "BENCHMARKS"))
		s = "";
	bool first = true;
	size_t pos = 0, n;
	for (const char *w; (w = ks_list_next(s, &pos, &n));) {
		char *tok = ks_xstrndup(w, n);
		char *colon = strchr(tok, ':');
		if (first && !colon) {
			size_t nl = strlen(jname) + n + 2;
			name = ks_xmalloc(nl);
			snprintf(name, nl, "%s.%s", jname, tok);
		} else if (colon ? colon - tok == 6 &&
					   !strncmp(tok, "update", 6)
				 : !strcmp(tok, "update")) {
			wants_update = true;
			if (!colon || bool_word(colon + 1, &wants_update))
				ap = CRON_AP_NEVER;
		}
		first = false;
		free(tok);
	}
	if (!name)
		name = ks_xstrdup(jname);
	size_t nattrs = classad_size(ad);
	bool changed = sd_cron_store_ad(c, j, name, ad);
	if (ap == CRON_AP_ALWAYS || (ap == CRON_AP_IF_CHANGED && changed))
		wants_update = true;
	ks_log_printf(c->log, KS_D_FULLDEBUG,
		      "CronJob: '%s' published ad '%s' (%zu attributes%s%s)",
		      jname, name, nattrs, changed ? ", changed" : "",
		      wants_update ? ", update requested" : "");
	free(name);
	if (c->fn)
		c->fn(c->arg, wants_update);
}

static void reset_block(struct cron_job *j)
{
	classad_free(j->pending);
	j->pending = NULL;
	free(j->sep);
	j->sep = NULL;
	j->block_lines = 0;
	j->block_bytes = 0;
	j->block_full = false;
	j->kept_out.len = 0;
}

static void end_block(struct cron_job *j, bool dump, pid_t pid)
{
	if (!j->block_lines)
		return; /* HTCondor keeps the tag for the next ad */
	if (dump && j->kept_out.len) {
		ks_log_printf(j->mgr->log, KS_D_ALWAYS,
			      "CronJob: '%s' (pid %d) produced %zu lines of "
			      "standard output, which follow.",
			      j->p->name, (int)pid, j->block_lines);
		for (char *l = j->kept_out.data, *e; l && *l; l = e + 1) {
			e = strchr(l, '\n');
			if (!e)
				break;
			ks_log_printf(j->mgr->log, KS_D_ALWAYS,
				      "['%s' (%d)] %.*s", j->p->name, (int)pid,
				      (int)(e - l), l);
		}
	}
	if (j->pending && classad_size(j->pending)) {
		const char *pre = j->p->prefix;
		size_t n = strlen(pre) + sizeof("LastUpdate");
		char *lu = ks_xmalloc(n);
		snprintf(lu, n, "%sLastUpdate", pre);
		classad_insert_int(j->pending, lu, (int64_t)time(NULL));
		free(lu);
		classad *ad = j->pending;
		j->pending = NULL;
		publish(j, ad);
	}
	j->outputs++;
	reset_block(j);
}

static void out_line(struct cron_job *j, char *line, size_t len,
		     bool overlong)
{
	sd_cron *c = j->mgr;
	if (overlong) {
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: '%s' wrote an output line longer than "
			      "%d bytes (starting '%.40s'); line skipped",
			      j->p->name, CRON_MAX_LINE, line);
		j->block_lines++;
		return;
	}
	if (!len)
		return;
	if (line[0] == '-') {
		size_t sl = len - 1;
		if (sl) {
			char *t = trim(line + 1, &sl);
			free(j->sep);
			j->sep = ks_xstrndup(t, sl);
		}
		end_block(j, false, j->pid);
		return;
	}
	j->block_lines++;
	sd_cron_text_add(&j->kept_out, line, len, CRON_MAX_KEPT);
	sd_cron_text_add(&j->kept_out, "\n", 1, CRON_MAX_KEPT + 1);
	if (j->block_full)
		return;
	j->block_bytes += len;
	if (j->block_bytes > CRON_MAX_AD_TEXT) {
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: '%s' wrote more than %d bytes for one "
			      "ad; the rest of it is dropped (end ads with a "
			      "'-' line)",
			      j->p->name, CRON_MAX_AD_TEXT);
		j->block_full = true;
		return;
	}
	line = trim(line, &len);
	if (!len || line[0] == '#')
		return;
	const char *pre = j->p->prefix;
	size_t pl = strlen(pre);
	char *text = ks_xmalloc(pl + len + 1);
	memcpy(text, pre, pl);
	memcpy(text + pl, line, len + 1);
	struct ks_err err = {0};
	classad *ad =
		classad_parse(text, pl + len, CLASSAD_FMT_OLD, NULL, &err);
	if (!ad) {
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: '%s' wrote '%.200s', which is not "
			      "'Name = value' (%s); line skipped",
			      j->p->name, line, err.msg);
	} else {
		if (!j->pending)
			j->pending = classad_new();
		classad_update(j->pending, ad);
		classad_free(ad);
	}
	free(text);
}

void sd_cron_out_bytes(struct cron_job *j, const char *buf, size_t n)
{
	feed(j, &j->out, buf, n, out_line);
}

static void err_line(struct cron_job *j, char *line, size_t len,
		     bool overlong)
{
	(void)overlong; /* HTCondor cuts them too */
	if (!len)
		return;
	j->err_lines++;
	sd_cron_text_add(&j->kept_err, line, len, CRON_MAX_KEPT);
	sd_cron_text_add(&j->kept_err, "\n", 1, CRON_MAX_KEPT + 1);
	ks_log_printf(j->mgr->log, KS_D_FULLDEBUG, "CronJob: '%s' stderr: %s",
		      j->p->name, line);
}

void sd_cron_err_bytes(struct cron_job *j, const char *buf, size_t n)
{
	feed(j, &j->err, buf, n, err_line);
}

void sd_cron_out_flush(struct cron_job *j)
{
	if (j->out.t.len || j->out.overlong)
		feed(j, &j->out, "\n", 1, out_line);
	if (j->err.t.len)
		feed(j, &j->err, "\n", 1, err_line);
}

void sd_cron_out_end(struct cron_job *j, bool dump, pid_t pid)
{
	end_block(j, dump, pid);
}

void sd_cron_out_reset(struct cron_job *j)
{
	if (j->block_lines)
		ks_log_printf(j->mgr->log, KS_D_ALWAYS,
			      "CronJob: '%s': %zu unfinished output lines of "
			      "the last run dropped",
			      j->p->name, j->block_lines);
	reset_block(j);
	j->out.t.len = 0;
	j->out.overlong = false;
	j->err.t.len = 0;
	j->kept_err.len = 0;
	j->err_lines = 0;
}

void sd_cron_out_free(struct cron_job *j)
{
	reset_block(j);
	sd_cron_text_free(&j->out.t);
	sd_cron_text_free(&j->err.t);
	sd_cron_text_free(&j->kept_out);
	sd_cron_text_free(&j->kept_err);
}

void sd_cron_ads_add_job(sd_cron *c, struct cron_job *j)
{
	struct cron_ad **pp = &c->ads;
	while (*pp)
		pp = &(*pp)->next;
	*pp = ks_xcalloc(1, sizeof(**pp));
	(*pp)->name = ks_xstrdup(j->p->name);
	(*pp)->job = j;
}

void sd_cron_ads_drop_job(sd_cron *c, const struct cron_job *j)
{
	for (struct cron_ad **pp = &c->ads; *pp;) {
		struct cron_ad *a = *pp;
		if (a->job != j) {
			pp = &a->next;
			continue;
		}
		*pp = a->next;
		free(a->name);
		classad_free(a->ad);
		free(a);
	}
}
