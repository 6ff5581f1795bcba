/*
 * ks_userlog.h: the job event log ("user log"), writer side, in
 * HTCondor's text format.
 *
 * A submit file's "log = file" names a file that the schedd (and, in
 * HTCondor, the shadow) appends one event to each time something happens
 * to the job; condor_wait, DAGMan and the Python bindings'
 * htcondor.JobEventLog read it.  Those readers parse the text line by
 * line, so the bytes must be HTCondor's: see docs/userlog.md for the
 * format and the list of events.  The EVENT_LOG knob names a second,
 * global log in the same format that receives every job's events.
 *
 * Use: fill a struct ks_userlog_event (ks_userlog_event_init(), then
 * the fields its type reads), then either format it
 * (ks_userlog_format(), pure) or append it to a file
 * (ks_userlog_append(), and ks_userlog_append_global() for EVENT_LOG).
 * Nothing here keeps state between calls: several threads or processes
 * may write the same file at once, each event lands whole.
 *
 * Every pointer in an event is borrowed for the duration of the call.
 * Text fields may be NULL (absent); newlines in them are written as '|'
 * and carriage returns as spaces (as HTCondor does for reasons), so that
 * no text can end an event early.
 */
#ifndef KS_USERLOG_H
#define KS_USERLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "ks_err.h"

/* Event numbers: the three digits that start an event.  Only these are
 * written; the numbers are HTCondor's (ULogEventNumber). */
enum ks_userlog_type {
	KS_USERLOG_SUBMIT = 0,
	KS_USERLOG_EXECUTE = 1,
	KS_USERLOG_EVICTED = 4,
	KS_USERLOG_TERMINATED = 5,
	KS_USERLOG_IMAGE_SIZE = 6,
	KS_USERLOG_SHADOW_EXCEPTION = 7,
	KS_USERLOG_GENERIC = 8,
	KS_USERLOG_ABORTED = 9,
	KS_USERLOG_SUSPENDED = 10,
	KS_USERLOG_UNSUSPENDED = 11,
	KS_USERLOG_HELD = 12,
	KS_USERLOG_RELEASED = 13,
	KS_USERLOG_DISCONNECTED = 22,
	KS_USERLOG_RECONNECTED = 23,
	KS_USERLOG_RECONNECT_FAILED = 24,
	KS_USERLOG_JOB_AD_INFO = 28,
	KS_USERLOG_ATTRIBUTE_UPDATE = 33,
	KS_USERLOG_CLUSTER_SUBMIT = 35,
	KS_USERLOG_CLUSTER_REMOVE = 36,
	KS_USERLOG_FILE_TRANSFER = 40,
};

/* Event 040's kinds, numbered as HTCondor numbers them (the "Type"
 * attribute of the event's ad). */
enum ks_userlog_xfer {
	KS_USERLOG_XFER_IN_QUEUED = 1,   /* Entered queue to transfer input files */
	KS_USERLOG_XFER_IN_STARTED = 2,
	KS_USERLOG_XFER_IN_FINISHED = 3,
	KS_USERLOG_XFER_OUT_QUEUED = 4,
	KS_USERLOG_XFER_OUT_STARTED = 5,
	KS_USERLOG_XFER_OUT_FINISHED = 6,
};

/* Event 036's completion, as HTCondor numbers it. */
enum ks_userlog_completion {
	KS_USERLOG_CLUSTER_ERROR = -1,
	KS_USERLOG_CLUSTER_INCOMPLETE = 0,
	KS_USERLOG_CLUSTER_COMPLETE = 1,
	KS_USERLOG_CLUSTER_PAUSED = 2,
};

/* CPU time, as the "Usr d hh:mm:ss, Sys d hh:mm:ss" lines show it: whole
 * seconds (fractions are dropped, negative values count as 0). */
struct ks_userlog_cpu {
	int64_t user_secs;
	int64_t sys_secs;
};

