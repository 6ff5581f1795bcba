/*
 * run.c: condor_status from arguments to output, in HTCondor's order:
 * the query flags choose what to ask for and how to show it, the
 * constraints and formats follow in the order given, then the ads are
 * fetched, sorted, folded (-compact) and printed with their summary.
 */
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "config.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "status.h"

/* The constraints HTCondor's modes add. */
#define ST_AVAIL "State == \"Unclaimed\" && Cpus > 0 && Memory > 0"
#define TF_CLAIMED "State == \"Claimed\""
#define ST_STARTD_COMPACT "PartitionableSlot =?= true || DynamicSlot =!= true"
#define ST_CLAIMED_COMPACT                                                 \
	"(State == \"Claimed\" && DynamicSlot =!= true) || "               \
	"(NumDynamicSlots isnt undefined && NumDynamicSlots > 0)"

struct st_run {
	struct st_opts o;
	struct st_query q;
	struct tf_mask m;
	struct st_layout lay;
	struct st_sort sort;
	struct st_totals *totals;
	struct st_entry *entries;
	struct st_entry **order;
	size_t n, cap;
	struct classad_buf texts; /* the long forms of every entry */
	struct st_query sort_names; /* the attributes the sort reads */
	struct st_sink sink;
	ks_config *cfg; /* loaded only when a name needs resolving */
	int max_subkey;
	bool piped;
	int display_width;
	FILE *out, *err;
};

/* The terminal's width, HTCondor's 80 (1024 with -wide) when the output
 * is not a terminal, or -wide:N. */
static void st_display_width(struct st_run *r)
{
	r->piped = false;
	if (r->o.forced_width > 0) {
		r->display_width = r->o.forced_width;
		return;
	}
	struct winsize ws;
	int fd = fileno(r->out);
	if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 0) {
		r->display_width = ws.ws_col;
		return;
	}
	r->piped = true;
	r->display_width = r->o.wide ? 1024 : 80;
}

static bool st_is_slots(enum st_mode m)
{
	return m == ST_M_SLOTS || m == ST_M_SLOTS_AVAIL ||
	       m == ST_M_SLOTS_CLAIMED;
}

static void st_query_target(struct st_run *r)
{
	struct st_query *q = &r->q;
	switch (r->o.mode) {
	case ST_M_STARTD:
		/* daemon ads of startds come through QUERY_MULTIPLE_ADS,
		 * without a trivial Requirements (HTCondor 23 on) */
		q->command = KS_QUERY_MULTIPLE_ADS;
		q->target = "StartD";
		q->no_trivial_req = true;
		break;
	case ST_M_SCHEDD:
	case ST_M_SCHEDD_RUN:
		q->command = KS_QUERY_SCHEDD_ADS;
		q->target = "Scheduler";
		break;
	case ST_M_SUBMITTERS:
		q->command = KS_QUERY_SUBMITTOR_ADS;
		q->target = "Submitter";
		break;
	case ST_M_MASTER:
		q->command = KS_QUERY_MASTER_ADS;
		q->target = "DaemonMaster";
		break;
	case ST_M_COLLECTOR:
		q->command = KS_QUERY_COLLECTOR_ADS;
		q->target = "Collector";
		break;
	case ST_M_NEGOTIATOR:
		q->command = KS_QUERY_NEGOTIATOR_ADS;
		q->target = "Negotiator";
		break;
	case ST_M_GENERIC:
		q->command = KS_QUERY_GENERIC_ADS;
		q->target = "Generic";
		break;
	case ST_M_ANY:
		q->command = KS_QUERY_ANY_ADS;
		q->target = "Any";
		break;
	case ST_M_OTHER:
		q->command = KS_QUERY_GENERIC_ADS;
		q->target = r->o.generic_type;
		break;
	default:
		q->command = KS_QUERY_STARTD_ADS;
		q->target = "Machine";
		break;
	}
}

