/*
 * wq_args.c: condor_watch_q's command line.  HTCondor's tool reads it
 * with Python's argparse, and its users meet argparse's habits, which
 * are kept here: any unambiguous prefix of an option names it
 * ("-clus"), "-opt=value" works, a value may not look like an option
 * (a negative number may), a list option takes every value up to the
 * next option, a repeated option replaces the earlier one (-exit adds),
 * and refusals print the usage and "condor_watch_q: error: ..." and
 * exit 2.  Arguments nobody takes get the tool's own hints (exit 1):
 * condor_q's habits (a cluster id, a user name, -userlog, -totals,
 * -nobatch) are answered with the option that does it here.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "wq.h"

#define PROG "condor_watch_q"

enum kind { K_HELP, K_FLAG, K_TOGGLE, K_LIST, K_ONE };

enum dest {
	D_HELP, D_DEBUG, D_USERS, D_CLUSTERS, D_SINCE, D_FILES, D_BATCHES,
	D_COLLECTOR, D_SCHEDD, D_INTERVAL, D_EXIT, D_KEY, D_GROUPBY,
	D_DISPLAY_EXITED, D_DECAY, D_DECAY_AT_READ, D_TABLE, D_PROGRESS,
	D_ROW_PROGRESS, D_SUMMARY, D_SUMMARY_TYPE, D_UPDATED_AT,
	D_ABBREVIATE, D_COLOR, D_REFRESH,
};

struct opt {
	const char *name;
	enum kind kind;
	enum dest dest;
	int nargs; /* for K_ONE: 1 when argparse was told nargs=1, which
		      changes its "expected ..." message */
};

/* In argparse's order, which its "ambiguous option" message follows. */
static const struct opt opts[] = {
	{"-help", K_HELP, D_HELP, 0},
	{"-debug", K_FLAG, D_DEBUG, 0},
	{"-users", K_LIST, D_USERS, 0},
	{"-clusters", K_LIST, D_CLUSTERS, 0},
	{"-larger-than", K_ONE, D_SINCE, 0},
	{"-files", K_LIST, D_FILES, 0},
	{"-batches", K_LIST, D_BATCHES, 0},
	{"-collector", K_ONE, D_COLLECTOR, 1},
	{"-schedd", K_ONE, D_SCHEDD, 1},
	{"-interval", K_ONE, D_INTERVAL, 0},
	{"-exit", K_ONE, D_EXIT, 0},
	{"-exit-on-key-press", K_TOGGLE, D_KEY, 0},
	{"-no-exit-on-key-press", K_TOGGLE, D_KEY, 0},
	{"-groupby", K_ONE, D_GROUPBY, 0},
	{"-display-exited", K_TOGGLE, D_DISPLAY_EXITED, 0},
	{"-no-display-exited", K_TOGGLE, D_DISPLAY_EXITED, 0},
	{"-exited-row-decay", K_ONE, D_DECAY, 0},
	{"-decay-start-at-read", K_TOGGLE, D_DECAY_AT_READ, 0},
	{"-no-decay-start-at-read", K_TOGGLE, D_DECAY_AT_READ, 0},
	{"-table", K_TOGGLE, D_TABLE, 0},
	{"-no-table", K_TOGGLE, D_TABLE, 0},
	{"-progress", K_TOGGLE, D_PROGRESS, 0},
	{"-no-progress", K_TOGGLE, D_PROGRESS, 0},
	{"-row-progress", K_TOGGLE, D_ROW_PROGRESS, 0},
	{"-no-row-progress", K_TOGGLE, D_ROW_PROGRESS, 0},
	{"-summary", K_TOGGLE, D_SUMMARY, 0},
	{"-no-summary", K_TOGGLE, D_SUMMARY, 0},
	{"-summary-type", K_ONE, D_SUMMARY_TYPE, 0},
	{"-updated-at", K_TOGGLE, D_UPDATED_AT, 0},
	{"-no-updated-at", K_TOGGLE, D_UPDATED_AT, 0},
	{"-abbreviate", K_TOGGLE, D_ABBREVIATE, 0},
	{"-no-abbreviate", K_TOGGLE, D_ABBREVIATE, 0},
	{"-color", K_TOGGLE, D_COLOR, 0},
	{"-no-color", K_TOGGLE, D_COLOR, 0},
	{"-refresh", K_TOGGLE, D_REFRESH, 0},
	{"-no-refresh", K_TOGGLE, D_REFRESH, 0},
};
#define NOPTS (sizeof opts / sizeof opts[0])

