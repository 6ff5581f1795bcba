/*
 * ct_args.c: tool.cpp's command line (ctool.h).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classad.h"
#include "ctool.h"
#include "ks_mem.h"
#include "ks_version.h"
#include "sdt.h"

/* HTCondor's usage(NULL): the short hint, exit 1. */
static int hint(FILE *err)
{
	fprintf(err, "Use \"-help\" to see usage information\n");
	return 1;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

void ct_opts_free(struct ct_opts *o)
{
	if (!o)
		return;
	free(o->annex);
	free(o->targets);
	o->annex = NULL;
	o->targets = NULL;
	o->ntargets = 0;
}

/* An -annex* flag: a constraint on AnnexName or IsAnnex, joined to an
 * earlier -constraint; returns how many arguments it used. */
static int annex(struct ct_opts *o, int argc, char **argv, int i, FILE *err,
		 int *status)
{
	const char *flag = argv[i];
	const char *arg = i + 1 < argc ? argv[i + 1] : NULL;
	char *what = NULL;
	int used = 1;
	*status = CT_GO;
	if (strcmp(flag, "-annex-name") == 0) {
		if (!arg) {
			fprintf(err, "ERROR: -annex-name requires an annex "
				     "name\n");
			*status = hint(err);
			return used;
		}
		used = 2;
	} else if (strcmp(flag, "-annex-slots") == 0 || !arg ||
		   arg[0] == '-') {
		arg = NULL;
	} else {
		used = 2;
	}
	if (arg) {
		struct classad_buf b = {0};
		classad_buf_printf(&b, "AnnexName =?= ");
		classad_quote_string_buf(&b, arg, strlen(arg));
		what = b.data;
	} else {
		what = ks_xstrdup("IsAnnex");
	}
	if (o->constraint) {
		size_t n = strlen(o->constraint) + strlen(what) + 16;
		char *both = ks_xmalloc(n);
		snprintf(both, n, "(%s) && (%s)", o->constraint, what);
		free(what);
		what = both;
	}
	free(o->annex);
	o->annex = what;
	o->constraint = what;
	return used;
}

/* What HTCondor's tool.cpp lets each command take. */
static bool takes_daemon(enum ct_command cmd)
{
	return cmd == CT_OFF || cmd == CT_ON || cmd == CT_RESTART ||
	       cmd == CT_RECONFIG;
}

static bool can_drain(enum ct_command cmd)
{
	return cmd == CT_OFF || cmd == CT_RESTART || cmd == CT_RECONFIG;
}

/* What each command does to its targets, and what they are. */
static const struct {
	const char *noun;   /* a target's daemon */
	const char *does;   /* the closing lines, %s the program */
} ct_words[] = {
	[CT_VACATE] = {"startd",
		       "  %s makes the condor_startd evict the jobs it runs on\n"
		       "  the given machines or slots (slotN@hostname: that slot\n"
		       "  only); they stay in their queues and run again\n"
		       "  elsewhere.  -graceful lets each job shut down on its\n"
		       "  soft kill signal; -fast kills it outright.\n"},
	[CT_RESCHEDULE] = {"schedd",
			   "  %s causes the condor_schedd to update the central "
			   "manager\n  and initiate a new negotiation cycle.\n"},
	[CT_OFF] = {"master",
		    "  %s turns off the given daemon; with none, every daemon\n"
		    "  but the master.\n"},
	[CT_ON] = {"master",
		   "  %s turns on the daemons of DAEMON_LIST (or the given "
		   "one).\n"},
	[CT_RESTART] = {"master",
			"  %s makes the given daemon restart; the master\n"
			"  restarts every daemon of its host.\n"},
	[CT_RECONFIG] = {"master",
			 "  %s makes the given daemon read its configuration "
			 "again;\n  the master makes every daemon of its host "
			 "do so.\n"},
};

/* The whole usage text (HTCondor's usage(MyName)) on err. */
static int ct_usage(const char *prog, enum ct_command cmd, FILE *err,
		    int status)
{
	const char *noun = ct_words[cmd].noun;
	fprintf(err, "Usage: %s [general-options] [targets]%s\n\n", prog,
		takes_daemon(cmd) ? " [daemon]" : "");
	fprintf(err, "where [general-options] can be zero or more of:\n"
		     "    -help\t\tgives this usage information\n"
		     "    -version\t\tprints the version\n"
		     "    -pool <hostname>\tuse the given central manager to "
		     "find daemons\n");
	if (cmd == CT_OFF || cmd == CT_RESTART)
		fprintf(err,
			"    -graceful\t\tthe default: running jobs get their "
			"grace period\n"
			"    -fast\t\tquickly shut down, evicting running jobs "
			"at once\n"
			"    -peaceful\t\twait for running jobs to finish, "
			"however long\n");
	if (cmd == CT_OFF)
		fprintf(err, "    -force-graceful\tthe same as -graceful\n");
	if (cmd == CT_VACATE)
		fprintf(err, "    -graceful\t\tsoft-kill the jobs, allowing "
			     "their vacate time (default)\n"
			     "    -fast\t\thard-kill the jobs at once\n");
	fprintf(err,
		"    -debug\t\tsay why a command could not be sent\n\n"
		"where [targets] can be zero or more of:\n"
		"    -all\t\tevery %s of the pool (other targets are "
		"ignored)\n"
		"    -annex-name <name>\tthose of the named annex\n"
		"    -annex-slots\tthose of every annex of the pool\n"
		"    hostname\t\tthe %s of that name\n"
		"    <ip.address:port>\tthe %s at that \"sinful string\"\n"
		"  (as in other HTCondor tools, also:)\n"
		"    -name name\t\tthe %s of that name\n"
		"    -constraint constraint\tthose whose ads satisfy it\n"
		"    -addr <addr:port>\tthe %s at that address\n"
		"  (with no target, the %s of this host)\n",
		noun, noun, noun, noun, noun, noun);
	if (takes_daemon(cmd))
		fprintf(err, "\nwhere [daemon] can be one of:\n"
			     "    -daemon <name>\tthe daemon of that "
			     "subsystem\n"
			     "    -master%s\n    -startd\n    -schedd\n"
			     "    -collector\n    -negotiator\n    -kbdd\n",
			cmd == CT_OFF ? "" : "\t\t(the default)");
	fputc('\n', err);
	fprintf(err, ct_words[cmd].does, prog);
	fputc('\n', err);
	return status;
}

/* "-FLAG" is not valid with this command: HTCondor's message and exit. */
static int not_valid(const char *flag, const char *prog, FILE *err)
{
	fprintf(err, "ERROR: \"-%s\" is not valid with %s\n", flag, prog);
	return hint(err);
}

/* The name HTCondor's daemonString() gives a daemon type it knows
 * (stringToDaemonType() takes any case), else the name as given. */
static const char *daemon_name(const char *given)
{
	static const char *const known[] = {"master", "schedd", "startd",
					    "collector", "negotiator", "kbdd"};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strcasecmp(given, known[i]) == 0)
			return known[i];
	return given;
}

