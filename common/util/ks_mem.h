/*
 * ks_mem.h: allocation that cannot fail.
 *
 * kestrel's daemons and libraries do not try to limp on without memory:
 * these allocate or print what they could not get and abort.  Every
 * pointer returned is freed with free().
 */
#ifndef KS_MEM_H
#define KS_MEM_H

#include <stddef.h>

/* Like malloc(), calloc() and realloc(), but never NULL (n == 0 gives a
 * valid pointer too). */
void *ks_xmalloc(size_t n);
void *ks_xcalloc(size_t n, size_t size);
void *ks_xrealloc(void *p, size_t n);
/* A NUL-terminated copy of n bytes of s, or of all of s. */
char *ks_xstrndup(const char *s, size_t n);
char *ks_xstrdup(const char *s);
/* Reports a failed allocation of n bytes and aborts. */
_Noreturn void ks_oom(size_t n);

#endif
