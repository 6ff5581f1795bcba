/* ks_text.c: small text helpers (ks_text.h). */
#include "ks_text.h"

#include <ctype.h>
#include <string.h>

#include "ks_mem.h"

char *ks_trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

char *ks_read_all(FILE *f, size_t *len)
{
	size_t cap = 8192, n = 0, r;
	char *buf = ks_xmalloc(cap);
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n < 2)
			buf = ks_xrealloc(buf, cap *= 2);
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}