static const char usage_text[] =
	"usage: " PROG " [-help] [-debug] [-users USER [USER ...]]\n"
	"                      [-clusters CLUSTER_ID [CLUSTER_ID ...]]\n"
	"                      [-larger-than CLUSTER_ID] [-files FILE [FILE ...]]\n"
	"                      [-batches BATCH_NAME [BATCH_NAME ...]]\n"
	"                      [-collector COLLECTOR] [-schedd SCHEDD]\n"
	"                      [-interval INTERVAL]\n"
	"                      [-exit GROUPER,JOB_STATUS[,EXIT_STATUS]]\n"
	"                      [-exit-on-key-press] [-groupby {batch,log,cluster}]\n"
	"                      [-display-exited] [-exited-row-decay TIME[unit]]\n"
	"                      [-decay-start-at-read] [-table] [-progress]\n"
	"                      [-row-progress] [-summary]\n"
	"                      [-summary-type {totals,percentages}] [-updated-at]\n"
	"                      [-abbreviate] [-color] [-refresh]\n";

static const char help_text[] =
	"\n"
	"Follows the event logs of jobs and shows, grouped by batch, how many\n"
	"are idle, running, done and held, without asking the condor_schedd\n"
	"again after it has found the logs.  With no -users, -clusters, -files\n"
	"or -batches it follows the current user's jobs.  It runs until ^C (or\n"
	"a key, on a terminal) unless an -exit condition is met first, e.g.\n"
	"\n"
	"    condor_watch_q -exit all,done,0 -exit any,held,1\n"
	"\n"
	"exits 0 once every job is done, or 1 as soon as one is held.\n"
	"\n"
	"options:\n"
	"  -help                 show this help and exit\n"
	"  -debug                say what is being looked up\n"
	"  -users USER [USER ...]\n"
	"                        follow these users' jobs\n"
	"  -clusters CLUSTER_ID [CLUSTER_ID ...]\n"
	"                        follow these clusters\n"
	"  -larger-than CLUSTER_ID\n"
	"                        only clusters numbered CLUSTER_ID or more\n"
	"  -files FILE [FILE ...]\n"
	"                        follow the jobs of these event logs\n"
	"  -batches BATCH_NAME [BATCH_NAME ...]\n"
	"                        follow the jobs with these batch names\n"
	"  -collector COLLECTOR  the collector that knows the schedd\n"
	"  -schedd SCHEDD        the schedd to ask (default: the local one)\n"
	"  -interval INTERVAL    seconds between refreshes (default: 0.5)\n"
	"  -exit GROUPER,JOB_STATUS[,EXIT_STATUS]\n"
	"                        exit with EXIT_STATUS (default 0) when GROUPER\n"
	"                        (all, any, none) of the jobs are in JOB_STATUS\n"
	"                        (active, done, idle, held; active means still\n"
	"                        in the queue: idle, running or held); may be\n"
	"                        given several times\n"
	"  -exit-on-key-press, -no-exit-on-key-press\n"
	"                        exit when a key is pressed (default: on a\n"
	"                        terminal)\n"
	"  -groupby {batch,log,cluster}\n"
	"                        one row per batch name, event log or cluster\n"
	"  -display-exited, -no-display-exited\n"
	"                        show rows whose jobs have all left the queue\n"
	"                        (default: yes)\n"
	"  -exited-row-decay TIME[unit]\n"
	"                        with -no-display-exited, how long such a row\n"
	"                        stays: unit s, m, h, d, w (default), M or y;\n"
	"                        default one week\n"
	"  -decay-start-at-read, -no-decay-start-at-read\n"
	"                        count that time from when the event was read,\n"
	"                        not written (default: written)\n"
	"  -table, -no-table     the table (default: yes)\n"
	"  -progress, -no-progress\n"
	"                        the total progress bar (default: yes)\n"
	"  -row-progress, -no-row-progress\n"
	"                        a progress bar per row (default: yes)\n"
	"  -summary, -no-summary the summary line (default: yes)\n"
	"  -summary-type {totals,percentages}\n"
	"                        what the summary line counts (default: totals)\n"
	"  -updated-at, -no-updated-at\n"
	"                        the \"Updated at\" line (default: yes)\n"
	"  -abbreviate, -no-abbreviate\n"
	"                        shorten the directories of -groupby log paths\n"
	"  -color, -no-color     color (default: on a terminal)\n"
	"  -refresh, -no-refresh redraw in place rather than append (default: on\n"
	"                        a terminal)\n";