/* HTCondor's get_daemon_name(): a name with '@' or '.' stays as it is;
 * a bare host name is resolved to its full name, or given
 * DEFAULT_DOMAIN_NAME.  NULL when neither works. */
static char *st_daemon_name(struct st_run *r, const char *name)
{
	if (strchr(name, '@') || strchr(name, '.'))
		return ks_xstrdup(name);
	if (!r->cfg) {
		r->cfg = ks_config_new("TOOL", NULL);
		struct ks_err e = {0};
		if (ks_config_load(r->cfg, &e) != 0)
			fprintf(r->err, "Warning: %s\n", e.msg);
	}
	bool nodns = false;
	ks_config_bool(r->cfg, "NO_DNS", &nodns);
	if (!nodns) {
		struct addrinfo hints = {0}, *res = NULL;
		hints.ai_flags = AI_CANONNAME;
		hints.ai_socktype = SOCK_STREAM;
		if (getaddrinfo(name, NULL, &hints, &res) == 0 && res) {
			char *full = NULL;
			if (res->ai_canonname && strchr(res->ai_canonname, '.'))
				full = ks_xstrdup(res->ai_canonname);
			freeaddrinfo(res);
			if (full)
				return full;
		}
	}
	char *domain = ks_config_get(r->cfg, "DEFAULT_DOMAIN_NAME", NULL);
	if (!domain)
		return NULL;
	struct classad_buf b = {0};
	tf_buf_add(&b, name);
	if (name[strlen(name) - 1] != '.')
		tf_buf_addc(&b, '.');
	tf_buf_add(&b, domain);
	free(domain);
	return b.data;
}

/* The mode's own constraints, then the arguments in order (HTCondor's
 * main() and secondPass()). */
static int st_build_query(struct st_run *r)
{
	struct st_opts *o = &r->o;
	struct st_query *q = &r->q;
	st_query_target(r);
	if (o->mode == ST_M_SLOTS_AVAIL && !o->compact)
		st_query_or(q, ST_AVAIL);
	else if (o->mode == ST_M_SLOTS_CLAIMED && !o->compact)
		st_query_or(q, TF_CLAIMED);
	if (o->compact) {
		st_query_and(q, o->mode == ST_M_SLOTS_AVAIL     ? ST_AVAIL
				: o->mode == ST_M_SLOTS_CLAIMED ? ST_CLAIMED_COMPACT
								: ST_STARTD_COMPACT);
		static const char *const need[] = {
			"Arch", "OpSysAndVer", "OpSysName", "DynamicSlot",
			"PartitionableSlot", "BackfillSlot", "State",
			"Activity", "ChildState", "ChildActivity", NULL};
		for (int i = 0; need[i]; i++)
			st_query_project(q, need[i]);
	}
	st_query_project(q, "OCU");

	for (size_t i = 0; i < o->nitems; i++) {
		const struct st_item *it = &o->items[i];
		switch (it->kind) {
		case ST_I_SORT:
			if (!o->no_sort) {
				struct classad_buf b = {0};
				classad_buf_printf(&b, "%s =!= UNDEFINED", it->a);
				st_query_and(q, b.data);
				tf_buf_free(&b);
			}
			break;
		case ST_I_CONSTRAINT:
			st_query_and(q, it->a);
			break;
		case ST_I_NAME: {
			char *name = st_daemon_name(r, it->a);
			if (!name && !(o->mode == ST_M_SUBMITTERS &&
				       strchr(it->a, '@'))) {
				fprintf(r->err, "%s: unknown host %s\n", o->prog,
					it->a);
				return 1;
			}
			struct classad_buf b = {0};
			if (o->mode == ST_M_SLOTS_CLAIMED)
				classad_buf_printf(&b, "RemoteUser == \"%s\"", it->a);
			else
				classad_buf_printf(&b, "Name==\"%s\" || Machine==\"%s\"",
					      name ? name : it->a,
					      name ? name : it->a);
			st_query_or(q, b.data);
			tf_buf_free(&b);
			free(name);
			break;
		}
		case ST_I_FORMAT:
			if (tf_format_add(&r->m, it->a, it->b, &q->proj, r->err))
				return 1;
			break;
		case ST_I_AF:
			if (tf_af_add(&r->m, it->opts, it->argc, it->argv,
				      &q->proj, r->err))
				return 1;
			break;
		}
	}
	return 0;
}

