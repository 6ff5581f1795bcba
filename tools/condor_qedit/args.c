/*
 * args.c: condor_qedit's command line, read as HTCondor 25 reads it:
 * the first bare argument names the jobs (ids when it starts with a
 * digit, with the digit arguments after it, else an owner) unless
 * -constraint, -owner or -jobids came first; every bare argument after
 * that is "Attr Value" or "Attr=Value".
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "ks_text.h"
#include "qedit.h"
#include "tfmt.h"

static void qe_usage(FILE *out, const char *prog)
{
	fprintf(out, "Usage: %s [help-opts] [general-opts] <restriction-list> <edit-list>\n",
		prog);
	fputs("\n    [help-opts] are:\n"
	      "\t-help\t\t   Display this screen\n"
	      "\n    [general-opts] are:\n"
	      "\t-name <name>\t   Name of Scheduler\n"
	      "\t-pool <pool>\t   Use host as the central manager to query\n"
	      "\n    <restriction-list> is one or more of:\n"
	      "\t<cluster>\t   Edit jobs in a specific cluster\n"
	      "\t<cluster>.<proc>   Edit a specific job\n"
	      "\t<owner>\t\t   Edit jobs owned by <owner>\n"
	      "\t-jobids <id-list>  Edit jobs in <id-list>\n"
	      "\t-owner <owner>     Edit jobs owned by <owner>\n"
	      "\t-constraint <expr> Edit jobs that match <expr>\n"
	      "\n    <edit-list> is a set of <attr> and <value> pairs, in one of two forms\n"
	      "\t<attr> <value>\t   Two argument form, alternate <attr> and <value>\n"
	      "\t<attr>=<value>\t   Single argument form, = separates <attr> and <value>\n"
	      "\t-edits[:<form>] <file> Read edits from <file> in ClassAd format.\n"
	      "\t           where <form> is one of:\n"
	      "\t       auto    default, guess the format from the first characters\n"
	      "\t       long    The traditional -long form\n"
	      "\t       json    JSON classad form, the same as -json\n"
	      "\t       new     'new' classad form without newlines\n"
	      "\nAt least one restriction and one edit are needed, restrictions first.\n"
	      "Job ids and a single owner name can name the jobs directly; -owner,\n"
	      "-jobids and -constraint can be combined, and then a job must match all\n"
	      "of them.  With only -constraint, only your own jobs are edited (unless\n"
	      "you are a queue super user).  After the restriction, every argument\n"
	      "that does not start with - is an edit: <attr>=<value>, or <attr>\n"
	      "followed by <value>.\n",
	      out);
}

static int qe_usage_exit(FILE *out, FILE *err, const char *prog, int rc)
{
	qe_usage(rc ? err : out, prog);
	return rc;
}

void qe_opts_free(struct qe_opts *o)
{
	qt_idlist_free(&o->ids);
	for (size_t i = 0; i < o->nands; i++)
		free(o->ands[i]);
	free(o->ands);
	for (size_t i = 0; i < o->nedits; i++) {
		free(o->edits[i].attr);
		free(o->edits[i].value);
	}
	free(o->edits);
	memset(o, 0, sizeof *o);
}

static void qe_and(struct qe_opts *o, const char *expr)
{
	o->ands = ks_xrealloc(o->ands, (o->nands + 1) * sizeof *o->ands);
	o->ands[o->nands++] = ks_xstrdup(expr);
}

static void qe_owner(struct qe_opts *o, const char *owner)
{
	char *q = qt_quote(owner);
	struct classad_buf b = {0};
	classad_buf_printf(&b, "Owner==%s", q);
	qe_and(o, b.data);
	tf_buf_free(&b);
	free(q);
}

/* A job id as HTCondor's JOB_ID_KEY reads it: "C" or "C.P". */
static void qe_id(struct qe_opts *o, const char *s)
{
	int c, p;
	if (!qt_q_id(s, &c, &p)) {
		c = atoi(s);
		p = -1;
	}
	qt_idlist_add(&o->ids, c, p);
}

/* Keeps one value per attribute, the last given, in name order. */
static void qe_edit(struct qe_opts *o, const char *attr, const char *value)
{
	size_t i = 0;
	while (i < o->nedits && strcmp(o->edits[i].attr, attr) < 0)
		i++;
	if (i < o->nedits && strcmp(o->edits[i].attr, attr) == 0) {
		free(o->edits[i].value);
		o->edits[i].value = ks_xstrdup(value);
		return;
	}
	o->edits = ks_xrealloc(o->edits, (o->nedits + 1) * sizeof *o->edits);
	memmove(o->edits + i + 1, o->edits + i,
		(o->nedits - i) * sizeof *o->edits);
	o->edits[i].attr = ks_xstrdup(attr);
	o->edits[i].value = ks_xstrdup(value);
	o->nedits++;
}

