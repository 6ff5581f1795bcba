/*
 * ks_err.h: kestrel's one error space.
 *
 * Every module returns an int status: 0 for success, a negative KS_E* code
 * for failure.  Detail for the user goes into a caller-owned struct ks_err
 * (NULL allowed), which says what went wrong and, for text input, where.
 */
#ifndef KS_ERR_H
#define KS_ERR_H

#include <stddef.h>

/* X(name, value, text) */
#define KS_ERRORS(X)                                                        \
	X(KS_OK, 0, "success")                                              \
	X(KS_ENOMEM, -1, "out of memory")                                   \
	X(KS_EINVAL, -2, "invalid argument")                                \
	X(KS_EPARSE, -3, "syntax error")                                    \
	X(KS_ENOTFOUND, -4, "not found")                                    \
	X(KS_ERANGE, -5, "value out of range")                              \
	X(KS_EIO, -6, "input/output error")                                 \
	X(KS_EEVAL, -7, "evaluation failed")                                \
	X(KS_EEXIST, -8, "already exists")                                  \
	X(KS_EINTERNAL, -9, "internal error")                               \
	X(KS_ECONNECT, -10, "cannot connect")                               \
	X(KS_ETIMEDOUT, -11, "timed out")                                   \
	X(KS_EPROTO, -12, "protocol error")                                 \
	X(KS_EPERM, -13, "not authorized")                                  \
	X(KS_EAUTH, -14, "authentication failed")                           \
	X(KS_ECANCELED, -15, "cancelled")

enum ks_errcode {
#define KS_ERR_ENUM(name, value, text) name = value,
	KS_ERRORS(KS_ERR_ENUM)
#undef KS_ERR_ENUM
};

/* Where and why an operation failed.  line and col are 1-based; 0 means
 * "not applicable".  offset is the byte offset into the input. */
struct ks_err {
	int code;         /* a KS_E* value */
	int line;
	int col;
	size_t offset;
	char msg[256];
};

/* Returns a static description of a KS_E* code (never NULL). */
const char *ks_strerror(int code);

/* Clears err (NULL allowed). */
void ks_err_clear(struct ks_err *err);

/* Fills err (NULL allowed) with code, position and a printf-style message;
 * returns code so that callers can write `return ks_err_set(...)`. */
int ks_err_set(struct ks_err *err, int code, int line, int col, size_t offset,
	       const char *fmt, ...) __attribute__((format(printf, 6, 7)));

#endif
