/*
 * condor_config_val: prints configuration values as HTCondor's does.
 *
 *   condor_config_val [options] NAME...     values, expanded
 *   condor_config_val -dump [PATTERN]       every macro (matching PATTERN)
 *   condor_config_val -config               the files read
 *   condor_config_val use CATEGORY[:NAME]   the templates
 */
#include <ctype.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "ks_mem.h"
#include "knobs.h"
#include "remote.h"
#include "templates.h"

struct opts {
	bool verbose, raw, dump, config, use, defaults_only, expand;
	const char *subsys, *localname;
	const char **names;
	size_t nnames;
	struct cv_remote remote;
	bool is_remote;
	const char *setting; /* -set and the like: the argument */
	enum cv_set_mode set_mode;
};

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [options] NAME...\n"
		"       %s [options] -dump [PATTERN]\n"
		"       %s -config\n"
		"       %s use CATEGORY[:TEMPLATE]\n"
		"Options:\n"
		"  -v, -verbose          say where each value was defined\n"
		"  -raw                  print values without expanding them\n"
		"  -expand, -evaluate    print values expanded (the default)\n"
		"  -default              print the built-in default\n"
		"  -subsystem NAME       look up NAME as daemon NAME would\n"
		"  -local-name NAME      look up with this local name\n"
		"  -dump [PATTERN]       print every macro (matching PATTERN)\n"
		"  -config               print the configuration files read\n"
		"  -master, -collector, ...  ask that running daemon of this\n"
		"                        machine for its values\n"
		"  -name NAME            ask the daemon called NAME (with\n"
		"                        -collector etc.; default the master)\n"
		"  -address ADDR         ask the daemon at \"<ip:port>\"\n"
		"  -pool HOST            the collector that knows NAME\n"
		"  -set \"NAME = VALUE\"   save a setting in the daemon (needs\n"
		"                        ENABLE_PERSISTENT_CONFIG), -unset NAME\n"
		"  -rset, -runset        the same, in its memory only (needs\n"
		"                        ENABLE_RUNTIME_CONFIG)\n"
		"  -help                 print this message\n",
		prog, prog, prog, prog);
}

/* HTCondor's options may be abbreviated and take one or two dashes. */
/* -master, -collector, ...: the subsystem of the daemon to ask, or
 * NULL. */
static const char *daemon_flag(const char *arg)
{
	static const char *const subs[][2] = {
		{"-master", "MASTER"}, {"-collector", "COLLECTOR"},
		{"-negotiator", "NEGOTIATOR"}, {"-schedd", "SCHEDD"},
		{"-startd", "STARTD"}};
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (strcmp(arg, subs[i][0]) == 0)
			return subs[i][1];
	return NULL;
}

static bool is_opt(const char *arg, const char *name, size_t min)
{
	if (arg[0] != '-')
		return false;
	arg += arg[1] == '-' ? 2 : 1;
	size_t n = strlen(arg);
	return n >= min && n <= strlen(name) && !strncasecmp(arg, name, n);
}

static void print_assignment(const char *name, const char *value);

/* " # at: FILE, line N[, use CATEGORY:Name]" or " # at: <Default>". */
static void print_location(const struct ks_config_origin *w)
{
	if (w->line > 0 && w->use)
		printf(" # at: %s, line %d, use %s\n", w->file, w->line,
		       w->use);
	else if (w->line > 0)
		printf(" # at: %s, line %d\n", w->file, w->line);
	else
		printf(" # at: %s\n", w->file);
}

static void print_value(const ks_config *cfg, const char *name,
			const struct opts *o, int *status)
{
	struct ks_config_origin where = {0};
	const char *raw;
	const struct ks_knob *k = NULL;
	if (o->defaults_only) {
		k = ks_knob_find(name, strlen(name));
		raw = k && k->def[0] ? k->def : NULL;
		where.file = "<Default>";
	} else {
		raw = ks_config_raw(cfg, name, &where);
	}
	if (!raw || (!*raw && !o->raw)) {
		fputs("Not defined: ", stderr);
		for (const char *p = name; *p; p++)
			fputc(toupper((unsigned char)*p), stderr);
		fputc('\n', stderr);
		if (o->verbose)
			printf("\n");
		*status = 1;
		return;
	}
	struct ks_err err;
	char *value = o->raw ? strdup(raw) : ks_config_expand(cfg, raw, &err);
	if (!value) {
		fprintf(stderr, "Error: %s: %s\n", name, err.msg);
		*status = 1;
		return;
	}
	if (o->verbose) {
		print_assignment(where.name ? where.name : name, value);
		print_location(&where);
		if (!o->raw)
			printf(" # raw: %s = %s\n",
			       where.name ? where.name : name, raw);
		printf("\n");
	} else {
		printf("%s\n", value);
	}
	free(value);
}

/* A value of several lines is shown as HTCondor shows it: NAME @=end,
 * the lines indented, @end. */