static void st_build_sort(struct st_run *r)
{
	for (size_t i = 0; i < r->o.nitems; i++)
		if (r->o.items[i].kind == ST_I_SORT)
			st_sort_add(&r->sort, r->o.items[i].a);
	if (r->sort.n == 0 && !r->o.no_sort) {
		st_sort_add(&r->sort, "Machine");
		st_sort_add(&r->sort, "Name");
	}
	if (r->o.compact)
		st_sort_force_primary(&r->sort, "Machine",
				      "join(\":\",Machine,SlotTypeId)");
	for (size_t i = 0; i < r->sort.n; i++) {
		st_query_project_expr(&r->q, r->sort.texts[i]);
		st_query_project_expr(&r->sort_names, r->sort.texts[i]);
	}
}

/* Chooses the columns: the mode's table, -af/-format's, or none. */
static void st_build_columns(struct st_run *r)
{
	struct st_opts *o = &r->o;
	if (ST_PP_LONGISH(o->style)) {
		/* whole ads: all attributes, or those of -attributes */
		tf_mask_free(&r->m);
		tf_names_clear(&r->q.proj);
		for (size_t i = 0; i < o->nattributes; i++)
			st_query_project(&r->q, o->attributes[i]);
		o->headfoot = ST_HF_BARE;
		return;
	}
	for (size_t i = 0; i < o->nattributes; i++)
		st_query_project(&r->q, o->attributes[i]);
	if (o->style == ST_PP_CUSTOM) {
		if (o->forced_width > 0)
			r->m.overall_width = r->display_width - 1;
		return;
	}
	if (o->explicit_format || o->want_only_totals)
		return;
	int width = r->display_width - 1;
	st_table_init(&r->m, &r->lay, o->style, o->compact, o->wide, width);
	if (o->forced_width > 0 || (!o->wide && !r->piped))
		r->m.overall_width = width;
	st_table_adjust(&r->m, &r->lay, o->wide, &r->q);
	if (r->lay.where)
		st_query_and(&r->q, r->lay.where);
	o->headfoot = r->lay.headfoot;
}

static void st_compact_totals(struct st_run *r, struct st_entry *e)
{
	const char *key = "";
	int ix = r->lay.ix_platform;
	if (ix >= 0 && (size_t)ix < e->row.n && e->row.valid[ix] &&
	    classad_value_str(&e->row.v[ix], NULL))
		key = classad_value_str(&e->row.v[ix], NULL);
	if ((int)strlen(key) > r->max_subkey)
		r->max_subkey = (int)strlen(key);
	int bk = (e->flags & ST_R_BACKFILL) ? ST_TOT_BACKFILL_SLOTS : 0;
	st_totals_update(r->totals, e->ad, bk | ST_TOT_ROLLUP_PARTITIONABLE |
						   ST_TOT_IGNORE_DYNAMIC, key);
	/* a partitionable slot with room left also counts itself */
	if ((e->flags & (ST_R_PARTITIONABLE | ST_R_EXHAUSTED | ST_R_BACKFILL)) ==
	    ST_R_PARTITIONABLE)
		st_totals_update(r->totals, e->ad, bk | ST_TOT_IGNORE_DYNAMIC,
				 key);
}

static int st_entry_cmp(const void *a, const void *b)
{
	const struct st_entry *x = *(struct st_entry *const *)a;
	const struct st_entry *y = *(struct st_entry *const *)b;
	return tf_natural_cmp(x->key, y->key);
}