/*
 * One event.  Which fields each type reads:
 *
 *   000 SUBMIT          submit_host, structured_notes or else notes,
 *                       user_notes, warnings
 *   001 EXECUTE         execute_host, slot_name, execute_props
 *   004 EVICTED         code/subcode (the eviction's reason code, 0 =
 *                       none), checkpointed, requeued, run_remote,
 *                       run_local, sent_bytes, recvd_bytes, reason, usage;
 *                       with requeued also normal, return_value, signal,
 *                       core_file
 *   005 TERMINATED      normal, return_value or signal, core_file, the
 *                       four cpu usages, the four byte counts, usage
 *   006 IMAGE_SIZE      image_size_kb, memory_usage_mb, rss_kb, pss_kb
 *                       (a negative value leaves its line out)
 *   007 SHADOW_EXCEPTION reason (the message), sent_bytes, recvd_bytes
 *   008 GENERIC         info (at most 1023 bytes are kept)
 *   009 ABORTED         reason
 *   010 SUSPENDED       num_pids
 *   011 UNSUSPENDED     -
 *   012 HELD            reason ("Reason unspecified" if none), code, subcode
 *   013 RELEASED        reason
 *   022 DISCONNECTED    reason, startd_name, startd_addr (all required)
 *   023 RECONNECTED     startd_name, startd_addr, starter_addr (required)
 *   024 RECONNECT_FAILED reason, startd_name (required)
 *   028 JOB_AD_INFO     info_ad (required, at least one attribute; see
 *                       ks_userlog_info_ad())
 *   033 ATTRIBUTE_UPDATE attr_name, attr_value, attr_old_value (NULL: the
 *                       "Setting" form instead of "Changing")
 *   035 CLUSTER_SUBMIT  submit_host, structured_notes or else notes,
 *                       user_notes
 *   036 CLUSTER_REMOVE  next_proc_id, next_row, completion, notes
 *   040 FILE_TRANSFER   xfer, queueing_delay (negative: left out),
 *                       xfer_host
 */
struct ks_userlog_event {
	enum ks_userlog_type type;
	int cluster;
	int proc;
	int subproc;               /* always 0 for jobs */
	int64_t time;              /* seconds since the epoch */
	long usec;                 /* 0..999999, shown with SUB_SECOND */

	const char *submit_host;   /* the schedd's sinful string */
	const char *notes;         /* SubmitEventNotes (036: its notes) */
	const char *user_notes;    /* SubmitEventUserNotes */
	const char *warnings;      /* submit warnings, one line */
	const classad *structured_notes; /* ks_userlog_notes_ad() */

	const char *execute_host;  /* the startd's sinful string */
	const char *slot_name;     /* e.g. slot1_1@host */
	const classad *execute_props; /* CondorScratchDir, Cpus, Memory, ... */

	const char *reason;
	int code;
	int subcode;

	bool checkpointed;
	bool requeued;             /* 004: terminated and requeued */
	bool normal;               /* exited (true) or killed by a signal */
	int return_value;
	int signal;
	const char *core_file;
	struct ks_userlog_cpu run_remote;
	struct ks_userlog_cpu run_local;
	struct ks_userlog_cpu total_remote;
	struct ks_userlog_cpu total_local;
	double sent_bytes;         /* by the job (what the schedd received) */
	double recvd_bytes;
	double total_sent_bytes;
	double total_recvd_bytes;
	const classad *usage;      /* ks_userlog_usage_ad(); NULL: no table */

	int64_t image_size_kb;
	int64_t memory_usage_mb;
	int64_t rss_kb;
	int64_t pss_kb;

	const char *info;
	int num_pids;

	const char *startd_name;
	const char *startd_addr;
	const char *starter_addr;

	const classad *info_ad;

	const char *attr_name;
	const char *attr_value;
	const char *attr_old_value;

	int next_proc_id;
	int next_row;
	enum ks_userlog_completion completion;

	enum ks_userlog_xfer xfer;
	int64_t queueing_delay;
	const char *xfer_host;
};

