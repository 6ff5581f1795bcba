/*
 * read.c: reading configuration text: logical lines, assignments, @=
 * blocks, if/elif/else/endif, include, use, error and warning.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config_int.h"
#include "templates.h"

struct rd {
	ks_config *cfg;
	int source;
	int line;
	int use_line; /* in a template: the line of the use statement */
	int depth;
	const char *use; /* "CATEGORY:Template" when reading a template */
	struct ks_err *err;
	struct ks_ifs ifs; /* the if blocks open */
	char *here_name, *here_tag;
	struct classad_buf here;
};

static int rd_error(struct rd *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "CATEGORY:Name+N" for a definition on statement N (from 0) of a
 * template, as condor_config_val -v shows it; NULL outside templates. */
static const char *use_label(const struct rd *r, char *buf, size_t len)
{
	if (!r->use)
		return NULL;
	snprintf(buf, len, "%s+%d", r->use, r->line - 1);
	return buf;
}

/* The line a definition is said to come from. */
static int where(const struct rd *r)
{
	return r->use ? r->use_line : r->line;
}

static int rd_error(struct rd *r, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->use)
		return ks_err_set(r->err, KS_EPARSE, r->use_line, 0, 0,
				  "Error \"%s\", Line %d: in use %s: %s",
				  r->cfg->sources[r->source], r->use_line,
				  r->use, msg);
	return ks_err_set(r->err, KS_EPARSE, r->line, 0, 0,
			  "Error \"%s\", Line %d: %s",
			  r->cfg->sources[r->source], r->line, msg);
}

/* ---- if blocks --------------------------------------------------------- */

/* An if/elif/else/endif line: 1 if it was one, 0 if not, or an error
 * code. */
static int if_line(struct rd *r, const char *line)
{
	struct ks_expand_opts o = {.cfg = r->cfg};
	char msg[600];
	int rc = ks_ifs_line(&r->ifs, line, &o, msg, sizeof(msg));
	return rc < 0 ? rd_error(r, "%s", msg) : rc;
}

/* ---- use ---------------------------------------------------------------- */

bool kc_category_known(const char *category)
{
	for (size_t i = 0; i < ks_templates_count; i++)
		if (!strcasecmp(ks_templates[i].category, category))
			return true;
	return false;
}

/* "use CATEGORY : A, B(args) C": reads each template. */
static int use_line(struct rd *r, const char *category, const char *rhs)
{
	if (!*category)
		return rd_error(r, "use needs a keyword before : %s", rhs);
	if (!kc_category_known(category))
		return rd_error(r, "use %s: unknown template category", category);
	if (r->depth + 1 >= KC_MAX_DEPTH)
		return rd_error(r, "use %s: %s nesting too deep", category, rhs);
	const char *p = rhs;
	for (;;) {
		while (*p && (isspace((unsigned char)*p) || *p == ','))
			p++;
		const char *e = p;
		while (*e && !isspace((unsigned char)*e) && *e != ',' &&
		       *e != '(')
			e++;
		if (e == p)
			return 0;
		char *name = ks_xstrndup(p, (size_t)(e - p));
		char *args = NULL;
		p = e;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '(') {
			int depth = 0;
			const char *q = p;
			for (; *q; q++) {
				if (*q == '(' || *q == '[')
					depth++;
				else if ((*q == ')' || *q == ']') && --depth == 0)
					break;
			}
			if (*q == ')') {
				args = ks_xstrndup(p + 1, (size_t)(q - p - 1));
				p = q;
			}
			p++;
		}
		const struct ks_template *t = ks_template_find(category, name);
		if (!t) {
			int rc = rd_error(r, "use %s: does not recognise %s",
					  category, name);
			free(name);
			free(args);
			return rc;
		}
		char label[200];
		snprintf(label, sizeof(label), "%s:%s", t->category, t->name);
		char *body = (args || kc_has_meta_args(t->body))
				     ? kc_expand_meta_args(t->body,
							   args ? args : "")
				     : ks_xstrdup(t->body);
		int rc = kc_read(r->cfg, r->source, body, strlen(body),
				 r->depth + 1, label,
				 r->use ? r->use_line : r->line, r->err);
		free(body);
		free(name);
		free(args);
		if (rc)
			return rc;
	}
}

