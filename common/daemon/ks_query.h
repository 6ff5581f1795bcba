/*
 * ks_query.h: what a daemon answering a query ad does with it, the same
 * for the collector's ads and the schedd's jobs: the constraint
 * (Requirements) and the projection (Projection, names separated by
 * spaces or commas; none means whole ads).
 */
#ifndef KS_QUERY_H
#define KS_QUERY_H

#include <stdbool.h>
#include <stddef.h>

#include "classad.h"

/* Whether ad satisfies the constraint req (NULL: every ad does): true
 * only for true or a non-zero integer, as HTCondor's queries. */
bool ks_query_matches(const classad *ad, const classad_expr *req);

struct ks_projection {
	char **names;
	size_t n; /* 0: whole ads */
};

/* Reads query's Projection into p (free with ks_projection_free()). */
void ks_projection_read(const classad *query, struct ks_projection *p);
void ks_projection_free(struct ks_projection *p);

/* Appends ad's wire record (ks_wire_encode_ad()) with only the projected
 * attributes and those of ad their expressions read (again and again, as
 * HTCondor widens a projection), or whole without a projection. */
void ks_projection_encode(struct classad_buf *out, const classad *ad,
			  const struct ks_projection *p);

#endif
