/*
 * token_int.h: what the parts of common/token share and nobody else sees.
 */
#ifndef KS_TOKEN_INT_H
#define KS_TOKEN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ks_err.h"

/* Largest key or token file read: both are a few hundred bytes, so a big
 * one is a mistake, not something to slurp. */
#define KT_MAX_FILE (1024 * 1024)

/* Reads all of path into a new buffer (free with kt_wipe_free(), plus a
 * NUL past *len).  With secure, the file must be a regular file owned by
 * the effective user with no group or other permission bits, as
 * HTCondor's read_secure_file() demands of keys and tokens.  Returns 0,
 * KS_ENOTFOUND, KS_EPERM, KS_EIO or KS_ERANGE. */
int kt_read_file(const char *path, bool secure, unsigned char **buf,
		 size_t *len, struct ks_err *err);

/* OPENSSL_cleanse() then free(); n bytes.  NULL allowed. */
void kt_wipe_free(void *p, size_t n);

/* A JSON value, as the top-level members of an object are reported.  str
 * is borrowed for the call only.  Nested arrays and objects are checked
 * and reported as KT_J_OTHER. */
enum kt_jtype { KT_J_STR, KT_J_INT, KT_J_NUM, KT_J_BOOL, KT_J_NULL, KT_J_OTHER };
struct kt_jval {
	enum kt_jtype type;
	const char *str; /* KT_J_STR: decoded, no NUL inside */
	int64_t i;       /* KT_J_INT */
	bool b;          /* KT_J_BOOL */
};

/* Parses len bytes of s as one JSON object (RFC 8259, nesting at most 64
 * deep, strings without NUL characters) and calls fn for each top-level
 * member in order; a non-zero return of fn stops and is returned.  Returns
 * 0, fn's code, or KS_EPARSE. */
int kt_json_object(const char *s, size_t len,
		   int (*fn)(void *arg, const char *key,
			     const struct kt_jval *v),
		   void *arg);

#endif
