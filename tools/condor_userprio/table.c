/*
 * table.c: condor_userprio's output (userprio.h): HTCondor's table of
 * fixed-width columns, each value right-aligned in its width and the
 * headings centred above, so that scripts that cut columns out of
 * HTCondor's output cut the same ones here.
 */
#include "userprio.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"

#define NONE_GROUP "<none>"
#define MAX_NAME_WIDTH 99

/* ---- reading the ad ------------------------------------------------------ */

static bool get_real(const classad *ad, const char *attr, size_t i, double *v)
{
	char name[96];
	snprintf(name, sizeof(name), "%s%zu", attr, i);
	return classad_eval_real(ad, name, NULL, v);
}

static bool get_int(const classad *ad, const char *attr, size_t i, int64_t *v)
{
	char name[96];
	snprintf(name, sizeof(name), "%s%zu", attr, i);
	return classad_eval_int(ad, name, NULL, v);
}

static char *get_str(const classad *ad, const char *attr, size_t i)
{
	char name[96], *s = NULL;
	snprintf(name, sizeof(name), "%s%zu", attr, i);
	return classad_eval_string(ad, name, NULL, &s) ? s : NULL;
}

struct up_rec *up_recs_from_ad(const classad *ad, size_t *n, int *avail)
{
	int64_t count = 0;
	*n = 0;
	*avail = 0;
	if (!classad_eval_int(ad, "NumSubmittors", NULL, &count) || count < 0 ||
	    count > 10000000)
		return NULL;
	struct up_rec *r = ks_xcalloc((size_t)count + 1, sizeof(*r));
	for (size_t i = 1; i <= (size_t)count; i++) {
		struct up_rec *x = &r[*n];
		double prio;
		char *name = get_str(ad, "Name", i);
		if (!name || !get_real(ad, "Priority", i, &prio)) {
			free(name);
			continue;
		}
		x->name = name;
		x->index = i;
		x->priority = prio;
		x->has = UP_PRIORITY;
		x->ceiling = x->floor = -1;
		if (get_real(ad, "PriorityFactor", i, &x->factor)) {
			x->has |= UP_FACTOR;
			if (x->factor > 0)
				x->has |= UP_REAL_PRIO;
		}
		if (get_real(ad, "WeightedAccumulatedUsage", i, &x->acc_usage))
			x->has |= UP_USAGE;
		if (get_real(ad, "Ceiling", i, &x->ceiling))
			x->has |= UP_CEILING;
		if (get_real(ad, "Floor", i, &x->floor))
			x->has |= UP_FLOOR;
		if (get_real(ad, "Requested", i, &x->requested))
			x->has |= UP_REQUESTED;
		if (get_int(ad, "BeginUsageTime", i, &x->begin))
			x->has |= UP_USE_TIME1;
		if (get_int(ad, "LastUsageTime", i, &x->last))
			x->has |= UP_USE_TIME2 | UP_USE_DELTA;
		if (get_int(ad, "ResourcesUsed", i, &x->res))
			x->has |= UP_USAGE;
		if (get_real(ad, "WeightedResourcesUsed", i, &x->wt_res))
			x->has |= UP_WT_RES_USED;
		else
			x->wt_res = (double)x->res;
		x->group = get_str(ad, "AccountingGroup", i);
		if (!x->group)
			x->group = ks_xstrdup(NONE_GROUP);
		bool b = false;
		char attr[64];
		snprintf(attr, sizeof(attr), "IsAccountingGroup%zu", i);
		x->is_group = classad_eval_bool(ad, attr, NULL, &b) && b;
		if (x->is_group) {
			double d;
			if (get_real(ad, "EffectiveQuota", i, &d))
				x->has |= UP_EFF_QUOTA;
			if (get_real(ad, "ConfigQuota", i, &d))
				x->has |= UP_CFG_QUOTA;
			char *pol = get_str(ad, "SurplusPolicy", i);
			if (pol)
				x->has |= UP_SURPLUS;
			free(pol);
			if (get_real(ad, "GroupSortKey", i, &d))
				x->has |= UP_SORT_KEY;
			if (get_real(ad, "SubtreeQuota", i, &d))
				x->has |= UP_TREE_QUOTA;
			/* a group's priority means nothing: not shown */
			x->has &= ~UP_PRIORITY;
		}
		if (x->last == 0)
			x->last = -1;
		*avail |= x->has;
		(*n)++;
	}
	return r;
}

void up_recs_free(struct up_rec *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].name);
		free(r[i].group);
	}
	free(r);
}

/* ---- fixed-width text ---------------------------------------------------- */

enum pad { PAD_RIGHT, PAD_LEFT, PAD_CENTER };

