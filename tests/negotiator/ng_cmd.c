/*
 * ng_cmd.c: sends one command to a daemon and prints the reply, for the
 * negotiator's tests:
 *   ng_cmd ADDRESS|negotiator COMMAND [Attr=expr...]
 * "negotiator" is found through the collector.  The Attr=expr pairs
 * make the one ad sent (none: no ad).  Prints "reply CODE" and the
 * reply's ads in old syntax; exits 0 if the reply was OK.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_client.h"
#include "ks_commands.h"
#include "ks_wire.h"

static char *negotiator(const ks_config *cfg)
{
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "Negotiator");
	classad_insert_bool(q, "Requirements", true);
	classad **ads = NULL;
	size_t n = 0;
	struct ks_err err = {0};
	char *addr = NULL;
	if (ks_collector_query(cfg, NULL, KS_QUERY_NEGOTIATOR_ADS, q, &ads, &n,
			       &err) == 0 && n)
		classad_eval_string(ads[0], "MyAddress", NULL, &addr);
	ks_ads_free(ads, n);
	classad_free(q);
	return addr;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: ng_cmd ADDRESS|negotiator COMMAND "
				"[Attr=expr...]\n");
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
	char *addr = strcmp(argv[1], "negotiator") == 0 ? negotiator(cfg)
							 : strdup(argv[1]);
	if (!addr) {
		fprintf(stderr, "no negotiator in the collector\n");
		return 1;
	}
	classad *ad = NULL;
	for (int i = 3; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq)
			continue;
		*eq = '\0';
		if (!ad)
			ad = classad_new();
		if (classad_insert_text(ad, argv[i], eq + 1, &err) != 0) {
			fprintf(stderr, "%s: %s\n", argv[i], err.msg);
			return 2;
		}
	}
	ks_conn *c = NULL;
	int rc = ks_conn_open(cfg, addr, 10000, &c, &err);
	if (rc == 0)
		rc = ks_conn_send(c, code, ad ? &ad : NULL, ad ? 1 : 0, 0, &err);
	int got = 0;
	classad **ads = NULL;
	size_t n = 0;
	bool more;
	if (rc == 0)
		rc = ks_conn_recv(c, &got, &ads, &n, &more, &err);
	if (rc) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	printf("reply %d\n", got);
	for (size_t i = 0; i < n; i++) {
		char *text = classad_unparse(ads[i], CLASSAD_FMT_OLD);
		printf("%s\n", text);
		free(text);
	}
	ks_ads_free(ads, n);
	classad_free(ad);
	ks_conn_close(c);
	free(addr);
	ks_config_free(cfg);
	return got == KS_REPLY_OK ? 0 : 1;
}