/* argparse's parser.error(): usage and message on err, status 2. */
static int fail(FILE *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail(FILE *err, const char *fmt, ...)
{
	fputs(usage_text, err);
	fputs(PROG ": error: ", err);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	fputc('\n', err);
	return 2;
}

/* argparse's test of whether an argument is an option: it starts with
 * '-', is not "-" itself, and is not a negative number (the parser has
 * no option that looks like one). */
static bool looks_like_option(const char *a)
{
	if (a[0] != '-' || a[1] == '\0')
		return false;
	char *end;
	errno = 0;
	(void)strtod(a, &end);
	bool negnum = end != a && *end == '\0' && isdigit((unsigned char)a[1]);
	if (!negnum && a[1] == '.' && isdigit((unsigned char)a[2])) {
		(void)strtod(a, &end);
		negnum = *end == '\0';
	}
	return !negnum;
}

/* Python's int(): optional blanks, a sign, decimal digits. */
static bool py_int(const char *s, long *out)
{
	while (isspace((unsigned char)*s))
		s++;
	const char *start = s;
	if (*s == '+' || *s == '-')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	char *end;
	errno = 0;
	long v = strtol(start, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (*end || errno)
		return false;
	*out = v;
	return true;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

int wq_exit_parse(const char *spec, struct wq_exit *out, char *msg, size_t n)
{
	static const char *groupers[] = {"all", "any", "none"};
	static const char *checks[] = {"active", "done", "idle", "held"};
	char *copy = ks_xstrdup(spec);
	char *part[4] = {0};
	size_t np = 0;
	for (char *p = copy;; ) {
		char *comma = strchr(p, ',');
		if (np < 4)
			part[np] = p;
		np++;
		if (!comma)
			break;
		*comma = '\0';
		p = comma + 1;
	}
	int rc = -1;
	if (np != 2 && np != 3) {
		snprintf(msg, n, "invalid -exit specification");
		goto out;
	}
	int g = -1, c = -1;
	for (int i = 0; i < 3; i++)
		if (strcmp(part[0], groupers[i]) == 0)
			g = i;
	if (g < 0) {
		snprintf(msg, n, "invalid GROUPER \"%s\", must be one of "
				 "{all, any, none}", part[0]);
		goto out;
	}
	for (int i = 0; i < 4; i++)
		if (strcmp(part[1], checks[i]) == 0)
			c = i;
	if (c < 0) {
		snprintf(msg, n, "invalid JOB_STATUS \"%s\", must be one of "
				 "{active, done, idle, held}", part[1]);
		goto out;
	}
	long st = 0;
	if (np == 3 && !py_int(part[2], &st)) {
		snprintf(msg, n, "exit_status must be an integer, but was \"%s\"",
			 part[2]);
		goto out;
	}
	out->grouper = (enum wq_grouper)g;
	out->check = (enum wq_check)c;
	/* what the shell sees of Python's sys.exit(st) */
	out->status = (int)((unsigned long)st & 0xff);
	snprintf(out->disp, sizeof out->disp, "%s %s", groupers[g], checks[c]);
	rc = 0;
out:
	free(copy);
	return rc;
}

/* "5", "5d", "30m": seconds, weeks when no unit is given. */
static int parse_decay(const char *v, long *out, FILE *err)
{
	static const struct { char u; long secs; } units[] = {
		{'s', 1}, {'m', 60}, {'h', 3600}, {'d', 86400},
		{'w', 7 * 86400}, {'M', 31 * 86400}, {'y', 365 * 86400},
	};
	size_t len = strlen(v);
	char unit = 'w';
	char *num = ks_xstrdup(v);
	if (len && !isdigit((unsigned char)v[len - 1])) {
		unit = v[len - 1];
		num[len - 1] = '\0';
	}
	long mult = 0;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (units[i].u == unit)
			mult = units[i].secs;
	long n = 0;
	int rc = 0;
	if (!mult)
		rc = fail(err, "Unknown unit specifier provided for "
			       "-exited-row-decay: %c", unit);
	else if (!py_int(num, &n))
		rc = fail(err, "Invalid time value provided for "
			       "-exited-row-decay");
	else
		*out = n * mult;
	free(num);
	return rc;
}

/* The option a names (exactly, or by a unique prefix), or NULL with the
 * error already reported in *status. */
static const struct opt *find_opt(const char *a, size_t len, int *status,
				  FILE *err)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (strlen(opts[i].name) == len &&
		    strncmp(opts[i].name, a, len) == 0)
			return &opts[i];
	const struct opt *hit = NULL;
	size_t nhits = 0;
	for (size_t i = 0; i < NOPTS; i++)
		if (strncmp(opts[i].name, a, len) == 0) {
			hit = &opts[i];
			nhits++;
		}
	if (nhits == 1)
		return hit;
	if (nhits > 1) {
		char list[1024] = "";
		size_t off = 0;
		for (size_t i = 0; i < NOPTS && off < sizeof list; i++)
			if (strncmp(opts[i].name, a, len) == 0)
				off += (size_t)snprintf(list + off,
							sizeof list - off,
							"%s%s", off ? ", " : "",
							opts[i].name);
		*status = fail(err, "ambiguous option: %.*s could match %s",
			       (int)len, a, list);
	}
	return NULL;
}

static void set_toggle(struct wq_opts *o, const struct opt *op)
{
	bool on = strncmp(op->name, "-no", 3) != 0;
	switch (op->dest) {
	case D_KEY: o->key_press = on; break;
	case D_DISPLAY_EXITED: o->display_exited = on; break;
	case D_DECAY_AT_READ: o->decay_at_read = on; break;
	case D_TABLE: o->table = on; break;
	case D_PROGRESS: o->progress = on; break;
	case D_ROW_PROGRESS: o->row_progress = on; break;
	case D_SUMMARY: o->summary = on; break;
	case D_UPDATED_AT: o->updated_at = on; break;
	case D_ABBREVIATE: o->abbreviate = on; break;
	case D_COLOR: o->color = on; break;
	case D_REFRESH: o->refresh = on; break;
	default: break;
	}
}

/* A single-valued option's value v; returns -1, or the exit status. */
static int set_one(struct wq_opts *o, const struct opt *op, const char *v,
		   FILE *err)
{
	char msg[256];
	switch (op->dest) {
	case D_SINCE:
		if (!py_int(v, &o->since))
			return fail(err, "argument -larger-than: invalid int "
					 "value: '%s'", v);
		o->has_since = true;
		break;
	case D_COLLECTOR: o->collector = v; break;
	case D_SCHEDD: o->schedd = v; break;
	case D_INTERVAL: {
		char *end;
		errno = 0;
		double d = strtod(v, &end);
		while (isspace((unsigned char)*end))
			end++;
		if (end == v || *end || errno == ERANGE)
			return fail(err, "argument -interval: invalid float "
					 "value: '%s'", v);
		o->interval = d;
		break;
	}
	case D_EXIT: {
		struct wq_exit e;
		if (wq_exit_parse(v, &e, msg, sizeof msg))
			return fail(err, "%s", msg);
		o->exits = ks_xrealloc(o->exits,
				       (o->nexits + 1) * sizeof *o->exits);
		o->exits[o->nexits++] = e;
		break;
	}
	case D_GROUPBY:
		if (strcmp(v, "batch") == 0)
			o->groupby = WQ_BY_BATCH;
		else if (strcmp(v, "log") == 0)
			o->groupby = WQ_BY_LOG;
		else if (strcmp(v, "cluster") == 0)
			o->groupby = WQ_BY_CLUSTER;
		else
			return fail(err, "argument -groupby: invalid choice: "
					 "'%s' (choose from 'batch', 'log', "
					 "'cluster')", v);
		break;
	case D_DECAY: {
		int rc = parse_decay(v, &o->decay, err);
		if (rc)
			return rc;
		break;
	}
	case D_SUMMARY_TYPE:
		if (strcmp(v, "totals") == 0)
			o->percentages = false;
		else if (strcmp(v, "percentages") == 0)
			o->percentages = true;
		else
			return fail(err, "argument -summary-type: invalid "
					 "choice: '%s' (choose from 'totals', "
					 "'percentages')", v);
		break;
	default: break;
	}
	return -1;
}

static struct wq_strs *list_of(struct wq_opts *o, enum dest d)
{
	switch (d) {
	case D_USERS: o->has_users = true; return &o->users;
	case D_CLUSTERS: o->has_clusters = true; return &o->clusters;
	case D_FILES: o->has_files = true; return &o->files;
	default: o->has_batches = true; return &o->batches;
	}
}

/* The hint for the argument extras[*i] that no option took, as HTCondor's
 * tool gives it (advancing *i past the arguments it names), or -1 when
 * it has none for it. */
static int hint(char **extras, size_t n, size_t *i, FILE *out, FILE *err)
{
	const char *a = extras[*i];
	char buf[4096];
	size_t off = 0;
	buf[0] = '\0';
#define ADD(s)                                                               \
	do {                                                                 \
		if (off < sizeof buf)                                        \
			off += (size_t)snprintf(buf + off, sizeof buf - off, \
						" %s", (s));                 \
	} while (0)
	const char *what;
	if (all_digits(a)) {
		ADD(a);
		for (size_t j = *i + 1; j < n && extras[j][0] != '-'; j++)
			if (all_digits(extras[j]))
				ADD(extras[j]);
		what = "to track specific cluster IDs, try -clusters";
	} else if (strstr(a, "-totals")) {
		what = "to only print totals, try -no-table";
	} else if (strstr(a, "-userlog")) {
		for (size_t j = *i + 1; j < n && extras[j][0] != '-'; j++)
			ADD(extras[j]);
		if (!off)
			ADD("");
		what = "to track jobs from specific event logs, try -files";
	} else if (strstr(a, "-nobatch")) {
		/* the doubled braces are HTCondor's (a format string never
		 * formatted) */
		fputs(usage_text, out);
		fprintf(err, PROG ": error: argument %s: to group by something "
			     "other than batch name, try -groupby "
			     "{{batch,log,cluster}}\n", a);
		return 1;
	} else if (a[0] != '-') {
		ADD(a);
		for (size_t j = *i + 1; j < n && extras[j][0] != '-'; j++)
			if (!all_digits(extras[j]))
				ADD(extras[j]);
		what = "to track jobs from specific users, try -users";
	} else {
		return -1;
	}
#undef ADD
	fputs(usage_text, out);
	fprintf(err, PROG ": error: argument %s: %s%s\n", a, what, buf);
	return 1;
}

int wq_parse_args(int argc, char **argv, struct wq_opts *o, FILE *out,
		  FILE *err)
{
	*o = (struct wq_opts){
		.interval = 0.5,
		.key_press = -1,
		.groupby = WQ_BY_BATCH,
		.display_exited = true,
		.decay = 7L * 24 * 3600,
		.table = true, .progress = true, .row_progress = true,
		.summary = true, .updated_at = true,
		/* the help says "disabled by default", the code enables it;
		 * HTCondor's code is what its users get */
		.abbreviate = true,
		.color = -1, .refresh = -1,
	};
	char **extras = ks_xcalloc((size_t)argc + 1, sizeof *extras);
	size_t nextra = 0;
	int status = -1;
	for (int i = 1; i < argc && status < 0; i++) {
		char *a = argv[i];
		if (!looks_like_option(a)) {
			extras[nextra++] = a;
			continue;
		}
		const char *eq = strchr(a, '=');
		size_t len = eq ? (size_t)(eq - a) : strlen(a);
		const struct opt *op = find_opt(a, len, &status, err);
		if (!op) {
			if (status < 0)
				extras[nextra++] = a;
			continue;
		}
		if (eq && op->kind != K_ONE && op->kind != K_LIST) {
			/* argparse names a toggle by both its spellings */
			const char *pos = op->name, *neg = "";
			if (op->kind == K_TOGGLE) {
				bool no = strncmp(op->name, "-no-", 4) == 0;
				pos = no ? op[-1].name : op->name;
				neg = no ? op->name : op[1].name;
			}
			status = fail(err, "argument %s%s%s: ignored explicit "
					   "argument '%s'", pos, *neg ? "/" : "",
				      neg, eq + 1);
			break;
		}
		switch (op->kind) {
		case K_HELP:
			fputs(usage_text, out);
			fputs(help_text, out);
			status = 0;
			break;
		case K_FLAG:
			o->debug = true;
			break;
		case K_TOGGLE:
			set_toggle(o, op);
			break;
		case K_ONE: {
			const char *v = eq ? eq + 1 : NULL;
			if (!v && i + 1 < argc && !looks_like_option(argv[i + 1]))
				v = argv[++i];
			if (!v) {
				status = fail(err, "argument %s: expected %s "
						   "argument", op->name,
					      op->nargs == 1 ? "1" : "one");
				break;
			}
			status = set_one(o, op, v, err);
			break;
		}
		case K_LIST: {
			struct wq_strs *l = list_of(o, op->dest);
			l->n = 0;
			free(l->v);
			l->v = ks_xcalloc((size_t)argc, sizeof *l->v);
			if (eq)
				l->v[l->n++] = (char *)eq + 1;
			while (i + 1 < argc && !looks_like_option(argv[i + 1]))
				l->v[l->n++] = argv[++i];
			if (!l->n)
				status = fail(err, "argument %s: expected at "
						   "least one argument",
					      op->name);
			break;
		}
		}
	}
	for (size_t i = 0; status < 0 && i < nextra; i++)
		status = hint(extras, nextra, &i, out, err);
	if (status < 0 && nextra) {
		fputs(usage_text, err);
		fputs(PROG ": error: unrecognized arguments:", err);
		for (size_t i = 0; i < nextra; i++)
			fprintf(err, " %s", extras[i]);
		fputc('\n', err);
		status = 2;
	}
	free(extras);
	if (status >= 0)
		return status;
	/* HTCondor's tool dies on these in int() with a Python traceback's
	 * words; say what is wrong instead */
	for (size_t i = 0; i < o->clusters.n; i++) {
		long c;
		if (!py_int(o->clusters.v[i], &c) || c < 0 || c > INT32_MAX) {
			fprintf(err, "ERROR: -clusters: \"%s\" is not a cluster "
				     "id\n", o->clusters.v[i]);
			return 1;
		}
	}
	if (!isfinite(o->interval) || o->interval < 0) {
		fprintf(err, "ERROR: -interval: %s is not a number of seconds "
			     "(0 or more)\n", o->interval < 0 ? "a negative "
			     "value" : "that");
		return 1;
	}
	if (o->has_clusters && o->has_since) {
		fprintf(err, "ERROR: Use of both -clusters and -larger-than "
			     "flag is prohibited.\n");
		return 1;
	}
	return -1;
}

void wq_opts_free(struct wq_opts *o)
{
	free(o->users.v);
	free(o->clusters.v);
	free(o->files.v);
	free(o->batches.v);
	free(o->exits);
	*o = (struct wq_opts){0};
}
