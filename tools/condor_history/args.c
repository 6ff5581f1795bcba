/*
 * args.c: condor_history's command line, read as HTCondor 25 reads it:
 * "C.P" and "C" arguments and user names select jobs (any of them),
 * -constraint narrows them (all), and the messages are HTCondor's.
 */
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "ks_mem.h"
#include "ks_text.h"
#include "qtool.h"

static void hi_usage(FILE *out, const char *prog)
{
	fprintf(out, "Usage: %s [source] [restriction-list] [options]\n", prog);
	fputs("\n   where [source] is one of\n"
	      "\t-file <file>\t\tRead history data from specified file\n"
	      "\t-userlog <file>\t\tRead job data specified userlog file\n"
	      "\t-name <schedd-name>\tRemote schedd to read from\n"
	      "\t-pool <collector-name>\tPool remote schedd lives in.\n"
	      "   Without -file, the history of the schedd is read: this host's,\n"
	      "   or the one -name names.\n"
	      "\n   and [restriction-list] is one or more of\n"
	      "\t<cluster>\t\tGet information about specific cluster\n"
	      "\t<cluster>.<proc>\tGet information about specific job\n"
	      "\t<owner>\t\t\tInformation about jobs owned by <owner>\n"
	      "\t-constraint <expr>\tInformation about jobs matching <expr>\n"
	      "\t-since <jobid>|<expr>\tStop scanning when <expr> is true or <jobid> is read\n"
	      "\t-completedsince <time>\tDisplay jobs completed on/after time\n"
	      "\n   and [options] are one or more of\n"
	      "\t-help\t\t\tDisplay this screen\n"
	      "\t-backwards\t\tList jobs in reverse chronological order\n"
	      "\t-forwards\t\tList jobs in chronological order\n"
	      "\t-limit <number>\t\tLimit the number of jobs displayed\n"
	      "\t-match <number>\t\tOld name for -limit\n"
	      "\t-long\t\t\tDisplay entire classads\n"
	      "\t-xml\t\t\tDisplay classads in XML format\n"
	      "\t-json\t\t\tDisplay classads in JSON format\n"
	      "\t-attributes <attr-list>\tDisplay only the given attributes\n"
	      "\t-wide[:<width>]\t\tDon't truncate fields to fit into 80 columns\n"
	      "\t-format <fmt> <attr>\tDisplay attr using printf formatting\n"
	      "\t-autoformat[:jlhVr,tng] <attr> [<attr2> [...]]\n"
	      "\t-af[:jlhVr,tng] <attr> [attr2 [...]]\n"
	      "\t    Print attr(s) with automatic formatting\n"
	      "\t    the [jlhVr,tng] options modify the formatting\n"
	      "\t        j   display Job Id\n"
	      "\t        l   attribute labels\n"
	      "\t        h   attribute column headings\n"
	      "\t        V   %V formatting (string values are quoted)\n"
	      "\t        r   %r formatting (raw/unparsed values)\n"
	      "\t        ,   comma after each value\n"
	      "\t        t   tab before each value (default is space)\n"
	      "\t        n   newline after each value\n"
	      "\t        g   newline between ClassAds, no space before values\n"
	      "\t    use -af:h to get tabular values with headings\n"
	      "\t    use -af:lrng to get -long equivalent format\n",
	      out);
}

static void hi_push(char ***list, size_t *n, const char *s)
{
	*list = ks_xrealloc(*list, (*n + 1) * sizeof **list);
	(*list)[(*n)++] = ks_xstrdup(s);
}

void hi_opts_free(struct hi_opts *o)
{
	for (size_t i = 0; i < o->nands; i++)
		free(o->ands[i]);
	for (size_t i = 0; i < o->nors; i++)
		free(o->ors[i]);
	free(o->ands);
	free(o->ors);
	free(o->since);
	free(o->items);
	tf_names_clear(&o->attrs);
	memset(o, 0, sizeof *o);
}

char *hi_constraint(const struct hi_opts *o)
{
	return qt_constraint(o->ands, o->nands, o->ors, o->nors);
}

