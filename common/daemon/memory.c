/*
 * memory.c: a daemon gives memory back once what used it has gone
 * (daemon_int.h).
 *
 * glibc's malloc serves a block of at least its mmap threshold from a
 * mapping of its own, unmapped when freed; smaller blocks come from the
 * heap, whose free pages go back to the system only from its top, past
 * the trim threshold.  By default both thresholds slide: freeing a
 * mapped block of 10 MB raises the mmap threshold to 10 MB and the trim
 * threshold to 20 MB, so that every later block of that size (the next
 * message's buffer, its parse, its reply) comes from the heap and stays
 * there.  One 10 MB attribute left a collector or a schedd 20 to 50 MB
 * larger for good.  Fixed thresholds keep large blocks in their own
 * mappings; what small blocks leave free inside the heap is given back
 * by the sweep below.
 */
#include "daemon_int.h"

#include <malloc.h>

/* Blocks from 1 MiB up get a mapping of their own.  Below it are the
 * buffers of the common path (a query's piece of reply, a connection's
 * input), which the heap serves without a system call; from 1 MiB on a
 * block's mapping costs little beside filling it. */
#define MMAP_FROM (1u << 20)
/* The heap keeps up to this much free at its top for the next blocks
 * rather than give it back and fault it in again. */
#define TRIM_KEEP (4u << 20)
/* The sweep gives free heap pages back once this much more is free than
 * at the last time it did (or since: blocks reused lower the mark). */
#define FREE_KEEP (8u << 20)

void kd_memory_setup(void)
{
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, MMAP_FROM);
	mallopt(M_TRIM_THRESHOLD, TRIM_KEEP);
#endif
}

void kd_memory_sweep(ks_daemon *d)
{
#ifdef __GLIBC__
	/* Pages given back still count as free, so the mark is what was
	 * free then: only what has been freed since is worth a trim. */
	struct ks_daemon_priv *p = d->priv;
	struct mallinfo2 mi = mallinfo2();
	if (mi.fordblks < p->heap_free_mark)
		p->heap_free_mark = mi.fordblks;
	if (mi.fordblks - p->heap_free_mark <= FREE_KEEP)
		return;
	p->heap_free_mark = mi.fordblks;
	/* pages of free blocks anywhere in the heap, not only its top */
	malloc_trim(0);
	ks_log_printf(d->log, KS_D_FULLDEBUG,
		      "gave free heap pages back to the system (%zu KiB free "
		      "of a %zu KiB heap)", mi.fordblks >> 10, mi.arena >> 10);
#else
	(void)d;
#endif
}
