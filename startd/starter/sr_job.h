/*
 * sr_job.h: what the starter needs from a job ad, read and checked once.
 *
 * The ad is a file in old ClassAd syntax (as condor_q -l prints it).
 * Every attribute the starter uses is checked for its type here, so that
 * a wrong one (Cmd = 5, Arguments = {"a"}) is reported before anything
 * runs, naming the attribute, what it holds and what it should hold.
 */
#ifndef SR_JOB_H
#define SR_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "classad.h"
#include "ks_err.h"
#include "sr_args.h"

struct sr_job {
	classad *ad;        /* the whole ad, owned */
	char *text;         /* the ad as read (the job's .job.ad), owned */
	size_t text_len;
	char *id;           /* "ClusterId.ProcId", or "?" */
	char *cmd;          /* Cmd as written */
	struct sr_strv args;/* from Arguments, else Args (without argv[0]) */
	struct sr_env env;  /* from Environment, else Env */
	char *iwd;          /* Iwd, or NULL */
	bool shared_fs;     /* ShouldTransferFiles is "NO": run in Iwd */
	char *in;           /* In, Out, Err; NULL for none or /dev/null */
	char *out;
	char *err;
	bool append;        /* EraseOutputAndErrorOnRestart = false */
	int kill_sig;       /* KillSig as a number (SIGTERM by default) */
	char *kill_sig_note;/* why KillSig was not used, or NULL */
	char *owner;        /* Owner, or NULL when absent or not a string */
	char *x509_proxy;   /* X509UserProxy, or NULL */
	/* What earlier runs left in the ad, for the cumulative attributes. */
	int64_t prev_start_date;      /* JobStartDate, 0 if none */
	int64_t prev_suspension_time; /* CumulativeSuspensionTime */
	int64_t prev_suspensions;     /* TotalSuspensions */
	double prev_wall_clock;       /* RemoteWallClockTime */
};

/* Reads the job ad file at path into job (zeroed first).  Returns 0, or
 * KS_EIO (the file cannot be read), KS_EPARSE (not an ad: err has the
 * line), or KS_EINVAL (an attribute is missing or of the wrong type),
 * with err saying what and where.  job holds whatever was read either
 * way (job->ad may be NULL) and must be freed with sr_job_free(). */
int sr_job_load(const char *path, struct sr_job *job, struct ks_err *err);

/* The ad in old syntax in file path (what names it in errors: "job ad"),
 * or NULL with err filled.  New ad (classad_free()).  With text, *text
 * is the file's contents (new, free(); NULL on failure) and *len their
 * length: the startd wrote them, so they are the ad as this library
 * writes it, ready for the job's copy. */
classad *sr_ad_load(const char *path, const char *what, char **text,
		    size_t *len, struct ks_err *err);

/* The signal number of a signal name ("SIGTERM", "TERM", case ignored)
 * or of a decimal number; -1 if it is neither. */
int sr_signal_number(const char *name);

/* The name of a signal ("SIGTERM"), or NULL for an unknown number.
 * Static storage. */
const char *sr_signal_name(int sig);

/* Frees what job holds; job is zeroed.  NULL allowed. */
void sr_job_free(struct sr_job *job);

#endif