static bool qe_valid_name(const char *s)
{
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_'))
			return false;
	return true;
}

static bool qe_valid_value(const char *s)
{
	const char *p = s;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p || strchr(s, '\n') || strchr(s, '\r'))
		return false;
	classad_expr *e = classad_parse_expr(s, strlen(s), NULL);
	classad_expr_free(e);
	return e != NULL;
}

static char *qe_trimmed(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return ks_xstrndup(s, len);
}

/* -edits FILE: the first ad of the file is the set of edits. */
struct qe_first {
	struct qe_opts *o;
	bool got;
};

static int qe_first_ad(classad *ad, void *arg)
{
	struct qe_first *f = arg;
	size_t pos = 0;
	const char *name;
	const classad_expr *e;
	while (classad_next(ad, &pos, &name, &e)) {
		char *text = classad_expr_unparse(e, false);
		qe_edit(f->o, name, text);
		free(text);
	}
	classad_free(ad);
	f->got = true;
	return 1;
}

static int qe_id_cmp(const void *a, const void *b)
{
	const int *x = a, *y = b;
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/* Sorted, each once, as HTCondor's set of ids. */
static void qe_sort_ids(struct qt_idlist *l)
{
	if (l->n < 2)
		return;
	qsort(l->v, l->n, sizeof *l->v, qe_id_cmp);
	size_t k = 1;
	for (size_t i = 1; i < l->n; i++)
		if (qe_id_cmp(&l->v[i], &l->v[k - 1]) != 0)
			l->v[k++] = l->v[i];
	l->n = k;
}

static int qe_need(const struct qe_opts *o, const char *flag, const char *what,
		   FILE *err)
{
	fprintf(err, "%s: %s requires %s\n", o->prog, flag, what);
	return 1;
}

int qe_parse_args(int argc, const char *const *argv, struct qe_opts *o,
		  FILE *out, FILE *err)
{
	memset(o, 0, sizeof *o);
	o->prog = argc > 0 && argv[0] ? argv[0] : "condor_qedit";
	o->only_my_jobs = true;
	if (argc < 2)
		return qe_usage_exit(out, err, o->prog, 1);
	bool bare_names_jobs = true;
	bool aborted = false;
	const char *c;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool next = i + 1 < argc && argv[i + 1][0] != '-';
		if (tf_flag(a, "help", 1, NULL)) {
			return qe_usage_exit(out, err, o->prog, 0);
		} else if (tf_flag(a, "name", 1, NULL)) {
			if (!next)
				return qe_need(o, a, "a SCHEDD name as an argument", err);
			o->name = argv[++i];
		} else if (tf_flag(a, "pool", 1, NULL)) {
			if (!next)
				return qe_need(o, a, "a HTCondor collector name or address as an argument", err);
			o->pool = argv[++i];
		} else if (tf_flag(a, "debug", 1, &c)) {
			/* kestrel's tools log nothing to the console */
		} else if (tf_flag(a, "dry-run", 3, NULL)) {
			o->dry_run = true;
		} else if (tf_flag(a, "constraint", 1, NULL)) {
			if (i + 1 >= argc)
				return qe_need(o, a, "a ClassAd expression an argument", err);
			const char *x = argv[++i];
			classad_expr *e = classad_parse_expr(x, strlen(x), NULL);
			if (!e) {
				fprintf(err, "%s: invalid constraint: %s\n", o->prog, x);
				return 1;
			}
			classad_expr_free(e);
			qe_and(o, x);
			bare_names_jobs = false;
			o->has_constraint = true;
		} else if (tf_flag(a, "owner", 1, NULL)) {
			if (!next)
				return qe_need(o, a, "a owner name argument", err);
			qe_owner(o, argv[++i]);
			bare_names_jobs = false;
			o->only_my_jobs = false;
		} else if (tf_flag(a, "jobids", 1, NULL)) {
			if (!next)
				return qe_need(o, a, "a list of job ids as an argument", err);
			char *list = ks_xstrdup(argv[++i]);
			for (char *cur = list, *t; (t = ks_list_cut(&cur));)
				qe_id(o, t);
			free(list);
			bare_names_jobs = false;
			o->only_my_jobs = false;
		} else if (tf_flag(a, "edits", 2, &c)) {
			if (i + 1 >= argc ||
			    (argv[i + 1][0] == '-' && argv[i + 1][1] != '\0'))
				return qe_need(o, a, "a filename as an argument", err);
			const char *file = argv[++i];
			struct qe_first f = {o, false};
			if (tf_read_ads(file, tf_ads_format_of(c, TF_ADS_AUTO), false,
					NULL, qe_first_ad, &f, "-edits", err) ||
			    !f.got) {
				fprintf(err, "Unable to read file of edits: %s\n", file);
				return 1;
			}
		} else if (a[0] == '-') {
			fprintf(err, "%s: %s is not a valid option\n", o->prog, a);
			return qe_usage_exit(out, err, o->prog, 1);
		} else if (bare_names_jobs) {
			bare_names_jobs = false;
			o->only_my_jobs = false;
			if (isdigit((unsigned char)*a)) {
				qe_id(o, a);
				while (i + 1 < argc &&
				       isdigit((unsigned char)*argv[i + 1]))
					qe_id(o, argv[++i]);
			} else {
				qe_owner(o, a);
			}
		} else {
			char *attr, *value;
			const char *eq = strchr(a, '=');
			if (eq) {
				attr = qe_trimmed(a, (size_t)(eq - a));
				value = qe_trimmed(eq + 1, strlen(eq + 1));
			} else {
				if (i + 1 >= argc) {
					fprintf(err, "%s : expression required after attribute %s\n",
						o->prog, a);
					return qe_usage_exit(out, err, o->prog, 1);
				}
				attr = ks_xstrdup(a);
				value = ks_xstrdup(argv[++i]);
			}
			bool bad = false;
			if (!qe_valid_name(attr)) {
				fprintf(err, "Update aborted, illegal attribute-name specified for attribute \"%s\".\n",
					attr);
				bad = true;
			} else if (!qe_valid_value(value)) {
				fprintf(err, "Update aborted, illegal value for : %s\n", attr);
				bad = true;
			} else {
				qe_edit(o, attr, value);
			}
			free(attr);
			free(value);
			if (bad) {
				aborted = true;
				break;
			}
		}
	}
	if (aborted) {
		fprintf(err, "Transaction failed.  No attributes were set.\n");
		return 1;
	}
	qe_sort_ids(&o->ids);
	char *cons = qe_constraint(o);
	bool none = o->ids.n == 0 && !cons;
	free(cons);
	if (none) {
		if (o->nedits)
			fprintf(err, "%s : Error - there were no jobs specified.\n\tuse -constraint, jobid or owner argument to indicate which jobs to edit\n",
				o->prog);
		return qe_usage_exit(out, err, o->prog, 1);
	}
	if (o->nedits == 0) {
		fprintf(err, "%s : Error - no attributes specifed.\n", o->prog);
		return qe_usage_exit(out, err, o->prog, 1);
	}
	return -1;
}

