/*
 * str.c: allocation, reference-counted strings, hashing and text buffers.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "classad_int.h"

uint32_t ca_hash_ci(const char *s, size_t len)
{
	/* Eight bytes at a time, with bit 5 set in every byte so that the
	 * two cases of a letter hash alike (other bytes may collide, which
	 * the comparison after the hash sorts out). */
	const uint64_t fold = 0x2020202020202020ull;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len;
	while (len >= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = (h ^ (w | fold)) * 0xff51afd7ed558ccdull;
		h ^= h >> 29;
		s += 8;
		len -= 8;
	}
	uint64_t w = 0;
	memcpy(&w, s, len);
	w |= fold & ((len == 0) ? 0 : (~0ull >> (64 - 8 * len)));
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 32;
	return (uint32_t)h;
}

uint64_t ca_hash_bytes(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (len * 0xff51afd7ed558ccdull);
	while (len >= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x100000001b3ull;
		h ^= h >> 29;
		s += 8;
		len -= 8;
	}
	uint64_t w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 32;
	return h;
}

struct ca_str *ca_str_new(const char *s, size_t len)
{
	if (len > UINT32_MAX - 16)
		ks_oom(len);
	struct ca_str *p = ks_xmalloc(sizeof(*p) + len + 1);
	p->refs = 1;
	p->len = (uint32_t)len;
	p->hash = ca_hash_ci(s, len);
	if (len)
		memcpy(p->s, s, len);
	p->s[len] = '\0';
	return p;
}

void ca_str_unref(struct ca_str *s)
{
	if (s && --s->refs == 0)
		free(s);
}

/* A buffer this big asks for huge pages: a long listing fills tens of
 * megabytes, and faulting them in 4 KiB at a time cost a quarter of
 * condor_status -long.  The advice covers whole pages, up to the ends of
 * the buffer's own mapping, so that the mapping stays one piece that
 * realloc() can still move without copying.  Only a hint. */
#define HUGE_BUF (4u << 20)

static void advise_huge(char *data, size_t cap)
{
#ifdef MADV_HUGEPAGE
	uintptr_t page = 4096;
	uintptr_t from = (uintptr_t)data & ~(page - 1);
	uintptr_t to = ((uintptr_t)data + cap + page - 1) & ~(page - 1);
	madvise((void *)from, to - from, MADV_HUGEPAGE);
#else
	(void)data;
	(void)cap;
#endif
}

void classad_buf_reserve(struct classad_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	b->data = ks_xrealloc(b->data, cap);
	b->cap = cap;
	if (cap >= HUGE_BUF)
		advise_huge(b->data, cap);
}

void classad_buf_add(struct classad_buf *b, const char *s, size_t n)
{
	classad_buf_reserve(b, n);
	if (n)
		memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void classad_buf_puts(struct classad_buf *b, const char *s)
{
	classad_buf_add(b, s, strlen(s));
}

void classad_buf_putc(struct classad_buf *b, char c)
{
	classad_buf_add(b, &c, 1);
}

void classad_buf_printf(struct classad_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char tmp[128];
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(tmp)) {
		classad_buf_add(b, tmp, (size_t)n);
		return;
	}
	classad_buf_reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void ca_buf_add_int(struct classad_buf *b, int64_t i)
{
	char tmp[24];
	char *p = tmp + sizeof(tmp);
	/* Work in unsigned so that INT64_MIN negates without overflow. */
	uint64_t u = i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (i < 0)
		*--p = '-';
	classad_buf_add(b, p, (size_t)(tmp + sizeof(tmp) - p));
}

char *ca_buf_take(struct classad_buf *b)
{
	char *s = b->data;
	if (!s)
		s = ks_xstrndup("", 0);
	b->data = NULL;
	b->len = b->cap = 0;
	return s;
}
