/*
 * sc_events.h: a job's events, written to its event log (the submit
 * file's log, UserLog in the ad, relative to Iwd) and to EVENT_LOG
 * (events.c).
 */
#ifndef SC_EVENTS_H
#define SC_EVENTS_H

#include "sc_schedd.h"

void sc_event_submit(struct sc_schedd *s, struct sc_job *j,
		     const char *warnings);
void sc_event_execute(struct sc_schedd *s, struct sc_job *j,
		      const char *host, const char *slot);
/* result: the starter's result ad */
void sc_event_terminated(struct sc_schedd *s, struct sc_job *j,
			 const classad *result);
void sc_event_evicted(struct sc_schedd *s, struct sc_job *j,
		      const classad *result);
void sc_event_aborted(struct sc_schedd *s, struct sc_job *j,
		      const char *reason);
void sc_event_held(struct sc_schedd *s, struct sc_job *j, const char *reason,
		   int code, int subcode);
void sc_event_released(struct sc_schedd *s, struct sc_job *j,
		       const char *reason);
/* A running job's news from its startd: suspended (num_pids stopped;
 * < 0 unknown), continued, a larger image (KiB; memory_mb and rss_kb
 * < 0 unknown). */
void sc_event_suspended(struct sc_schedd *s, struct sc_job *j, int num_pids);
void sc_event_unsuspended(struct sc_schedd *s, struct sc_job *j);
void sc_event_image_size(struct sc_schedd *s, struct sc_job *j,
			 int64_t image_kb, int64_t memory_mb, int64_t rss_kb);
/* The connection to a running job's startd lost; reconnection follows
 * within the job's lease (022).  Then the run found again on its startd
 * (023), or not (024); also after the schedd's restart.  slot: the
 * slot's name; startd: its address. */
void sc_event_disconnected(struct sc_schedd *s, struct sc_job *j,
			   const char *slot, const char *startd,
			   const char *reason);
void sc_event_reconnected(struct sc_schedd *s, struct sc_job *j,
			  const char *slot, const char *startd);
void sc_event_reconnect_failed(struct sc_schedd *s, struct sc_job *j,
			       const char *slot, const char *reason);

/* File transfer (040) as HTCondor's shadow writes it around a job's
 * input and output: xfer is the KS_USERLOG_XFER_* kind; host, the
 * execution side's address, for the start of the input transfer. */
void sc_event_file_transfer(struct sc_schedd *s, struct sc_job *j, int xfer,
			    const char *host);

#endif
