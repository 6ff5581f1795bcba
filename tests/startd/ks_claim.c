/*
 * ks_claim.c: a test client for the startd's claim commands, standing in
 * for the schedd and negotiator that do not exist yet:
 *   ks_claim ADDRESS COMMAND CLAIM_ID [JOB_AD_FILE] [Attr=value...]
 * sends COMMAND (REQUEST_CLAIM, ACTIVATE_CLAIM, ALIVE, ...) with an ad
 * holding ClaimId (and the Attr=value pairs), then the job ad if given,
 * and prints each reply: "reply CODE" and its ads in old syntax, until
 * the last (ACTIVATE_CLAIM's second reply comes when the job has ended).
 * Exits 0 if the last reply was OK, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_client.h"
#include "ks_commands.h"
#include "ks_wire.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t cap = 0, n = 0, r;
	do {
		cap = cap * 2 + 4096;
		buf = realloc(buf, cap);
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r > 0);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: ks_claim ADDRESS COMMAND CLAIM_ID "
				"[JOB_AD_FILE] [Attr=value...]\n");
		return 2;
	}
	int code = ks_command_code(argv[2]);
	if (code < 0) {
		fprintf(stderr, "unknown command %s\n", argv[2]);
		return 2;
	}
	struct ks_err err = {0};
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &err);
	if (!cfg) {
		fprintf(stderr, "%s\n", err.msg);
		return 2;
	}
	classad *ads[2] = {classad_new(), NULL};
	classad_insert_string(ads[0], "ClaimId", argv[3]);
	int i = 4;
	if (i < argc && !strchr(argv[i], '=')) {
		size_t len;
		char *text = slurp(argv[i], &len);
		ads[1] = text ? classad_parse(text, len, CLASSAD_FMT_OLD, NULL,
					      &err)
			      : NULL;
		free(text);
		if (!ads[1]) {
			fprintf(stderr, "%s: cannot read the job ad\n", argv[i]);
			return 2;
		}
		i++;
	}
	for (; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq)
			continue;
		*eq = '\0';
		classad_insert_text(ads[0], argv[i], eq + 1, NULL);
	}
	ks_conn *c = NULL;
	/* ACTIVATE_CLAIM's second reply comes when the job ends */
	int rc = ks_conn_open(cfg, argv[1],
			      code == KS_ACTIVATE_CLAIM ? 3600 * 1000 : 0, &c,
			      &err);
	if (rc == 0)
		rc = ks_conn_send(c, code, ads, ads[1] ? 2 : 1, false, &err);
	int last = -1;
	bool more = rc == 0;
	while (more && rc == 0) {
		classad **got;
		size_t n;
		rc = ks_conn_recv(c, &last, &got, &n, &more, &err);
		if (rc)
			break;
		printf("reply %d\n", last);
		for (size_t k = 0; k < n; k++) {
			char *t = classad_unparse(got[k], CLASSAD_FMT_OLD);
			printf("%s\n", t);
			free(t);
		}
		fflush(stdout);
		ks_ads_free(got, n);
	}
	if (rc)
		fprintf(stderr, "ks_claim: %s\n", err.msg);
	ks_conn_close(c);
	classad_free(ads[0]);
	classad_free(ads[1]);
	ks_config_free(cfg);
	return rc == 0 && last == KS_REPLY_OK ? 0 : 1;
}