static void print_assignment(const char *name, const char *value)
{
	if (!strchr(value, '\n')) {
		printf("%s = %s\n", name, value);
		return;
	}
	printf("%s @=end\n   ", name);
	for (const char *p = value; *p; p++) {
		putchar(*p);
		if (*p == '\n')
			fputs("   ", stdout);
	}
	printf("\n@end\n");
}

static int cmp_ci(const void *a, const void *b)
{
	return strcasecmp(*(char *const *)a, *(char *const *)b);
}

/* Every macro with a value, from the configuration and the defaults,
 * sorted by name; *n is set to how many (free the array, not the names). */
static const char **all_names(const ks_config *cfg, size_t *n)
{
	size_t pos = 0, count = 0;
	while (ks_config_next(cfg, &pos, NULL, NULL, NULL))
		count++;
	const char **names =
		ks_xmalloc((count + ks_knobs_count) * sizeof(*names));
	const char *name;
	pos = count = 0;
	while (ks_config_next(cfg, &pos, &name, NULL, NULL))
		names[count++] = name;
	for (size_t i = 0; i < ks_knobs_count; i++) {
		const char *k = ks_knobs[i].name;
		if (!ks_knobs[i].def[0] || strchr(k, '.'))
			continue;
		struct ks_config_origin o;
		ks_config_raw(cfg, k, &o);
		/* A knob the configuration sets is listed once, as set. */
		if (strcmp(o.file, "<Default>") == 0)
			names[count++] = k;
	}
	qsort(names, count, sizeof(*names), cmp_ci);
	*n = count;
	return names;
}

static int dump(const ks_config *cfg, const struct opts *o)
{
	char *host = ks_config_get(cfg, "FULL_HOSTNAME", NULL);
	printf("# Configuration from machine: %s\n",
	       host ? host : "<unknown hostname>");
	free(host);
	const char *pattern = o->nnames ? o->names[0] : "";
	regex_t re;
	if (regcomp(&re, pattern, REG_EXTENDED | REG_ICASE | REG_NOSUB) != 0) {
		fprintf(stderr, "condor_config_val: '%s' is not a valid regular "
				"expression\n",
			pattern);
		return 1;
	}
	if (*pattern)
		printf("\n# Parameters with names that match %s:\n", pattern);
	size_t n;
	const char **names = all_names(cfg, &n);
	for (size_t i = 0; i < n; i++) {
		if (regexec(&re, names[i], 0, NULL, 0) != 0)
			continue;
		struct ks_config_origin where;
		const char *raw = ks_config_raw(cfg, names[i], &where);
		if (!raw)
			continue;
		struct ks_err err;
		char *value = o->expand ? ks_config_expand(cfg, raw, &err) : NULL;
		print_assignment(names[i], value ? value : raw);
		if (o->verbose) {
			print_location(&where);
			if (o->expand) {
				printf(" # raw: %s\n", raw);
			} else {
				char *x = ks_config_expand(cfg, raw, &err);
				printf(" # expanded: %s\n", x ? x : "");
				free(x);
			}
			const struct ks_knob *k =
				ks_knob_find(names[i], strlen(names[i]));
			if (k && k->def[0])
				printf(" # default: %s\n", k->def);
		}
		free(value);
	}
	free(names);
	regfree(&re);
	if (!o->verbose) {
		printf("# Contributing configuration file(s):\n");
		for (size_t i = 0; i < ks_config_file_count(cfg); i++)
			printf("#\t%s\n", ks_config_file(cfg, i));
	}
	return 0;
}

static int show_use(const char *arg)
{
	const char *colon = strchr(arg, ':');
	size_t cl = colon ? (size_t)(colon - arg) : strlen(arg);
	const char *name = colon ? colon + 1 : "";
	while (*name == ' ')
		name++;
	bool any = false;
	for (size_t i = 0; i < ks_templates_count; i++) {
		const struct ks_template *t = &ks_templates[i];
		if (strlen(t->category) != cl ||
		    strncasecmp(t->category, arg, cl) != 0)
			continue;
		if (!*name) {
			if (!any)
				printf("use %s accepts\n", t->category);
			printf("  %s\n", t->name);
		} else if (!strcasecmp(t->name, name)) {
			printf("use %s:%s is\n%s\n", t->category, t->name,
			       t->body);
			return 0;
		}
		any = true;
	}
	if (any && !*name)
		return 0;
	/* As HTCondor: on standard output, and not a failure. */
	printf("Not defined: use ");
	for (const char *p = arg; *p; p++)
		putchar(toupper((unsigned char)*p));
	putchar('\n');
	return 0;
}

