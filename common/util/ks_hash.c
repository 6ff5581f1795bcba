/* ks_hash.c: 64-bit FNV-1a (ks_hash.h). */
#include "ks_hash.h"

#define FNV_OFFSET 14695981039346656037ull
#define FNV_PRIME 1099511628211ull

uint64_t ks_hash(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = FNV_OFFSET;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * FNV_PRIME;
	return h;
}

uint64_t ks_hash_ci(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = FNV_OFFSET;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];
		/* ASCII only, not tolower(): a locale must not move names */
		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		h = (h ^ c) * FNV_PRIME;
	}
	return h;
}
