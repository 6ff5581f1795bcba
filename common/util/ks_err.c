/* ks_err.c: error codes and caller-owned error detail. */
#include "ks_err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *ks_strerror(int code)
{
	switch (code) {
#define KS_ERR_CASE(name, value, text) \
	case name:                     \
		return text;
		KS_ERRORS(KS_ERR_CASE)
#undef KS_ERR_CASE
	}
	return "unknown error";
}

void ks_err_clear(struct ks_err *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

int ks_err_set(struct ks_err *err, int code, int line, int col, size_t offset,
	       const char *fmt, ...)
{
	if (!err)
		return code;
	err->code = code;
	err->line = line;
	err->col = col;
	err->offset = offset;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}
