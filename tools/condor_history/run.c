/*
 * run.c: condor_history from arguments to output: the jobs come newest
 * first (the schedd keeps its history that way; a -file is read from its
 * end, as HTCondor reads a history file), each is printed as it comes
 * under the table's headings, or as a whole ad with -long, -json and
 * -xml.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "hist.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "qtool.h"

/* HTCondor's defaultJob_PrintFormat. */
static const struct tf_coldef hi_table[] = {
	{"ClusterId", " ID         ", -12, TF_AUTOW | TF_NOTRUNC, NULL, "JOB_ID",
	 0, false},
	{"Owner", "OWNER", -14, TF_NOTRUNC, NULL, "OWNER", '?', true},
	{"QDate", "  SUBMITTED", 11, TF_NOTRUNC, "%Y", "QDATE", '?', true},
	{"RemoteWallClockTime ?:(RemoteUserCpu?:0)", "  RUN_TIME  ", 12,
	 TF_NOTRUNC, "%T", NULL, 0, false},
	{"JobStatus", "ST", -2, TF_AUTOW | TF_NOTRUNC, NULL, "JOB_STATUS", 0,
	 false},
	{"CompletionDate", "  COMPLETED", 11, TF_NOTRUNC, "%Y", "QDATE", 0,
	 false},
	{"Cmd", "CMD", 0, TF_NOTRUNC, NULL, "JOB_DESCRIPTION", 0, false},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};

struct hi_run {
	struct hi_opts o;
	struct tf_mask m;
	struct tf_names proj;
	bool whole;       /* -long/-json/-xml without -attributes */
	classad **ads;    /* kept only to reverse a -file or -forwards */
	/* -file with -since: every ad is kept, the constraint and the stop
	 * applied newest first */
	classad_expr *since, *cx;
	size_t n, cap;
	size_t printed;
	struct classad_buf text;
	FILE *out, *err;
};

static void hi_columns(struct hi_run *r)
{
	struct hi_opts *o = &r->o;
	if (o->dash_long) {
		r->whole = o->attrs.n == 0;
		for (size_t i = 0; i < o->attrs.n; i++)
			tf_names_add(&r->proj, o->attrs.v[i]);
		return;
	}
	if (o->nitems == 0) {
		tf_mask_set_seps(&r->m, NULL, " ", NULL, "\n");
		tf_mask_add_defs(&r->m, hi_table);
		for (size_t i = 0; i < r->m.n; i++) {
			tf_names_add_expr(&r->proj, r->m.cols[i].expr);
			if (r->m.cols[i].extra)
				tf_names_add_expr(&r->proj, r->m.cols[i].extra);
		}
		tf_names_add(&r->proj, "ProcId");
		/* the table fits the terminal; anywhere else it may be 1024 */
		struct winsize ws;
		int fd = fileno(r->out);
		int width = o->forced_width;
		if (width <= 0 && fd >= 0 && isatty(fd) &&
		    ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
			width = ws.ws_col - 1;
		if (!o->wide || o->forced_width > 0)
			r->m.overall_width = width > 0 ? width : 1024;
	}
}

static int hi_add_items(struct hi_run *r)
{
	for (size_t i = 0; i < r->o.nitems; i++) {
		const struct hi_item *it = &r->o.items[i];
		int rc = it->af ? tf_af_add(&r->m, it->opts, it->argc, it->argv,
					    &r->proj, r->err)
				: tf_format_add(&r->m, it->fmt, it->expr, &r->proj,
						r->err);
		if (rc)
			return rc;
	}
	return 0;
}

static void hi_flush(struct hi_run *r)
{
	if (r->text.len)
		fwrite(r->text.data, 1, r->text.len, r->out);
	tf_buf_truncate(&r->text, 0);
}

static void hi_print(struct hi_run *r, const classad *ad)
{
	struct hi_opts *o = &r->o;
	enum tf_long_form form = o->xml ? TF_LONG_XML
				 : o->json ? TF_LONG_JSON
					   : TF_LONG_OLD;
	if (o->dash_long) {
		struct classad_buf t = {0};
		tf_long_text(&t, form, ad, r->whole ? NULL : o->attrs.v,
			     r->whole ? 0 : o->attrs.n);
		if (o->json && r->printed)
			tf_buf_add(&r->text, ",\n");
		classad_buf_add(&r->text, tf_buf_str(&t), t.len);
		/* HTCondor's history prints a newline after each XML ad */
		if (o->xml)
			tf_buf_addc(&r->text, '\n');
		tf_buf_free(&t);
	} else {
		struct tf_row row = {0};
		tf_mask_render(&r->m, ad, &row);
		tf_mask_display(&r->m, &row, &r->text);
		tf_row_free(&row);
	}
	r->printed++;
	if (r->text.len >= (1u << 16))
		hi_flush(r);
}

/* Each ad as it comes, unless the order has to be turned round. */
static int hi_take(classad *ad, void *arg)
{
	struct hi_run *r = arg;
	bool keep = r->o.file ? !r->o.forwards : r->o.forwards;
	if (!keep) {
		int done = r->o.limit > 0 && r->printed >= (size_t)r->o.limit;
		if (!done)
			hi_print(r, ad);
		classad_free(ad);
		return r->o.limit > 0 && r->printed >= (size_t)r->o.limit;
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->ads = ks_xrealloc(r->ads, r->cap * sizeof *r->ads);
	}
	r->ads[r->n++] = ad;
	return 0;
}

static bool hi_true(const classad *ad, const classad_expr *e)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr(ad, e, NULL, &v);
	bool yes = v.type == CLASSAD_BOOLEAN && v.u.b;
	classad_value_clear(&v);
	return yes;
}

