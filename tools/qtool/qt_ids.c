/*
 * qt_ids.c: job ids and user names on the job tools' command lines, read
 * as HTCondor's tools read them (condor_q's StrIsProcId, condor_rm's
 * procArg), and the ActionIds list sent for them.
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "qtool.h"

/* A decimal int at *p (an optional '-' when neg_ok); *p moves past it.
 * false when there are no digits or the number does not fit. */
static bool qt_number(const char **p, bool neg_ok, int *out)
{
	const char *s = *p;
	bool neg = false;
	if (neg_ok && *s == '-') {
		neg = true;
		s++;
	}
	if (!isdigit((unsigned char)*s))
		return false;
	long long v = 0;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (*s++ - '0');
		if (v > INT_MAX)
			return false;
	}
	*out = (int)(neg ? -v : v);
	*p = s;
	return true;
}

bool qt_q_id(const char *s, int *cluster, int *proc)
{
	const char *p = s;
	int c, pr = -1;
	if (!qt_number(&p, false, &c))
		return false;
	if (*p == '.') {
		p++;
		if (*p && !qt_number(&p, true, &pr))
			return false;
	}
	if (*p)
		return false;
	*cluster = c;
	*proc = pr;
	return true;
}

/* HTCondor's str_isreal(s, strict): digits with at most one '.', which
 * may neither start nor end it. */
static bool qt_is_real(const char *s)
{
	bool dot = false;
	if (!*s || *s == '.')
		return false;
	for (const char *p = s; *p; p++) {
		if (*p == '.') {
			if (dot || !p[1])
				return false;
			dot = true;
		} else if (!isdigit((unsigned char)*p)) {
			return false;
		}
	}
	return true;
}

enum qt_act_arg qt_act_id(const char *s, int *cluster, int *proc)
{
	if (!qt_is_real(s))
		return QT_ARG_USER;
	char *end;
	long c = strtol(s, &end, 10);
	if (c <= 0 || c > INT_MAX)
		return QT_ARG_BAD_CLUSTER;
	*cluster = (int)c;
	*proc = -1;
	if (*end == '\0')
		return QT_ARG_CLUSTER;
	long p = strtol(end + 1, &end, 10);
	if (p < 0 || p > INT_MAX)
		return QT_ARG_BAD_PROC;
	*proc = (int)p;
	return QT_ARG_JOB;
}

void qt_idlist_add(struct qt_idlist *l, int cluster, int proc)
{
	l->v = ks_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
	l->v[l->n].cluster = cluster;
	l->v[l->n].proc = proc;
	l->n++;
}

char *qt_idlist_text(const struct qt_idlist *l)
{
	struct classad_buf b = {0};
	for (size_t i = 0; i < l->n; i++) {
		if (l->v[i].proc < 0)
			classad_buf_printf(&b, "%s%d", i ? "," : "", l->v[i].cluster);
		else
			classad_buf_printf(&b, "%s%d.%d", i ? "," : "",
					   l->v[i].cluster, l->v[i].proc);
	}
	return b.data ? b.data : ks_xstrdup("");
}

void qt_idlist_free(struct qt_idlist *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

char *qt_quote(const char *s)
{
	struct classad_buf b = {0};
	classad_quote_string_buf(&b, s, strlen(s));
	return b.data ? b.data : ks_xstrdup("\"\"");
}

char *qt_constraint(char *const *ands, size_t nands, char *const *ors,
		    size_t nors)
{
	struct classad_buf b = {0};
	for (size_t i = 0; i < nands; i++)
		classad_buf_printf(&b, "%s(%s)", i ? " && " : "( ", ands[i]);
	if (nands)
		classad_buf_add(&b, " )", 2);
	for (size_t i = 0; i < nors; i++)
		classad_buf_printf(&b, "%s(%s)",
				   i ? " || " : (nands ? " && ( " : "( "),
				   ors[i]);
	if (nors)
		classad_buf_add(&b, " )", 2);
	return b.data;
}
