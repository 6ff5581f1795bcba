/*
 * condor_token_list: shows the header and payload of the tokens this user
 * would present, one line each, as HTCondor's tool of that name:
 *
 *   Header: {"alg":"HS256","kid":"POOL"} Payload: {...} File: PATH
 *
 *   condor_token_list [-dir PATH | -file PATH] [-debug] [-help]
 *
 * Signatures are never shown.  Lines that are not tokens are skipped.  The
 * options that ask a daemon about capability tokens (-capability, -pool,
 * -name, -type) are not supported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_token.h"
#include "opts.h"

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [-dir PATH | -file PATH] [-debug]\n"
		"Shows the tokens this user has: each token's header and "
		"payload, and its file.\n"
		"\n"
		"  -dir PATH    the tokens of this directory\n"
		"  -file PATH   the tokens of this file\n"
		"  -debug       say on stderr what is skipped\n"
		"  -help        show this message\n"
		"\n"
		"By default the directory is SEC_TOKEN_DIRECTORY, else "
		"~/.condor/tokens.d,\n"
		"or SEC_TOKEN_SYSTEM_DIRECTORY for root.\n",
		prog);
}

static void print_file(const char *prog, const char *path, bool debug)
{
	char **lines = NULL;
	size_t n = 0;
	struct ks_err err;
	if (ks_token_file_lines(path, false, &lines, &n, &err) != 0) {
		if (debug)
			fprintf(stderr, "%s: %s\n", prog, err.msg);
		return;
	}
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		struct ks_token *t = NULL;
		if (ks_token_parse(lines[i], strlen(lines[i]), &t, NULL) != 0) {
			bad++;
			continue;
		}
		printf("Header: %s Payload: %s File: %s\n", t->header_json,
		       t->payload_json, path);
		ks_token_free(t);
	}
	if (bad && debug)
		fprintf(stderr, "%s: %zu line(s) of %s are not tokens\n", prog,
			bad, path);
	ks_token_strv_free(lines, n);
}

int main(int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1
						  : argv[0];
	const char *dir = NULL, *file = NULL;
	bool debug = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *colon;
		if (tool_opt(a, "debug", 1, true, &colon)) {
			debug = true;
		} else if (tool_opt(a, "help", 1, false, NULL)) {
			usage(stdout, prog);
			return 0;
		} else if (tool_opt(a, "dir", 1, false, NULL) ||
			   tool_opt(a, "file", 1, false, NULL)) {
			bool is_dir = tool_opt(a, "dir", 1, false, NULL);
			if (i + 1 >= argc) {
				fprintf(stderr, "%s: %s needs a path\n", prog,
					is_dir ? "-dir" : "-file");
				usage(stderr, prog);
				return 1;
			}
			if (is_dir)
				dir = argv[++i];
			else
				file = argv[++i];
		} else {
			fprintf(stderr, "%s: unknown option: %s\n", prog, a);
			usage(stderr, prog);
			return 1;
		}
	}

	struct ks_err err;
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &err);
	if (!cfg) {
		fprintf(stderr, "%s: cannot read the configuration: %s\n", prog,
			err.msg);
		return 1;
	}
	if (file) {
		print_file(prog, file, debug);
		ks_config_free(cfg);
		return 0;
	}
	char *d = NULL;
	if (dir)
		d = strdup(dir);
	else if (ks_token_dir(cfg, &d, &err) != 0 && debug)
		fprintf(stderr, "%s: %s\n", prog, err.msg);
	char **files = NULL;
	size_t n = 0;
	if (d && ks_token_dir_files(cfg, d, &files, &n, &err) != 0 && debug)
		fprintf(stderr, "%s: %s\n", prog, err.msg);
	for (size_t i = 0; i < n; i++)
		print_file(prog, files[i], debug);
	ks_token_strv_free(files, n);
	free(d);
	ks_config_free(cfg);
	/* As HTCondor's: finding no tokens is not an error. */
	return 0;
}
