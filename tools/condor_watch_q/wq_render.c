/*
 * wq_render.c: the text condor_watch_q shows each turn, laid out as
 * HTCondor's tool lays it out: the table (a column per state that some
 * row has, IDLE, RUN and DONE always; a zero shown as "-"; each cell
 * followed by a blank; columns two blanks apart), each row's progress
 * bar in what is left of the terminal's width, the total progress bar,
 * the summary line and the "Updated at" line, each part followed by a
 * blank line, all cut to the terminal's height.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "classad.h"
#include "ks_mem.h"
#include "wq.h"

#define RESET "\033[0m"
#define RED "\033[31m"
#define GREEN "\033[32m"
#define YELLOW "\033[33m"
#define CYAN "\033[36m"
#define BRIGHT_YELLOW "\033[93m"
#define BRIGHT_WHITE "\033[97m"

static void str_pad(struct classad_buf *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		classad_buf_add(b, " ", 1);
}

/* Characters as a terminal shows them: UTF-8 sequences count once, and
 * colour escapes not at all. */
static size_t visible_len(const char *s)
{
	size_t n = 0;
	while (*s) {
		if (s[0] == '\033' && s[1] == '[') {
			s += 2;
			while (*s && !(*s >= '@' && *s <= '~'))
				s++;
			if (*s)
				s++;
			continue;
		}
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
		s++;
	}
	return n;
}

/* The bytes of s that hold its first n visible characters. */
static size_t visible_prefix(const char *s, size_t n)
{
	const char *p = s;
	size_t seen = 0;
	while (*p) {
		if (p[0] == '\033' && p[1] == '[') {
			p += 2;
			while (*p && !(*p >= '@' && *p <= '~'))
				p++;
			if (*p)
				p++;
			continue;
		}
		if (((unsigned char)*p & 0xc0) != 0x80) {
			if (seen == n)
				break;
			seen++;
		}
		p++;
	}
	return (size_t)(p - s);
}

/* The bar's order, characters and colours. */
static const struct {
	enum wq_state s;
	char ch;
	const char *color;
} bar_parts[] = {
	{WQ_IDLE, '-', BRIGHT_YELLOW}, {WQ_INPUT, '>', CYAN},
	{WQ_RUN, '=', CYAN},           {WQ_OUTPUT, '>', CYAN},
	{WQ_DONE, '#', GREEN},         {WQ_HELD, '!', RED},
	{WQ_SUSPENDED, '!', RED},      {WQ_REMOVED, '!', RED},
};
#define NPARTS (sizeof bar_parts / sizeof bar_parts[0])

char *wq_bar(char *buf, const long count[WQ_NSTATES], long total, int width,
	     bool color)
{
	struct classad_buf b = {buf, buf ? strlen(buf) : 0,
				buf ? strlen(buf) + 1 : 0};
	long w = (width < 79 ? width : 79) - 2;
	long len[NPARTS];
	long sum = 0;
	size_t big = 0;
	for (size_t i = 0; i < NPARTS; i++) {
		long n = count[bar_parts[i].s];
		double f = n && total ? (double)n / (double)total : 0.0;
		len[i] = (long)(w * f);
		sum += len[i];
		if (len[i] > len[big])
			big = i;
	}
	/* what rounding left over goes to the longest part */
	len[big] += w - sum;
	classad_buf_puts(&b, "[");
	for (size_t i = 0; i < NPARTS; i++) {
		if (color)
			classad_buf_puts(&b, bar_parts[i].color);
		for (long k = 0; k < len[i]; k++)
			classad_buf_add(&b, &bar_parts[i].ch, 1);
		if (color)
			classad_buf_puts(&b, RESET);
	}
	classad_buf_puts(&b, "]");
	return b.data;
}

enum col_kind { COL_KEY, COL_STATE, COL_TOTAL, COL_IDS };

struct col {
	enum col_kind kind;
	enum wq_state state;
	const char *head;
	size_t width;
	bool left; /* left-aligned */
};