/* ---- include ------------------------------------------------------------ */

static char *read_all(FILE *f, size_t *len)
{
	struct classad_buf b = {0};
	char chunk[8192];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		classad_buf_add(&b, chunk, n);
	*len = b.len;
	return kc_buf_take(&b);
}

/* Reads a file, or a command's output when is_command (or when the name
 * ends with '|'). */
int kc_read_source(ks_config *cfg, const char *name, bool is_command,
		   bool must_exist, int depth, struct ks_err *err)
{
	char *cmd = NULL;
	size_t n = strlen(name);
	if (n && name[n - 1] == '|') {
		is_command = true;
		while (n && (name[n - 1] == '|' || name[n - 1] == ' '))
			n--;
	}
	if (is_command)
		cmd = ks_xstrndup(name, n);
	FILE *f = cmd ? popen(cmd, "r") : fopen(name, "r");
	if (!f) {
		int e = errno;
		free(cmd);
		if (!must_exist)
			return 0;
		return ks_err_set(err, KS_EIO, 0, 0, 0, "can't open %s %s: %s",
				  is_command ? "command" : "file", name,
				  strerror(e));
	}
	size_t len;
	char *text = read_all(f, &len);
	int status = cmd ? pclose(f) : fclose(f);
	int src = kc_add_source(cfg, name, true);
	int rc = 0;
	if (cmd && status != 0)
		rc = ks_err_set(err, KS_EIO, 0, 0, 0,
				"command '%s' failed (status %d)", cmd, status);
	else
		rc = kc_read(cfg, src, text, len, depth, NULL, 0, err);
	free(text);
	free(cmd);
	return rc;
}

static int include_line(struct rd *r, const char *opts, const char *rhs)
{
	bool is_command = false, must_exist = true;
	char *o = ks_xstrdup(opts);
	for (char *save, *t = strtok_r(o, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(t, "ifexist") || !strcmp(t, "ifexists")) {
			must_exist = false;
		} else if (!strcmp(t, "output") || !strcmp(t, "command")) {
			is_command = true;
		} else {
			int rc = rd_error(r, "unexpected keyword(s) '%s' after "
					     "include",
					  opts);
			free(o);
			return rc;
		}
	}
	free(o);
	if (r->use)
		return rd_error(r, "include is not allowed in a template");
	if (r->depth + 1 >= KC_MAX_DEPTH)
		return rd_error(r, "includes nested too deep");
	struct ks_err inner;
	ks_err_clear(&inner);
	char *file = kc_expand(r->cfg, rhs, false, &inner);
	if (!file)
		return rd_error(r, "%s", inner.msg);
	int rc = kc_read_source(r->cfg, file, is_command, must_exist,
				r->depth + 1, &inner);
	if (rc && inner.line == 0) /* could not open it */
		rc = rd_error(r, "%s", inner.msg);
	else if (rc && r->err)
		*r->err = inner;
	free(file);
	return rc;
}

/* ---- one logical line --------------------------------------------------- */