static struct st_entry *st_new_entry(struct st_run *r)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->entries = ks_xrealloc(r->entries, r->cap * sizeof *r->entries);
	}
	struct st_entry *e = &r->entries[r->n++];
	memset(e, 0, sizeof *e);
	return e;
}

/* An entry's sort key, totals and row, from its ad. */
static void st_take(struct st_run *r, struct st_entry *e, classad *ad)
{
	bool columns = r->m.n > 0;
	e->ad = ad;
	/* -compact sorts a negative SlotTypeId as positive */
	long long stid = 0;
	bool neg = r->o.compact && tf_ad_int(ad, "SlotTypeID", &stid) &&
		   stid < 0;
	if (neg)
		classad_insert_int(ad, "SlotTypeID", -stid);
	struct classad_buf key = {0};
	st_sort_key(&r->sort, ad, (unsigned)r->n, &key);
	e->key = key.data;
	if (neg)
		classad_insert_int(ad, "SlotTypeID", stid);

	if (r->totals && (!columns || !r->o.compact))
		st_totals_update(r->totals, ad, 0, NULL);
	if (columns) {
		tf_mask_render(&r->m, ad, &e->row);
		if (r->o.compact) {
			st_compact_ingest(e, &r->lay);
			if (r->totals)
				st_compact_totals(r, e);
		}
	}
	e->ad = NULL;
}

static enum tf_long_form st_long_form(enum st_style style)
{
	return style == ST_PP_JSON  ? TF_LONG_JSON
	       : style == ST_PP_NEW ? TF_LONG_NEW
	       : style == ST_PP_XML ? TF_LONG_XML
				    : TF_LONG_OLD;
}

static bool st_wants_text(const struct st_run *r)
{
	return r->m.n == 0 && ST_PP_LONGISH(r->o.style) && !r->o.want_only_totals;
}

static void st_entry_text(struct st_run *r, struct st_entry *e,
			  const classad *ad)
{
	e->text_at = r->texts.len;
	tf_long_text(&r->texts, st_long_form(r->o.style), ad,
		     r->o.nattributes ? r->o.attributes : NULL,
		     r->o.nattributes);
	/* HTCondor's printXML() puts a blank line after each ad */
	if (r->o.style == ST_PP_XML)
		tf_buf_addc(&r->texts, '\n');
	e->text_len = r->texts.len - e->text_at;
}

/* An ad from a file.  Each ad is made into its entry and let go as it
 * comes, so a long listing holds text rather than thousands of parsed
 * ads, and the work overlaps the transfer. */
static int st_ingest_ad(classad *ad, void *arg)
{
	struct st_run *r = arg;
	struct st_entry *e = st_new_entry(r);
	st_take(r, e, ad);
	if (st_wants_text(r))
		st_entry_text(r, e, ad);
	classad_free(ad);
	return 0;
}

/* An ad from the collector.  For -long its record's lines are the
 * listing already, and only what the sort needs is parsed. */
static int st_ingest_record(const struct ks_wire_record *rec, void *arg)
{
	struct st_run *r = arg;
	size_t mark = r->texts.len;
	struct st_entry *e = st_new_entry(r);
	bool text = false;
	if (st_wants_text(r) && r->o.style == ST_PP_LONG && !r->o.compact) {
		e->text_at = r->texts.len;
		text = tf_long_lines(&r->texts, rec,
				     r->o.nattributes ? r->o.attributes : NULL,
				     r->o.nattributes);
		e->text_len = r->texts.len - e->text_at;
	}
	classad *ad = text ? tf_record_pick(rec, &r->sort_names.proj) : NULL;
	if (!ad)
		/* no expression cache: each ad is let go at once, so one
		 * would cost more than it shares */
		ad = ks_wire_record_parse(rec, NULL, &r->sink.err);
	if (!ad) {
		r->n--;
		r->texts.len = mark;
		return KS_EPARSE;
	}
	st_take(r, e, ad);
	if (!text && st_wants_text(r))
		st_entry_text(r, e, ad);
	classad_free(ad);
	return 0;
}

