/*
 * args.c: condor_status's command line.
 *
 * Flags are matched as HTCondor matches them: any prefix of the name at
 * least as long as its minimum ("-l" is -long, "-sc" -schedd), tried in
 * HTCondor's order so that short prefixes mean the same thing; "--name"
 * must be spelled out; some take ":options".  Messages are HTCondor's.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "ks_text.h"
#include "status.h"

/* The -af spelling: one dash only. */
static bool st_af_flag(const char *arg, const char **colon)
{
	if (arg[0] != '-' || arg[1] == '-')
		return false;
	return tf_flag(arg, "autoformat", 5, colon) ||
	       tf_flag(arg, "af", 2, colon);
}

static const struct {
	enum st_mode mode;
	enum st_style style;
} st_mode_styles[] = {
	{ST_M_NOTSET, ST_PP_NOTSET},
	{ST_M_SLOTS, ST_PP_SLOTS_NORMAL},
	{ST_M_SLOTS_AVAIL, ST_PP_SLOTS_NORMAL},
	{ST_M_SLOTS_CLAIMED, ST_PP_SLOTS_RUN},
	{ST_M_STARTD, ST_PP_STARTDAEMON},
	{ST_M_SCHEDD, ST_PP_SCHEDD_NORMAL},
	{ST_M_SCHEDD_RUN, ST_PP_SCHEDD_RUN},
	{ST_M_SUBMITTERS, ST_PP_SUBMITTER},
	{ST_M_MASTER, ST_PP_MASTER},
	{ST_M_COLLECTOR, ST_PP_COLLECTOR},
	{ST_M_NEGOTIATOR, ST_PP_NEGOTIATOR},
	{ST_M_GENERIC, ST_PP_GENERIC_NORMAL},
	{ST_M_ANY, ST_PP_GENERIC},
	{ST_M_OTHER, ST_PP_GENERIC},
};

/* HTCondor's setPPstyle(): a later display flag wins only if it comes
 * later in the ppOption order; whole-ad forms always win; a custom or
 * whole-ad form is not undone by a table flag.  A conflict is reported
 * and the earlier choice kept. */
static void st_set_style(struct st_opts *o, enum st_style s, int i,
			 const char *arg, FILE *err)
{
	if (o->style_arg != 0 && i == 0)
		return;
	if ((ST_PP_LONGISH(o->style) || o->style == ST_PP_CUSTOM) &&
	    !ST_PP_LONGISH(s) && s != ST_PP_CUSTOM)
		return;
	bool allowed = o->style <= s;
	if (ST_PP_LONGISH(s) || o->style_arg == 0 || allowed) {
		o->style = s;
		o->style_arg = i;
		o->style_argstr = arg;
		return;
	}
	fprintf(err, "Error:  arg %d (%s) contradicts arg %d (%s)\n", i, arg,
		o->style_arg, o->style_argstr ? o->style_argstr : "DEFAULT");
}

/* HTCondor's setMode(): the first query flag chooses what is queried;
 * another one (other than a repeat) is an error.  Returns false then. */
static bool st_set_mode(struct st_opts *o, enum st_mode m, int i,
			const char *arg, FILE *err)
{
	if (!o->mode_arg) {
		o->mode = m;
		o->mode_arg = i;
		o->mode_argstr = arg;
		st_set_style(o, st_mode_styles[m].style, i, arg, err);
	} else if (i && arg && strcmp(arg, o->mode_argstr) != 0) {
		fprintf(err, "Error:  Arg %d (%s) contradicts arg %d (%s)\n", i,
			arg, o->mode_arg, o->mode_argstr);
		return false;
	}
	return true;
}

static bool st_reset_mode(struct st_opts *o, enum st_mode m, int i,
			  const char *arg, FILE *err)
{
	o->mode_arg = 0;
	return st_set_mode(o, m, i, arg, err);
}

static void st_item(struct st_opts *o, struct st_item it)
{
	o->items = ks_xrealloc(o->items, (o->nitems + 1) * sizeof *o->items);
	o->items[o->nitems++] = it;
}

