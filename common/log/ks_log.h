/*
 * ks_log.h: a daemon's log file, the way HTCondor's daemons write theirs.
 *
 * One ks_log per daemon, owned by the daemon's context (no global state);
 * it owns its open files and copies of the strings it was given.  A
 * ks_log belongs to one thread at a time.
 *
 * Configuration, as HTCondor reads it:
 * - <SUBSYS>_LOG: the file (default $(LOG)/<Name>Log as HTCondor names
 *   them, e.g. CollectorLog, SchedLog; "2>" is standard error, "1>"
 *   standard output).
 * - ALL_DEBUG merged with <SUBSYS>_DEBUG: the categories written.
 *   D_ALWAYS, D_ERROR and D_STATUS always are; names are separated by
 *   spaces, commas or bars and take HTCondor's :0 :1 :2 verbosity;
 *   D_FULLDEBUG is D_ALWAYS:2; D_ANY is every category and D_ALL also
 *   sets D_PID D_FDS D_CAT; unknown names are ignored.  D_PID, D_FDS,
 *   D_CAT (D_CATEGORY), D_TIMESTAMP and D_SUB_SECOND change the header.
 * - MAX_<SUBSYS>_LOG (else MAX_DEFAULT_LOG, 10 Mb): the size at which
 *   the file is rotated, with HTCondor's units (b, Kb, Mb, Gb, Tb); 0
 *   never rotates.  MAX_NUM_<SUBSYS>_LOG (default 1): old files kept;
 *   with 1 the file becomes File.old, with more File.YYYYMMDDTHHMMSS and
 *   the oldest of them is renamed File.old.
 * - TRUNC_<SUBSYS>_LOG_ON_OPEN: empty the file when the log is opened.
 * - <SUBSYS>_<CAT>_LOG (e.g. NEGOTIATOR_MATCH_LOG): a second file that
 *   receives the basic-level messages of that one category, with its own
 *   MAX_, MAX_NUM_ and TRUNC_ knobs.
 * - DEBUG_TIME_FORMAT and LOGS_USE_TIMESTAMP: the time stamp.
 *
 * Each line starts as HTCondor's do: "MM/DD/YY HH:MM:SS " then
 * "(fd:N) " with D_FDS, "(pid:N) " with D_PID, "(D_CAT:V) " with D_CAT,
 * then the text.  A message of several lines gets one header.
 *
 * Writing never fails the caller: a line that cannot be written is lost,
 * and a log file renamed or removed behind the daemon's back is created
 * again at the next line.
 */
#ifndef KS_LOG_H
#define KS_LOG_H

#include <stdbool.h>

#include "config.h"
#include "ks_err.h"

/* Categories, as HTCondor names them.  A message has one category;
 * KS_D_FULLDEBUG alone is D_ALWAYS at verbosity 2, and or-ed with another
 * category it asks for that category's verbosity 2 (as HTCondor's
 * dprintf(D_SECURITY | D_FULLDEBUG, ...)). */
enum ks_log_cat {
	KS_D_ALWAYS = 1u << 0,
	KS_D_ERROR = 1u << 1,
	KS_D_STATUS = 1u << 2,
	KS_D_FULLDEBUG = 1u << 3,
	KS_D_COMMAND = 1u << 4,
	KS_D_SECURITY = 1u << 5,
	KS_D_NETWORK = 1u << 6,
	KS_D_PROTOCOL = 1u << 7,
	KS_D_DAEMONCORE = 1u << 8,
	KS_D_MACHINE = 1u << 9,
	KS_D_MATCH = 1u << 10,
	KS_D_JOB = 1u << 11,
	KS_D_ACCOUNTANT = 1u << 12,
	KS_D_PROCFAMILY = 1u << 13,
	KS_D_HOSTNAME = 1u << 14,
	KS_D_AUDIT = 1u << 15,
	KS_D_TEST = 1u << 16,
};

typedef struct ks_log ks_log;

/* Opens the log of subsystem subsys ("COLLECTOR", "MASTER", ...) as cfg
 * configures it; to_stderr writes every line to standard error and opens
 * no file (a daemon's -t flag).  cfg is only read during the call.
 * Returns NULL with err filled if the configuration is invalid (KS_EINVAL)
 * or the file cannot be opened (KS_EIO, naming the file and the reason).
 * Free with ks_log_close(). */
ks_log *ks_log_open(const ks_config *cfg, const char *subsys, bool to_stderr,
		    struct ks_err *err);

/* Re-reads the knobs above from a new configuration (reconfig); a file
 * whose name changed is opened (never truncated), one kept stays open.
 * Returns 0, or on error a KS_E* code with err filled and the log keeps
 * its old settings and files. */
int ks_log_reconfig(ks_log *log, const ks_config *cfg, struct ks_err *err);

/* True if lines of category cat are written (log may be NULL). */
bool ks_log_enabled(const ks_log *log, unsigned cat);

/* Writes one line (a newline is added if fmt has none) if cat is
 * enabled; rotates the file first when it has reached its limit.
 * log may be NULL: the line goes to standard error if cat is one of the
 * default categories (D_ALWAYS, D_ERROR, D_STATUS).  errno is kept. */
void ks_log_printf(ks_log *log, unsigned cat, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The main file written to, or NULL for standard error or output.
 * Borrowed, valid until the next reconfig or close. */
const char *ks_log_path(const ks_log *log);

void ks_log_close(ks_log *log);

#endif
