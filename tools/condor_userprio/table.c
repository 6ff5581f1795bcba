/*
 * table.c: condor_userprio's output (userprio.h): HTCondor's table of
 * fixed-width columns, each value right-aligned in its width and the
 * headings centred above, so that scripts that cut columns out of
 * HTCondor's output cut the same ones here.
 */
#include "userprio.h"

#include <ctype.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
	char name[96];
	snprintf(name, sizeof(name), "%s%zu", attr, i);
	return classad_eval_string_dup(ad, name);
}

struct up_rec *up_recs_from_ad(const classad *ad, size_t *n, int *avail,
			       bool rollup)
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
		if (get_real(ad, "EffectiveQuota", i, &x->eff_quota))
			x->has |= UP_EFF_QUOTA;
		if (get_real(ad, "ConfigQuota", i, &x->cfg_quota))
			x->has |= UP_CFG_QUOTA;
		if (x->is_group) {
			x->group_id = strcmp(x->name, NONE_GROUP) == 0 ||
						      strcmp(x->name, ".") == 0
					      ? 0
					      : -(int)i;
			char *pol = get_str(ad, "SurplusPolicy", i);
			x->surplus = UP_SURPLUS_NONE;
			if (pol) {
				x->has |= UP_SURPLUS;
				x->surplus =
					strcasecmp(pol, "regroup") == 0
						? UP_SURPLUS_REGROUP
					: strcasecmp(pol, "byquota") == 0
						? UP_SURPLUS_BYQUOTA
					: strcasecmp(pol, "no") == 0
						? UP_SURPLUS_NONE
						: UP_SURPLUS_UNKNOWN;
			}
			free(pol);
			if (get_real(ad, "GroupSortKey", i, &x->sort_key))
				x->has |= UP_SORT_KEY;
			if (get_real(ad, "SubtreeQuota", i, &x->tree_quota))
				x->has |= UP_TREE_QUOTA;
			if (rollup && !(x->has & UP_EFF_QUOTA))
				x->has &= ~UP_PRIOS;
			/* a group's priority means nothing: not shown */
			x->has &= ~UP_PRIORITY;
		} else {
			/* a user of a group gets the group's id later */
			x->group_id = strcmp(x->group, NONE_GROUP) == 0 ||
						      strcmp(x->group, ".") == 0
					      ? 0
					      : -2 * (int)count;
			if (x->has & (UP_EFF_QUOTA | UP_CFG_QUOTA))
				*avail |= UP_USERS_QUOTAS;
		}
		if (x->group_id != 0)
			x->has |= UP_GROUP;
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

/* HTCondor's orders of the rows. */
enum order {
	BY_COLUMN1,          /* priority, or usage, or name */
	BY_HIER_GROUP_ID,    /* users under their groups, in the ad's order */
	BY_HIER_DISPLAY,     /* ... the groups by their display order */
	BY_GROUPS_FIRST_NAME,
	BY_GROUPS_FIRST_INDEX,
};

struct order_ctx {
	int flag;
	enum order order;
	bool none_last;
};

static bool less(const struct order_ctx *o, const struct up_rec *a,
		 const struct up_rec *b)
{
	switch (o->order) {
	case BY_HIER_GROUP_ID:
	case BY_HIER_DISPLAY:
		if (a->group_id != b->group_id) {
			if (o->none_last) {
				if (!a->group_id)
					return false;
				if (!b->group_id)
					return true;
			}
			if (o->order == BY_HIER_DISPLAY &&
			    a->display_order != b->display_order)
				return a->display_order < b->display_order;
			return a->group_id < b->group_id;
		}
		if (a->is_group != b->is_group)
			return a->is_group > b->is_group;
		break;
	case BY_GROUPS_FIRST_NAME:
		if (a->is_group != b->is_group)
			return a->is_group > b->is_group;
		if (a->is_group) {
			if (o->none_last) {
				if (!a->group_id)
					return false;
				if (!b->group_id)
					return true;
			}
			return strcmp(a->name, b->name) < 0;
		}
		break;
	case BY_GROUPS_FIRST_INDEX:
		/* the groups come first in the ad, breadth first */
		if (a->is_group || b->is_group)
			return a->index < b->index;
		break;
	case BY_COLUMN1:
		break;
	}
	if (o->flag & UP_PRIORITY)
		return a->priority < b->priority;
	if (o->flag & UP_USAGE)
		return a->acc_usage < b->acc_usage;
	return strcmp(a->name, b->name) < 0;
}

/* A stable insertion sort with the order's context (qsort has none). */
static void sort_rows(struct up_rec **row, size_t n, const struct order_ctx *o)
{
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && less(o, row[k], row[k - 1]); k--) {
			struct up_rec *t = row[k];
			row[k] = row[k - 1];
			row[k - 1] = t;
		}
}