static int assign(struct rd *r, const char *name, char op, char plus_sep,
		  int double_plus, const char *rhs)
{
	struct ks_err err;
	ks_err_clear(&err);
	char *ename = kc_expand(r->cfg, name, false, &err);
	if (!ename)
		return rd_error(r, "%s", err.msg);
	if (!kc_valid_name(ename, strlen(ename))) {
		int rc = rd_error(r, "Illegal Identifier: <%s>", ename);
		free(ename);
		return rc;
	}
	if (op == '@') {
		r->here_name = ename;
		r->here_tag = ks_xstrdup(rhs);
		r->here.len = 0;
		return 0;
	}
	struct classad_buf plus = {0};
	if (op == '+') {
		/* "X += v" is "X = $(X) v" when X has a value. */
		const char *cur = kc_lookup(r->cfg, ename, strlen(ename), NULL);
		if (cur && *cur) {
			kc_buf_adds(&plus, cur);
			if (plus_sep && double_plus > 1) {
				char sep[5] = {' ', plus_sep, plus_sep, ' ', 0};
				kc_buf_adds(&plus, sep);
			} else {
				kc_buf_addc(&plus, plus_sep ? plus_sep : ' ');
			}
			kc_buf_adds(&plus, rhs);
			rhs = plus.data;
		}
	}
	char *value = kc_expand_self(r->cfg, rhs, ename);
	char label[200];
	kc_insert(r->cfg, ename, value, r->source, where(r),
		  use_label(r, label, sizeof(label)));
	free(value);
	free(plus.data);
	free(ename);
	return 0;
}

static bool is_op(char c)
{
	return c == '=' || c == ':';
}

static int error_line(struct rd *r, const char *rhs, bool is_error)
{
	struct ks_err err;
	ks_err_clear(&err);
	char *msg = kc_expand(r->cfg, rhs, false, &err);
	const char *text = msg ? msg : rhs;
	if (is_error) {
		int rc = rd_error(r, "%s", text);
		free(msg);
		return rc;
	}
	char w[600];
	snprintf(w, sizeof(w), "Warning \"%s\", Line %d: %s",
		 r->cfg->sources[r->source], where(r), text);
	ks_config *cfg = r->cfg;
	cfg->warnings = ks_xrealloc(cfg->warnings, (cfg->nwarnings + 1) *
							   sizeof(*cfg->warnings));
	cfg->warnings[cfg->nwarnings++] = ks_xstrdup(w);
	free(msg);
	return 0;
}

static int process_line(struct rd *r, char *line)
{
	if (r->here_name) {
		if (line[0] == '@' && !strcmp(line + 1, r->here_tag)) {
			char *value = kc_expand_self(
				r->cfg, r->here.data ? r->here.data : "",
				r->here_name);
			char label[200];
			kc_insert(r->cfg, r->here_name, value, r->source,
				  where(r), use_label(r, label, sizeof(label)));
			free(value);
			free(r->here_name);
			free(r->here_tag);
			r->here_name = r->here_tag = NULL;
			r->here.len = 0;
			return 0;
		}
		if (r->here.len)
			kc_buf_addc(&r->here, '\n');
		kc_buf_adds(&r->here, line);
		return 0;
	}
	line = ks_ifs_unhide(&r->ifs, line);
	int rc = if_line(r, line);
	if (rc)
		return rc < 0 ? rc : 0;
	if (!ks_ifs_enabled(&r->ifs))
		return 0;

	char *name = line, *p = line;
	while (*p && !isspace((unsigned char)*p) && !is_op(*p))
		p++;
	if (!*p) {
		if (line[0] == '[') /* an .ini-style section header */
			return 0;
		return rd_error(r, "expected '=' or ':' after '%s'", line);
	}
	char op = *p, plus_sep = 0;
	int double_plus = 0;
	char *words = NULL; /* words between the name and the operator */
	*p++ = '\0';
	if (!is_op(op)) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p && !is_op(*p) && *p != '@' && *p != '+')
			words = p;
		while (*p && !is_op(*p) && *p != '@' && *p != '+')
			p++;
		op = *p;
		if (op) {
			*p++ = '\0';
			if (op == '@') {
				if (*p == '=')
					p++;
				else
					op = 0;
			} else if (op == '+') {
				if (*p && strchr(",;|&*", *p)) {
					plus_sep = *p++;
					double_plus = 1;
					if (*p == plus_sep) {
						double_plus = 2;
						p++;
					}
				}
				if (*p == '=')
					p++;
				else
					op = 0;
			}
		}
		if (!op)
			return rd_error(r, "expected '=' after '%s'", name);
	}
	if (words) {
		size_t n = strlen(words);
		while (n && isspace((unsigned char)words[n - 1]))
			words[--n] = '\0';
	}
	while (isspace((unsigned char)*p))
		p++;
	char *rhs = p;
	const char *kw = name + (*name == '@');
	if (op == ':' && !strcasecmp(kw, "use"))
		return use_line(r, words ? words : "", rhs);
	if (op == ':' && (!strcasecmp(kw, "error") || !strcasecmp(kw, "warning")))
		return error_line(r, rhs, !strcasecmp(kw, "error"));
	if (op == ':' && !strcasecmp(kw, "include"))
		return include_line(r, words ? words : "", rhs);
	if (words)
		return rd_error(r, "expected '=' after '%s', found '%s'", name,
				words);
	/* The name may be followed by words before ':' only for keywords. */
	return assign(r, name, op == ':' ? '=' : op, plus_sep, double_plus,
		      rhs);
}