static void hi_print_kept(struct hi_run *r)
{
	for (size_t i = r->n; i-- > 0;) {
		if (r->o.limit > 0 && r->printed >= (size_t)r->o.limit)
			break;
		if (r->since && hi_true(r->ads[i], r->since))
			break;
		if (r->since && r->cx && !hi_true(r->ads[i], r->cx))
			continue;
		hi_print(r, r->ads[i]);
	}
}

/* -userlog: each job the log tells of, in job id order, as HTCondor's
 * condor_history prints them (no -limit, no -since). */
static int hi_userlog_job(classad *ad, void *arg)
{
	struct hi_run *r = arg;
	if (!r->cx || hi_true(ad, r->cx))
		hi_print(r, ad);
	classad_free(ad);
	return 0;
}

static int hi_from_userlog(struct hi_run *r)
{
	FILE *f = fopen(r->o.file, "re");
	if (!f) {
		fprintf(r->err, "Error: Can't open userlog %s\n", r->o.file);
		return 1;
	}
	int rc = qt_userlog_each(f, r->o.file, hi_userlog_job, r, r->err);
	fclose(f);
	return rc;
}

static int hi_from_schedd(struct hi_run *r, const char *constraint)
{
	struct hi_opts *o = &r->o;
	struct ks_err e = {0};
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &e);
	if (!cfg) {
		fprintf(r->err, "ERROR: %s\n", e.msg);
		return 1;
	}
	struct qt_schedd s;
	if (qt_schedd_find(cfg, o->pool, o->name, &s, &e)) {
		fprintf(r->err, "Unable to locate remote schedd (name=%s, pool=%s).\n",
			o->name ? o->name : "", o->pool ? o->pool : "");
		fprintf(r->err, "%s\n", e.msg);
		ks_config_free(cfg);
		return 1;
	}
	ks_conn *c = NULL;
	int rc = ks_conn_open(cfg, s.addr, 0, &c, &e);
	if (rc == 0) {
		classad *q = classad_new();
		if (classad_insert_text(q, "Requirements",
					constraint ? constraint : "true", NULL))
			classad_insert_bool(q, "Requirements", true);
		if (!r->whole && r->proj.n) {
			char *p = tf_names_join(&r->proj);
			classad_insert_string(q, "Projection", p);
			free(p);
		}
		/* newest first: the limit is the schedd's, unless the order
		 * is to be turned round */
		if (o->limit > 0 && !o->forwards)
			classad_insert_int(q, "LimitResults", o->limit);
		if (o->since &&
		    classad_insert_text(q, "Since", o->since, NULL) != 0) {
			fprintf(r->err, "Error: invalid -since constraint: %s\n",
				o->since);
			classad_free(q);
			ks_conn_close(c);
			qt_schedd_free(&s);
			ks_config_free(cfg);
			return 1;
		}
		rc = qt_stream(c, KS_QUERY_SCHEDD_HISTORY, q, hi_take, r, &e);
		classad_free(q);
		if (rc == KS_ECANCELED)
			rc = 0;
	}
	if (rc)
		fprintf(r->err, "Unable to send request to remote schedd; likely a server or network error.\n%s\n",
			e.msg);
	ks_conn_close(c);
	qt_schedd_free(&s);
	ks_config_free(cfg);
	return rc ? 1 : 0;
}

