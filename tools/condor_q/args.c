/*
 * args.c: condor_q's command line, read as HTCondor 25 reads it
 * (src/condor_q.V6/queue.cpp, processCommandLineArguments): flags
 * matched by prefix, the same messages, and the same implications
 * (owner and id arguments end the "only my jobs" default, -run/-hold/
 * -idle add constraints, the batch view is the default for the plain
 * table).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cq.h"
#include "ks_mem.h"
#include "ks_text.h"
#include "qtool.h"

static void cq_push(char ***list, size_t *n, const char *s)
{
	*list = ks_xrealloc(*list, (*n + 1) * sizeof **list);
	(*list)[(*n)++] = ks_xstrdup(s);
}

static void cq_and(struct cq_opts *o, const char *expr)
{
	cq_push(&o->ands, &o->nands, expr);
}

static void cq_or(struct cq_opts *o, const char *expr)
{
	cq_push(&o->ors, &o->nors, expr);
}

char *cq_constraint(const struct cq_opts *o)
{
	return qt_constraint(o->ands, o->nands, o->ors, o->nors);
}

void cq_usage(FILE *out, const char *prog)
{
	fprintf(out, "Usage: %s [general-opts] [restriction-list] [output-opts | analyze-opts]\n",
		prog);
	fputs("\n    [general-opts] are\n"
	      "\t-name <name>\t\t Name of Scheduler\n"
	      "\t-pool <host>\t\t Use host as the central manager to query\n"
	      "\t-jobads[:<form>] <file>\t Read queue from a file of job ClassAds\n"
	      "\t           where <form> is one of:\n"
	      "\t       long    The traditional -long form (default)\n"
	      "\t       json    JSON classad form, the same as -json\n"
	      "\t       new     'new' classad form without newlines\n"
	      "\t       xml     XML form, the same as -xml (-long only)\n"
	      "\t       auto    guess the format from the first characters\n"
	      "\t-userlog <file>\t\t Read queue from a user log file\n"
	      "\n    [restriction-list] each restriction may be one of\n"
	      "\t<cluster>\t\t Get information about specific cluster\n"
	      "\t<cluster>.<proc>\t Get information about specific job\n"
	      "\t<owner>\t\t\t Information about jobs owned by <owner>\n"
	      "\t-constraint <expr>\t Get information about jobs that match <expr>\n"
	      "\t-allusers\t\t Consider jobs from all users\n"
	      "\n    [output-opts] are\n"
	      "\t-limit <num>\t\t Limit the number of results to <num>\n"
	      "\t-expert\t\t\t Display shorter error messages\n"
	      "\t-help\t\t\t Display this screen\n"
	      "\t-hold\t\t\t Get information about jobs on hold\n"
	      "\t-io\t\t\t Display information regarding I/O\n"
	      "\t-batch\t\t\t Display batches of similar jobs as a single line\n"
	      "\t-nobatch\t\t Display one line per job, rather than one line per batch\n"
	      "\t-idle\t\t\t Get information about idle jobs\n"
	      "\t-run\t\t\t Get information about running jobs\n"
	      "\t-totals\t\t\t Display only job totals\n"
	      "\t-version\t\t Print the version and exit\n"
	      "\t-wide[:<width>]\t\t Don't truncate data to fit in 80 columns.\n"
	      "\t\t\t\t Truncates to console width or <width> argument.\n"
	      "\t-autoformat[:jlhVrTY,tng] <attr> [<attr2> [...]]\n"
	      "\t-af[:jlhVr,tng] <attr> [attr2 [...]]\n"
	      "\t    Print attr(s) with automatic formatting\n"
	      "\t    the [jlhVrTY,tng] options modify the formatting\n"
	      "\t        j   Display Job id\n"
	      "\t        l   attribute labels\n"
	      "\t        h   attribute column headings\n"
	      "\t        V   %V formatting (string values are quoted)\n"
	      "\t        r   %r formatting (raw/unparsed values)\n"
	      "\t        T   %T formatting (elapsed time values)\n"
	      "\t        Y   %Y formatting (time and date values)\n"
	      "\t        ,   comma after each value\n"
	      "\t        t   tab before each value (default is space)\n"
	      "\t        n   newline after each value\n"
	      "\t        g   newline between ClassAds, no space before values\n"
	      "\t    use -af:h to get tabular values with headings\n"
	      "\t    use -af:lrng to get -long equivalent format\n"
	      "\t-format <fmt> <attr>\t Print attribute attr using format fmt\n"
	      "\t-long[:<form>]\t\t Display entire ClassAds in <form> format\n"
	      "\t\t\t\t See -jobads for <form> choices\n"
	      "\t-xml\t\t\t Display entire ClassAds in XML form\n"
	      "\t-json\t\t\t Display entire ClassAds in JSON form\n"
	      "\t-attributes X,Y,...\t Attributes to show in -xml, -json, and -long\n"
	      "\n    [analyze-opts] are\n"
	      "\t-analyze\t\t Perform matchmaking analysis on jobs\n"
	      "\t-better-analyze\t\t Perform detailed match analysis\n"
	      "\t-mconstraint <expr>\t Machine constraint for analysis\n"
	      "\t-slotads[:<form>] <file> Read Machine ClassAds for analysis from <file>\n"
	      "\t\t\t\t <file> can be the output of condor_status -long\n"
	      "\t-userprios <file>\t Read user priorities for analysis from <file>\n"
	      "\t\t\t\t <file> can be the output of condor_userprio -l\n"
	      "\t-nouserprios\t\t Don't consider user priority during analysis (default)\n"
	      "\n"
	      "\n    Only information about jobs owned by the current user will be returned.\n"
	      "This default is overridden when the restriction list has usernames and/or\n"
	      "job ids, or when the -allusers argument is specified.\n"
	      "\n",
	      out);
}

void cq_opts_free(struct cq_opts *o)
{
	for (size_t i = 0; i < o->nands; i++)
		free(o->ands[i]);
	for (size_t i = 0; i < o->nors; i++)
		free(o->ors[i]);
	free(o->ands);
	free(o->ors);
	free(o->items);
	tf_names_clear(&o->attrs);
	memset(o, 0, sizeof *o);
}

/* HTCondor's options that kestrel's condor_q does not have: named so
 * that the message says so rather than "unrecognized". */
