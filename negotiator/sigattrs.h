/*
 * sigattrs.h: the job attributes the slots look at (AutoClusterAttrs).
 */
#ifndef NG_SIGATTRS_H
#define NG_SIGATTRS_H

#include <stddef.h>

#include "classad.h"

/* The names of the job attributes that the n slot ads read, as
 * HTCondor's negotiator sends them to schedds with NEGOTIATE: every
 * attribute reference of every slot ad expression (lists aside) to the
 * other ad of a match (TARGET.x, and plain names the slot ad does not
 * define).  Jobs that differ in none of them look alike to every slot,
 * so a schedd may group them in one autocluster.  Returns a new string
 * (free()), names sorted and separated by commas; "" for none. */
char *ng_significant_attrs(classad *const *ads, size_t n);

#endif