static char *cell(const struct wq_row *r, const struct col *c)
{
	char buf[64];
	struct classad_buf b = {0};
	switch (c->kind) {
	case COL_KEY:
		classad_buf_puts(&b, r->key);
		break;
	case COL_STATE:
		if (r->count[c->state])
			snprintf(buf, sizeof buf, "%ld", r->count[c->state]);
		else
			strcpy(buf, "-");
		classad_buf_puts(&b, buf);
		break;
	case COL_TOTAL:
		if (r->total)
			snprintf(buf, sizeof buf, "%ld", r->total);
		else
			strcpy(buf, "-");
		classad_buf_puts(&b, buf);
		break;
	case COL_IDS:
		classad_buf_puts(&b, r->job_ids);
		break;
	}
	classad_buf_puts(&b, " ");
	return b.data;
}

static void put_aligned(struct classad_buf *b, const char *text, const struct col *c)
{
	size_t n = visible_len(text);
	size_t pad = c->width > n ? c->width - n : 0;
	if (!c->left)
		str_pad(b, pad);
	classad_buf_puts(b, text);
	if (c->left)
		str_pad(b, pad);
}

static const char *row_color(const struct wq_row *r)
{
	if (r->count[WQ_HELD] > 0)
		return RED;
	if (r->count[WQ_DONE] == r->total)
		return GREEN;
	if (r->count[WQ_RUN] > 0)
		return CYAN;
	if (r->count[WQ_IDLE] > 0)
		return YELLOW;
	return BRIGHT_WHITE;
}

/* A list of lines. */
struct lines {
	char **v;
	size_t n;
};

static void push(struct lines *l, char *line)
{
	l->v = ks_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
	l->v[l->n++] = line;
}

static void table(struct lines *out, const struct wq_rows *r,
		  const struct wq_opts *o, const struct wq_view *v)
{
	static const char *const key_heads[] = {"BATCH", "LOG", "CLUSTER"};
	struct col cols[WQ_NSTATES + 3];
	size_t nc = 0;
	cols[nc++] = (struct col){COL_KEY, 0, key_heads[o->groupby], 0, true};
	for (int s = 0; s < WQ_NSTATES; s++) {
		bool keep = s == WQ_IDLE || s == WQ_RUN || s == WQ_DONE;
		for (size_t i = 0; i < r->n && !keep; i++)
			keep = r->v[i].count[s] != 0;
		if (keep)
			cols[nc++] = (struct col){COL_STATE, (enum wq_state)s,
						  wq_state_name(s), 0, false};
	}
	cols[nc++] = (struct col){COL_TOTAL, 0, "TOTAL", 0, false};
	/* with no rows every column is empty, and only those always shown
	 * stay */
	if (r->n)
		cols[nc++] = (struct col){COL_IDS, 0, "JOB_IDS", 0, true};

	char **cells = ks_xcalloc(r->n * nc + 1, sizeof *cells);
	for (size_t c = 0; c < nc; c++)
		cols[c].width = strlen(cols[c].head);
	for (size_t i = 0; i < r->n; i++)
		for (size_t c = 0; c < nc; c++) {
			char *t = cell(&r->v[i], &cols[c]);
			size_t n = visible_len(t);
			if (n > cols[c].width)
				cols[c].width = n;
			cells[i * nc + c] = t;
		}

	struct classad_buf h = {0};
	for (size_t c = 0; c < nc; c++) {
		if (c)
			classad_buf_puts(&h, "  ");
		put_aligned(&h, cols[c].head, &cols[c]);
	}
	while (h.len && h.data[h.len - 1] == ' ')
		h.data[--h.len] = '\0';
	push(out, h.data);

	size_t first = out->n;
	for (size_t i = 0; i < r->n; i++) {
		struct classad_buf l = {0};
		if (v->color)
			classad_buf_puts(&l, row_color(&r->v[i]));
		for (size_t c = 0; c < nc; c++) {
			if (c)
				classad_buf_puts(&l, "  ");
			put_aligned(&l, cells[i * nc + c], &cols[c]);
			free(cells[i * nc + c]);
		}
		if (v->color)
			classad_buf_puts(&l, RESET);
		push(out, l.data ? l.data : ks_xstrdup(""));
	}
	free(cells);

	long left = v->columns;
	if (r->n)
		left -= (long)visible_len(out->v[first]);
	for (size_t i = 0; i < r->n; i++) {
		char **line = &out->v[first + i];
		if (o->row_progress && left > 10) {
			*line = wq_bar(*line, r->v[i].count, r->v[i].total,
				       (int)left, v->color);
		} else if (v->columns >= 0 &&
			   visible_len(*line) > (size_t)v->columns) {
			size_t cut = visible_prefix(*line, (size_t)v->columns);
			(*line)[cut] = '\0';
			if (v->color) {
				*line = ks_xrealloc(*line, cut + sizeof RESET);
				strcat(*line, RESET);
			}
		}
	}
}