int main(int argc, char **argv)
{
	const char *prog = "condor_config_val";
	struct opts o = {0};
	o.names = calloc((size_t)argc, sizeof(*o.names));
	if (!o.names)
		return 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (is_opt(a, "verbose", 1)) {
			o.verbose = true;
		} else if (is_opt(a, "raw", 2)) {
			o.raw = true;
		} else if (is_opt(a, "expand", 2) || is_opt(a, "evaluate", 2)) {
			o.expand = true;
		} else if (is_opt(a, "default", 3)) {
			o.defaults_only = true;
		} else if (is_opt(a, "dump", 2)) {
			o.dump = true;
		} else if (is_opt(a, "config", 3)) {
			o.config = true;
		} else if (is_opt(a, "subsystem", 4) || is_opt(a, "subsys", 4)) {
			if (++i >= argc) {
				fprintf(stderr, "%s: -subsystem needs a name\n",
					prog);
				return 1;
			}
			o.subsys = argv[i];
		} else if (is_opt(a, "local-name", 2)) {
			if (++i >= argc) {
				fprintf(stderr, "%s: -local-name needs a name\n",
					prog);
				return 1;
			}
			o.localname = argv[i];
		} else if (is_opt(a, "help", 1)) {
			usage(stdout, prog); /* and exit 1, as HTCondor's */
			free(o.names);
			return 1;
		} else if ((is_opt(a, "address", 2) || is_opt(a, "name", 2) ||
			    is_opt(a, "pool", 2)) && i + 1 < argc) {
			const char *v = argv[++i];
			if (a[1] == 'a')
				o.remote.address = v;
			else if (a[1] == 'n')
				o.remote.name = v;
			else
				o.remote.pool = v;
			o.is_remote = o.is_remote || a[1] != 'p';
		} else if (daemon_flag(a)) {
			o.remote.daemon = daemon_flag(a);
			o.is_remote = true;
		} else if (is_opt(a, "set", 3) || is_opt(a, "unset", 3) ||
			   is_opt(a, "rset", 3) || is_opt(a, "runset", 3)) {
			if (++i >= argc) {
				fprintf(stderr, "%s: %s needs an argument\n",
					prog, a);
				return 1;
			}
			o.setting = argv[i];
			o.set_mode = a[1] == 's'   ? CV_SET
				     : a[1] == 'u' ? CV_UNSET
				     : a[2] == 's' ? CV_RSET
						   : CV_RUNSET;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "%s: unknown option %s\n", prog, a);
			usage(stderr, prog);
			return 1;
		} else if (!strcasecmp(a, "use") && o.nnames == 0) {
			o.use = true;
		} else {
			o.names[o.nnames++] = a;
		}
	}
	if (o.use) {
		int rc = 0;
		if (!o.nnames) {
			fprintf(stderr, "%s: use needs a category\n", prog);
			rc = 1;
		}
		for (size_t i = 0; i < o.nnames; i++)
			rc |= show_use(o.names[i]);
		free(o.names);
		return rc;
	}
	if (!o.nnames && !o.dump && !o.config && !o.setting) {
		usage(stderr, prog);
		free(o.names);
		return 1;
	}

	ks_config *cfg = ks_config_new(o.subsys ? o.subsys : "TOOL",
				       o.localname);
	struct ks_err err;
	if (ks_config_load(cfg, &err) != 0) {
		/* Syntax errors read as HTCondor's first line of them. */
		fprintf(stderr, "%s%s\n",
			strncmp(err.msg, "Error \"", 7) ? "ERROR: "
							 : "Config source ",
			err.msg);
		ks_config_free(cfg);
		free(o.names);
		return 1;
	}
	for (size_t i = 0; ks_config_warning(cfg, i); i++)
		fprintf(stderr, "%s\n", ks_config_warning(cfg, i));
	if (o.setting) {
		int rc = cv_remote_set(cfg, &o.remote, o.setting, o.set_mode);
		ks_config_free(cfg);
		free(o.names);
		return rc;
	}
	if (o.is_remote && o.nnames) {
		int rc = cv_remote(cfg, &o.remote, o.names, o.nnames,
				   o.verbose);
		ks_config_free(cfg);
		free(o.names);
		return rc;
	}
	int status = 0;
	if (o.config) {
		/* Headings on standard error, names on standard output, so
		 * that the list can be piped (as HTCondor does). */
		size_t n = ks_config_file_count(cfg);
		fprintf(stderr, "Configuration source:\n");
		fflush(stderr);
		printf("\t%s\n", n ? ks_config_file(cfg, 0) : "<none>");
		fflush(stdout);
		if (n > 1) {
			fprintf(stderr, "Local configuration source%s:\n",
				n > 2 ? "s" : "");
			fflush(stderr);
			for (size_t i = 1; i < n; i++)
				printf("\t%s\n", ks_config_file(cfg, i));
			fflush(stdout);
			fprintf(stderr, "\n");
		}
	} else if (o.dump) {
		status = dump(cfg, &o);
	} else {
		for (size_t i = 0; i < o.nnames; i++)
			print_value(cfg, o.names[i], &o, &status);
	}
	ks_config_free(cfg);
	free(o.names);
	return status;
}
