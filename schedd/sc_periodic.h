/*
 * sc_periodic.h: the periodic policy (periodic.c).
 */
#ifndef SC_PERIODIC_H
#define SC_PERIODIC_H

#include "sc_schedd.h"

/* Evaluates every job's periodic expressions and the SYSTEM_PERIODIC_*
 * knobs once, acting on those that fire. */
void sc_periodic_run(struct sc_schedd *s);

#endif
