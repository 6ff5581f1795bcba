/*
 * fuzz_limits.c: a libFuzzer target for the negotiator's reading of
 * ConcurrencyLimits lists (negotiator/concurrency.c): names, scopes and
 * amounts in any shape.  What is counted is never negative, a list full
 * with nothing in use is full once it is in use, and nothing may crash,
 * leak or read out of bounds.
 *
 * Linked with replay_main.c it replays a corpus without libFuzzer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "concurrency.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	ks_config *cfg = ks_config_new("NEGOTIATOR", NULL);
	ks_config_set(cfg, "SW_LIMIT", "2", NULL);
	ng_limits *l = ng_limits_new(cfg);
	ng_limits *fresh = ng_limits_new(cfg);
	char which[64];
	ng_limits_take(l, text);
	ng_limits_take(l, text);
	if (ng_limits_used(l, text) < 0)
		abort();
	classad *ad = classad_new();
	ng_limits_publish(l, ad);
	classad_free(ad);
	/* what is full with nothing in use is full with more in use */
	if (ng_limits_full(fresh, text, which, sizeof(which)) &&
	    !ng_limits_full(l, text, which, sizeof(which)))
		abort();
	ng_limits_free(l);
	ng_limits_free(fresh);
	ks_config_free(cfg);
	free(text);
	return 0;
}
