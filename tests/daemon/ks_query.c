/* ks_query: a test tool that asks the collector for ads and prints them
 * in long form, one blank line after each, so that integration tests can
 * check the collector on its own.  Usage: ks_query COMMAND [CONSTRAINT
 * [PROJECTION]].  Exit 0 on success, 1 with the error on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_client.h"
#include "ks_commands.h"

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: ks_query COMMAND [CONSTRAINT [PROJ]]\n");
		return 2;
	}
	int code = ks_command_code(argv[1]);
	if (code < 0) {
		fprintf(stderr, "unknown command %s\n", argv[1]);
		return 2;
	}
	struct ks_err err;
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &err);
	if (!cfg) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "Any");
	if (argc > 2 &&
	    classad_insert_text(q, "Requirements", argv[2], &err)) {
		fprintf(stderr, "bad constraint: %s\n", err.msg);
		return 1;
	}
	if (argc > 3)
		classad_insert_string(q, "Projection", argv[3]);
	classad **ads;
	size_t n;
	int rc = ks_collector_query(cfg, NULL, code, q, &ads, &n, &err);
	if (rc) {
		fprintf(stderr, "%s\n", err.msg);
	} else {
		for (size_t i = 0; i < n; i++) {
			char *text = classad_unparse(ads[i], CLASSAD_FMT_OLD);
			printf("%s\n", text);
			free(text);
		}
		ks_ads_free(ads, n);
	}
	classad_free(q);
	ks_config_free(cfg);
	return rc ? 1 : 0;
}
