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
	UP_GROUP = 0x0001,      /* Group Id */
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
	UP_USERS_QUOTAS = 0x100000, /* in avail: users' records have quotas */
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
	/* groups */
	double eff_quota, cfg_quota, tree_quota, sort_key;
	int surplus;       /* UP_SURPLUS_* */
	int group_id;      /* 0: "<none>" and its users; < 0: not known yet */
	double display_order;
};

enum { UP_SURPLUS_UNSET, UP_SURPLUS_NONE, UP_SURPLUS_REGROUP,
       UP_SURPLUS_BYQUOTA, UP_SURPLUS_UNKNOWN };

/* How the table is laid out, from the command line. */
struct up_view {
	int detail;        /* the columns asked for (0: the default) */
	bool dash_quota;   /* -quotas or -surplus given */
	bool hier;         /* users under their groups (the default) */
	bool dash_hier;    /* -hierarchical or -flat given */
	bool group_order;  /* -grouporder */
	bool rollup;       /* -grouprollup */
	time_t min_last;   /* records last used before: not shown (-1: all) */
};

/* The records of a GET_PRIORITY ad (Name1, Priority1, ... up to
 * NumSubmittors).  *avail gets the columns some record has data for.
 * Returns a new array (up_recs_free()) of *n. */
struct up_rec *up_recs_from_ad(const classad *ad, size_t *n, int *avail,
			       bool rollup);
void up_recs_free(struct up_rec *r, size_t n);

/* Prints HTCondor's table: "Last Priority Update: ...", the headings,
 * one line per group and submitter last active at or after
 * v->min_last, the users under their groups unless -flat, and the
 * totals.  Groups and their quota columns are left out when every user
 * shown is in the "<none>" group, as HTCondor does. */
void up_print_table(FILE *out, struct up_rec *r, size_t n, int avail,
		    const struct up_view *v, time_t last_update);

/* Prints each record as an ad ("Name = value" lines, a blank line
 * after each), with LastUpdate, as HTCondor's condor_userprio -l shows
 * accounting ads. */
void up_print_long(FILE *out, const classad *ad);

#endif