/* ---- logical lines ------------------------------------------------------ */

static bool blank(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return !*s;
}

/* Appends the next logical line of text (joining lines that end in '\')
 * to b; returns false at the end of text.  *line counts lines read. */
static bool next_line(const char *text, size_t len, size_t *pos, int *line,
		      struct classad_buf *b)
{
	b->len = 0;
	kc_buf_adds(b, "");
	if (*pos >= len)
		return false;
	bool first = true;
	while (*pos < len) {
		const char *s = text + *pos;
		const char *nl = memchr(s, '\n', len - *pos);
		size_t n = nl ? (size_t)(nl - s) : len - *pos;
		*pos += n + (nl ? 1 : 0);
		(*line)++;
		while (n && isspace((unsigned char)s[n - 1]))
			n--;
		while (n && isspace((unsigned char)*s)) {
			s++;
			n--;
		}
		bool comment = n && *s == '#';
		if (comment && !first) {
			/* A commented-out line inside a continuation counts
			 * as blank -- all but its last character, as in
			 * HTCondor. */
			s += n - 1;
			n = 1;
		}
		classad_buf_add(b, s, n);
		if (b->len && b->data[b->len - 1] == '\\') {
			b->data[--b->len] = '\0';
			if (!(comment && first)) {
				first = false;
				continue;
			}
		}
		return true;
	}
	return true;
}

int kc_read(ks_config *cfg, int source, const char *text, size_t len,
	    int depth, const char *use, int use_line, struct ks_err *err)
{
	struct rd r = {.cfg = cfg, .source = source, .depth = depth,
		       .use = use, .use_line = use_line, .err = err,
		       .ifs = KS_IFS_INIT};
	struct classad_buf b = {0};
	size_t pos = 0;
	int rc = 0;
	ks_err_clear(err);
	const char *nul = memchr(text, '\0', len);
	if (nul)
		len = (size_t)(nul - text);
	while (!rc && next_line(text, len, &pos, &r.line, &b)) {
		if (b.data[0] == '#' || blank(b.data))
			continue;
		rc = process_line(&r, b.data);
	}
	if (!rc && r.here_name)
		rc = rd_error(&r, "end of file while looking for '@%s'",
			      r.here_tag);
	if (!rc && r.ifs.top > 1)
		rc = rd_error(&r, "endif(s) not found before end-of-file");
	free(r.here_name);
	free(r.here_tag);
	free(r.here.data);
	free(b.data);
	return rc;
}

int ks_config_read_text(ks_config *cfg, const char *name, const char *text,
			size_t len, struct ks_err *err)
{
	int src = kc_add_source(cfg, name, true);
	return kc_read(cfg, src, text, len, 0, NULL, 0, err);
}

int ks_config_read_file(ks_config *cfg, const char *path, struct ks_err *err)
{
	ks_err_clear(err);
	return kc_read_source(cfg, path, false, true, 0, err);
}
