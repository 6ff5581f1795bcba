/*
 * args.c: condor_who's command line.  The flags are tried in the order
 * HTCondor's tool tries them, each with its shortest accepted prefix,
 * since that order decides what an abbreviation means ("-l" is -long,
 * "-log" -logdir, "-v" nothing).  The flags HTCondor's condor_who has
 * but kestrel's does not (they need a startd daemon ad, job ads from the
 * startd, the master's readiness ad, or process tables) are refused by
 * name, so that no one mistakes them for typing errors.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "who.h"

/* HTCondor's is_arg_prefix() on a flag without its '-': every character
 * of arg matches word, and at least min of them (min < 0: all of word).
 * With colon, "word:opts" matches too, and *colon gets "opts". */
static bool flag(const char *arg, const char *word, int min,
		 const char **colon)
{
	if (colon)
		*colon = NULL;
	if (!*word || *arg != *word)
		return false;
	int matched = 0;
	while (*arg && *arg == *word) {
		matched++;
		arg++;
		word++;
	}
	if (colon && *arg == ':')
		*colon = arg + 1;
	else if (*arg)
		return false;
	if (min < 0)
		return *word == '\0';
	return matched >= min;
}

/* HTCondor's is_dash_arg_prefix(): the same on "-word", where "--word"
 * counts only whole. */
static bool dash_flag(const char *arg, const char *word, int min,
		      const char **colon)
{
	if (colon)
		*colon = NULL;
	if (*arg != '-')
		return false;
	arg++;
	if (*arg == '-') {
		arg++;
		min = -1;
	}
	return flag(arg, word, min, colon);
}

void who_usage(const char *prog, FILE *err)
{
	fprintf(err,
		"Usage: %s [help-opt] [addr-opt] [display-opt]\n"
		"   or: %s -dae[mons] [-verb[ose]]\n"
		"  Shows the jobs the startd of this machine is running, and "
		"who owns them.\n"
		"  [help-opt] is one of\n"
		"\t-h[elp]\t\t\tthis text\n"
		"\t-verb[ose]\t\talso the daemons' pids, addresses and log "
		"files\n"
		"\t-diag[nostic]\t\talso say how the startd was found\n"
		"\t-d[ebug]\t\talso say why a daemon could not be asked\n"
		"  [addr-opt] is one of\n"
		"\t-addr[ess] <sinful>\tthe startd to ask, e.g. "
		"\"<127.0.0.1:9618>\"\n"
		"\t-log[dir] <dir>\t\tthe directory whose address files and "
		"logs\n"
		"\t\t\t\tname the daemons (default: $(LOG))\n"
		"  [display-opt] is any of\n"
		"\t-l[ong]\t\t\tthe slot ads whole\n"
		"\t-w[ide]\t\t\tdo not cut lines at the screen's width\n"
		"\t-con[straint] <expr>\tonly the slots for which expr is "
		"true\n"
		"\t-lim[it] <n>\t\tat most n slots\n"
		"\t-f[ormat] <fmt> <expr>\tprint expr with a printf format\n"
		"\t-af[:jlhVrTY,tng] <expr>...\tprint each expr, formatted by "
		"its type;\n"
		"\t\t\t\t#PID #PROGRAM #DIR #DIRCMD #RUNTIME #SLOT name\n"
		"\t\t\t\tcondor_who's own columns\n"
		"\t-autoformat[:jlhVrTY,tng] <expr>...\tthe same\n"
		"\t-noccv\t\t\task the daemons for no knobs (PID, PPID, "
		"program)\n"
		"  -daemons shows the daemons of the log directory (from the "
		"master's log,\n"
		"  their address files, and each daemon asked for its PPID and "
		"program)\n"
		"  instead of the jobs.  Without an addr-opt, %s reads LOG of "
		"the\n"
		"  configuration; the startd whose address file is there is "
		"asked.\n",
		prog, prog, prog);
}

/* A flag that needs a value: the next argument, which must not look
 * like a flag.  NULL after the message. */
static const char *value_of(int argc, const char *const *argv, int *i,
			    const char *what, FILE *err)
{
	if (*i + 1 >= argc || argv[*i + 1][0] == '-') {
		fprintf(err, "Error: Argument %s requires %s\n", argv[*i],
			what);
		return NULL;
	}
	return argv[++*i];
}