static const struct {
	const char *name;
	int min;
} cq_unsupported[] = {
	{"submitter", 1},     {"direct", 1},     {"address", 1},
	{"autocluster", 2},   {"group-by", 2},   {"factory", 4},
	{"jobset", 5},        {"aaf", 3},        {"print-format", 2},
	{"schedd-constraint", 5}, {"reverse-analyze", 3},
	{"unmatchable", 5},   {"dry-run", 3},    {"capture-raw-results", 7},
	{"verbose", 4},       {"hold-codes", 6}, {"holdcodes", 5},
	{"cputime", 2},       {"cumulative-time", 3}, {"grid", 2},
	{"dag", 2},
	{"profile", 4},
	{"stream-results", 2}, {"machine", 2},   {"global", 1},
};

/* -better-analyze:OPT,OPT...: "priority" (at least "pr") considers
 * user priorities, "summary" and "reverse" do not, as in HTCondor;
 * kestrel has no other form yet and ignores the rest. */
static void cq_analyze_opts(struct cq_opts *o, const char *opts)
{
	while (opts && *opts) {
		size_t len = strcspn(opts, ",:");
		if (len >= 2 && len <= 8 && strncmp(opts, "priority", len) == 0)
			o->analyze_prio = true;
		else if (len >= 1 && ((len <= 7 && strncmp(opts, "summary", len) == 0) ||
				      (len <= 7 && strncmp(opts, "reverse", len) == 0)))
			o->analyze_prio = false;
		opts += len;
		opts += strspn(opts, ",:");
	}
}

static int cq_unknown(const struct cq_opts *o, const char *a, FILE *out,
		      FILE *err)
{
	for (size_t k = 0; k < sizeof cq_unsupported / sizeof cq_unsupported[0];
	     k++) {
		const char *colon;
		if (tf_flag(a, cq_unsupported[k].name, cq_unsupported[k].min,
			    &colon)) {
			fprintf(err, "Error: %s is an HTCondor option that kestrel's "
				"condor_q does not support yet\n", a);
			return 1;
		}
	}
	fprintf(err, "Error: unrecognized argument %s\n", a);
	cq_usage(out, o->prog);
	return 1;
}

/* -run, -hold and -idle exclude each other. */
static int cq_incompatible(const struct cq_opts *o, FILE *out, FILE *err)
{
	fprintf(err, "-run and -hold/held or -idle are incompatible\n");
	cq_usage(out, o->prog);
	return 1;
}