bool qe_in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && *p;) {
		while (*p == ' ' || *p == ',' || *p == '\t')
			p++;
		const char *s = p;
		while (*p && *p != ' ' && *p != ',' && *p != '\t')
			p++;
		if ((size_t)(p - s) == n && strncasecmp(s, name, n) == 0)
			return true;
	}
	return false;
}

char *qe_constraint(const struct qe_opts *o)
{
	bool clusters = false;
	for (size_t i = 0; i < o->ids.n; i++)
		clusters |= o->ids.v[i].proc < 0;
	/* whole job ids alone are edited one by one */
	if (o->nands == 0 && !clusters)
		return NULL;
	struct classad_buf ids = {0};
	/* HTCondor's makeJobidConstraint: per cluster, its procs */
	for (size_t i = 0; i < o->ids.n;) {
		int cl = o->ids.v[i].cluster;
		size_t j = i;
		int nprocs = 0;
		for (; j < o->ids.n && o->ids.v[j].cluster == cl; j++)
			nprocs += o->ids.v[j].proc >= 0;
		if (ids.len)
			tf_buf_add(&ids, "|| ");
		if (nprocs == 0) {
			classad_buf_printf(&ids, "ClusterId == %d ", cl);
		} else {
			classad_buf_printf(&ids, "( ClusterId == %d && ", cl);
			if (nprocs > 1)
				tf_buf_addc(&ids, '(');
			const char *op = "";
			for (size_t k = i; k < j; k++) {
				if (o->ids.v[k].proc < 0)
					continue;
				classad_buf_printf(&ids, "%sProcId == %d ", op,
						   o->ids.v[k].proc);
				op = " || ";
			}
			if (nprocs > 1)
				tf_buf_addc(&ids, ')');
			tf_buf_addc(&ids, ')');
		}
		i = j;
	}
	struct classad_buf b = {0};
	size_t n = 0;
	for (size_t i = 0; i < o->nands; i++)
		classad_buf_printf(&b, "%s(%s)", n++ ? " && " : "( ", o->ands[i]);
	if (ids.len)
		classad_buf_printf(&b, "%s(%s)", n++ ? " && " : "( ", ids.data);
	if (n)
		tf_buf_add(&b, " )");
	tf_buf_free(&ids);
	return b.data;
}