static void push(const char ***v, size_t *n, const char *s)
{
	*v = ks_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

static struct who_item *new_item(struct who_opts *o)
{
	o->items = ks_xrealloc(o->items, (o->nitems + 1) * sizeof(*o->items));
	struct who_item *it = &o->items[o->nitems++];
	*it = (struct who_item){0};
	return it;
}

/* HTCondor's flags that this condor_who does not have, with what to use
 * instead; min is the prefix HTCondor accepts. */
static const struct {
	const char *word;
	int min;
	const char *hint;
} unsupported[] = {
	{"quickdaemons", 4, "the master has no readiness ad; use -daemons"},
	{"wait-for-ready", 4, "the master has no readiness ad; use -daemons"},
	{"timed", 5, NULL},
	{"pid", 3, "use -address or -logdir"},
	{"envpid", 3, NULL},
	{"allpids", 2, "use -address or -logdir"},
	{"snapshot", 4, NULL},
	{"statistics", 4, NULL},
	{"netstat", -1, "use -address or -logdir"},
	{"aaf", 3, "use -af"},
	{"print-format", 2, "use -af or -format"},
	{"banner-format", 3, NULL},
	{"jobs", 3, "the startd does not give out job ads; use -long"},
	{"startd", 6, "the startd has no daemon ad; use -daemons"},
	{"ospool", 3, NULL},
	{"ping_all_addrs", 4, NULL},
	{"test_backwards", 6, NULL},
};

/* Says that arg (typed, without its '-') is one of HTCondor's flags
 * that kestrel's condor_who lacks, with what to use instead.  Returns
 * the exit status. */
static int refused(const char *arg, FILE *err, const char *typed)
{
	for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]);
	     i++) {
		const char *colon;
		if (!flag(arg, unsupported[i].word, unsupported[i].min, &colon))
			continue;
		fprintf(err, "Error: %s is not supported by kestrel's "
			     "condor_who%s%s\n", typed,
			unsupported[i].hint ? "; " : "",
			unsupported[i].hint ? unsupported[i].hint : "");
		return 1;
	}
	fprintf(err, "Error: %s is not supported by kestrel's condor_who\n",
		typed);
	return 1;
}

/* -af's attributes: every argument up to the next flag.  Returns how
 * many, or -1 after the message when one does not parse. */
static int af_args(int argc, const char *const *argv, int first,
		   const char *prog, FILE *err)
{
	int k = first;
	for (; k < argc && argv[k][0] != '-'; k++) {
		const char *a = argv[k], *expr, *custom;
		if (a[0] == '#' && who_af_column(a + 1, &expr, &custom))
			continue;
		classad_expr *e = classad_parse_expr(a, strlen(a), NULL);
		if (!e) {
			fprintf(err, "ERROR: could not parse -af option\n\n");
			who_usage(prog, err);
			return -1;
		}
		classad_expr_free(e);
	}
	return k - first;
}

