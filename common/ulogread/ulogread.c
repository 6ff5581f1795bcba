/*
 * ulogread.c: cutting a growing job event log into events (ks_ulogread.h).
 *
 * Workload: condor_wait and tests read logs of a few to a few hundred
 * thousand events, usually a few hundred bytes each, fed in whatever
 * pieces read() returns.  Each byte is looked at once when its line is
 * searched for "...", and once more when the header is read; the buffer
 * keeps only the event being collected and what follows it.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "ks_ulogread.h"

struct ks_ulogread {
	char *buf;
	size_t len, cap;
	size_t start;     /* first byte of the event being collected */
	size_t scan;      /* first byte of the first line not yet examined */
	long start_line;  /* line number at start */
	long scan_line;   /* line number at scan */
	char *hdr;        /* the last header line, NUL-terminated, cut up */
	size_t hdr_cap;
};

ks_ulogread *ks_ulogread_new(void)
{
	ks_ulogread *r = ks_xcalloc(1, sizeof(*r));
	r->start_line = r->scan_line = 1;
	return r;
}

void ks_ulogread_free(ks_ulogread *r)
{
	if (!r)
		return;
	free(r->buf);
	free(r->hdr);
	free(r);
}

int ks_ulogread_feed(ks_ulogread *r, const char *buf, size_t n,
		     struct ks_err *err)
{
	/* drop what earlier events used before growing */
	if (r->start > 0 && (r->start >= r->len / 2 || r->len + n > r->cap)) {
		memmove(r->buf, r->buf + r->start, r->len - r->start);
		r->len -= r->start;
		r->scan -= r->start;
		r->start = 0;
	}
	if (r->len - r->start + n > KS_ULOGREAD_MAX_EVENT)
		return ks_err_set(err, KS_ERANGE, (int)r->start_line, 0, 0,
				  "line %ld: event longer than %u bytes",
				  r->start_line, KS_ULOGREAD_MAX_EVENT);
	if (r->len + n > r->cap) {
		size_t cap = r->cap ? r->cap : 4096;
		while (cap < r->len + n)
			cap *= 2;
		r->buf = ks_xrealloc(r->buf, cap);
		r->cap = cap;
	}
	if (n)
		memcpy(r->buf + r->len, buf, n);
	r->len += n;
	return 0;
}

/* Is the line [p, end) "..." (trailing blanks and CR allowed)? */
static bool is_end_line(const char *p, const char *end)
{
	if (end - p < 3 || memcmp(p, "...", 3) != 0)
		return false;
	for (p += 3; p < end; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return false;
	return true;
}

static bool is_blank_line(const char *p, const char *end)
{
	for (; p < end; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return false;
	return true;
}

/* An optionally negative decimal int at *p; advances *p past it. */
static bool take_int(char **p, int *out)
{
	char *s = *p;
	bool neg = *s == '-';
	if (neg)
		s++;
	if (*s < '0' || *s > '9')
		return false;
	long long v = 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (*s - '0');
		if (v > (long long)INT_MAX + 1)
			return false;
	}
	if (neg)
		v = -v;
	if (v > INT_MAX || v < INT_MIN)
		return false;
	*out = (int)v;
	*p = s;
	return true;
}

static bool take_char(char **p, char c)
{
	if (**p != c)
		return false;
	(*p)++;
	return true;
}

/* A token of non-blank characters; returns false when there is none. */
static bool take_token(char **p)
{
	char *s = *p;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (s == *p)
		return false;
	*p = s;
	return true;
}

/* Reads "NNN (C.P.S) DATE TIME what" in r->hdr into ev. */
static bool parse_header(ks_ulogread *r, struct ks_ulogread_event *ev)
{
	char *p = r->hdr;
	if (*p == '-' || !take_int(&p, &ev->type) || ev->type < 0 ||
	    !take_char(&p, ' ') || !take_char(&p, '(') ||
	    !take_int(&p, &ev->cluster) || !take_char(&p, '.') ||
	    !take_int(&p, &ev->proc) || !take_char(&p, '.') ||
	    !take_int(&p, &ev->subproc) || !take_char(&p, ')') ||
	    !take_char(&p, ' '))
		return false;
	ev->date = p;
	if (!take_token(&p) || !take_char(&p, ' ') || !take_token(&p))
		return false;
	if (*p) {
		*p++ = '\0'; /* the blank after the time */
	}
	ev->what = p;
	return true;
}

int ks_ulogread_next(ks_ulogread *r, struct ks_ulogread_event *ev,
		     struct ks_err *err)
{
	for (;;) {
		char *base = r->buf;
		char *nl = r->scan < r->len
				   ? memchr(base + r->scan, '\n', r->len - r->scan)
				   : NULL;
		if (!nl)
			return 0;
		char *line = base + r->scan;
		size_t next = (size_t)(nl - base) + 1;
		if (r->scan == r->start && is_blank_line(line, nl)) {
			/* between events */
			r->start = r->scan = next;
			r->start_line = ++r->scan_line;
			continue;
		}
		bool end = is_end_line(line, nl);
		r->scan = next;
		r->scan_line++;
		if (!end)
			continue;

		/* an event: [start, next) */
		const char *text = base + r->start;
		size_t text_len = next - r->start;
		long line_no = r->start_line;
		r->start = next;
		r->start_line = r->scan_line;

		const char *hnl = memchr(text, '\n', text_len);
		size_t hlen = (size_t)(hnl - text);
		if (hlen + 1 > r->hdr_cap) {
			r->hdr_cap = hlen + 1;
			r->hdr = ks_xrealloc(r->hdr, r->hdr_cap);
		}
		memcpy(r->hdr, text, hlen);
		r->hdr[hlen] = '\0';
		while (hlen > 0 && r->hdr[hlen - 1] == '\r')
			r->hdr[--hlen] = '\0';
		*ev = (struct ks_ulogread_event){0};
		/* a NUL inside the header line ends it early: not a header */
		if (strlen(r->hdr) != hlen || !parse_header(r, ev))
			return ks_err_set(err, KS_EPARSE, (int)line_no, 0, 0,
					  "line %ld: not an event header",
					  line_no);
		ev->text = text;
		ev->text_len = text_len;
		ev->line = line_no;
		return 1;
	}
}

const char *ks_ulogread_execute_host(const struct ks_ulogread_event *ev)
{
	static const char lead[] = "Job executing on host: ";
	if (!ev->what || strncmp(ev->what, lead, sizeof lead - 1) != 0)
		return "";
	return ev->what + sizeof lead - 1;
}
