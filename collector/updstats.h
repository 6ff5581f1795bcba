/*
 * updstats.h: the update statistics the collector keeps for each daemon's
 * ad and publishes in it, as HTCondor's does (COLLECTOR_DAEMON_STATS):
 * UpdatesTotal, UpdatesSequenced, UpdatesLost (updates whose
 * UpdateSequenceNumber never arrived, from the same DaemonStartTime) and
 * UpdatesHistory, the last COLLECTOR_DAEMON_HISTORY_SIZE updates as hex
 * digits, newest first, a 1 bit for each lost one.
 */
#ifndef CS_UPDSTATS_H
#define CS_UPDSTATS_H

#include <stdint.h>

#include "classad.h"

struct cs_updstats;

/* New statistics with room for history_size updates (0: no history).
 * Free with free(). */
struct cs_updstats *cs_updstats_new(int history_size);

/* Counts the update that replaces old (NULL for the first) with ad. */
void cs_updstats_record(struct cs_updstats *s, const classad *old,
			const classad *ad);

/* Writes the four attributes into ad. */
void cs_updstats_publish(const struct cs_updstats *s, classad *ad);

#endif
