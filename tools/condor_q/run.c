/*
 * run.c: condor_q from arguments to output, in HTCondor's order: the
 * arguments choose the table and the query, the jobs are fetched (from
 * the schedd or a -jobads file) and rendered as they come, then sorted
 * by job id, folded into batches for the batch view, and printed under
 * the queue's title with the summary lines.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cq.h"
#include "ks_client.h"
#include "ks_mem.h"

struct cq_run {
	struct cq_opts o;
	struct tf_mask m;
	struct tf_names proj;
	bool whole_ads;        /* -long: no projection unless -attributes */
	bool std_summary;      /* the table has HTCondor's summary lines */
	bool keep_ads;         /* -long, -better-analyze */
	bool widescreen;       /* no fitting to a terminal */
	int display_width;
	struct cq_job *jobs;
	size_t n, cap;
	int seq;               /* ids for ads without a ClusterId */
	struct cq_counts counts;
	bool have_qtime;       /* the ServerTime of the lowest job id */
	long long qtime;
	struct cq_job qtime_of;
	struct cq_batch *batch;
	struct cq_sink sink;
	struct classad_buf texts; /* the -long texts taken from records */
	struct tf_names pick;     /* what a job's text needs parsed */
	FILE *out, *err;
};

/* HTCondor's getDisplayWidth(): -wide:N, else the terminal's, else 80;
 * output that is not to a terminal is "widescreen" (never cut). */
static void cq_display(struct cq_run *r)
{
	struct winsize ws;
	int fd = fileno(r->out);
	bool tty = fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 &&
		   ws.ws_col > 0;
	r->display_width = r->o.forced_width > 0 ? r->o.forced_width
			   : tty		  ? ws.ws_col
						  : 80;
	r->widescreen = r->o.wide || (r->o.forced_width <= 0 && !tty);
}

static int cq_build_columns(struct cq_run *r)
{
	struct cq_opts *o = &r->o;
	switch (o->view) {
	case CQ_V_CUSTOM:
		for (size_t i = 0; i < o->nitems; i++) {
			const struct cq_item *it = &o->items[i];
			int rc = it->af ? tf_af_add(&r->m, it->opts, it->argc,
						    it->argv, &r->proj, r->err)
					: tf_format_add(&r->m, it->fmt, it->expr,
							&r->proj, r->err);
			if (rc)
				return rc;
		}
		tf_names_add(&r->proj, "ClusterId");
		tf_names_add(&r->proj, "ProcId");
		return 0;
	case CQ_V_ANALYZE:
		r->keep_ads = true;
		r->whole_ads = true;
		return 0;
	case CQ_V_NOTSET:
		/* -long and its forms */
		r->keep_ads = true;
		r->whole_ads = o->attrs.n == 0;
		for (size_t i = 0; i < o->attrs.n; i++)
			tf_names_add(&r->proj, o->attrs.v[i]);
		return 0;
	default:
		r->std_summary = cq_table_init(&r->m, o->view, &r->proj);
		if (!r->widescreen && o->view != CQ_V_HOLD)
			r->m.overall_width = r->display_width - 1;
		return 0;
	}
}

static int cq_job_cmp(const void *a, const void *b)
{
	const struct cq_job *x = a, *y = b;
	if (x->cluster != y->cluster)
		return x->cluster < y->cluster ? -1 : 1;
	/* HTCondor orders ids as unsigned 32-bit procs after the cluster */
	unsigned px = (unsigned)x->proc, py = (unsigned)y->proc;
	return (px > py) - (px < py);
}

/* One job from the source: counted, rendered, kept. */
static int cq_take_job(classad *ad, void *arg)
{
	struct cq_run *r = arg;
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->jobs = ks_xrealloc(r->jobs, r->cap * sizeof *r->jobs);
	}
	struct cq_job *j = &r->jobs[r->n++];
	memset(j, 0, sizeof *j);
	long long v;
	if (tf_ad_int(ad, "ClusterId", &v) && v >= 0 && v <= INT_MAX) {
		j->cluster = (int)v;
		j->proc = tf_ad_int(ad, "ProcId", &v) ? (int)v : -1;
	} else {
		j->cluster = INT_MAX;
		j->proc = r->seq++;
	}
	cq_count_job(&r->counts, ad);
	/* run times are measured by the schedd's clock, which HTCondor's
	 * schedd puts in each job it sends (ServerTime); when a schedd does
	 * not, this host's clock stands in for it */
	if (!r->o.jobads && !r->o.userlog && !classad_lookup(ad, "ServerTime"))
		classad_insert_int(ad, "ServerTime", (int64_t)time(NULL));
	if (tf_ad_int(ad, "ServerTime", &v) &&
	    (!r->have_qtime || cq_job_cmp(j, &r->qtime_of) < 0)) {
		r->have_qtime = true;
		r->qtime = v;
		r->qtime_of.cluster = j->cluster;
		r->qtime_of.proc = j->proc;
	}
	if (r->m.n)
		tf_mask_render(&r->m, ad, &j->row);
	if (r->batch)
		cq_batch_note(r->batch, j, ad);
	if (r->keep_ads)
		j->ad = ad;
	else
		classad_free(ad);
	return 0;
}