/* Writes src into the cch - 1 characters at dest, filled with fill on
 * the side pad says, and a NUL at dest[cch - 1] (HTCondor's widths
 * count that NUL). */
static void pad_to(char *dest, const char *src, int cch, char fill,
		   enum pad pad)
{
	char *p = dest;
	int remain = cch;
	int srclen = src ? (int)strlen(src) + 1 : 0;
	if (pad == PAD_LEFT)
		for (; remain > srclen; remain--)
			*p++ = fill;
	if (pad == PAD_CENTER)
		for (int left = (remain - srclen) / 2; left > 0; left--) {
			*p++ = fill;
			remain--;
		}
	for (; src && *src && remain > 0; remain--)
		*p++ = *src++;
	for (; remain > 0; remain--)
		*p++ = fill;
	dest[cch - 1] = '\0';
}

static void fmt_float(char *dest, int width, int decimals, double v)
{
	char s[64];
	snprintf(s, sizeof(s), "%*.*f", width, decimals, v);
	if ((int)strlen(s) > width)
		snprintf(s, sizeof(s), "%.*g", width - 6, v);
	pad_to(dest, s, width + 1, ' ', PAD_LEFT);
}

/* " 3/ 9 15:37" */
static const char *fmt_date(time_t t, char *buf, size_t len)
{
	if (t < 0) {
		snprintf(buf, len, "    ???    ");
		return buf;
	}
	struct tm tm;
	localtime_r(&t, &tm);
	snprintf(buf, len, "%2d/%-2d %02d:%02d", tm.tm_mon + 1, tm.tm_mday,
		 tm.tm_hour, tm.tm_min);
	return buf;
}

/* " 3/09/2026 15:37" */
static const char *fmt_date_year(time_t t, char *buf, size_t len)
{
	if (t < 0) {
		snprintf(buf, len, "    ???    ");
		return buf;
	}
	struct tm tm;
	localtime_r(&t, &tm);
	snprintf(buf, len, "%2d/%02d/%-4d %02d:%02d", tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_year + 1900, tm.tm_hour, tm.tm_min);
	return buf;
}

/* "  0+01:05": days+hours:minutes */
static const char *fmt_span(time_t secs, char *buf, size_t len)
{
	if (secs < 0) {
		snprintf(buf, len, "[?????]");
		return buf;
	}
	long long d = secs / 86400, h = secs % 86400 / 3600,
		  m = secs % 3600 / 60;
	snprintf(buf, len, "%3lld+%02lld:%02lld", d, h, m);
	return buf;
}

static void fmt_when(char *dest, int cch, time_t t, const char *zero)
{
	char b[64];
	pad_to(dest, zero && t <= 0 ? zero : fmt_date_year(t, b, sizeof(b)),
	       cch, ' ', PAD_LEFT);
}

static void fmt_delta(char *dest, int cch, time_t d, const char *zero)
{
	char b[64];
	pad_to(dest, zero && d <= 0 ? zero : fmt_span(d, b, sizeof(b)), cch,
	       ' ', PAD_LEFT);
}

/* ---- the table ------------------------------------------------------------ */

static const struct {
	int flag;
	int width;
	const char *head1, *head2;
} cols[] = {
	{UP_GROUP, 5, "Group", "Id"},
	{UP_ORDER, 9, "Group", "Order"},
	{UP_SORT_KEY, 9, "Group", "Sort Key"},
	{UP_EFF_QUOTA, 9, "Effective", "Quota"},
	{UP_CFG_QUOTA, 9, "Config", "Quota"},
	{UP_SURPLUS, 7, "Use", "Surplus"},
	{UP_TREE_QUOTA, 9, "Subtree", "Quota"},
	{UP_PRIORITY, 12, "Effective", "Priority"},
	{UP_REAL_PRIO, 8, "Real", "Priority"},
	{UP_FACTOR, 9, "Priority", "Factor"},
	{UP_RES_USED, 6, "Wghted", "In Use"},
	{UP_WT_RES_USED, 12, "Total Usage", "(wghted-hrs)"},
	{UP_USE_TIME1, 16, "Usage", "Start Time"},
	{UP_USE_TIME2, 16, "Last", "Usage Time"},
	{UP_USE_DELTA, 10, "Time Since", "Last Usage"},
	{UP_REQUESTED, 10, "Weighted", "Requested"},
	{UP_FLOOR, 9, "Submitter", "Floor"},
	{UP_CEILING, 9, "Submitter", "Ceiling"},
};
#define NCOLS (sizeof(cols) / sizeof(cols[0]))

