/*
 * ks_assert.h: saying what cannot happen.
 *
 * ALWAYS(x) and NEVER(x) wrap the test of a defensive branch the code
 * keeps although it is thought unreachable:
 *
 *	if (NEVER(slot == NULL))
 *		return KS_EINTERNAL;
 *
 * In a debug build (NDEBUG not defined) they assert, so tests find the
 * branch taken; in a release build they are the plain test and the
 * branch still limps on.  Never wrap input from the network, a
 * configuration file or a job in them: that is bad input, not the
 * impossible, and gets an error message.
 */
#ifndef KS_ASSERT_H
#define KS_ASSERT_H

#include <assert.h>

#ifdef NDEBUG
#define ALWAYS(x) (x)
#define NEVER(x) (x)
#else
#define ALWAYS(x) ((x) ? 1 : (assert(0 && "ALWAYS(" #x ")"), 0))
#define NEVER(x) ((x) ? (assert(0 && "NEVER(" #x ")"), 1) : 0)
#endif

#endif