static int st_needs_arg(FILE *err, const char *prog, const char *what)
{
	fprintf(err, "%s: %s\n", prog, what);
	fprintf(err, "Use \"%s -help\" for details\n", prog);
	return 1;
}

static void st_split_attributes(struct st_opts *o, const char *list)
{
	const char *p = list;
	while (*p) {
		while (*p == ',' || *p == ' ' || *p == '\t')
			p++;
		const char *s = p;
		while (*p && *p != ',')
			p++;
		const char *e = p;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (e > s) {
			o->attributes = ks_xrealloc(o->attributes,
						    (o->nattributes + 1) *
							    sizeof *o->attributes);
			o->attributes[o->nattributes++] =
				ks_xstrndup(s, (size_t)(e - s));
		}
	}
}

void st_usage(FILE *err, const char *prog)
{
	fprintf(err,
		"Usage: %s [help-opt] [query-opt] [custom-opts] [display-opts] [name ...]\n",
		prog);
	fputs("    help-opt:\n"
	      "\t-help\t\t\tshow this text\n"
	      "\n    query-opt (what to ask the collector for; slots by default):\n"
	      "\t-avail\t\t\tslots that can take a job now\n"
	      "\t-claimed\t\tclaimed slots, with who claimed them\n"
	      "\t-run\t\t\tschedds that run jobs (slots, after -slots)\n"
	      "\t-slots\t\t\tslots\n"
	      "\t-startd\t\t\tstartd daemons\n"
	      "\t-schedd\t\t\tschedds\n"
	      "\t-submitters\t\tsubmitters\n"
	      "\t-master\t\t\tmasters\n"
	      "\t-collector\t\tcollectors\n"
	      "\t-negotiator\t\tnegotiators\n"
	      "\t-generic\t\tgeneric ads\n"
	      "\t-any\t\t\tevery ad, by type and name\n"
	      "\t-subsystem <type>\tads of that type\n"
	      "\t-server\t\t\tslots, with memory, disk and benchmarks\n"
	      "\t-state\t\t\tslots, with their states and times\n"
	      "\t-pool <host[:port]>\task this collector\n"
	      "\t-ads[:<form>] <file>\tread the ads from a file (- for stdin);\n"
	      "\t\t\t\t<form>: long (default), json, new or auto\n"
	      "\n    custom-opts:\n"
	      "\t-constraint <expr>\tonly ads for which expr is true\n"
	      "\t-compact\t\tone line per machine\n"
	      "\n    display-opts:\n"
	      "\t-long[:<form>]\t\twhole ads (form: long, json, new or xml)\n"
	      "\t-json\t\t\twhole ads as JSON\n"
	      "\t-xml\t\t\twhole ads as XML\n"
	      "\t-attributes X,Y,...\tonly these attributes with -long/-json/-xml\n"
	      "\t-limit <n>\t\tat most n ads\n"
	      "\t-sort <expr>\t\tsort by expr (repeatable; 'no' to not sort)\n"
	      "\t-natural[:off]\t\tsort numbers in names by value (default on)\n"
	      "\t-totals\t\t\tonly the summary\n"
	      "\t-wide[:<width>]\t\tdo not shorten names to fit the screen\n"
	      "\t-expert\t\t\tshorter error messages\n"
	      "\t-format <fmt> <expr>\tprintf-style output (repeatable)\n"
	      "\t-af[:jlhVrTY,tng] <expr> [<expr> ...]\n"
	      "\t\t\t\tvalues separated by spaces, one ad per line:\n"
	      "\t\t\t\tj job id first, l labels, h headings,\n"
	      "\t\t\t\tV quoted strings, r unevaluated, T durations,\n"
	      "\t\t\t\tY dates, ',' commas, t tabs, n one value per\n"
	      "\t\t\t\tline, g a blank line between ads\n"
	      "\n    name: slots, machines or daemons by Name or Machine\n",
	      err);
}

void st_opts_free(struct st_opts *o)
{
	for (size_t i = 0; i < o->nattributes; i++)
		free(o->attributes[i]);
	free(o->attributes);
	free(o->items);
	memset(o, 0, sizeof *o);
}