static const char *surplus_name(int s)
{
	switch (s) {
	case UP_SURPLUS_UNSET:
		return "";
	case UP_SURPLUS_NONE:
		return "no";
	case UP_SURPLUS_REGROUP:
		return "Regroup";
	case UP_SURPLUS_BYQUOTA:
		return "ByQuota";
	}
	return "n/a";
}

/* Users of groups get their group's id: the groups are numbered in
 * name order, "<none>" keeping 0, and each gets the order it is shown
 * in (its sort key, priority or usage, as the columns say). */
static void fix_group_ids(struct up_rec **row, size_t n, int flag, int avail)
{
	struct order_ctx o = {flag, BY_GROUPS_FIRST_NAME, true};
	sort_rows(row, n, &o);
	size_t ngroups = 0, none = 0;
	for (size_t i = 0; i < n && row[i]->is_group; i++) {
		struct up_rec *g = row[i];
		ngroups++;
		if (g->group_id < 0)
			g->group_id = (int)ngroups;
		else
			none = i;
		if (flag & UP_PRIORITY)
			g->display_order = avail & UP_SORT_KEY ? g->sort_key
					   : g->group_id     ? g->priority
							     : FLT_MAX;
		else if (flag & UP_USAGE)
			g->display_order = g->acc_usage / 3600.0;
		else
			g->display_order = g->group_id ? (double)g->group_id
						       : FLT_MAX;
		g->has |= UP_ORDER;
	}
	for (size_t i = ngroups; i < n; i++) {
		struct up_rec *u = row[i];
		if (u->group_id >= 0) {
			if (ngroups) {
				u->display_order = row[none]->display_order;
				u->has |= row[none]->has & UP_ORDER;
			}
			continue;
		}
		for (size_t k = 0; k < ngroups; k++)
			if (strcmp(u->group, row[k]->name) == 0) {
				u->group_id = row[k]->group_id;
				u->display_order = row[k]->display_order;
				u->has |= row[k]->has & UP_ORDER;
				break;
			}
	}
}

static void dashes(char *line, int max_name, int flag)
{
	pad_to(line, NULL, max_name + 1, '-', PAD_RIGHT);
	int ix = max_name;
	for (size_t k = 0; k < NCOLS; k++) {
		if (!(cols[k].flag & flag))
			continue;
		line[ix++] = ' ';
		pad_to(line + ix, NULL, cols[k].width + 1, '-', PAD_RIGHT);
		ix += cols[k].width;
	}
}