static int by_column1(const void *pa, const void *pb)
{
	const struct up_rec *a = *(const struct up_rec *const *)pa;
	const struct up_rec *b = *(const struct up_rec *const *)pb;
	int c = 0;
	if (a->has & UP_PRIORITY & b->has) /* both have one (not groups) */
		c = (a->priority > b->priority) - (a->priority < b->priority);
	if (c)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

static int by_usage(const void *pa, const void *pb)
{
	const struct up_rec *a = *(const struct up_rec *const *)pa;
	const struct up_rec *b = *(const struct up_rec *const *)pb;
	int c = (a->acc_usage > b->acc_usage) - (a->acc_usage < b->acc_usage);
	return c ? c : a->index < b->index ? -1 : a->index > b->index;
}

static int by_name(const void *pa, const void *pb)
{
	const struct up_rec *a = *(const struct up_rec *const *)pa;
	const struct up_rec *b = *(const struct up_rec *const *)pb;
	int c = strcmp(a->name, b->name);
	return c ? c : a->index < b->index ? -1 : a->index > b->index;
}

void up_print_table(FILE *out, struct up_rec *r, size_t n, int avail,
		    int detail, time_t last_update, time_t min_last)
{
	int flag = detail ? detail : UP_MOST;
	/* no column the negotiator gave no data for */
	if (!(avail & UP_USAGE))
		flag &= ~UP_USAGE;
	if (!(avail & UP_FACTOR))
		flag &= ~UP_FACTOR;
	if (!(avail & UP_USE_TIME1))
		flag &= ~UP_USE_TIME1;
	if (!(avail & UP_USE_TIME2))
		flag &= ~(UP_USE_TIME2 | UP_USE_DELTA);
	/* every submitter is in the "<none>" group (kestrel has no group
	 * quotas): HTCondor then shows neither groups nor quotas */
	flag &= ~UP_QUOTAS;

	const struct up_rec **row = ks_xmalloc((n ? n : 1) * sizeof(*row));
	for (size_t i = 0; i < n; i++)
		row[i] = &r[i];
	qsort(row, n, sizeof(*row),
	      flag & UP_PRIORITY ? by_column1
	      : flag & UP_USAGE  ? by_usage
				 : by_name);

	int max_name = 10;
	for (size_t i = 0; i < n; i++) {
		int len = (int)strlen(row[i]->name);
		if (row[i]->last >= min_last && len > max_name)
			max_name = len;
	}
	char count[64];
	int min_name = snprintf(count, sizeof(count), "Number of users: %zu",
				n);
	if (max_name > MAX_NAME_WIDTH)
		max_name = MAX_NAME_WIDTH;
	if (max_name < min_name)
		max_name = min_name;

	char date[64];
	fprintf(out, "Last Priority Update: %s\n",
		fmt_date(last_update, date, sizeof(date)));
	size_t cap = (size_t)max_name * 2 + 256;
	for (size_t k = 0; k < NCOLS; k++)
		cap += (size_t)cols[k].width + 1;
	char *line = ks_xmalloc(cap);
	int ix;

	for (int h = 0; h < 3; h++) {
		pad_to(line, h == 1 ? "User Name" : NULL, max_name + 1,
		       h == 2 ? '-' : ' ', PAD_RIGHT);
		ix = max_name;
		for (size_t k = 0; k < NCOLS; k++) {
			if (!(cols[k].flag & flag))
				continue;
			line[ix++] = ' ';
			if (h == 2)
				pad_to(line + ix, NULL, cols[k].width + 1, '-',
				       PAD_RIGHT);
			else
				pad_to(line + ix,
				       h ? cols[k].head2 : cols[k].head1,
				       cols[k].width + 1, ' ', PAD_CENTER);
			ix += cols[k].width;
		}
		fprintf(out, "%s\n", line);
	}

	size_t users = 0;
	double tot_wt = 0, tot_acc = 0;
	for (size_t i = 0; i < n; i++) {
		const struct up_rec *x = row[i];
		if (x->last < min_last)
			continue;
		if (x->is_group)
			continue; /* the "<none>" group, hidden when alone */
		users++;
		pad_to(line, x->name, max_name + 1, ' ', PAD_RIGHT);
		ix = max_name;
		for (size_t k = 0; k < NCOLS; k++) {
			int c = cols[k].flag, w = cols[k].width;
			if (!(c & flag))
				continue;
			line[ix++] = ' ';
			char *at = line + ix;
			ix += w;
			if (!(x->has & c)) {
				pad_to(at, NULL, w + 1, ' ', PAD_RIGHT);
				continue;
			}
			switch (c) {
			case UP_PRIORITY:
				fmt_float(at, w, 2, x->priority);
				break;
			case UP_REAL_PRIO:
				fmt_float(at, w, 2,
					  x->factor > 0 ? x->priority / x->factor
							: 0);
				break;
			case UP_FACTOR:
				if (x->factor > 0)
					fmt_float(at, w, 2, x->factor);
				else
					pad_to(at, NULL, w + 1, ' ', PAD_RIGHT);
				break;
			case UP_RES_USED:
				fmt_float(at, w, 0, x->wt_res);
				break;
			case UP_REQUESTED:
				fmt_float(at, w, 0, x->requested);
				break;
			case UP_WT_RES_USED:
				fmt_float(at, w, 2, x->acc_usage / 3600.0);
				break;
			case UP_USE_TIME1:
				fmt_when(at, w + 1, x->begin, "");
				break;
			case UP_USE_TIME2:
				fmt_when(at, w + 1, x->last, "");
				break;
			case UP_USE_DELTA:
				fmt_delta(at, w + 1, last_update - x->last,
					  "<now>");
				break;
			case UP_CEILING:
				if (x->ceiling > -1.0)
					fmt_float(at, w, 2, x->ceiling);
				else
					pad_to(at, NULL, w + 1, ' ', PAD_RIGHT);
				break;
			case UP_FLOOR:
				if (x->floor > 0.0)
					fmt_float(at, w, 2, x->floor);
				else
					pad_to(at, NULL, w + 1, ' ', PAD_RIGHT);
				break;
			default:
				pad_to(at, NULL, w + 1, ' ', PAD_RIGHT);
			}
		}
		fprintf(out, "%s\n", line);
		tot_wt += x->wt_res;
		tot_acc += x->acc_usage;
	}

	pad_to(line, NULL, max_name + 1, '-', PAD_RIGHT);
	ix = max_name;
	for (size_t k = 0; k < NCOLS; k++) {
		if (!(cols[k].flag & flag))
			continue;
		line[ix++] = ' ';
		pad_to(line + ix, NULL, cols[k].width + 1, '-', PAD_RIGHT);
		ix += cols[k].width;
	}
	fprintf(out, "%s\n", line);

	snprintf(count, sizeof(count), "Number of users: %zu", users);
	pad_to(line, count, max_name + 1, ' ', PAD_RIGHT);
	ix = max_name;
	for (size_t k = 0; k < NCOLS; k++) {
		int c = cols[k].flag, w = cols[k].width;
		if (!(c & flag))
			continue;
		line[ix++] = ' ';
		char *at = line + ix;
		ix += w;
		switch (c) {
		case UP_RES_USED:
			fmt_float(at, w, 0, tot_wt);
			break;
		case UP_WT_RES_USED:
			fmt_float(at, w, 2, tot_acc / 3600.0);
			break;
		case UP_USE_TIME1:
			fmt_when(at, w + 1, 0, "");
			break;
		case UP_USE_TIME2:
			fmt_when(at, w + 1, min_last, "");
			break;
		case UP_USE_DELTA:
			if (min_last <= 0)
				pad_to(at, "", w + 1, ' ', PAD_LEFT);
			else
				fmt_delta(at, w + 1, last_update - min_last,
					  "<now>");
			break;
		default:
			pad_to(at, NULL, w + 1, ' ', PAD_RIGHT);
		}
	}
	fprintf(out, "%s\n", line);
	free(line);
	free(row);
}

/* ---- -l ------------------------------------------------------------------- */

/* attr split as NAME and its trailing number, or 0 when it has none. */
static size_t index_of(const char *attr, size_t *base)
{
	size_t len = strlen(attr), k = len;
	while (k > 0 && isdigit((unsigned char)attr[k - 1]))
		k--;
	if (k == len || k == 0)
		return 0;
	*base = k;
	return (size_t)strtoul(attr + k, NULL, 10);
}

void up_print_long(FILE *out, const classad *ad)
{
	int64_t count = 0, last = 0;
	classad_eval_int(ad, "NumSubmittors", NULL, &count);
	classad_eval_int(ad, "LastUpdate", NULL, &last);
	for (size_t i = 1; count > 0 && i <= (size_t)count; i++) {
		classad *rec = classad_new();
		size_t pos = 0;
		const char *name;
		const classad_expr *e;
		while (classad_next(ad, &pos, &name, &e)) {
			size_t base;
			if (index_of(name, &base) != i)
				continue;
			char *attr = ks_xstrndup(name, base);
			classad_insert(rec, attr, classad_expr_ref(e));
			free(attr);
		}
		if (classad_size(rec)) {
			classad_insert_int(rec, "LastUpdate", last);
			char *text = classad_unparse(rec, CLASSAD_FMT_OLD);
			fprintf(out, "%s\n", text);
			free(text);
		}
		classad_free(rec);
	}
}