/* Flags HTCondor has that kestrel does not implement. */
static const struct {
	const char *name;
	int min;
	bool colon;
	int args;
} st_unsupported[] = {
	{"aaf", 3, true, 0},        {"print-format", 2, true, 1},
	{"target", 4, false, 1},    {"annex-slots", 5, false, 0},
	{"annex-name", 10, false, 1}, {"direct", 3, false, 1},
	{"diagnose", 3, true, 0},   {"defrag", 3, false, 0},
	{"group-by", 5, false, 0},  {"data", 2, false, 0},
	{"cod", 3, false, 0},       {"gpus", 3, false, 0},
	{"java", 1, false, 0},      {"absent", 2, false, 0},
	{"offline", 2, false, 0},   {"merge", 5, false, 1},
	{"vm", 2, false, 0},        {"broken", 4, false, 0},
	{"lvm", 3, true, 0},        {"healthy", 4, true, 0},
	{"snapshot", 4, true, 0},   {"statistics", 5, false, 1},
	{"grid", 1, false, 0},      {"multiple", 4, true, 1},
	{"license", 2, false, 0},   {"storage", 3, false, 0},
	{"ckptsrvr", 2, false, 0},  {"version", 3, false, 0},
};

static bool st_is_unsupported(const char *arg, size_t k)
{
	const char *colon;
	return tf_flag(arg, st_unsupported[k].name, st_unsupported[k].min,
		       st_unsupported[k].colon ? &colon : NULL);
}