/* Sorts by id and drops a second job with the same id, as HTCondor's
 * map of results does. */
static void cq_order(struct cq_run *r)
{
	if (r->n > 1)
		qsort(r->jobs, r->n, sizeof *r->jobs, cq_job_cmp);
	size_t k = 0;
	for (size_t i = 0; i < r->n; i++) {
		if (k && cq_job_cmp(&r->jobs[k - 1], &r->jobs[i]) == 0) {
			fprintf(r->err, "Error: Two results with the same ID.\n");
			tf_row_free(&r->jobs[i].row);
			classad_free(r->jobs[i].ad);
			continue;
		}
		r->jobs[k++] = r->jobs[i];
	}
	r->n = k;
}

/* The time in the title: the schedd's clock when it said (a summary's
 * or the first job's ServerTime), else now. */
static long long cq_queue_time(const struct cq_run *r)
{
	long long t;
	if (r->sink.summary && tf_ad_int(r->sink.summary, "ServerTime", &t))
		return t;
	return r->have_qtime ? r->qtime : (long long)time(NULL);
}

/* A record of the schedd's answer for -long in old syntax: its lines
 * are the job's listing already, so only what the sort reads is parsed
 * (the listing prints no summary: counts and rows need no more). */
static int cq_take_record(const struct ks_wire_record *rec, void *arg)
{
	struct cq_run *r = arg;
	size_t at = r->texts.len;
	classad *ad = NULL;
	if (tf_long_lines(&r->texts, rec, r->whole_ads ? NULL : r->o.attrs.v,
			  r->whole_ads ? 0 : r->o.attrs.n))
		ad = tf_record_pick(rec, &r->pick);
	if (ad && !cq_is_summary(ad)) {
		int rc = cq_take_job(ad, r);
		struct cq_job *j = &r->jobs[r->n - 1];
		classad_free(j->ad);
		j->ad = NULL;
		j->text_at = at;
		j->text_len = r->texts.len - at;
		return rc;
	}
	/* a summary, or a job whose id is not plain: the whole ad */
	classad_free(ad);
	r->texts.len = at;
	struct ks_err e = {0};
	ad = ks_wire_record_parse(rec, NULL, &e);
	if (!ad) {
		fprintf(r->err, "Error: %s\n", e.msg);
		return KS_EPARSE;
	}
	return cq_sink_take(&r->sink, ad);
}

static void cq_flush(struct cq_run *r, struct classad_buf *out)
{
	if (out->len)
		fwrite(out->data, 1, out->len, r->out);
	tf_buf_truncate(out, 0);
}

static void cq_print_long(struct cq_run *r, struct classad_buf *out)
{
	size_t written = 0;
	struct classad_buf text = {0};
	for (size_t i = 0; i < r->n; i++) {
		const struct cq_job *j = &r->jobs[i];
		if (!j->ad) {
			tf_print_long_ad(out, r->o.long_form,
					 r->texts.data + j->text_at,
					 j->text_len, written++);
			continue;
		}
		tf_buf_truncate(&text, 0);
		tf_long_text(&text, r->o.long_form, j->ad,
			     r->whole_ads ? NULL : r->o.attrs.v,
			     r->whole_ads ? 0 : r->o.attrs.n);
		tf_print_long_ad(out, r->o.long_form, tf_buf_str(&text),
				 text.len, written++);
		if (out->len >= (1u << 16))
			cq_flush(r, out);
	}
	tf_print_long_end(out, r->o.long_form, written);
	tf_buf_free(&text);
}

