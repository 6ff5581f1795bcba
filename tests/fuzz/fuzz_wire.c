/*
 * fuzz_wire.c: a libFuzzer target for the message decoder
 * (common/net/wire.c) and the address parser (addr.c).  The input is read
 * as a stream of messages, as a daemon reads a connection: each header is
 * decoded, then its payload; ads that decode are encoded again and must
 * decode to the same number of ads.  The input is also parsed as an
 * address, as a token (common/token: what a client presents in the
 * handshake), and as the value of ALLOW and DENY lists (authz.c), which
 * are then checked.  Nothing may crash, leak or read out of bounds.
 *
 * Linked with replay_main.c it replays a corpus without libFuzzer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ks_addr.h"
#include "ks_auth.h"
#include "ks_token.h"
#include "ks_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void reencode(classad **ads, size_t n)
{
	struct classad_buf b = {0};
	if (ks_wire_encode(&b, 1, ads, n, 0, true, NULL) == 0) {
		struct ks_wire_header h;
		classad **again = NULL;
		size_t m = 0;
		if (ks_wire_header_decode((unsigned char *)b.data, &h, NULL) ||
		    ks_wire_decode(&h, (unsigned char *)b.data + KS_WIRE_HEADER,
				   NULL, &again, &m, NULL) || m != n)
			abort(); /* what we write, we must read back */
		for (size_t i = 0; i < m; i++)
			classad_free(again[i]);
		free(again);
	}
	free(b.data);
}

/* text as ALLOW and DENY lists (NO_DNS: no name is looked up), asked
 * about every level. */
static void authz_lists(const char *text)
{
	ks_config *cfg = ks_config_new("COLLECTOR", NULL);
	ks_config_set(cfg, "NO_DNS", "true", NULL);
	ks_config_set(cfg, "ALLOW_WRITE", text, NULL);
	ks_config_set(cfg, "DENY_DAEMON", text, NULL);
	ks_config_set(cfg, "ALLOW_ADVERTISE_STARTD_COLLECTOR", text, NULL);
	ks_authz *a = ks_authz_new(cfg, "COLLECTOR", "fuzz");
	for (size_t i = 0; ks_authz_problem(a, i); i++)
		;
	static const char *const peers[][2] = {
		{"condor@pool", "127.0.0.1"}, {"a@b", "10.1.2.3"},
		{KS_ANONYMOUS, "::ffff:10.0.0.1"}, {"x@y", "fd00::1"}};
	for (int lv = 0; lv < KS_LEVEL_COUNT; lv++)
		for (size_t p = 0; p < 4; p++) {
			char why[300];
			ks_authz_check(a, (enum ks_level)lv, peers[p][0],
				       peers[p][1], why, sizeof(why));
		}
	ks_authz_free(a);
	ks_config_free(cfg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t pos = 0;
	while (size - pos >= KS_WIRE_HEADER) {
		struct ks_wire_header h;
		if (ks_wire_header_decode(data + pos, &h, NULL))
			break;
		pos += KS_WIRE_HEADER;
		if (h.wire_len > size - pos)
			break;
		classad **ads = NULL;
		size_t n = 0;
		if (ks_wire_decode(&h, data + pos, NULL, &ads, &n, NULL) == 0) {
			reencode(ads, n);
			for (size_t i = 0; i < n; i++)
				classad_free(ads[i]);
			free(ads);
		}
		pos += h.wire_len;
	}
	struct ks_token *t = NULL;
	if (ks_token_parse((const char *)data, size, &t, NULL) == 0)
		ks_token_free(t);
	if (size < 4096) {
		char *text = malloc(size + 1);
		memcpy(text, data, size);
		text[size] = '\0';
		authz_lists(text);
		free(text);
	}
	if (size < 512) {
		char s[512];
		memcpy(s, data, size);
		s[size] = '\0';
		struct ks_addr a;
		if (ks_addr_parse(s, 9618, &a, NULL) == 0) {
			char out[400];
			ks_addr_format(&a, out, sizeof(out));
		}
	}
	return 0;
}
