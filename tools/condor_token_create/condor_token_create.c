/*
 * condor_token_create: signs an IDTOKEN with a local signing key, as
 * HTCondor's tool of that name does (same options, output and exit codes:
 * 0 done, 1 bad usage or a token that cannot be written, 2 no token).
 *
 *   condor_token_create -identity USER@DOMAIN [-key NAME] [-authz LEVEL]...
 *       [-lifetime SECONDS] [-token NAME | -file PATH] [-debug]
 *
 * Differences, all refusing what HTCondor would silently turn into an odd
 * token: -identity is required and must be user@domain; -lifetime must be
 * a whole number of seconds, not negative (HTCondor reads "10x" as 10 and
 * a negative value as "no lifetime").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "ks_token.h"
#include "opts.h"

/* Past this, now + lifetime could overflow; nobody needs more. */
#define MAX_LIFETIME ((int64_t)1 << 40)

static _Noreturn void usage(const char *prog)
{
	fprintf(stderr,
		"Usage: %s -identity USER@DOMAIN [-key NAME] [-authz LEVEL]... "
		"[-lifetime SECONDS]\n"
		"           [-token NAME | -file PATH] [-debug]\n"
		"Signs an authentication token (IDTOKEN) with a signing key of "
		"this machine.\n"
		"\n"
		"  -identity USER@DOMAIN  who the token's holder authenticates as\n"
		"  -key NAME              signing key in SEC_PASSWORD_DIRECTORY "
		"(default: the\n"
		"                         pool key, SEC_TOKEN_POOL_SIGNING_KEY_FILE)\n"
		"  -authz LEVEL           limit the token to this authorization "
		"level (READ,\n"
		"                         WRITE, DAEMON, ADVERTISE_STARTD, ...); "
		"may be repeated\n"
		"  -lifetime SECONDS      the token expires this long after now\n"
		"  -token NAME            save as NAME in the token directory "
		"instead of printing\n"
		"  -file PATH             save to PATH instead of printing\n"
		"  -debug                 say on stderr what is being done\n"
		"  -help                  show this message\n",
		prog);
	exit(1);
}

static bool parse_lifetime(const char *s, int64_t *out)
{
	if (!*s)
		return false;
	for (const char *p = s; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, 10);
	if (errno || *end || v > MAX_LIFETIME)
		return false;
	*out = v;
	return true;
}

int main(int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1
						  : argv[0];
	const char *identity = NULL, *key = "POOL", *out_name = NULL;
	bool to_token_dir = false, debug = false;
	int64_t lifetime = -1;
	const char **authz = ks_xcalloc((size_t)argc, sizeof(*authz));
	size_t nauthz = 0;

	if (argc < 3)
		usage(prog);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *colon;
		/* Every option but -debug and -help takes a value. */
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (tool_opt(a, "identity", 2, false, NULL)) {
			if (!val) {
				fprintf(stderr, "%s: -identity needs an identity, "
						"USER@DOMAIN\n", prog);
				return 1;
			}
			identity = argv[++i];
		} else if (tool_opt(a, "key", 1, false, NULL)) {
			if (!val) {
				fprintf(stderr, "%s: -key needs a key name\n", prog);
				return 1;
			}
			key = argv[++i];
		} else if (tool_opt(a, "authz", 1, false, NULL)) {
			if (!val) {
				fprintf(stderr, "%s: -authz needs an authorization "
						"level\n", prog);
				return 1;
			}
			authz[nauthz++] = argv[++i];
		} else if (tool_opt(a, "lifetime", 1, false, NULL)) {
			if (!val) {
				fprintf(stderr, "%s: -lifetime needs a number of "
						"seconds\n", prog);
				return 1;
			}
			if (!parse_lifetime(val, &lifetime)) {
				fprintf(stderr, "%s: invalid -lifetime '%s': expected "
						"a whole number of seconds\n",
					prog, val);
				return 1;
			}
			i++;
		} else if (tool_opt(a, "token", 2, false, NULL)) {
			if (!val) {
				fprintf(stderr, "%s: -token needs a file name\n", prog);
				return 1;
			}
			out_name = argv[++i];
			to_token_dir = true;
		} else if (tool_opt(a, "file", 1, false, NULL)) {
			if (!val) {
				fprintf(stderr, "%s: -file needs a file name\n", prog);
				return 1;
			}
			out_name = argv[++i];
			to_token_dir = false;
		} else if (tool_opt(a, "debug", 1, true, &colon)) {
			debug = true;
		} else if (tool_opt(a, "help", 1, false, NULL)) {
			usage(prog);
		} else {
			fprintf(stderr, "%s: unknown option: %s\n", prog, a);
			usage(prog);
		}
	}

	int status = 0;
	if (!identity) {
		fprintf(stderr, "%s: -identity USER@DOMAIN is required\n", prog);
		status = 1;
	} else if (!ks_token_identity_valid(identity)) {
		fprintf(stderr, "%s: invalid identity '%s': expected USER@DOMAIN\n",
			prog, identity);
		status = 1;
	} else if (!ks_token_key_name_valid(key)) {
		fprintf(stderr, "%s: invalid key name '%s'\n", prog, key);
		status = 1;
	}
	if (status) {
		free(authz);
		return status;
	}

	struct ks_err err;
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &err);
	if (!cfg) {
		fprintf(stderr, "%s: cannot read the configuration: %s\n", prog,
			err.msg);
		free(authz);
		return 1;
	}
	if (debug) {
		char *path = NULL, *td = NULL;
		if (ks_token_key_path(cfg, key, &path, NULL) == 0)
			fprintf(stderr, "%s: signing with key %s from %s\n", prog,
				key, path);
		if (ks_token_trust_domain(cfg, &td, NULL) == 0)
			fprintf(stderr, "%s: issuer (TRUST_DOMAIN) %s\n", prog, td);
		free(path);
		free(td);
	}

	struct ks_token_request req = {
		.identity = identity,
		.authz = authz,
		.nauthz = nauthz,
		.lifetime = lifetime,
	};
	char *token = NULL;
	if (ks_token_create(cfg, key, &req, &token, &err) != 0) {
		fprintf(stderr, "%s: cannot create a token: %s\n", prog, err.msg);
		ks_config_free(cfg);
		free(authz);
		return 2;
	}
	free(authz);

	if (!out_name) {
		printf("%s\n", token);
		status = fflush(stdout) == 0 ? 0 : 1;
	} else {
		char *path = NULL;
		int rc = to_token_dir
				 ? ks_token_save(cfg, out_name, token, &path, &err)
				 : ks_token_write_file(out_name, token, &err);
		if (rc != 0) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			status = 1;
		} else if (debug) {
			fprintf(stderr, "%s: token written to %s\n", prog,
				path ? path : out_name);
		}
		free(path);
	}
	ks_token_string_free(token);
	ks_config_free(cfg);
	return status;
}