static void cq_print_table(struct cq_run *r, struct classad_buf *out,
			   long long queue_time)
{
	struct cq_opts *o = &r->o;
	bool custom = o->view == CQ_V_CUSTOM;
	if (!custom)
		cq_print_title(out, r->sink.label, queue_time);
	if (r->m.has_headings && (!custom || o->af_headings))
		tf_mask_headings(&r->m, out);
	for (size_t i = 0; i < r->n && r->m.n; i++) {
		struct cq_job *j = &r->jobs[i];
		if (o->view == CQ_V_BATCH && !(j->flags & CQ_R_COOKED))
			continue;
		size_t start = out->len;
		tf_mask_display(&r->m, &j->row, out);
		if (!custom && r->widescreen)
			cq_trim_row(out, start);
		if (out->len >= (1u << 16))
			cq_flush(r, out);
	}
	if (custom || !(r->std_summary || o->view == CQ_V_TOTALS))
		return;
	/* HTCondor's summary: the schedd's, else one made of the jobs */
	classad *made = r->sink.summary ? NULL : cq_counts_ad(&r->counts);
	const classad *sum = made ? made : r->sink.summary;
	/* a "Total for ME" line only when the schedd says whose jobs it
	 * showed: not to a queue superuser, who sees every job */
	char *myname = NULL;
	if (o->my_jobs && r->sink.summary)
		myname = classad_eval_string_dup(sum, "MyName");
	const char *me = myname;
	if (o->view != CQ_V_TOTALS)
		tf_buf_addc(out, '\n');
	cq_print_summary(out, sum, me);
	tf_buf_addc(out, '\n');
	free(myname);
	classad_free(made);
}

static void cq_run_free(struct cq_run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		tf_row_free(&r->jobs[i].row);
		classad_free(r->jobs[i].ad);
	}
	free(r->jobs);
	cq_batch_free(r->batch);
	classad_free(r->sink.summary);
	free(r->sink.label);
	free(r->sink.user);
	tf_mask_free(&r->m);
	tf_names_clear(&r->proj);
	tf_names_clear(&r->pick);
	tf_buf_free(&r->texts);
	cq_opts_free(&r->o);
}

static int cq_analysis(struct cq_run *r, struct classad_buf *out)
{
	classad **slots = NULL;
	size_t nslots = 0;
	if (cq_fetch_slots(&r->o, &slots, &nslots, r->err))
		return 1;
	struct cq_prios prios = {0};
	if (r->o.analyze_prio && cq_fetch_prios(&r->o, &prios, r->err)) {
		ks_ads_free(slots, nslots);
		return 1;
	}
	cq_analyze(out, r->sink.label, r->jobs, r->n, slots, nslots,
		   r->o.analyze_better, r->o.analyze_prio ? &prios : NULL);
	cq_prios_free(&prios);
	ks_ads_free(slots, nslots);
	return 0;
}

int cq_main(int argc, const char *const *argv, FILE *out, FILE *err)
{
	struct cq_run r;
	memset(&r, 0, sizeof r);
	r.out = out;
	r.err = err;
	int rc = cq_parse_args(argc, argv, &r.o, out, err);
	if (rc >= 0) {
		cq_run_free(&r);
		return rc;
	}
	if (r.o.xml)
		r.o.long_form = TF_LONG_XML;
	cq_display(&r);
	if (cq_build_columns(&r)) {
		cq_run_free(&r);
		return 1;
	}
	if (r.o.view == CQ_V_BATCH)
		r.batch = cq_batch_new();
	r.sink.job = cq_take_job;
	r.sink.arg = &r;
	if (r.o.view == CQ_V_NOTSET && r.o.long_form == TF_LONG_OLD) {
		r.sink.record = cq_take_record;
		for (const char *const *n = (const char *const[]){
			     "MyType", "ClusterId", "ProcId", "ServerTime",
			     NULL};
		     *n; n++)
			tf_names_add(&r.pick, *n);
	}
	rc = cq_fetch(&r.o, r.whole_ads ? NULL : &r.proj, &r.sink, err);
	if (rc == 0) {
		cq_order(&r);
		struct classad_buf b = {0};
		int width = r.widescreen ? 0 : r.display_width;
		if (r.o.view == CQ_V_BATCH)
			cq_batch_reduce(r.batch, r.jobs, r.n, &r.m, r.o.partial,
					width);
		else if (r.o.view != CQ_V_CUSTOM && r.m.n)
			cq_fit_job_columns(&r.m, r.jobs, r.n, width);
		if (r.o.view == CQ_V_ANALYZE)
			rc = cq_analysis(&r, &b);
		else if (r.o.dash_long)
			cq_print_long(&r, &b);
		else
			cq_print_table(&r, &b, cq_queue_time(&r));
		cq_flush(&r, &b);
		tf_buf_free(&b);
		if (fflush(out) != 0 || ferror(out))
			rc = 1;
	}
	cq_run_free(&r);
	return rc;
}
