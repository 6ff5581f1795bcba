/*
 * condor_update_machine_ad: adds attributes to a startd's slot ads (or
 * changes them) until the startd restarts, as HTCondor's does:
 *   condor_update_machine_ad [-pool HOST] [-name STARTD] [FILE]
 * FILE (standard input when absent) holds one ad, "Name = value" lines.
 * Without -name the startd of this host (STARTD_ADDRESS_FILE) is asked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_text.h"
#include "ks_version.h"
#include "ks_wire.h"
#include "sdt.h"

static void usage(const char *self)
{
	printf("%s: [options] <path/to/update-ad>\n"
	       "Where options include:\n"
	       "\t-pool\t\tWhich pool to query.\n"
	       "\t-name\t\tWhich startd to ask for.\n"
	       "\t-help\t\tPrint this help.\n"
	       "\t-version\tPrint the HTCondor version.\n\n",
	       self);
}

int main(int argc, char **argv)
{
	const char *name = NULL, *pool = NULL, *file = NULL;
	for (int i = 1; i < argc; i++) {
		if (sdt_dash_prefix(argv[i], "help", 0)) {
			usage(argv[0]);
			return 0;
		} else if (sdt_dash_prefix(argv[i], "version", 0)) {
			fputs(KS_CONDOR_VERSION_LINES, stdout);
			return 0;
		} else if (sdt_dash_prefix(argv[i], "pool", 0) ||
			   sdt_dash_prefix(argv[i], "name", 0)) {
			if (i + 1 >= argc) {
				usage(argv[0]);
				return 0;
			}
			if (argv[i][1] == 'p')
				pool = argv[++i];
			else
				name = argv[++i];
		} else {
			file = argv[i];
		}
	}
	FILE *f = file ? fopen(file, "r") : stdin;
	if (!f) {
		fprintf(stderr, "Failed to open '%s', aborting (%d: %s)\n", file,
			errno, strerror(errno));
		return 1;
	}
	char *text = ks_read_all(f, NULL);
	if (f != stdin)
		fclose(f);
	struct ks_err err = {0};
	classad *update = classad_parse(text, strlen(text), CLASSAD_FMT_OLD,
					NULL, &err);
	free(text);
	if (!update || classad_size(update) == 0) {
		fprintf(stderr, "Failed to parse '%s', aborting.\n",
			file ? file : "stdin");
		fprintf(stderr, update ? "File was empty.\n"
				       : "Syntax error in file.\n");
		classad_free(update);
		return 1;
	}
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &err);
	if (!cfg) {
		fprintf(stderr, "ERROR: %s\n", err.msg);
		classad_free(update);
		return 1;
	}
	/* as HTCondor's DCStartd::locate(): this host's startd without a
	 * name, else the one the collector knows by that name */
	char *dname = name ? sdt_daemon_name(cfg, name) : NULL;
	struct sdt_startd sd = {0};
	bool local = false;
	int rc = 1;
	if (name && !dname)
		fprintf(stderr, "Unable to locate startd: unknown host %s\n", name);
	else if (sdt_locate(cfg, pool, dname, &local, &sd, &err) != 0)
		fprintf(stderr, "Unable to locate startd: %s\n", err.msg);
	else if (!sd.addr)
		fprintf(stderr, "Unable to locate startd: Can't find address "
				"for startd %s\n", dname ? dname : "on this host");
	else {
		struct sdt_reply reply = {0};
		if (sdt_send(cfg, sd.addr, KS_CA_UPDATE_MACHINE_AD, update, NULL,
			     &reply, &err) != 0) {
			fprintf(stderr, "Unable to update machine ad: %s\n",
				err.msg);
		} else if (reply.code != KS_REPLY_OK) {
			char *why = sdt_reply_error(&reply, NULL);
			fprintf(stderr, "Unable to update machine ad: %s\n", why);
			free(why);
		} else {
			rc = 0;
		}
		sdt_reply_clear(&reply);
	}
	sdt_startd_clear(&sd);
	free(dname);
	classad_free(update);
	ks_config_free(cfg);
	return rc;
}