/* HTCondor's history options that kestrel does not have. */
static const struct {
	const char *name;
	int min;
} hi_unsupported[] = {
	{"scanlimit", 4}, {"local", 2}, {"startd", 3},
	{"epochs", 2}, {"transfer-history", 2}, {"daemon", 3},
	{"directory", 3}, {"search", 3}, {"extract", 2}, {"print-format", 2}, {"jsonl", 5},
	{"schedd", 3}, {"type", 2},
};

static int hi_arg_error(FILE *err, const char *fmt, const char *a)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	fprintf(err, fmt, a);
#pragma GCC diagnostic pop
	return 1;
}

/* -since's argument as HTCondor reads it: an expression that is not a
 * literal, else a job id ("C.P", "C"); NULL if it is neither. */
static char *hi_since(const char *a)
{
	classad_expr *e = classad_parse_expr(a, strlen(a), NULL);
	bool literal = e && classad_expr_is_literal(e, NULL);
	classad_expr_free(e);
	if (e && !literal)
		return ks_xstrdup(a);
	int c, p, n = 0;
	char buf[128];
	if (sscanf(a, "%d.%d%n", &c, &p, &n) == 2 && !a[n])
		snprintf(buf, sizeof buf, "ClusterId == %d && ProcId == %d", c, p);
	else if (sscanf(a, "%d%n", &c, &n) == 1 && !a[n])
		snprintf(buf, sizeof buf, "ClusterId == %d", c);
	else
		return NULL;
	return ks_xstrdup(buf);
}

/* A job id ("C.P", "C") or a user name. */
static void hi_restriction(struct hi_opts *o, const char *a)
{
	int c, p;
	char buf[128];
	if (sscanf(a, "%d.%d", &c, &p) == 2) {
		snprintf(buf, sizeof buf, "ClusterId == %d && ProcId == %d", c, p);
		hi_push(&o->ors, &o->nors, buf);
	} else if (sscanf(a, "%d", &c) == 1) {
		snprintf(buf, sizeof buf, "ClusterId == %d", c);
		hi_push(&o->ors, &o->nors, buf);
	} else {
		char *q = qt_quote(a);
		struct classad_buf b = {0};
		classad_buf_printf(&b, "Owner == %s", q);
		hi_push(&o->ors, &o->nors, b.data);
		tf_buf_free(&b);
		free(q);
	}
}