static void st_order(struct st_run *r)
{
	r->order = ks_xcalloc(r->n ? r->n : 1, sizeof *r->order);
	for (size_t i = 0; i < r->n; i++)
		r->order[i] = &r->entries[i];
	qsort(r->order, r->n, sizeof *r->order, st_entry_cmp);
}

/* HTCondor's prettyPrintHeadings(): on a terminal, a table too wide for
 * it gives up width from its Name (and Machine) column. */
static void st_fit_names(struct st_run *r)
{
	if (r->piped || r->o.wide || r->lay.width_of_fixed_cols <= 0)
		return;
	int name_w = 0, mach_w = 0;
	bool has_name = false, has_mach = false;
	for (size_t i = 0; i < r->m.n; i++) {
		if (r->m.cols[i].opts & ST_IS_NAME) {
			has_name = true;
			name_w = r->m.cols[i].width;
		}
		if (r->m.cols[i].opts & ST_IS_MACHINE) {
			has_mach = true;
			mach_w = r->m.cols[i].width;
		}
	}
	int remain = r->display_width - 1 - r->lay.width_of_fixed_cols;
	if (has_name)
		remain -= name_w;
	if (has_mach)
		remain -= mach_w;
	if (remain >= 0)
		return;
	int crop = -remain;
	if (has_name) {
		if (has_mach) {
			int mw = mach_w - crop / 2 > 7 ? mach_w - crop / 2 : 7;
			crop -= mach_w - mw;
			mach_w = mw;
		}
		name_w = name_w - crop > 12 ? name_w - crop : 12;
	} else if (has_mach) {
		mach_w = mach_w - crop > 7 ? mach_w - crop : 7;
	}
	for (size_t i = 0; i < r->m.n; i++) {
		struct tf_col *c = &r->m.cols[i];
		if ((c->opts & ST_IS_NAME) && name_w) {
			c->width = name_w;
			c->opts &= ~(unsigned)(TF_AUTOW | TF_NOTRUNC);
		}
		if ((c->opts & ST_IS_MACHINE) && mach_w) {
			c->width = mach_w;
			c->opts &= ~(unsigned)(TF_AUTOW | TF_NOTRUNC);
		}
	}
}

static void st_output(struct st_run *r, struct classad_buf *out)
{
	struct st_opts *o = &r->o;
	bool any = r->n > 0;
	bool columns = r->m.n > 0;

	if (o->compact) {
		if (o->want_only_totals)
			fprintf(r->err, "Warning: ignoring -compact option because -total option is also set\n");
		else
			st_compact_reduce(r->order, r->n, &r->lay);
	}

	if (o->style == ST_PP_CUSTOM) {
		if (!o->want_only_totals && r->m.has_headings &&
		    !(o->headfoot & ST_HF_NOHEADER))
			tf_mask_headings(&r->m, out);
	} else if (!ST_PP_LONGISH(o->style)) {
		if (any)
			st_fit_names(r);
		if (!o->want_only_totals && any && columns) {
			tf_mask_headings(&r->m, out);
			tf_buf_addc(out, '\n');
		}
	}

	size_t written = 0;
	for (size_t i = 0; i < r->n; i++) {
		struct st_entry *e = r->order[i];
		if (e->flags & ST_R_FOLDED)
			continue;
		if (columns)
			tf_mask_display(&r->m, &e->row, out);
		else if (e->text_len)
			tf_print_long_ad(out, st_long_form(o->style),
					 r->texts.data + e->text_at,
					 e->text_len, written++);
		/* long listings go out as they are made, not held whole */
		if (out->len >= (1u << 16)) {
			fwrite(out->data, 1, out->len, r->out);
			out->len = 0;
			out->data[0] = '\0';
		}
	}
	if (ST_PP_LONGISH(o->style))
		tf_print_long_end(out, st_long_form(o->style), written);

	if (any && !(o->headfoot & ST_HF_NOSUMMARY) && r->totals &&
	    st_totals_meaningful(r->totals)) {
		tf_buf_addc(out, '\n');
		int keylen = r->max_subkey > 14 ? r->max_subkey : 14;
		if (o->wide || o->style == ST_PP_SUBMITTER)
			keylen = -1;
		st_totals_display(r->totals, out, keylen);
	}
}

