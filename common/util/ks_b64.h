/*
 * ks_b64.h: base64, in the two forms kestrel carries: the standard one
 * with '=' padding (file contents in file transfer) and base64url
 * without padding (the parts of a JWT token).  Decoding is strict: only
 * the text the encoder would write for some bytes is taken (no blanks, no
 * bits set past the data), so that one content has one text.
 */
#ifndef KS_B64_H
#define KS_B64_H

#include <stddef.h>

enum ks_b64_kind {
	KS_B64_STD, /* A-Z a-z 0-9 + /, padded with '=' to a multiple of 4 */
	KS_B64_URL, /* A-Z a-z 0-9 - _, no padding */
};

/* n bytes of data as base64.  New string (free()). */
char *ks_b64_encode(const void *data, size_t n, enum ks_b64_kind kind);

/* Decodes len characters of s.  *out is new (free(); NUL-terminated for
 * convenience), *out_len its length.  Returns 0, or KS_EPARSE with
 * *bad_at (NULL allowed) the offset where the text goes wrong. */
int ks_b64_decode(const char *s, size_t len, enum ks_b64_kind kind,
		  unsigned char **out, size_t *out_len, size_t *bad_at);

#endif