/* Clears ev and sets its type, job id and time (now, from the real-time
 * clock), with HTCondor's defaults for the fields whose zero means
 * something: memory_usage_mb, pss_kb, queueing_delay and num_pids -1
 * (left out), rss_kb 0, normal true. */
void ks_userlog_event_init(struct ks_userlog_event *ev,
			   enum ks_userlog_type type, int cluster, int proc);

/* Format options, HTCondor's formatOpt: how the header's time is shown.
 * Without ISO_DATE the time is the legacy "MM/DD HH:MM:SS". */
enum {
	KS_USERLOG_ISO_DATE = 1u << 0,   /* 2026-11-23 10:11:12 */
	KS_USERLOG_UTC = 1u << 1,        /* UTC instead of local time, with Z */
	KS_USERLOG_SUB_SECOND = 1u << 2, /* .mmm after the seconds */
	/* Writing only: fdatasync() after the event (ENABLE_USERLOG_FSYNC,
	 * EVENT_LOG_FSYNC). */
	KS_USERLOG_FSYNC = 1u << 8,
};

/* A job's log when DEFAULT_USERLOG_FORMAT_OPTIONS is unset. */
#define KS_USERLOG_DEFAULT_OPTS KS_USERLOG_ISO_DATE
/* The global EVENT_LOG when EVENT_LOG_FORMAT_OPTIONS is unset: HTCondor
 * starts that one from no options, i.e. legacy dates. */
#define KS_USERLOG_GLOBAL_DEFAULT_OPTS 0u

/* Reads DEFAULT_USERLOG_FORMAT_OPTIONS or EVENT_LOG_FORMAT_OPTIONS: words
 * separated by commas or spaces, ignoring case, each ISO_DATE, UTC,
 * SUB_SECOND or LEGACY, a leading '!' negating it (!LEGACY means
 * ISO_DATE), applied in order to base.  text may be NULL.  Sets *out and
 * returns 0; unknown words are ignored as HTCondor ignores them.  XML and
 * JSON (HTCondor's other log formats) are not written by kestrel: *out
 * is still set, the text format is used, and KS_EINVAL is returned with
 * err saying so, for the caller to log. */
int ks_userlog_parse_opts(const char *text, unsigned base, unsigned *out,
			  struct ks_err *err);

/* Formats ev as HTCondor writes it: the header line, the body and the
 * "...\n" line that ends every event.  opts: the KS_USERLOG_* format
 * options.  Sets *out to a new NUL-terminated string (free()) and *len
 * (NULL allowed) to its length, and returns 0; or returns KS_EINVAL,
 * with err filled and *out NULL, for an unknown type or an event missing
 * a field its type requires. */
int ks_userlog_format(const struct ks_userlog_event *ev, unsigned opts,
		      char **out, size_t *len, struct ks_err *err);

/* Appends len bytes of text (one or more formatted events) to the file at
 * path in one write(), as HTCondor does: the file is opened with
 * O_APPEND and created mode 0664 (less the umask), missing parent
 * directories are made (0755), and an exclusive flock() is held while
 * writing so that writers that lock do not interleave.  The lock is
 * waited for a few seconds at most; past that the write goes ahead
 * anyway (O_APPEND still keeps one write() in one piece on a local file
 * system) rather than stall a daemon.  A write cut short (disk full) is
 * undone when nobody wrote after it.  "/dev/null" is accepted and not
 * opened.  opts: KS_USERLOG_FSYNC or 0.  Returns 0, or KS_EIO with err
 * naming the file and the reason. */
int ks_userlog_write(const char *path, const char *text, size_t len,
		     unsigned opts, struct ks_err *err);

/* ks_userlog_format() then ks_userlog_write().  Returns 0, KS_EINVAL
 * (bad event) or KS_EIO. */
int ks_userlog_append(const char *path, const struct ks_userlog_event *ev,
		      unsigned opts, struct ks_err *err);

