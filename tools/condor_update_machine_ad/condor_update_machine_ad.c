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

#include "ks_addr.h"
#include "ks_client.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_wire.h"

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

/* HTCondor's tools take any prefix of an option ("-na" for -name). */
static bool is_opt(const char *arg, const char *opt)
{
	size_t n = strlen(arg);
	return n >= 2 && n <= strlen(opt) && strncmp(arg, opt, n) == 0;
}

static char *read_all(FILE *f)
{
	size_t cap = 4096, n = 0, r;
	char *buf = ks_xmalloc(cap);
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n < 2)
			buf = ks_xrealloc(buf, cap *= 2);
	}
	buf[n] = '\0';
	return buf;
}

/* The startd's address: the one named (through the collector), or this
 * host's.  New string, or NULL with the reason in why. */
static char *locate(const ks_config *cfg, const char *name, const char *pool,
		    char *why, size_t size)
{
	struct ks_err err = {0};
	if (!name) {
		char *file = ks_config_get(cfg, "STARTD_ADDRESS_FILE", NULL);
		char *addr = file ? ks_addr_read_file(file, NULL) : NULL;
		if (!addr)
			snprintf(why, size, "no local startd address in %s",
				 file ? file : "STARTD_ADDRESS_FILE");
		free(file);
		return addr;
	}
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "Machine");
	struct classad_buf req = {0};
	classad_buf_add(&req, "Machine == ", 11);
	classad_quote_string_buf(&req, name, strlen(name));
	classad_buf_add(&req, " || Name == ", 12);
	classad_quote_string_buf(&req, name, strlen(name));
	classad_insert_text(q, "Requirements", req.data, NULL);
	classad_insert_string(q, "Projection", "MyAddress");
	free(req.data);
	classad **ads = NULL;
	size_t n = 0;
	char *addr = NULL;
	if (ks_collector_query(cfg, pool, KS_QUERY_STARTD_ADS, q, &ads, &n,
			       &err) != 0)
		snprintf(why, size, "%s", err.msg);
	else if (!n || !classad_eval_string(ads[0], "MyAddress", NULL, &addr))
		snprintf(why, size, "Can't find address for startd %s", name);
	ks_ads_free(ads, n);
	classad_free(q);
	return addr;
}

int main(int argc, char **argv)
{
	const char *name = NULL, *pool = NULL, *file = NULL;
	for (int i = 1; i < argc; i++) {
		if (is_opt(argv[i], "-help")) {
			usage(argv[0]);
			return 0;
		} else if (is_opt(argv[i], "-version")) {
			printf("$CondorVersion: 25.14.0 2026-11-01 kestrel $\n"
			       "$CondorPlatform: x86_64_Debian12 $\n");
			return 0;
		} else if (is_opt(argv[i], "-pool") || is_opt(argv[i], "-name")) {
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
	char *text = read_all(f);
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
	char why[512] = "";
	char *addr = locate(cfg, name, pool, why, sizeof(why));
	int rc = 1;
	if (!addr) {
		fprintf(stderr, "Unable to locate startd: %s\n", why);
	} else {
		ks_conn *c = NULL;
		int code = KS_REPLY_ERROR;
		classad **got = NULL;
		size_t n = 0;
		int r = ks_conn_open(cfg, addr, 0, &c, &err);
		if (r == 0)
			r = ks_conn_send(c, KS_CA_UPDATE_MACHINE_AD, &update, 1,
					 false, &err);
		if (r == 0)
			r = ks_conn_recv(c, &code, &got, &n, NULL, &err);
		char *reason = NULL;
		if (r == 0 && code != KS_REPLY_OK && n)
			classad_eval_string(got[0], "ErrorString", NULL, &reason);
		if (r != 0)
			fprintf(stderr, "Unable to update machine ad: %s\n", err.msg);
		else if (code != KS_REPLY_OK)
			fprintf(stderr, "Unable to update machine ad: %s\n",
				reason ? reason : "refused");
		else
			rc = 0;
		free(reason);
		ks_ads_free(got, n);
		ks_conn_close(c);
	}
	free(addr);
	classad_free(update);
	ks_config_free(cfg);
	return rc;
}