static const char *const summary_names[] = {
	"completed", "removed", "idle", "running", "held", "suspended",
};

/* The summary's counts, in its order (running includes transfers). */
static void summary_counts(const struct wq_rows *r, long n[6])
{
	n[0] = r->totals[WQ_DONE];
	n[1] = r->totals[WQ_REMOVED];
	n[2] = r->totals[WQ_IDLE];
	n[3] = r->totals[WQ_INPUT] + r->totals[WQ_RUN] + r->totals[WQ_OUTPUT];
	n[4] = r->totals[WQ_HELD];
	n[5] = r->totals[WQ_SUSPENDED];
}

static char *summary_totals(const struct wq_rows *r, int width)
{
	long n[6];
	summary_counts(r, n);
	/* the state names are cut shorter until the line fits (to two
	 * letters at least) */
	for (size_t cut = 10;; cut--) {
		struct classad_buf b = {0};
		classad_buf_printf(&b, "Total: %ld jobs; ", r->total);
		bool first = true;
		for (int i = 0; i < 6; i++) {
			if (n[i] <= 0)
				continue;
			classad_buf_printf(&b, "%s%ld %.*s", first ? "" : ", ", n[i],
				   (int)cut, summary_names[i]);
			first = false;
		}
		if ((long)b.len <= width || cut <= 2)
			return b.data;
		free(b.data);
	}
}

static char *summary_percentages(const struct wq_rows *r)
{
	long n[6];
	summary_counts(r, n);
	struct classad_buf b = {0};
	classad_buf_printf(&b, "Total: %ld jobs; ", r->total);
	for (int i = 0; i < 6; i++) {
		double f = n[i] && r->total ? (double)n[i] / (double)r->total
					   : 0.0;
		/* Python's round(): halves to even, as rint() does */
		classad_buf_printf(&b, "%s%ld%% %s", i ? ", " : "", (long)rint(100.0 * f),
			   summary_names[i]);
	}
	return b.data;
}

char *wq_render(const struct wq_rows *r, const struct wq_opts *o,
		const struct wq_view *v)
{
	struct lines l = {0};
	if (o->table) {
		table(&l, r, o, v);
		push(&l, ks_xstrdup(""));
	}
	if (o->progress) {
		char *bar = ks_xstrdup("Total Progress: ");
		bar = wq_bar(bar, r->totals, r->total, v->columns - 16, v->color);
		push(&l, bar);
		push(&l, ks_xstrdup(""));
	}
	if (o->summary) {
		push(&l, o->percentages ? summary_percentages(r)
					: summary_totals(r, v->columns));
		push(&l, ks_xstrdup(""));
	}
	if (o->updated_at) {
		struct classad_buf b = {0};
		classad_buf_printf(&b, "Updated at %s", v->updated);
		push(&l, b.data);
		push(&l, ks_xstrdup(""));
	}
	/* the last part's blank line is not shown */
	size_t shown = l.n ? l.n - 1 : 0;
	bool too_tall = v->lines >= 0 && l.n > (size_t)v->lines;
	if (too_tall) {
		size_t keep = v->lines >= 2 ? (size_t)v->lines - 2 : 0;
		shown = keep ? keep - 1 : 0;
	}
	struct classad_buf out = {0};
	classad_buf_puts(&out, "");
	for (size_t i = 0; i < shown; i++) {
		if (i)
			classad_buf_puts(&out, "\n");
		classad_buf_puts(&out, l.v[i]);
	}
	if (too_tall)
		classad_buf_puts(&out, "\nInsufficient terminal height to display full "
			      "output!");
	if (!v->refresh)
		classad_buf_puts(&out, "\n...");
	if (!o->nexits)
		classad_buf_puts(&out, v->key_press ? "\nPress any key to exit"
					   : "\nPress ^C to exit");
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i]);
	free(l.v);
	return out.data;
}
