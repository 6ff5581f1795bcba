/*
 * ks_name.c: names that ignore case (see ks_name.h).
 */
#include "ks_name.h"

#include <string.h>

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

int ks_name_cmp(const char *name, size_t len, const char *key)
{
	for (size_t i = 0; i < len; i++) {
		int a = lower((unsigned char)name[i]);
		int b = lower((unsigned char)key[i]);
		if (!b || a != b)
			return a - b;
	}
	return key[len] ? -1 : 0;
}

const void *ks_name_find(const char *name, size_t len, const void *table,
			 size_t n, size_t size)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const void *e = (const char *)table + mid * size;
		int c = ks_name_cmp(name, len, *(const char *const *)e);
		if (c == 0)
			return e;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static bool ascii_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool ks_name_is_attr(const char *s, size_t len)
{
	if (!len || !(ascii_alpha(s[0]) || s[0] == '_'))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!ascii_alpha(s[i]) && !(s[i] >= '0' && s[i] <= '9') &&
		    s[i] != '_')
			return false;
	return true;
}

bool ks_name_is_limit(const char *s, size_t len)
{
	const char *dot = memchr(s, '.', len);
	if (!dot)
		return ks_name_is_attr(s, len);
	size_t head = (size_t)(dot - s);
	return ks_name_is_attr(s, head) &&
	       ks_name_is_attr(dot + 1, len - head - 1);
}