/* -hold:CODE[/SUB],... restricts to those hold codes. */
static void cq_hold_codes(struct cq_opts *o, const char *list, FILE *err)
{
	struct classad_buf b = {0};
	char *copy = ks_xstrdup(list);
	for (char *save = NULL, *t = strtok_r(copy, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		char *end;
		long code = strtol(t, &end, 10);
		if (end == t) {
			if (*t)
				fprintf(err, "Warning \"%s\" is not a hold code and/or subcode. ignoring\n",
					t);
			continue;
		}
		if (b.len)
			tf_buf_add(&b, " || ");
		long sub = -1;
		if (*end == '/') {
			char *e2;
			sub = strtol(end + 1, &e2, 10);
			if (e2 == end + 1)
				sub = -1;
		}
		if (sub >= 0)
			classad_buf_printf(&b, "(HoldReasonCode==%ld && HoldReasonSubCode==%ld)",
					   code, sub);
		else
			classad_buf_printf(&b, "HoldReasonCode==%ld", code);
	}
	if (b.len)
		cq_and(o, b.data);
	free(copy);
	tf_buf_free(&b);
}

static void cq_item(struct cq_opts *o, struct cq_item it)
{
	o->items = ks_xrealloc(o->items, (o->nitems + 1) * sizeof *o->items);
	o->items[o->nitems++] = it;
}

/* The -af spelling: one dash only. */
static bool cq_af_flag(const char *a, const char **colon)
{
	if (a[0] != '-' || a[1] == '-')
		return false;
	return tf_flag(a, "autoformat", 5, colon) || tf_flag(a, "af", 2, colon);
}

/* Job ids become constraints once every argument is read. */
static void cq_ids(struct cq_opts *o, const int *ids, size_t nids)
{
	for (size_t i = 0; i < nids; i += 2) {
		char buf[96];
		o->my_jobs = false;
		if (ids[i + 1] >= 0) {
			snprintf(buf, sizeof buf, "ClusterId == %d && ProcId == %d",
				 ids[i], ids[i + 1]);
			o->partial = true;
		} else {
			snprintf(buf, sizeof buf, "ClusterId == %d", ids[i]);
		}
		cq_or(o, buf);
		/* a DAG's id also brings its nodes in the batch view */
		if (o->batch && ids[i + 1] < 1) {
			snprintf(buf, sizeof buf, "DAGManJobId == %d", ids[i]);
			cq_or(o, buf);
			snprintf(buf, sizeof buf,
				 "int(split(JobBatchId, \".\")[0]) == %d", ids[i]);
			cq_or(o, buf);
		}
	}
}

/* What the flags imply once all are read (HTCondor's second half of
 * processCommandLineArguments). */
static int cq_settle(struct cq_opts *o, FILE *err)
{
	bool custom = o->nitems > 0;
	if (o->batch_specified && o->batch && custom) {
		fprintf(err, "Error: -batch conflicts with -format and -af\n");
		return 1;
	}
	if (o->view == CQ_V_ANALYZE)
		return -1;
	if (custom) {
		o->view = CQ_V_CUSTOM;
		return -1;
	}
	if (o->dash_long)
		return -1;
	/* an explicit -batch wins over the views that only filter */
	if (o->batch_specified && o->batch &&
	    (o->view == CQ_V_RUN || o->view == CQ_V_IDLE ||
	     o->view == CQ_V_HOLD))
		o->view = CQ_V_BATCH;
	if (o->view == CQ_V_NOTSET) {
		if (!o->batch_specified)
			o->batch = true;
		o->view = o->batch ? CQ_V_BATCH : CQ_V_NORMAL;
	}
	return -1;
}

int cq_parse_args(int argc, const char *const *argv, struct cq_opts *o,
		  FILE *out, FILE *err)
{
	memset(o, 0, sizeof *o);
	o->prog = argc > 0 && argv[0] ? argv[0] : "condor_q";
	o->my_jobs = true;
	o->long_form = TF_LONG_OLD;
	int *ids = NULL;
	size_t nids = 0;
	int rc = -1;
	const char *c;

	for (int i = 1; i < argc && rc < 0; i++) {
		const char *a = argv[i];
		bool has = i + 1 < argc;
		if (*a != '-') {
			int cl, pr;
			if (qt_q_id(a, &cl, &pr)) {
				ids = ks_xrealloc(ids, (nids + 2) * sizeof *ids);
				ids[nids++] = cl;
				ids[nids++] = pr;
			} else {
				char *q = qt_quote(a);
				struct classad_buf b = {0};
				classad_buf_printf(&b, "Owner==%s", q);
				cq_or(o, b.data);
				tf_buf_free(&b);
				free(q);
				o->my_jobs = false;
			}
		} else if (tf_flag(a, "wide", 1, &c)) {
			o->wide = true;
			if (c) {
				o->forced_width = atoi(c);
				o->wide = false;
			}
		} else if (tf_flag(a, "long", 1, &c)) {
			o->dash_long = true;
			if (c) {
				char *opts = ks_xstrdup(c);
				for (char *save = NULL,
					  *t = strtok_r(opts, ",", &save);
				     t; t = strtok_r(NULL, ",", &save)) {
					enum tf_ads_format f =
						tf_ads_format_of(t, TF_ADS_LONG);
					if (strcmp(t, "nosort") == 0)
						continue;
					o->xml = f == TF_ADS_XML;
					o->long_form = f == TF_ADS_JSON ? TF_LONG_JSON
						       : f == TF_ADS_NEW ? TF_LONG_NEW
									 : TF_LONG_OLD;
				}
				free(opts);
			}
		} else if (tf_flag(a, "xml", 3, NULL)) {
			o->dash_long = true;
			if (o->long_form == TF_LONG_JSON) {
				fprintf(err, "Error: Cannot print as both XML and JSON\n");
				rc = 1;
			}
			o->xml = true;
		} else if (tf_flag(a, "json", 2, NULL)) {
			o->dash_long = true;
			if (o->xml) {
				fprintf(err, "Error: Cannot print as both XML and JSON\n");
				rc = 1;
			}
			o->long_form = TF_LONG_JSON;
		} else if (tf_flag(a, "limit", 3, NULL)) {
			if (!has) {
				fprintf(err, "Error: -limit requires the max number of results as an argument.\n");
				rc = 1;
				break;
			}
			char *end;
			long v = strtol(argv[++i], &end, 10);
			if (*end != '\0') {
				fprintf(err, "Error: Unable to convert (%s) to a number for -limit.\n",
					argv[i]);
				rc = 1;
			} else if (v <= 0 || v > 0x7fffffff) {
				fprintf(err, "Error: %ld is not a valid for -limit.\n", v);
				rc = 1;
			} else {
				o->limit = (int)v;
			}
		} else if (tf_flag(a, "pool", 1, NULL)) {
			if (!has) {
				fprintf(err, "Error: -pool requires a hostname as an argument.\n");
				if (!o->expert)
					fprintf(err, "\nExtra Info: The hostname should be the central manager of the pool you wish to work with.\n");
				rc = 1;
				break;
			}
			o->pool = argv[++i];
		} else if (tf_flag(a, "name", 1, NULL)) {
			if (!has) {
				fprintf(err, "Error: -name requires the name of a schedd as an argument.\n");
				rc = 1;
				break;
			}
			o->name = argv[++i];
		} else if (tf_flag(a, "constraint", 1, NULL)) {
			if (!has) {
				fprintf(err, "Error: -constraint requires another parameter\n");
				rc = 1;
				break;
			}
			o->user_constraint = argv[++i];
			o->partial = true;
			cq_and(o, argv[i]);
		} else if (tf_flag(a, "slotconstraint", 5, NULL) ||
			   tf_flag(a, "mconstraint", 2, NULL)) {
			if (!has) {
				fprintf(err, "Error: %s requires another parameter\n", a);
				rc = 1;
				break;
			}
			o->mconstraint = argv[++i];
		} else if (tf_flag(a, "attributes", 2, NULL)) {
			if (!has) {
				fprintf(err, "Error: -attributes requires a list of attributes to show\n");
				rc = 1;
				break;
			}
			char *list = ks_xstrdup(argv[++i]);
			for (char *cur = list, *t; (t = ks_list_cut(&cur));)
				tf_names_add(&o->attrs, t);
			free(list);
		} else if (tf_flag(a, "format", 1, NULL)) {
			if (i + 2 >= argc) {
				fprintf(err, "Error: -format requires format and attribute parameters\n");
				rc = 1;
				break;
			}
			cq_item(o, (struct cq_item){false, argv[i + 1], argv[i + 2],
						    NULL, 0, NULL});
			i += 2;
		} else if (cq_af_flag(a, &c)) {
			if (!has || argv[i + 1][0] == '-') {
				fprintf(err, "Error: -autoformat requires at least one attribute parameter\n");
				rc = 1;
				break;
			}
			int first = i + 1;
			while (i + 1 < argc && argv[i + 1][0] != '-')
				i++;
			cq_item(o, (struct cq_item){true, NULL, NULL, c,
						    i + 1 - first, argv + first});
			if (c && strchr(c, 'h'))
				o->af_headings = true;
			/* a lone "-" ends the list and is eaten */
			if (i + 1 < argc && strcmp(argv[i + 1], "-") == 0)
				i++;
		} else if (tf_flag(a, "allusers", 2, NULL) ||
			   tf_flag(a, "all-users", 2, NULL)) {
			o->my_jobs = false;
		} else if (tf_flag(a, "help", 1, NULL)) {
			cq_usage(out, o->prog);
			rc = 0;
		} else if (tf_flag(a, "better-analyze", 2, &c) ||
			   tf_flag(a, "better-analyse", 2, &c)) {
			o->view = CQ_V_ANALYZE;
			o->analyze_better = true;
			cq_analyze_opts(o, c);
		} else if (tf_flag(a, "analyze", 2, &c) ||
			   tf_flag(a, "analyse", 2, &c)) {
			o->view = CQ_V_ANALYZE;
			cq_analyze_opts(o, c);
		} else if (tf_flag(a, "userprios", 5, NULL)) {
			if (!has) {
				fprintf(err, "Error: -userprios requires a "
					     "filename argument\n");
				rc = 1;
				break;
			}
			o->userprios = argv[++i];
			o->analyze_prio = true;
		} else if (tf_flag(a, "nouserprios", 7, NULL)) {
			o->analyze_prio = false;
		} else if (tf_flag(a, "run", 1, NULL)) {
			if (o->view == CQ_V_HOLD || o->view == CQ_V_IDLE) {
				rc = cq_incompatible(o, out, err);
				break;
			}
			cq_and(o, "JobStatus == 2 || JobStatus == 6 || JobStatus == 7");
			o->partial = true;
			if (o->view != CQ_V_ANALYZE)
				o->view = CQ_V_RUN;
		} else if (tf_flag(a, "hold", 2, &c) || tf_flag(a, "held", 2, &c)) {
			if (o->view == CQ_V_RUN || o->view == CQ_V_IDLE) {
				rc = cq_incompatible(o, out, err);
				break;
			}
			cq_and(o, "JobStatus==5");
			o->partial = true;
			if (o->view != CQ_V_ANALYZE)
				o->view = CQ_V_HOLD;
			if (c && *c)
				cq_hold_codes(o, c, err);
		} else if (tf_flag(a, "idle", 3, NULL)) {
			if (o->view == CQ_V_RUN || o->view == CQ_V_HOLD) {
				rc = cq_incompatible(o, out, err);
				break;
			}
			cq_and(o, "JobStatus==1");
			o->partial = true;
			if (o->view != CQ_V_ANALYZE)
				o->view = CQ_V_IDLE;
		} else if (tf_flag(a, "io", 2, NULL)) {
			/* jobIO_PrintFormat's WHERE, which HTCondor adds to
			 * the query */
			cq_and(o, "JobUniverse==1 || TransferQueued=?=true || "
				  "TransferringOutput=?=true || "
				  "TransferringInput=?=true");
			if (o->view != CQ_V_ANALYZE)
				o->view = CQ_V_IO;
		} else if (tf_flag(a, "currentrun", 3, NULL)) {
			/* the default: run times are of the current run */
		} else if (tf_flag(a, "debug", 3, &c)) {
			/* kestrel's tools log nothing to the console */
		} else if (tf_flag(a, "batch", 2, &c) ||
			   tf_flag(a, "progress", 3, &c)) {
			o->batch = o->batch_specified = true;
		} else if (tf_flag(a, "nobatch", 3, NULL)) {
			o->batch = false;
			o->batch_specified = true;
		} else if (tf_flag(a, "totals", 3, NULL)) {
			if (o->view != CQ_V_ANALYZE)
				o->view = CQ_V_TOTALS;
		} else if (tf_flag(a, "expert", 1, NULL)) {
			o->expert = true;
		} else if (tf_flag(a, "jobads", 1, &c)) {
			if (!has) {
				fprintf(err, "Error: -jobads requires a filename\n");
				rc = 1;
				break;
			}
			o->jobads = argv[++i];
			o->jobads_format = tf_ads_format_of(c, TF_ADS_LONG);
		} else if (tf_flag(a, "userlog", 1, NULL)) {
			if (!has) {
				fprintf(err, "Error: -userlog requires a filename\n");
				rc = 1;
				break;
			}
			o->userlog = argv[++i];
		} else if (tf_flag(a, "slotads", 1, &c) ||
			   tf_flag(a, "machineads", 10, &c)) {
			if (!has) {
				fprintf(err, "Error: %s requires a filename\n", a);
				rc = 1;
				break;
			}
			o->slotads = argv[++i];
			o->slotads_format = tf_ads_format_of(c, TF_ADS_LONG);
		} else if (tf_flag(a, "version", 1, NULL)) {
			fputs(QT_VERSION, out);
			rc = 0;
		} else {
			rc = cq_unknown(o, a, out, err);
		}
	}
	if (rc < 0) {
		rc = cq_settle(o, err);
		if (rc < 0)
			cq_ids(o, ids, nids);
	}
	free(ids);
	return rc;
}
