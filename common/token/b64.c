/* b64.c: base64url without padding, the encoding of every JWT part
 * (common/util/ks_b64.h does the work). */
#include "ks_b64.h"
#include "ks_token.h"

char *ks_token_b64url_encode(const void *data, size_t n)
{
	return ks_b64_encode(data, n, KS_B64_URL);
}

int ks_token_b64url_decode(const char *s, size_t len, unsigned char **out,
			   size_t *out_len)
{
	return ks_b64_decode(s, len, KS_B64_URL, out, out_len, NULL);
}