/* tool.cpp's subsys_check() and the flag's daemon: CT_GO, or the exit
 * status after the message. */
static int pick_daemon(struct ct_opts *o, enum ct_command cmd,
		       const char *name, FILE *err)
{
	if (!takes_daemon(cmd)) {
		fprintf(err, "ERROR: Can't specify a daemon flag with %s.\n",
			o->prog);
		return ct_usage(o->prog, cmd, err, 1);
	}
	if (o->daemon) {
		fprintf(err, "ERROR: can only specify one daemon flag.\n");
		return ct_usage(o->prog, cmd, err, 1);
	}
	o->daemon = daemon_name(name);
	return CT_GO;
}

int ct_parse(int argc, char **argv, enum ct_command cmd, const char *fallback,
	     struct ct_opts *o, FILE *out, FILE *err)
{
	*o = (struct ct_opts){0};
	o->prog = base_name(argc > 0 ? argv[0] : fallback);
	o->targets = ks_xcalloc((size_t)argc + 1, sizeof(*o->targets));
	const char *prog = o->prog;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;
		const char *daemon = NULL; /* a flag that names one */
		if (a[0] != '-') {
			o->targets[o->ntargets++] = a;
			continue;
		}
		if (sdt_dash_prefix(a, "version", 0)) {
			fputs(KS_CONDOR_VERSION_LINES, out);
			return 0;
		} else if (sdt_dash_prefix(a, "help", 0)) {
			return ct_usage(prog, cmd, err, 0);
		} else if (sdt_dash_prefix(a, "peaceful", 2)) {
			if (cmd != CT_OFF && cmd != CT_RESTART)
				return not_valid("peaceful", prog, err);
			o->mode = CT_PEACEFUL;
		} else if (sdt_dash_prefix(a, "pool", 1)) {
			if (!next) {
				fprintf(err, "ERROR: -pool requires another "
					     "argument\n");
				return hint(err);
			}
			o->pool = argv[++i];
		} else if (sdt_dash_prefix(a, "preen", -1)) {
			daemon = "preen";
		} else if (sdt_dash_prefix(a, "full", 2)) {
			/* condor_reconfig's, long a no-op */
			if (cmd != CT_RECONFIG)
				return not_valid("full", prog, err);
		} else if (sdt_dash_prefix(a, "fast", 2)) {
			if (cmd != CT_OFF && cmd != CT_RESTART &&
			    cmd != CT_VACATE)
				return not_valid("fast", prog, err);
			o->mode = CT_FAST;
		} else if (sdt_dash_prefix(a, "force-graceful", 2)) {
			if (cmd != CT_OFF)
				return not_valid("force-graceful", prog, err);
			o->mode = CT_FORCE_GRACEFUL;
		} else if (sdt_dash_prefix(a, "f", -1)) {
			fprintf(err, "ERROR: ambiguous parameter: \"-f\"\n"
				     "Please specify \"-full\" or \"-fast\"\n");
			return hint(err);
		} else if (sdt_dash_colon_prefix(a, "debug", 1, NULL)) {
			o->debug = true;
		} else if (sdt_dash_prefix(a, "daemon", 2)) {
			if (takes_daemon(cmd) && !next) {
				fprintf(err, "ERROR: -daemon requires another "
					     "argument\n");
				return hint(err);
			}
			daemon = takes_daemon(cmd) ? argv[++i] : a;
		} else if ((sdt_dash_prefix(a, "drain", 2) ||
			    sdt_dash_prefix(a, "quick", 1)) &&
			   can_drain(cmd)) {
			/* HTCondor drains the startd first: not kestrel yet */
			fprintf(err, "ERROR: \"%s\" (draining before %s) is not "
				     "supported by kestrel; use condor_drain "
				     "first\n", a, prog);
			return 1;
		} else if (sdt_dash_prefix(a, "exec", 2)) {
			/* only with -drain */
			fprintf(err, "ERROR: \"-exec\" is not valid with %s "
				     "without -drain\n", prog);
			return hint(err);
		} else if (sdt_dash_prefix(a, "graceful", 1)) {
			o->mode = CT_GRACEFUL;
		} else if (sdt_dash_prefix(a, "addr", 2) ||
			   sdt_dash_prefix(a, "name", 2)) {
			bool addr = sdt_dash_prefix(a, "addr", 2);
			if (!next || next[0] == '-') {
				fprintf(err, "ERROR: -%s requires another "
					     "argument\n",
					addr ? "addr" : "name");
				return hint(err);
			}
			o->targets[o->ntargets++] = argv[++i];
		} else if (sdt_dash_prefix(a, "all", 2)) {
			o->all = true;
		} else if (sdt_dash_prefix(a, "a", -1)) {
			fprintf(err, "ERROR: ambiguous parameter: \"-a\"\n"
				     "Please specify \"-addr\" or \"-all\"\n");
			return hint(err);
		} else if (strncmp(a, "-annex", 6) == 0) {
			/* condor_off's annex flags address its masters */
			if (cmd == CT_OFF) {
				int st = pick_daemon(o, cmd, "master", err);
				if (st != CT_GO)
					return st;
			}
			int status;
			i += annex(o, argc, argv, i, err, &status) - 1;
			if (status != CT_GO)
				return status;
		} else if (sdt_dash_prefix(a, "negotiator", 2)) {
			daemon = "negotiator";
		} else if (sdt_dash_prefix(a, "n", -1)) {
			fprintf(err, "ERROR: ambiguous parameter: \"-n\"\n"
				     "Please specify \"-name\" or "
				     "\"-negotiator\"\n");
			return hint(err);
		} else if (sdt_dash_prefix(a, "master", 1)) {
			daemon = "master";
		} else if (sdt_dash_prefix(a, "constraint", 3)) {
			if (o->constraint) {
				fprintf(err, "ERROR: only one -constraint "
					     "argument is allowed\n");
				return 1;
			}
			if (!next) {
				fprintf(err, "ERROR: -constraint requires "
					     "another argument\n");
				return hint(err);
			}
			o->constraint = argv[++i];
		} else if (sdt_dash_prefix(a, "collector", 3)) {
			daemon = "collector";
		} else if (sdt_dash_prefix(a, "co", -1)) {
			/* sic: HTCondor's spelling */
			fprintf(err, "ERROR: ambigous parameter: \"-co\"\n"
				     "Please specify \"-collector\" or "
				     "\"-constraint\"\n");
			return hint(err);
		} else if (sdt_dash_prefix(a, "kbdd", 1)) {
			daemon = "kbdd";
		} else if (sdt_dash_prefix(a, "schedd", 2)) {
			daemon = "schedd";
		} else if (sdt_dash_prefix(a, "startd", 2)) {
			daemon = "startd";
		} else if (sdt_dash_prefix(a, "subsystem", 2)) {
			if (takes_daemon(cmd) && !next) {
				fprintf(err, "ERROR: -subsystem requires "
					     "another argument\n");
				return hint(err);
			}
			daemon = takes_daemon(cmd) ? argv[++i] : a;
		} else if (sdt_dash_prefix(a, "s", -1)) {
			fprintf(err, "ERROR: ambiguous argument \"-s\"\n"
				     "Please specify \"-subsystem\", "
				     "\"-startd\" or \"-schedd\"\n");
			return hint(err);
		} else {
			fprintf(err, "ERROR: invalid argument \"%s\"\n", a);
			return ct_usage(prog, cmd, err, 1);
		}
		if (daemon) {
			int st = pick_daemon(o, cmd, daemon, err);
			if (st != CT_GO)
				return st;
		}
	}
	if (o->constraint && o->ntargets) {
		fprintf(err,
			"ERROR: use of -constraint or -annex conflicts with "
			"other arguments containing names or addresses.\n"
			"You can change the constraint to select daemons by "
			"name by adding\n"
			"  (NAME == \"daemon-name\" || MACHINE == "
			"\"daemon-name\")\n"
			"to your constraint.\n");
		return hint(err);
	}
	return CT_GO;
}