int st_parse_args(int argc, const char *const *argv, struct st_opts *o,
		  FILE *out, FILE *err)
{
	(void)out;
	memset(o, 0, sizeof *o);
	o->prog = argc > 0 && argv[0] ? argv[0] : "condor_status";
	o->natural = true;
	const char *prog = o->prog;
	bool pools = false;
	const char *c;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (tf_flag(a, "avail", 2, NULL)) {
			if (!st_set_mode(o, ST_M_SLOTS_AVAIL, i, a, err))
				return 1;
		} else if (tf_flag(a, "pool", 1, NULL)) {
			if (!argv[i + 1])
				return st_needs_arg(err, prog,
						    "-pool requires a hostname as an argument.");
			pools = pools || o->pool;
			o->pool = argv[++i];
		} else if (tf_flag(a, "ads", 2, &c)) {
			if (!argv[i + 1])
				return st_needs_arg(err, prog,
						    "-ads requires a filename argument");
			o->ads_file = argv[++i];
			if (c)
				o->ads_format = tf_ads_format_of(c, TF_ADS_LONG);
		} else if (tf_flag(a, "format", 1, NULL)) {
			st_set_style(o, ST_PP_CUSTOM, i, a, err);
			if (!argv[i + 1] || !argv[i + 2])
				return st_needs_arg(err, prog,
						    "-format requires two other arguments");
			st_item(o, (struct st_item){ST_I_FORMAT, argv[i + 1],
						    argv[i + 2], NULL, 0, NULL});
			i += 2;
			o->headfoot = ST_HF_BARE;
			o->explicit_format = true;
		} else if (st_af_flag(a, &c)) {
			if (!argv[i + 1] || argv[i + 1][0] == '-') {
				fprintf(err, "Error: Argument %s requires at least one attribute parameter\n",
					a);
				fprintf(err, "Use \"%s -help\" for details\n", prog);
				return 1;
			}
			o->headfoot = ST_HF_NOSUMMARY;
			o->explicit_format = true;
			st_set_style(o, ST_PP_CUSTOM, i, a, err);
			int first = i + 1;
			while (argv[i + 1] && argv[i + 1][0] != '-')
				i++;
			st_item(o, (struct st_item){ST_I_AF, NULL, NULL, c,
						    i + 1 - first, argv + first});
			/* a lone "-" ends the list and is eaten */
			if (i + 1 < argc && strcmp(argv[i + 1], "-") == 0)
				i++;
		} else if (tf_flag(a, "wide", 3, &c)) {
			o->wide = true;
			if (c) {
				o->forced_width = atoi(c);
				if (o->forced_width <= 100)
					o->wide = false;
			}
		} else if (tf_flag(a, "natural", 3, &c)) {
			o->natural = !(c && strcmp(c, "off") == 0);
		} else if (tf_flag(a, "constraint", 3, NULL)) {
			if (!argv[i + 1])
				return st_needs_arg(err, prog,
						    "-constraint requires another argument");
			st_item(o, (struct st_item){ST_I_CONSTRAINT, argv[i + 1],
						    NULL, NULL, 0, NULL});
			i++;
		} else if (tf_flag(a, "debug", 2, &c)) {
			/* kestrel's tools log nothing to the console */
		} else if (tf_flag(a, "help", 1, NULL)) {
			st_usage(err, prog);
			return 0;
		} else if (tf_flag(a, "limit", 2, NULL)) {
			if (!argv[i + 1])
				return st_needs_arg(err, prog,
						    "-limit requires one additional argument");
			o->limit = atoi(argv[++i]);
		} else if (tf_flag(a, "long", 1, &c)) {
			enum tf_ads_format f = TF_ADS_LONG;
			if (c) {
				char *opts = ks_xstrdup(c);
				for (char *cur = opts, *t;
				     (t = ks_list_cut(&cur));)
					if (strcmp(t, "nosort") != 0)
						f = tf_ads_format_of(t, f);
				free(opts);
			}
			st_set_style(o, f == TF_ADS_XML    ? ST_PP_XML
					: f == TF_ADS_JSON ? ST_PP_JSON
					: f == TF_ADS_NEW  ? ST_PP_NEW
							   : ST_PP_LONG,
				     i, a, err);
		} else if (tf_flag(a, "xml", 1, NULL)) {
			st_set_style(o, ST_PP_XML, i, a, err);
		} else if (tf_flag(a, "json", 2, NULL)) {
			st_set_style(o, ST_PP_JSON, i, a, err);
		} else if (tf_flag(a, "attributes", 2, NULL)) {
			if (!argv[i + 1])
				return st_needs_arg(err, prog,
						    "-attributes requires one additional argument");
			st_split_attributes(o, argv[++i]);
		} else if (tf_flag(a, "claimed", 2, NULL)) {
			if (!st_set_mode(o, ST_M_SLOTS_CLAIMED, i, a, err))
				return 1;
		} else if (tf_flag(a, "run", 1, NULL)) {
			/* -run after -slots or -claimed is -claimed; alone it
			 * shows schedds (HTCondor 8.5.7 on) */
			bool ok;
			if (o->mode == ST_M_SLOTS || o->mode == ST_M_SLOTS_CLAIMED)
				ok = st_reset_mode(o, ST_M_SLOTS_CLAIMED, i, a, err);
			else if (o->mode == ST_M_SCHEDD)
				ok = st_reset_mode(o, ST_M_SCHEDD_RUN, i, a, err);
			else
				ok = st_set_mode(o, ST_M_SCHEDD_RUN, i, a, err);
			if (!ok)
				return 1;
		} else if (tf_flag(a, "slots", 2, NULL)) {
			if (!st_set_mode(o, ST_M_SLOTS, i, a, err))
				return 1;
			o->compact = false;
		} else if (tf_flag(a, "compact", 3, NULL)) {
			o->compact = true;
		} else if (tf_flag(a, "nocompact", 5, NULL)) {
			o->compact = false;
		} else if (tf_flag(a, "server", 2, NULL)) {
			st_set_style(o, ST_PP_SLOTS_SERVER, i, a, err);
		} else if (tf_flag(a, "state", 4, NULL)) {
			st_set_style(o, ST_PP_SLOTS_STATE, i, a, err);
		} else if (tf_flag(a, "startd", 4, NULL)) {
			if (!st_set_mode(o, ST_M_STARTD, i, a, err))
				return 1;
		} else if (tf_flag(a, "schedd", 2, NULL)) {
			bool ok = true;
			if (o->mode == ST_M_SLOTS_CLAIMED)
				ok = st_reset_mode(o, ST_M_SCHEDD_RUN, i, a, err);
			else if (o->mode != ST_M_SCHEDD && o->mode != ST_M_SCHEDD_RUN)
				ok = st_set_mode(o, ST_M_SCHEDD, i, a, err);
			if (!ok)
				return 1;
		} else if (tf_flag(a, "subsystem", 4, NULL)) {
			const char *t = argv[i + 1];
			if (!t || *t == '-') {
				fprintf(err, "%s: -subsystem requires another argument\n",
					prog);
				fprintf(err, "Use \"%s -help subsys\" for details\n",
					prog);
				return 1;
			}
			i++;
			static const struct {
				const char *tag;
				enum st_mode m;
			} subs[] = {
				{"schedd", ST_M_SCHEDD},
				{"submitters", ST_M_SUBMITTERS},
				{"slots", ST_M_SLOTS},
				{"machine", ST_M_SLOTS},
				{"startd", ST_M_STARTD},
				{"negotiator", ST_M_NEGOTIATOR},
				{"master", ST_M_MASTER},
				{"collector", ST_M_COLLECTOR},
				{"generic", ST_M_GENERIC},
			};
			enum st_mode m = ST_M_OTHER;
			for (size_t k = 0; k < sizeof subs / sizeof subs[0]; k++)
				if (strcmp(t, subs[k].tag) == 0)
					m = subs[k].m;
			if (m == ST_M_OTHER)
				o->generic_type = t;
			if (!st_set_mode(o, m, i, t, err))
				return 1;
		} else if (tf_flag(a, "negotiator", 1, NULL)) {
			if (!st_set_mode(o, ST_M_NEGOTIATOR, i, a, err))
				return 1;
		} else if (tf_flag(a, "generic", 2, NULL)) {
			if (!st_set_mode(o, ST_M_GENERIC, i, a, err))
				return 1;
		} else if (tf_flag(a, "any", 2, NULL)) {
			if (!st_set_mode(o, ST_M_ANY, i, a, err))
				return 1;
		} else if (tf_flag(a, "sort", 2, NULL)) {
			const char *s = argv[i + 1];
			if (!s)
				return st_needs_arg(err, prog,
						    "-sort requires another argument");
			i++;
			if (strcasecmp(s, "false") == 0 || strcmp(s, "0") == 0 ||
			    strcasecmp(s, "no") == 0 || strcasecmp(s, "none") == 0) {
				o->no_sort = true;
				continue;
			}
			classad_expr *e = classad_parse_expr(s, strlen(s), NULL);
			if (!e) {
				fprintf(err, "Error:  Parse error of: %s\n", s);
				return 1;
			}
			classad_expr_free(e);
			st_item(o, (struct st_item){ST_I_SORT, s, NULL, NULL, 0,
						    NULL});
		} else if (tf_flag(a, "submitters", 4, NULL)) {
			if (!st_set_mode(o, ST_M_SUBMITTERS, i, a, err))
				return 1;
		} else if (tf_flag(a, "master", 1, NULL)) {
			if (!st_set_mode(o, ST_M_MASTER, i, a, err))
				return 1;
		} else if (tf_flag(a, "collector", 3, NULL) ||
			   tf_flag(a, "world", 1, NULL)) {
			if (!st_set_mode(o, ST_M_COLLECTOR, i, a, err))
				return 1;
		} else if (tf_flag(a, "totals", 1, NULL)) {
			o->want_only_totals = true;
			o->headfoot = ST_HF_NOTITLE | ST_HF_NOHEADER;
			o->explicit_format = true;
		} else if (tf_flag(a, "expert", 1, NULL)) {
			o->expert = true;
		} else if (*a == '-') {
			for (size_t k = 0;
			     k < sizeof st_unsupported / sizeof st_unsupported[0];
			     k++) {
				if (st_is_unsupported(a, k)) {
					fprintf(err, "Error: %s is an HTCondor option "
						"that kestrel's condor_status does not "
						"support yet\n", a);
					return 1;
				}
			}
			fprintf(err, "Error:  Unknown option %s\n", a);
			st_usage(err, prog);
			return 1;
		} else {
			st_item(o, (struct st_item){ST_I_NAME, a, NULL, NULL, 0,
						    NULL});
		}
	}
	if (pools)
		fprintf(err, "Warning:  Multiple -pool arguments given, using \"%s\"\n",
			o->pool);
	return -1;
}