void up_print_table(FILE *out, struct up_rec *r, size_t n, int avail,
		    const struct up_view *v, time_t last_update)
{
	time_t min_last = v->min_last;
	int flag = v->detail ? v->detail : UP_MOST;
	bool hier = v->hier, hide_groups = false, hide_users = false;
	bool hide_none = true;
	/* showing only priorities: groups mean nothing */
	if (!(flag & ~UP_PRIOS)) {
		if (!v->dash_hier)
			hier = false;
		hide_groups = !hier;
	}
	/* no column the negotiator gave no data for */
	if (!(avail & UP_USAGE))
		flag &= ~UP_USAGE;
	if (!(avail & UP_FACTOR))
		flag &= ~UP_FACTOR;
	if (!(avail & UP_USE_TIME1))
		flag &= ~UP_USE_TIME1;
	if (!(avail & UP_USE_TIME2))
		flag &= ~(UP_USE_TIME2 | UP_USE_DELTA);
	if (!v->dash_quota && !(avail & UP_QUOTAS))
		flag &= ~UP_QUOTAS;

	struct up_rec **row = ks_xmalloc((n ? n : 1) * sizeof(*row));
	bool fixup = false;
	int global_surplus = UP_SURPLUS_UNSET;
	for (size_t i = 0; i < n; i++) {
		row[i] = &r[i];
		fixup |= !r[i].is_group && r[i].group_id < 0;
		if (r[i].is_group && (r[i].has & UP_SURPLUS) &&
		    (r[i].surplus == UP_SURPLUS_REGROUP ||
		     (r[i].surplus == UP_SURPLUS_BYQUOTA &&
		      global_surplus != UP_SURPLUS_REGROUP)))
			global_surplus = r[i].surplus;
	}
	if (fixup)
		fix_group_ids(row, n, flag, avail);

	bool all_in_none = true;
	for (size_t i = 0; i < n; i++)
		if (row[i]->last >= min_last && row[i]->group_id > 0) {
			all_in_none = false;
			hide_none = false;
			break;
		}
	if (!(avail & UP_GROUP) || (hide_none && all_in_none))
		hier = false;
	bool users_quotas = avail & UP_USERS_QUOTAS;
	if ((hide_groups || all_in_none) && !v->dash_quota && !users_quotas)
		flag &= ~UP_QUOTAS;
	if ((flag & UP_QUOTAS) && !(flag & ~UP_QUOTAS) && !users_quotas)
		hide_users = true;

	struct order_ctx o = {flag, BY_COLUMN1, false};
	if (hier) {
		o.none_last = global_surplus == UP_SURPLUS_REGROUP;
		o.order = flag & (UP_PRIORITY | UP_USAGE) ? BY_HIER_DISPLAY
							  : BY_HIER_GROUP_ID;
	} else if (v->group_order) {
		o.order = BY_GROUPS_FIRST_INDEX;
	}
	sort_rows(row, n, &o);

	int max_name = 10;
	for (size_t i = 0; i < n; i++) {
		if (row[i]->last < min_last)
			continue;
		int len = (int)strlen(row[i]->name);
		if (hier && !row[i]->is_group) {
			len += 2;
			if (row[i]->group_id != 0)
				len -= (int)strlen(row[i]->group);
		}
		if (len > max_name)
			max_name = len;
	}
	char count[64];
	int min_name = snprintf(count, sizeof(count), "Number of users: %zu",
				n);
	if (max_name > MAX_NAME_WIDTH)
		max_name = MAX_NAME_WIDTH;
	if (max_name < min_name)
		max_name = min_name;
	if (hier)
		max_name += 2;

	char date[64];
	fprintf(out, "Last Priority Update: %s\n",
		fmt_date(last_update, date, sizeof(date)));
	size_t cap = (size_t)max_name * 2 + 256;
	for (size_t k = 0; k < NCOLS; k++)
		cap += (size_t)cols[k].width + 1;
	char *line = ks_xmalloc(cap);
	int ix;

	const char *title2 = hier ? "  User Name" : "User Name";
	if (hide_users)
		title2 = hier ? "Name" : "Group Name";
	for (int h = 0; h < 2; h++) {
		pad_to(line, h ? title2 : hier ? "Group" : NULL, max_name + 1,
		       ' ', PAD_RIGHT);
		ix = max_name;
		for (size_t k = 0; k < NCOLS; k++) {
			if (!(cols[k].flag & flag))
				continue;
			line[ix++] = ' ';
			pad_to(line + ix, h ? cols[k].head2 : cols[k].head1,
			       cols[k].width + 1, ' ', PAD_CENTER);
			ix += cols[k].width;
		}
		fprintf(out, "%s\n", line);
	}
	dashes(line, max_name, flag);
	fprintf(out, "%s\n", line);

	size_t users = 0;
	double tot_wt = 0, tot_acc = 0;
	for (size_t i = 0; i < n; i++) {
		const struct up_rec *x = row[i];
		bool is_group = x->is_group;
		if (x->last < min_last)
			continue;
		if (!is_group) {
			users++;
			if (hide_users)
				continue;
		} else {
			if (hide_groups || (!hier && hide_none && !x->group_id))
				continue;
			/* once a group is shown, "<none>" is too */
			hide_none = false;
		}
		if (!hier || is_group) {
			pad_to(line, x->name, max_name + 1, ' ', PAD_RIGHT);
		} else {
			line[0] = line[1] = ' ';
			const char *name = x->name;
			if (x->group_id > 0 &&
			    strlen(name) > strlen(x->group))
				name += strlen(x->group) + 1;
			pad_to(line + 2, name, max_name + 1 - 2, ' ',
			       PAD_RIGHT);
		}
		ix = max_name;
		for (size_t k = 0; k < NCOLS; k++) {
			int c = cols[k].flag, w = cols[k].width;
			if (!(c & flag))
				continue;
			line[ix++] = ' ';
			char *at = line + ix;
			ix += w;
			if (!(x->has & c)) {
				if (is_group && (c & (UP_QUOTAS | UP_SORT_KEY)))
					pad_to(at, "n/d", w + 1, ' ', PAD_LEFT);
				else
					pad_to(at, NULL, w + 1, ' ', PAD_RIGHT);
				continue;
			}
			switch (c) {
			case UP_GROUP:
				fmt_float(at, w, 0, (double)x->group_id);
				break;
			case UP_ORDER:
				fmt_float(at, w, 2, x->display_order);
				break;
			case UP_SURPLUS:
				pad_to(at,
				       x->group_id ? surplus_name(x->surplus)
						   : "yes",
				       w + 1, ' ', PAD_RIGHT);
				break;
			case UP_EFF_QUOTA:
				fmt_float(at, w, 2, x->eff_quota);
				break;
			case UP_CFG_QUOTA:
				fmt_float(at, w, 2, x->cfg_quota);
				break;
			case UP_TREE_QUOTA:
				fmt_float(at, w, 2, x->tree_quota);
				break;
			case UP_SORT_KEY:
				/* FLT_MAX, after a round trip through an ad */
				if (x->sort_key < 3.40282001e38)
					fmt_float(at, w, 2, x->sort_key);
				else
					pad_to(at, "<last>", w + 1, ' ',
					       PAD_LEFT);
				break;
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
		if (!is_group) {
			tot_wt += x->wt_res;
			tot_acc += x->acc_usage;
		}
	}

	dashes(line, max_name, flag);
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
		case UP_SURPLUS:
			pad_to(at, surplus_name(global_surplus), w + 1, ' ',
			       PAD_RIGHT);
			break;
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
