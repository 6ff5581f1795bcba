/* b64.c: base64url without padding, the encoding of every JWT part. */
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "ks_token.h"

static const char alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

char *ks_token_b64url_encode(const void *data, size_t n)
{
	const unsigned char *p = data;
	char *out = ks_xmalloc(n / 3 * 4 + 4 + 1);
	size_t o = 0, i = 0;
	for (; i + 3 <= n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		out[o++] = alphabet[v >> 18 & 63];
		out[o++] = alphabet[v >> 12 & 63];
		out[o++] = alphabet[v >> 6 & 63];
		out[o++] = alphabet[v & 63];
	}
	if (n - i == 1) {
		uint32_t v = (uint32_t)p[i] << 16;
		out[o++] = alphabet[v >> 18 & 63];
		out[o++] = alphabet[v >> 12 & 63];
	} else if (n - i == 2) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8;
		out[o++] = alphabet[v >> 18 & 63];
		out[o++] = alphabet[v >> 12 & 63];
		out[o++] = alphabet[v >> 6 & 63];
	}
	out[o] = '\0';
	return out;
}

static int value_of(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '-')
		return 62;
	if (c == '_')
		return 63;
	return -1;
}

int ks_token_b64url_decode(const char *s, size_t len, unsigned char **out,
			   size_t *out_len)
{
	/* One leftover character carries only 6 bits: no byte ends there. */
	if (len % 4 == 1)
		return KS_EPARSE;
	unsigned char *buf = ks_xmalloc(len / 4 * 3 + 3 + 1);
	size_t o = 0;
	uint32_t acc = 0;
	int bits = 0;
	for (size_t i = 0; i < len; i++) {
		int v = value_of(s[i]);
		if (v < 0) {
			free(buf);
			return KS_EPARSE;
		}
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			buf[o++] = (unsigned char)(acc >> bits);
			acc &= (1u << bits) - 1;
		}
	}
	/* Non-zero spare bits would let two texts decode alike, and the
	 * signature covers the text, not the bytes. */
	if (acc != 0) {
		free(buf);
		return KS_EPARSE;
	}
	buf[o] = '\0';
	*out = buf;
	*out_len = o;
	return 0;
}
