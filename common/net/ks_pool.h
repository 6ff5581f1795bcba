/*
 * ks_pool.h: the pool's address book: where its collector, schedds and
 * negotiator are (configuration, address files, the collector's ads),
 * and the collector queries that answer it.  Each call blocks for one
 * round trip to the collector at most: for tools, and for a daemon's
 * rare look-ups (a restarted startd's new address).
 */
#ifndef KS_POOL_H
#define KS_POOL_H

#include <stddef.h>

#include "classad.h"
#include "config.h"
#include "ks_err.h"
#include "ks_wire.h"

/* The collector to talk to: pool ("host[:port]" or a sinful string) if not
 * NULL, else COLLECTOR_HOST; a port of 0 (a personal pool) is resolved by
 * reading COLLECTOR_ADDRESS_FILE.  Returns a new string (free()) in
 * *addr. */
int ks_collector_addr(const ks_config *cfg, const char *pool, char **addr,
		      struct ks_err *err);

/* The schedd a job tool talks to: with name, the schedd of that Name
 * (asked of the collector of pool, or COLLECTOR_HOST); without, this
 * host's schedd: SCHEDD_ADDRESS_FILE when it is there, else the
 * collector's ad of the schedd named as this host's would be (SCHEDD_NAME
 * or the host name).  Sets *addr (new string) and *found_name (new
 * string, NULL allowed: the schedd's Name) and returns 0, or KS_ENOTFOUND
 * with err filled. */
int ks_schedd_addr(const ks_config *cfg, const char *name, const char *pool,
		   char **addr, char **found_name, struct ks_err *err);

/* Sends a query to the collector and collects the whole answer.  command
 * is a QUERY_*_ADS code (ks_commands.h); query is the query ad as
 * HTCondor's tools send it: MyType = "Query", TargetType = "Machine"
 * (or "Scheduler", "Any", ...), Requirements = the constraint (true for
 * none), optionally Projection = "Name Cpus Memory" (space-separated
 * attributes; missing or "" for all) and LimitResults = N.
 * On success *ads is a new array of new ads (ks_ads_free()). */
int ks_collector_query(const ks_config *cfg, const char *pool, int command,
		       const classad *query, classad ***ads, size_t *n,
		       struct ks_err *err);

/* The address of the pool's negotiator (the one named name, when not
 * NULL), from its ad in the collector: its NegotiatorIpAddr, else its
 * MyAddress.  A new string (free()), or NULL with err set (the query
 * failed, or no such negotiator). */
char *ks_negotiator_addr(const ks_config *cfg, const char *pool,
			 const char *name, struct ks_err *err);

/* The same query, handing each ad's record to each() as it arrives (to
 * parse with ks_wire_record_parse(), or read as text), so a caller can
 * work while the rest is still on its way and need not hold every ad at
 * once.  each() returns 0 to go on; anything else abandons the query
 * (KS_ECANCELED).  Records that came before a failure have been seen. */
int ks_collector_query_each(const ks_config *cfg, const char *pool,
			    int command, const classad *query,
			    ks_wire_record_fn each, void *arg,
			    struct ks_err *err);

#endif
