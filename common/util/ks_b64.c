/* ks_b64.c: base64 and base64url (ks_b64.h). */
#include "ks_b64.h"

#include <stdint.h>
#include <stdlib.h>

#include "ks_err.h"
#include "ks_mem.h"

static const char std_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char url_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

char *ks_b64_encode(const void *data, size_t n, enum ks_b64_kind kind)
{
	const char *a = kind == KS_B64_URL ? url_alphabet : std_alphabet;
	const unsigned char *p = data;
	char *out = ks_xmalloc(n / 3 * 4 + 4 + 1);
	size_t o = 0, i = 0;
	for (; i + 3 <= n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 |
			     p[i + 2];
		out[o++] = a[v >> 18 & 63];
		out[o++] = a[v >> 12 & 63];
		out[o++] = a[v >> 6 & 63];
		out[o++] = a[v & 63];
	}
	if (i < n) {
		uint32_t v = (uint32_t)p[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)p[i + 1] << 8;
		out[o++] = a[v >> 18 & 63];
		out[o++] = a[v >> 12 & 63];
		if (i + 1 < n)
			out[o++] = a[v >> 6 & 63];
		if (kind == KS_B64_STD) {
			if (i + 1 == n)
				out[o++] = '=';
			out[o++] = '=';
		}
	}
	out[o] = '\0';
	return out;
}

static int value_of(char c, enum ks_b64_kind kind)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == (kind == KS_B64_URL ? '-' : '+'))
		return 62;
	if (c == (kind == KS_B64_URL ? '_' : '/'))
		return 63;
	return -1;
}

static int bad(size_t *bad_at, size_t at, unsigned char *buf)
{
	free(buf);
	if (bad_at)
		*bad_at = at;
	return KS_EPARSE;
}

int ks_b64_decode(const char *s, size_t len, enum ks_b64_kind kind,
		  unsigned char **out, size_t *out_len, size_t *bad_at)
{
	*out = NULL;
	*out_len = 0;
	size_t data = len;
	if (kind == KS_B64_STD) {
		if (len % 4)
			return bad(bad_at, len, NULL);
		/* at most two '=', and only at the end */
		while (data > 0 && len - data < 2 && s[data - 1] == '=')
			data--;
		if (data % 4 == 1 || (data % 4 == 0 && data != len))
			return bad(bad_at, data, NULL);
	} else if (len % 4 == 1) {
		/* one leftover character carries only 6 bits: no byte ends
		 * there */
		return bad(bad_at, len, NULL);
	}
	unsigned char *buf = ks_xmalloc(data / 4 * 3 + 3 + 1);
	size_t o = 0;
	uint32_t acc = 0;
	int bits = 0;
	for (size_t i = 0; i < data; i++) {
		int v = value_of(s[i], kind);
		if (v < 0)
			return bad(bad_at, i, buf);
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			buf[o++] = (unsigned char)(acc >> bits);
			acc &= (1u << bits) - 1;
		}
	}
	/* spare bits set would let two texts decode alike */
	if (acc != 0)
		return bad(bad_at, data ? data - 1 : 0, buf);
	buf[o] = '\0';
	*out = buf;
	*out_len = o;
	return 0;
}
