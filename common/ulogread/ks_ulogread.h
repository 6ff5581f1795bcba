/*
 * ks_ulogread.h: the job event log, reader side: cuts the text HTCondor
 * (and common/userlog) writes into events and reads each event's header.
 *
 * A log is read while it grows: the writer appends whole events, but a
 * reader may see part of one (a write in progress, or a read that ended
 * mid-line).  So the caller feeds the reader whatever bytes it has read,
 * in pieces of any size, and takes out the events that are complete,
 * i.e. ended by their "..." line; the rest waits for more bytes.
 *
 * Only the header line is interpreted: "NNN (C.P.S) DATE TIME text",
 * DATE and TIME in either of HTCondor's forms (ISO "2026-11-23
 * 10:11:12[.mmm][Z]" or legacy "11/23 10:11:12").  The body is handed
 * back as text.  Use:
 *
 *   ks_ulogread *r = ks_ulogread_new();
 *   ks_ulogread_feed(r, buf, n, &err);            (as bytes arrive)
 *   while ((rc = ks_ulogread_next(r, &ev, &err)) == 1) ...use ev...
 *   ks_ulogread_free(r);
 *
 * Nothing is shared between readers; a reader is not thread-safe.
 * Prefix: ks_ulogread_.
 */
#ifndef KS_ULOGREAD_H
#define KS_ULOGREAD_H

#include <stddef.h>

#include "ks_err.h"

typedef struct ks_ulogread ks_ulogread;

/* An event larger than this (header to "...") is refused: no writer makes
 * one, and a reader must not grow without bound on a file that is not a
 * log. */
#define KS_ULOGREAD_MAX_EVENT (4u << 20)

/* One event.  The pointers are borrowed from the reader: valid until its
 * next ks_ulogread_feed(), ks_ulogread_next() or ks_ulogread_free(). */
struct ks_ulogread_event {
	int type;           /* the event number (5 for "005") */
	int cluster;        /* -1 in the global log's header event */
	int proc;
	int subproc;
	const char *date;   /* the header's date and time, as written */
	const char *what;   /* the rest of the header line, e.g. "Job
			       executing on host: <1.2.3.4:9618>" (NUL-
			       terminated, no newline) */
	const char *text;   /* the whole event, header line to "...\n",
			       as read (not NUL-terminated) */
	size_t text_len;
	long line;          /* the header's line number in the log (1-based) */
};

/* Returns a new reader (free with ks_ulogread_free()); aborts when out of
 * memory, as ks_mem's allocators do. */
ks_ulogread *ks_ulogread_new(void);

/* NULL allowed. */
void ks_ulogread_free(ks_ulogread *r);

/* Appends n bytes (the next bytes of the log; any content, NULs
 * included).  Returns 0, or KS_ERANGE when the event being collected
 * passes KS_ULOGREAD_MAX_EVENT (err says at which line; the reader is
 * then unusable: free it). */
int ks_ulogread_feed(ks_ulogread *r, const char *buf, size_t n,
		     struct ks_err *err);

/* Takes the next complete event: returns 1 with *ev filled, 0 when no
 * event is complete yet (feed more), or KS_EPARSE when the next event's
 * first line is not an event header (err says which line and why; that
 * event is skipped, so the call after goes on with the one after it).
 * Blank lines between events are skipped. */
int ks_ulogread_next(ks_ulogread *r, struct ks_ulogread_event *ev,
		     struct ks_err *err);

/* The address in an execute event's header ("Job executing on host:
 * <addr>"): a pointer into ev->what, or "" when it has none. */
const char *ks_ulogread_execute_host(const struct ks_ulogread_event *ev);

#endif