/* The global event log (EVENT_LOG) and its knobs. */
struct ks_userlog_global {
	const char *path;         /* EVENT_LOG */
	const char *creator_name; /* the writing daemon's Name; NULL = "" */
	unsigned opts;            /* EVENT_LOG_FORMAT_OPTIONS, EVENT_LOG_FSYNC */
	int64_t max_size;         /* EVENT_LOG_MAX_SIZE; <= 0: never rotate */
	int max_rotations;        /* EVENT_LOG_MAX_ROTATIONS; 0: never rotate */
};

/* Appends ev to the global log as HTCondor keeps it: a new (empty) file
 * first gets HTCondor's header event, an 008 "Global JobLog: ctime=...
 * id=... sequence=N ..." line padded to 256 bytes; a file that has grown
 * past max_size is first renamed to path.old (max_rotations 1) or
 * path.1 .. path.N (older ones shifted up), and the new file's header
 * carries the next sequence number and the byte offset where it starts.
 * Writers that race to rotate agree through the lock.  Returns 0,
 * KS_EINVAL or KS_EIO (err filled). */
int ks_userlog_append_global(const struct ks_userlog_global *g,
			     const struct ks_userlog_event *ev,
			     struct ks_err *err);

/* The same for events already formatted (ks_userlog_format() with g's
 * options): len bytes of one or more events, written in one write. */
int ks_userlog_write_global(const struct ks_userlog_global *g,
			    const char *events, size_t len, struct ks_err *err);

/* ---- building the ads some events carry, from the job ad ---------- */

/* The usage ad of events 004 and 005 (the "Partitionable Resources"
 * table), made from the job ad as HTCondor's shadow makes it: for each
 * resource of ProvisionedResources (default "Cpus, Disk, Memory"), the
 * evaluated <Res>Provisioned (as <Res>), Request<Res>, <Res>Usage,
 * <Res>AverageUsage, <Res>MemoryUsage and <Res>MemoryAverageUsage when
 * they are numbers, booleans or errors, Assigned<Res> as it is; then
 * ActivationExecutionDuration as TimeExecuteUsage and ActivationDuration
 * as TimeSlotBusyUsage.  Returns a new ad (classad_free()), or NULL if
 * ProvisionedResources names nothing. */
classad *ks_userlog_usage_ad(const classad *job);

/* The structured notes of events 000 and 035 (HTCondor 25.11 and later):
 * the evaluated values of the attributes listed in the job's
 * SubmitEventNotesAttrs, then DAGNodeName and JobBatchName, leaving out
 * undefined and error values.  Returns a new ad (classad_free()), or NULL
 * if none has a value (the plain notes line is then written instead). */
classad *ks_userlog_notes_ad(const classad *job);

/* ev as a ClassAd, the way HTCondor's event-to-ad conversion names its
 * fields (MyType, EventTypeNumber, EventTime, Cluster, Proc, Subproc,
 * then e.g. HoldReason, ReturnValue, RunRemoteUsage ...); EventTime in
 * UTC with a Z if utc.  Returns a new ad (classad_free()). */
classad *ks_userlog_event_ad(const struct ks_userlog_event *ev, bool utc);

/* The ad of the 028 event HTCondor writes after trigger when the job has
 * JobAdInformationAttrs (or EVENT_LOG_JOB_AD_INFORMATION_ATTRS is set,
 * for the global log): trigger's event ad, the listed job attributes that
 * evaluate to a boolean, number or string, TriggerEventTypeNumber,
 * TriggerEventTypeName, and EventTypeNumber 28.  attrs: names separated by
 * commas or spaces.  Returns a new ad (classad_free()); put it in the
 * info_ad of an event of type KS_USERLOG_JOB_AD_INFO with trigger's job
 * id and time. */
classad *ks_userlog_info_ad(const struct ks_userlog_event *trigger,
			    const classad *job, const char *attrs, bool utc);

#endif
