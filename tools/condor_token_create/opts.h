/*
 * opts.h: HTCondor's rule for tool options, shared by the token tools.
 *
 * "-name" may be abbreviated to at least min characters; "--name" must be
 * spelled out.  Case matters, as in HTCondor.  With colon, "-name:ARG" is
 * allowed too and *arg points after the colon (else NULL).
 */
#ifndef KS_TOKEN_TOOL_OPTS_H
#define KS_TOKEN_TOOL_OPTS_H

#include <stdbool.h>
#include <string.h>

static inline bool tool_opt(const char *a, const char *name, size_t min,
			    bool colon, const char **arg)
{
	if (arg)
		*arg = NULL;
	if (a[0] != '-')
		return false;
	bool exact = a[1] == '-';
	a += exact ? 2 : 1;
	size_t n = strlen(a);
	const char *c = colon ? strchr(a, ':') : NULL;
	if (c) {
		n = (size_t)(c - a);
		if (arg)
			*arg = c + 1;
	}
	if (n == 0 || n > strlen(name) || strncmp(a, name, n) != 0)
		return false;
	return exact ? n == strlen(name) : n >= min;
}

#endif