int hi_parse_args(int argc, const char *const *argv, struct hi_opts *o,
		  FILE *out, FILE *err)
{
	memset(o, 0, sizeof *o);
	o->prog = argc > 0 && argv[0] ? argv[0] : "condor_history";
	const char *c;
	int i;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool has = i + 1 < argc;
		if (tf_flag(a, "long", 1, NULL)) {
			o->dash_long = true;
		} else if (tf_flag(a, "xml", 3, NULL)) {
			o->xml = true;
			o->dash_long = true;
		} else if (tf_flag(a, "json", 4, NULL)) {
			o->json = true;
			o->dash_long = true;
		} else if (tf_flag(a, "backwards", 1, NULL)) {
			o->forwards = false;
		} else if (tf_flag(a, "nobackwards", 3, NULL) ||
			   tf_flag(a, "forwards", 4, NULL)) {
			if (o->since)
				return hi_arg_error(err, "Error: Argument -forwards cannot be combined with -since.\n", a);
			o->forwards = true;
		} else if (tf_flag(a, "since", 4, NULL)) {
			if (o->forwards)
				return hi_arg_error(err, "Error: Argument -forwards cannot be combined with -since.\n", a);
			if (!has)
				return hi_arg_error(err, "Error: Argument %s requires another parameter\n", a);
			free(o->since);
			o->since = hi_since(argv[++i]);
			if (!o->since)
				return hi_arg_error(err, "Error: invalid -since constraint: %s\n\tconstraint must be a job-id, or expression.", argv[i]);
		} else if (tf_flag(a, "completedsince", 3, NULL)) {
			if (!has)
				return hi_arg_error(err, "Error: Argument -completedsince requires another parameter.\n", a);
			struct classad_buf b = {0};
			classad_buf_printf(&b, "CompletionDate <= %s", argv[++i]);
			classad_expr *e = classad_parse_expr(b.data, b.len, NULL);
			if (!e) {
				tf_buf_free(&b);
				return hi_arg_error(err, "Error: '%s' not valid parameter for -completedsince ", argv[i]);
			}
			classad_expr_free(e);
			free(o->since);
			o->since = b.data;
		} else if (tf_flag(a, "wide", 1, &c)) {
			o->wide = true;
			if (c) {
				o->forced_width = atoi(c);
				if (o->forced_width <= 80)
					o->wide = false;
			}
		} else if (tf_flag(a, "match", 1, NULL) ||
			   tf_flag(a, "limit", 3, NULL)) {
			if (!has)
				return hi_arg_error(err, "Error: Argument -match requires a number value as a parameter.\n", a);
			o->limit = atoi(argv[++i]);
		} else if (tf_flag(a, "file", 2, NULL)) {
			if (!has || o->file)
				break;
			o->file = argv[++i];
		} else if (tf_flag(a, "userlog", 1, NULL)) {
			/* as HTCondor's: a second file ends the arguments */
			if (!has || o->file)
				break;
			o->file = argv[++i];
			o->userlog = true;
		} else if (tf_flag(a, "attributes", 2, NULL)) {
			if (!has || argv[i + 1][0] == '-')
				return hi_arg_error(err, "Error: Argument -attributes must be followed by a list of attributes\n", a);
			char *list = ks_xstrdup(argv[++i]);
			for (char *cur = list, *t; (t = ks_list_cut(&cur));)
				tf_names_add(&o->attrs, t);
			free(list);
		} else if (tf_flag(a, "help", 1, NULL)) {
			hi_usage(out, o->prog);
			return 0;
		} else if (tf_flag(a, "format", 1, NULL)) {
			if (i + 2 >= argc) {
				fprintf(err, "Error: Argument -format requires a spec and classad attribute name as parameters.\n");
				fprintf(err, "\t\te.g. condor_history -format '%%d' ClusterId\n");
				return 1;
			}
			o->items = ks_xrealloc(o->items, (o->nitems + 1) * sizeof *o->items);
			o->items[o->nitems++] = (struct hi_item){false, argv[i + 1],
								 argv[i + 2], NULL, 0, NULL};
			i += 2;
		} else if (a[0] == '-' && a[1] != '-' &&
			   (tf_flag(a, "af", 2, &c) || tf_flag(a, "autoformat", 5, &c))) {
			if (!has || argv[i + 1][0] == '-') {
				fprintf(err, "Error: Argument %s requires at least one attribute parameter\n", a);
				fprintf(err, "\t\te.g. condor_history %s ClusterId\n", a);
				return 1;
			}
			int first = i + 1;
			while (i + 1 < argc && argv[i + 1][0] != '-')
				i++;
			o->items = ks_xrealloc(o->items, (o->nitems + 1) * sizeof *o->items);
			o->items[o->nitems++] = (struct hi_item){true, NULL, NULL, c,
								 i + 1 - first, argv + first};
			if (c && strchr(c, 'h'))
				o->af_headings = true;
		} else if (tf_flag(a, "constraint", 1, NULL)) {
			if (!has)
				return hi_arg_error(err, "Error: Argument %s requires another parameter\n", a);
			hi_push(&o->ands, &o->nands, argv[++i]);
		} else if (tf_flag(a, "debug", 3, &c)) {
			/* kestrel's tools log nothing to the console */
		} else if (tf_flag(a, "name", 1, NULL) || tf_flag(a, "pool", 1, NULL)) {
			if (!has) {
				fprintf(err, "Error: Argument -name requires name of a remote schedd\n");
				fprintf(err, "\t\te.g. condor_history -name submit.example.com \n");
				return 1;
			}
			if (a[1] == 'n' || (a[1] == '-' && a[2] == 'n'))
				o->name = argv[++i];
			else
				o->pool = argv[++i];
		} else if (a[0] == '-') {
			for (size_t k = 0;
			     k < sizeof hi_unsupported / sizeof hi_unsupported[0]; k++) {
				if (tf_flag(a, hi_unsupported[k].name,
					    hi_unsupported[k].min, &c)) {
					fprintf(err, "Error: %s is an HTCondor option that "
						"kestrel's condor_history does not support yet\n",
						a);
					return 1;
				}
			}
			fprintf(err, "Error: Unknown argument %s\n", a);
			break;
		} else {
			hi_restriction(o, a);
		}
	}
	if (i < argc) {
		hi_usage(out, o->prog);
		return 1;
	}
	return -1;
}