static void st_run_free(struct st_run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->entries[i].key);
		free(r->entries[i].label);
		tf_row_free(&r->entries[i].row);
	}
	free(r->entries);
	free(r->order);
	free(r->texts.data);
	st_query_free(&r->sort_names);
	st_totals_free(r->totals);
	st_sort_free(&r->sort);
	tf_mask_free(&r->m);
	st_query_free(&r->q);
	st_opts_free(&r->o);
	if (r->cfg)
		ks_config_free(r->cfg);
}

/* Everything before fetching: arguments, query, sort, columns.  Returns
 * -1 to go on, else the exit status. */
static int st_prepare(struct st_run *r, int argc, const char *const *argv)
{
	int rc = st_parse_args(argc, argv, &r->o, r->out, r->err);
	if (rc >= 0)
		return rc;
	struct st_opts *o = &r->o;

	/* no query flag: slots, shown as slots unless a flag said how */
	if (o->mode == ST_M_NOTSET) {
		o->mode = ST_M_SLOTS;
		if (o->style_arg == 0)
			o->style = ST_PP_SLOTS_NORMAL;
	}
	if (o->compact && !st_is_slots(o->mode)) {
		fprintf(r->err, "Error:  arg (-compact) contradicts arg %d (%s) %s\n",
			o->style_arg,
			o->style_argstr ? o->style_argstr : "DEFAULT",
			o->mode == ST_M_STARTD
				? "remove -startd from command or use -slot instead"
				: "");
		return 1;
	}
	st_display_width(r);
	if (st_build_query(r))
		return 1;
	st_build_sort(r);
	if (o->style != ST_PP_CUSTOM)
		st_totals_project(o->style, &r->q);
	st_build_columns(r);
	return -1;
}

int st_query_for_args(int argc, const char *const *argv, FILE *err,
		      classad **query, int *command)
{
	struct st_run r;
	memset(&r, 0, sizeof r);
	r.out = stdout;
	r.err = err;
	*query = NULL;
	int rc = st_prepare(&r, argc, argv);
	if (rc < 0) {
		char *req = st_query_requirements(&r.q);
		classad_expr *c = req ? classad_parse_expr(req, strlen(req), NULL)
				      : NULL;
		if (req && !c) {
			fprintf(err, "Error: invalid constraint\n");
			rc = 1;
		} else {
			*query = st_query_ad(&r.q, c, r.o.limit);
			*command = r.q.command;
			rc = 0;
		}
		classad_expr_free(c);
		free(req);
	}
	st_run_free(&r);
	return rc;
}

int st_main(int argc, const char *const *argv, FILE *out, FILE *err)
{
	struct st_run r;
	memset(&r, 0, sizeof r);
	r.out = out;
	r.err = err;
	int rc = st_prepare(&r, argc, argv);
	if (rc >= 0) {
		st_run_free(&r);
		return rc;
	}
	if (!(r.o.headfoot & ST_HF_NOSUMMARY))
		r.totals = st_totals_new(r.o.style);
	r.sink = (struct st_sink){.ad = st_ingest_ad,
				  .record = st_ingest_record,
				  .arg = &r};
	rc = st_fetch(&r.o, &r.q, &r.sink, err);
	if (rc == 0) {
		st_order(&r);
		struct classad_buf b = {0};
		st_output(&r, &b);
		if (b.len && fwrite(b.data, 1, b.len, out) != b.len)
			rc = 1;
		tf_buf_free(&b);
		if (fflush(out) != 0 || ferror(out))
			rc = 1;
	}
	st_run_free(&r);
	return rc;
}