static void hi_run_free(struct hi_run *r)
{
	for (size_t i = 0; i < r->n; i++)
		classad_free(r->ads[i]);
	free(r->ads);
	tf_buf_free(&r->text);
	tf_mask_free(&r->m);
	tf_names_clear(&r->proj);
	hi_opts_free(&r->o);
}

int hi_main(int argc, const char *const *argv, FILE *out, FILE *err)
{
	struct hi_run r;
	memset(&r, 0, sizeof r);
	r.out = out;
	r.err = err;
	int rc = hi_parse_args(argc, argv, &r.o, out, err);
	if (rc >= 0) {
		hi_run_free(&r);
		return rc;
	}
	char *constraint = hi_constraint(&r.o);
	classad_expr *cx = NULL;
	if (constraint &&
	    !(cx = classad_parse_expr(constraint, strlen(constraint), NULL))) {
		fprintf(err, "Error:  could not parse constraint %s\n", constraint);
		free(constraint);
		hi_run_free(&r);
		return 1;
	}
	if (r.o.xml && r.o.json) {
		fprintf(err, "Error: Cannot use more than one of XML and JSON[L]\n");
		classad_expr_free(cx);
		free(constraint);
		hi_run_free(&r);
		return 1;
	}
	hi_columns(&r);
	if (hi_add_items(&r)) {
		classad_expr_free(cx);
		free(constraint);
		hi_run_free(&r);
		return 1;
	}
	if (!r.o.dash_long && r.m.has_headings &&
	    (r.o.nitems == 0 || r.o.af_headings))
		tf_mask_headings(&r.m, &r.text);
	/* HTCondor's history prints the XML header and footer each with a
	 * blank line after, whether or not any job comes */
	if (r.o.xml) {
		classad_xml_header_buf(&r.text);
		tf_buf_addc(&r.text, '\n');
	}
	if (r.o.json)
		tf_buf_add(&r.text, "[\n");
	if (r.o.userlog) {
		r.cx = cx;
		rc = hi_from_userlog(&r);
	} else if (r.o.file && r.o.since) {
		/* checked by hi_parse_args */
		r.since = classad_parse_expr(r.o.since, strlen(r.o.since), NULL);
		r.cx = cx;
		rc = tf_read_ads(r.o.file, TF_ADS_LONG, true, NULL, hi_take, &r,
				 "-file", err);
	} else if (r.o.file)
		rc = tf_read_ads(r.o.file, TF_ADS_LONG, true, cx, hi_take, &r,
				 "-file", err);
	else
		rc = hi_from_schedd(&r, constraint);
	hi_print_kept(&r);
	if (r.o.json)
		tf_buf_add(&r.text, "]\n");
	if (r.o.xml) {
		classad_xml_footer_buf(&r.text);
		tf_buf_addc(&r.text, '\n');
	}
	hi_flush(&r);
	if (fflush(out) != 0 || ferror(out))
		rc = 1;
	classad_expr_free(cx);
	classad_expr_free(r.since);
	free(constraint);
	hi_run_free(&r);
	return rc;
}
