/*
 * ks_mem.c: allocation that cannot fail (see ks_mem.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"

void ks_oom(size_t n)
{
	fprintf(stderr, "kestrel: out of memory allocating %zu bytes\n", n);
	abort();
}

void *ks_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		ks_oom(n);
	return p;
}

void *ks_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		ks_oom(n * size);
	return p;
}

void *ks_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		ks_oom(n);
	return q;
}

char *ks_xstrndup(const char *s, size_t n)
{
	char *p = ks_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *ks_xstrdup(const char *s)
{
	return ks_xstrndup(s, strlen(s));
}