int who_parse(int argc, const char *const *argv, struct who_opts *o,
	      FILE *err)
{
	*o = (struct who_opts){0};
	const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
	o->prog = slash ? slash + 1 : argc > 0 ? argv[0] : "condor_who";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *colon, *v;
		if (dash_flag(a, "help", 1, NULL)) {
			who_usage(o->prog, err);
			return 1;
		}
		if (dash_flag(a, "debug", 1, &colon)) {
			/* a following D_ list is the debug flags, as
			 * HTCondor takes it */
			const char *next = i + 1 < argc ? argv[i + 1] : NULL;
			if (next && (*next == '"' || *next == '\''))
				next++;
			if (next && next[0] == 'D' && next[1] == '_')
				i++;
			o->debug = true;
			continue;
		}
		if (a[0] != '-') {
			fprintf(err, "Error: %s is not a valid argument; "
				     "condor_who takes no names (use -address "
				     "to ask another startd)\n", a);
			return 1;
		}
		const char *p = a + 1;
		if (flag(p, "diagnostic", 4, &colon)) {
			o->diag = true;
		} else if (flag(p, "verbose", 4, NULL)) {
			o->verbose = true;
		} else if (flag(p, "daemons", 3, NULL)) {
			o->daemons = true;
		} else if (flag(p, "quickdaemons", 4, NULL) ||
			   flag(p, "wait-for-ready", 4, &colon) ||
			   flag(p, "timed", 5, NULL)) {
			return refused(p, err, a);
		} else if (flag(p, "address", 4, NULL)) {
			if (!(v = value_of(argc, argv, &i, "a host address",
					   err)))
				return 1;
			push(&o->addrs, &o->naddrs, v);
		} else if (flag(p, "logdir", 3, NULL)) {
			if (!(v = value_of(argc, argv, &i, "a directory", err)))
				return 1;
			push(&o->logdirs, &o->nlogdirs, v);
		} else if (flag(p, "pid", 3, NULL) ||
			   flag(p, "envpid", 3, NULL) ||
			   flag(p, "allpids", 2, NULL)) {
			return refused(p, err, a);
		} else if (flag(p, "wide", 1, &colon)) {
			o->wide = true;
			if (colon) {
				o->forced_width = atoi(colon);
				o->wide = false;
			}
		} else if (flag(p, "long", 1, NULL)) {
			o->dash_long = true;
		} else if (flag(p, "snapshot", 4, &colon)) {
			return refused(p, err, a);
		} else if (flag(p, "limit", 3, NULL)) {
			if (i + 1 >= argc || argv[i + 1][0] == '-') {
				fprintf(err, "Error: -limit requires a number "
					     "argument\n");
				return 1;
			}
			o->limit = atoi(argv[++i]);
		} else if (flag(p, "noccv", 3, &colon)) {
			/* "-noccv:0" turns the queries back on */
			o->no_config_val = !(colon && colon[0]) ||
					   atoi(colon) != 0;
		} else if (flag(p, "netstat", -1, &colon) ||
			   flag(p, "statistics", 4, NULL)) {
			return refused(p, err, a);
		} else if (flag(p, "format", 1, NULL)) {
			if (i + 2 >= argc) {
				fprintf(err, "Error: -format requires two other "
					     "arguments\n");
				return 1;
			}
			struct who_item *it = new_item(o);
			it->fmt = argv[i + 1];
			it->expr = argv[i + 2];
			i += 2;
		} else if (flag(p, "autoformat", 5, &colon) ||
			   flag(p, "af", 2, &colon)) {
			if (i + 1 >= argc || argv[i + 1][0] == '-') {
				fprintf(err, "Error: Argument %s requires at "
					     "least one attribute parameter\n"
					     "Use \"%s -help\" for details\n",
					a, o->prog);
				return 1;
			}
			int n = af_args(argc, argv, i + 1, o->prog, err);
			if (n < 0)
				return 1;
			struct who_item *it = new_item(o);
			it->af = true;
			it->opts = colon;
			it->argc = n;
			it->argv = argv + i + 1;
			i += n;
		} else if (flag(p, "aaf", 3, &colon) ||
			   flag(p, "print-format", 2, &colon) ||
			   flag(p, "banner-format", 3, &colon)) {
			return refused(p, err, a);
		} else if (flag(p, "constraint", 3, NULL)) {
			if (i + 1 >= argc || argv[i + 1][0] == '-') {
				fprintf(err, "Error: -constraint requires an "
					     "expression\n");
				return 1;
			}
			const char *c = argv[++i];
			classad_expr *e = classad_parse_expr(c, strlen(c), NULL);
			if (!e) {
				fprintf(err, "Error: could not parse constraint "
					     "%s\n", c);
				return 1;
			}
			classad_expr_free(e);
			push(&o->constraints, &o->nconstraints, c);
		} else if (flag(p, "jobs", 3, NULL) ||
			   flag(p, "startd", 6, NULL) ||
			   flag(p, "ospool", 3, NULL) ||
			   flag(p, "ping_all_addrs", 4, NULL) ||
			   flag(p, "test_backwards", 6, &colon)) {
			return refused(p, err, a);
		} else {
			fprintf(err, "Error: %s is not a valid argument\n", a);
			return 1;
		}
	}
	return WHO_GO;
}

void who_opts_free(struct who_opts *o)
{
	free(o->addrs);
	free(o->logdirs);
	free(o->constraints);
	free(o->items);
	*o = (struct who_opts){0};
}
