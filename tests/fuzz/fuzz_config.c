/*
 * fuzz_config.c: a libFuzzer target for the configuration reader
 * (common/config): the input is a configuration file.  Every macro it
 * defines is then expanded and read as each type, with and without a
 * subsystem, so that the reader, the expansion and the macro functions
 * all see hostile input.  Nothing may crash, leak, hang or read out of
 * bounds; errors are fine.  Input with an include is skipped.
 *
 * Linked with replay_main.c it replays a corpus without libFuzzer.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Includes read files and run programs ("include command : ...",
 * "... |"), which a fuzzer must not do. */
static bool reads_outside(const char *text)
{
	if (strchr(text, '|'))
		return true;
	for (const char *p = text; *p; p++)
		if (!strncasecmp(p, "include", 7))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 64 * 1024)
		return 0;
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (reads_outside(text)) {
		free(text);
		return 0;
	}
	static const char *subsys[] = {NULL, "STARTD"};
	for (int s = 0; s < 2; s++) {
		ks_config *cfg = ks_config_new(subsys[s], s ? "local" : NULL);
		struct ks_err err;
		ks_config_read_text(cfg, "fuzz", text, size, &err);
		size_t pos = 0;
		const char *name;
		int n = 0;
		while (ks_config_next(cfg, &pos, &name, NULL, NULL) && n++ < 64) {
			char *v = ks_config_get(cfg, name, &err);
			free(v);
			int64_t i;
			double d;
			bool b;
			ks_config_int(cfg, name, &i);
			ks_config_double(cfg, name, &d);
			ks_config_bool(cfg, name, &b);
		}
		char *x = ks_config_expand(cfg, text, &err);
		free(x);
		ks_config_free(cfg);
	}
	free(text);
	return 0;
}
