/*
 * userlog_int.h: what the files of common/userlog share.
 */
#ifndef USERLOG_INT_H
#define USERLOG_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "classad.h"
#include "ks_userlog.h"

/* One attribute of an ad, for the sorted listings. */
struct ul_attr {
	const char *name;        /* borrowed from the ad */
	const classad_expr *e;   /* borrowed from the ad */
};

/* The orders HTCondor lists attributes in. */
enum ul_order {
	UL_ORDER_BYTES,    /* strcmp: sPrintAd's "human" sort (028) */
	UL_ORDER_NOCASE,   /* strcasecmp: a References set (001's props) */
	UL_ORDER_FLATMAP,  /* length, then strcasecmp: a ClassAd's own order */
};

/* The attributes of ad, with those of its chained parent that ad does not
 * override when with_parent, in the given order.  Returns a new array
 * (free()) of *n entries; NULL when *n is 0. */
struct ul_attr *ul_attrs_sorted(const classad *ad, bool with_parent,
				enum ul_order order, size_t *n);

/* Appends at most max bytes of s (NULL: nothing) with '\n' written as
 * '|' and '\r' as ' '. */
void ul_add_text(struct classad_buf *b, const char *s, size_t max);

/* HTCondor's names of an event: MyType in its ad ("JobHeldEvent") and
 * its ULOG_ name ("ULOG_JOB_HELD").  NULL for an unknown type. */
const char *ul_my_type(int type);
const char *ul_number_name(int type);

/* The "Usr d hh:mm:ss, Sys d hh:mm:ss" text of a cpu usage. */
void ul_add_cpu(struct classad_buf *b, const struct ks_userlog_cpu *c);

/* ISO 8601 date and time "YYYY-MM-DDTHH:MM:SS" (".mmm" when usec is not
 * 0, "Z" when utc) into buf of at least 32 bytes. */
void ul_iso_time(char *buf, size_t size, int64_t t, long usec, bool utc);

#endif
