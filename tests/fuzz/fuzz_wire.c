/*
 * fuzz_wire.c: a libFuzzer target for the message decoder
 * (common/net/wire.c) and the address parser (addr.c).  The input is read
 * as a stream of messages, as a daemon reads a connection: each header is
 * decoded, then its payload; ads that decode are encoded again and must
 * decode to the same number of ads.  The input is also parsed as an
 * address and as a token (common/token: what a client presents in the
 * handshake).  Nothing may crash, leak or read out of bounds.
 *
 * Linked with replay_main.c it replays a corpus without libFuzzer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ks_addr.h"
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
