/* main.c: the condor_status command (the work is in the ks_status library). */
#include <stdio.h>

#include <malloc.h>

#include "status.h"

int main(int argc, char **argv)
{
	/* A fixed threshold keeps big buffers (a long listing's text grows to
	 * tens of megabytes) in their own mappings, which realloc() moves
	 * without copying; glibc's sliding one put them in the heap, where
	 * each doubling copied and faulted everything in again. */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
	return st_main(argc, (const char *const *)argv, stdout, stderr);
}
