/*
 * concurrency.h: concurrency limits, as HTCondor's negotiator keeps them.
 *
 * A job names the limits it takes in ConcurrencyLimits, a list such as
 * "sw, db:2, license.matlab:0.5": each entry a name (letters, digits and
 * underscores, optionally "scope.name") and an amount (1 when missing,
 * not a number or not above 0).  Names are compared without case.  An
 * entry that is not a valid name is ignored, as HTCondor ignores it.
 *
 * A limit's maximum is the knob <name>_LIMIT; without it
 * CONCURRENCY_LIMIT_DEFAULT_<scope> for a scoped name, else
 * CONCURRENCY_LIMIT_DEFAULT (2308032: in effect no limit).
 *
 * What is in use is counted afresh each cycle from the slot ads (a
 * claimed slot advertises its job's ConcurrencyLimits), and grows with
 * every match the cycle makes.  A request whose limits do not all have
 * room for their amounts is not matched.
 */
#ifndef NG_CONCURRENCY_H
#define NG_CONCURRENCY_H

#include <stdbool.h>
#include <stddef.h>

#include "classad.h"
#include "config.h"

typedef struct ng_limits ng_limits;

/* An empty tally; cfg (borrowed, must outlive it) gives the maxima. */
ng_limits *ng_limits_new(const ks_config *cfg);
void ng_limits_free(ng_limits *l);

/* Counts every limit of list (a ConcurrencyLimits value) as in use. */
void ng_limits_take(ng_limits *l, const char *list);

/* Whether some limit of list has no room for its amount; if so its
 * name (lower case) is copied into which (size bytes). */
bool ng_limits_full(const ng_limits *l, const char *list, char *which,
		    size_t size);

/* ConcurrencyLimit_<name> = amount in use for each limit counted ('.'
 * in a name becomes '_'), as HTCondor's accountant reports them. */
void ng_limits_publish(const ng_limits *l, classad *ad);

/* How much of limit name (any case) is in use. */
double ng_limits_used(const ng_limits *l, const char *name);

#endif
