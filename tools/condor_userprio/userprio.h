/*
 * userprio.h: condor_userprio's pieces: the records of the accountant
 * (from the ad GET_PRIORITY answers) and HTCondor's table of them.
 * Prefix up_.
 */
#ifndef UP_USERPRIO_H
#define UP_USERPRIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "classad.h"

/* The columns, as HTCondor's condor_userprio names its detail flags. */
enum {
	UP_GROUP = 0x0001,      /* Group Id (not shown by kestrel) */
	UP_PRIORITY = 0x0002,
	UP_FACTOR = 0x0004,
	UP_RES_USED = 0x0010,
	UP_WT_RES_USED = 0x0020,
	UP_USE_TIME1 = 0x0040,  /* usage start time */
	UP_USE_TIME2 = 0x0080,  /* last usage time */
	UP_EFF_QUOTA = 0x0100,
	UP_CFG_QUOTA = 0x0200,
	UP_SURPLUS = 0x0400,
	UP_TREE_QUOTA = 0x0800,
	UP_REAL_PRIO = 0x1000,
	UP_SORT_KEY = 0x2000,
	UP_USE_DELTA = 0x4000,
	UP_ORDER = 0x8000,
	UP_REQUESTED = 0x10000,
	UP_CEILING = 0x20000,
	UP_FLOOR = 0x40000,
	UP_PRIOS = UP_PRIORITY | UP_FACTOR | UP_REAL_PRIO,
	UP_USAGE = UP_RES_USED | UP_WT_RES_USED,
	UP_QUOTAS = UP_EFF_QUOTA | UP_CFG_QUOTA | UP_TREE_QUOTA | UP_SURPLUS |
		    UP_REQUESTED,
	UP_MOST = UP_CFG_QUOTA | UP_SURPLUS | UP_PRIORITY | UP_FACTOR |
		  UP_USAGE | UP_USE_DELTA | UP_REQUESTED | UP_CEILING |
		  UP_FLOOR,
	UP_ALL = UP_MOST | UP_QUOTAS | UP_PRIOS | UP_USE_TIME1 | UP_USE_TIME2,
};

/* One submitter or group of the accountant. */
struct up_rec {
	char *name;
	char *group;       /* AccountingGroup ("<none>") */
	bool is_group;
	double priority;   /* effective */
	double factor;
	int64_t res;       /* ResourcesUsed */
	double wt_res;     /* WeightedResourcesUsed */
	double acc_usage;  /* WeightedAccumulatedUsage, seconds */
	double requested, ceiling, floor;
	int64_t begin, last; /* usage start, last usage (-1: never) */
	int has;           /* the columns it has data for */
	size_t index;      /* from 1, as numbered in the ad */
};

/* The records of a GET_PRIORITY ad (Name1, Priority1, ... up to
 * NumSubmittors).  *avail gets the columns some record has data for.
 * Returns a new array (up_recs_free()) of *n. */
struct up_rec *up_recs_from_ad(const classad *ad, size_t *n, int *avail);
void up_recs_free(struct up_rec *r, size_t n);

/* Prints HTCondor's table: "Last Priority Update: ...", the headings,
 * one line per submitter last active at or after min_last (-1: all),
 * and the totals.  detail: the columns asked for (0: the default). */
void up_print_table(FILE *out, struct up_rec *r, size_t n, int avail,
		    int detail, time_t last_update, time_t min_last);

/* Prints each record as an ad ("Name = value" lines, a blank line
 * after each), with LastUpdate, as HTCondor's condor_userprio -l shows
 * accounting ads. */
void up_print_long(FILE *out, const classad *ad);

#endif
