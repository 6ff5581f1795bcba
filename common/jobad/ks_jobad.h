/*
 * ks_jobad.h: a job as its ad describes it, for whoever runs it or writes
 * it: the starter (which runs it), the startd (which picks its account
 * and checks its ad) and condor_submit (which writes its arguments and
 * environment).  Four parts: the argument and environment syntaxes, the
 * job ad read and checked, the variables naming the slot's assigned
 * resources, and the account the job runs as.
 */
#ifndef KS_JOBAD_H
#define KS_JOBAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "classad.h"
#include "config.h"
#include "ks_err.h"
#include "ks_log.h"

/*
 * 1. The job's argument and environment syntaxes, as HTCondor writes them
 * into a job ad, turned into argv and envp for execve().
 *
 * Arguments (the "new" syntax, V2 raw, attribute Arguments): arguments
 * are separated by whitespace; a single quote starts a quoted section in
 * which whitespace is kept and '' stands for one single quote; a quoted
 * section that is not closed is an error.  The submit file's outer double
 * quotes (arguments = "a 'b c'") and their "" escape are gone by the time
 * the text is in the ad; ks_jobad_args_unquote_v2() removes them when a text
 * still has them (STARTER_JOB_ENVIRONMENT).
 *
 * Args (the "old" syntax, V1 raw): whitespace separates, nothing quotes.
 *
 * Environment (new syntax): split as Arguments, each piece NAME=VALUE.
 * Env (old syntax): NAME=VALUE entries separated by ';' (or the ad's
 * EnvDelim, or a delimiter the text itself starts with) or by newlines,
 * leading whitespace of each entry dropped.  In both, an entry without
 * '=' is an error unless it holds "$$" (an unexpanded $$() macro, kept as
 * it is), and a later entry for a name replaces an earlier one.
 *
 * Pure string work: nothing here touches the process or the system.
 */

/* A growable vector of strings, always NULL-terminated (v is NULL only
 * while n == 0), so that v can go to execve().  Start zeroed; every string
 * in it is owned by the vector. */
struct ks_jobad_strv {
	char **v;
	size_t n;
	size_t cap;
};

/* Appends a copy of len bytes of s. */
void ks_jobad_strv_add(struct ks_jobad_strv *sv, const char *s, size_t len);
/* Frees the strings and the array; sv is zeroed again.  NULL allowed. */
void ks_jobad_strv_free(struct ks_jobad_strv *sv);

/* Appends the arguments of raw in the new syntax to out.  Returns 0, or
 * KS_EPARSE with err saying where an unbalanced quote starts (out keeps
 * the arguments before it). */
int ks_jobad_args_parse_v2(const char *raw, struct ks_jobad_strv *out,
			   struct ks_err *err);

/* Appends the arguments of raw in the old syntax to out (never fails). */
void ks_jobad_args_parse_v1(const char *raw, struct ks_jobad_strv *out);

/* True if s (after leading whitespace) starts with a double quote: the
 * submit file's quoted form of the new syntax. */
bool ks_jobad_args_is_v2_quoted(const char *s);

/* Removes the outer double quotes of quoted and turns "" into ".
 * Sets *raw to a new string (free()).  Returns 0, or KS_EPARSE (with
 * *raw NULL) for a missing closing quote or text after it. */
int ks_jobad_args_unquote_v2(const char *quoted, char **raw,
			     struct ks_err *err);

/* args[from..] joined back into the new syntax, quoting as needed (for
 * messages and logs).  Returns a new string (free()). */
char *ks_jobad_args_join_v2(const struct ks_jobad_strv *args, size_t from);

/* An environment: "NAME=VALUE" strings in kv.v, ready for execve(), plus
 * "$$" entries kept as they were, in the order first set.  Start zeroed. */
struct ks_jobad_env {
	struct ks_jobad_strv kv;
};

/* Sets name to value (a copy); value NULL keeps name as a bare entry.
 * Returns 0, or KS_EINVAL for an empty name or one holding '='. */
int ks_jobad_env_set(struct ks_jobad_env *env, const char *name,
		     const char *value);

/* The value of name, or NULL if unset or bare.  Borrowed: valid until the
 * environment next changes. */
const char *ks_jobad_env_get(const struct ks_jobad_env *env, const char *name);

/* Merges one "NAME=VALUE" entry, as the syntaxes above define entries.
 * Returns 0 or KS_EPARSE with err filled. */
int ks_jobad_env_put(struct ks_jobad_env *env, const char *entry,
		     struct ks_err *err);

/* Merges raw in the new syntax.  Returns 0 or KS_EPARSE with err filled
 * (entries before the bad one are kept). */
int ks_jobad_env_merge_v2(struct ks_jobad_env *env, const char *raw,
			  struct ks_err *err);

/* Merges raw in the old syntax; delim is the ad's EnvDelim (0: ';').
 * Returns 0 or KS_EPARSE with err filled. */
int ks_jobad_env_merge_v1(struct ks_jobad_env *env, const char *raw, char delim,
			  struct ks_err *err);

/* Merges text that is either the new syntax in double quotes or the old
 * syntax bare (STARTER_JOB_ENVIRONMENT).  NULL merges nothing.  Returns 0
 * or KS_EPARSE with err filled. */
int ks_jobad_env_merge_v1_or_v2_quoted(struct ks_jobad_env *env,
				       const char *text, struct ks_err *err);

/* Replaces every occurrence of from (non-empty) by to in every value. */
void ks_jobad_env_replace_in_values(struct ks_jobad_env *env, const char *from,
				    const char *to);

/* Frees everything; env is zeroed again.  NULL allowed. */
void ks_jobad_env_free(struct ks_jobad_env *env);

/*
 * 2. What the starter needs from a job ad, read and checked once.
 *
 * The ad is a file in old ClassAd syntax (as condor_q -l prints it).
 * Every attribute the starter uses is checked for its type here, so that
 * a wrong one (Cmd = 5, Arguments = {"a"}) is reported before anything
 * runs, naming the attribute, what it holds and what it should hold.
 */

struct ks_jobad {
	classad *ad;        /* the whole ad, owned */
	char *text;         /* the ad as read (the job's .job.ad), owned */
	size_t text_len;
	char *id;           /* "ClusterId.ProcId", or "?" */
	char *cmd;          /* Cmd as written */
	struct ks_jobad_strv args;/* from Arguments, else Args (without argv[0]) */
	struct ks_jobad_env env;  /* from Environment, else Env */
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
 * way (job->ad may be NULL) and must be freed with ks_jobad_free(). */
int ks_jobad_load(const char *path, struct ks_jobad *job, struct ks_err *err);

/* The ad in old syntax in file path (what names it in errors: "job ad"),
 * or NULL with err filled.  New ad (classad_free()).  With text, *text
 * is the file's contents (new, free(); NULL on failure) and *len their
 * length: the startd wrote them, so they are the ad as this library
 * writes it, ready for the job's copy. */
classad *ks_jobad_ad_load(const char *path, const char *what, char **text,
			  size_t *len, struct ks_err *err);

/* The signal number of a signal name ("SIGTERM", "TERM", case ignored)
 * or of a decimal number; -1 if it is neither. */
int ks_jobad_signal_number(const char *name);

/* The name of a signal ("SIGTERM"), or NULL for an unknown number.
 * Static storage. */
const char *ks_jobad_signal_name(int sig);

/* Frees what job holds; job is zeroed.  NULL allowed. */
void ks_jobad_free(struct ks_jobad *job);

/*
 * 3. What a job is told about the resources its slot was given, as
 * HTCondor's starter tells it.  For each resource the slot ad lists in
 * MachineResources with an Assigned<name> (the ids: "GPU-1,GPU-2") the
 * job gets _CONDOR_Assigned<name>; ENVIRONMENT_FOR_Assigned<name> names
 * more variables to set from those ids:
 *
 *   NAME                  the ids as they are (for CUDA_VISIBLE_DEVICES and
 *                         GPU_DEVICE_ORDINAL only their digits and commas),
 *                         and no further entries are read;
 *   NAME=/regex/replace/  each id with the first match of the regular
 *                         expression (PCRE2) replaced, $0-$9 for groups,
 *                         the ids joined by commas; any character may
 *                         stand for '/'; entries may be separated by
 *                         spaces or a comma.
 *
 * A slot that has the resource but was given none of it gets
 * ENVIRONMENT_VALUE_FOR_UnAssigned<name> instead, when
 * ENVIRONMENT_FOR_Assigned<name> is set (HTCondor's default for GPUs sets
 * CUDA_VISIBLE_DEVICES and GPU_DEVICE_ORDINAL to 10000, so that a job
 * without GPUs sees none).
 */

/* Sets those variables in env; an entry that does not parse is logged
 * (to log, which may be NULL) and ends the reading of that knob. */
void ks_jobad_assigned_env(const ks_config *cfg, const classad *machine,
			   struct ks_jobad_env *env, ks_log *log);

/*
 * 4. The account a job runs as.
 *
 * A starter running as root runs the job as the job's Owner when that
 * account exists and is not root, and as "nobody" otherwise: a job never
 * runs as root.  A starter that is not root cannot change user, so the
 * job runs as the starter's own user.
 */

/* Why the job runs as the account it does. */
enum ks_jobad_user_why {
	KS_JOBAD_USER_OWNER,	  /* the job's Owner */
	KS_JOBAD_USER_SELF,	  /* the starter is not root: its own account */
	KS_JOBAD_USER_ROOT,	  /* the Owner is root: nobody */
	KS_JOBAD_USER_UNKNOWN,  /* the Owner has no account here: nobody */
	KS_JOBAD_USER_NO_OWNER, /* the ad names no Owner: nobody */
};

struct ks_jobad_user {
	uid_t uid;
	gid_t gid;
	char *name;   /* login name */
	char *home;   /* home directory ("/" if the account has none) */
	gid_t *groups; /* supplementary groups (with gid), when switch_to */
	int ngroups;
	bool switch_to; /* the starter is root and must become this user */
	enum ks_jobad_user_why why;
	char *note;   /* why the Owner was not used, or NULL */
};

/* Picks the account for a job whose Owner is owner (NULL: none) into u
 * (zeroed first), with its groups.  Returns 0, or KS_ENOTFOUND with err
 * filled when no account at all can be found (a root starter without a
 * "nobody" account, or a uid without a password entry).  Free with
 * ks_jobad_user_free().  This is the password and group databases' work, and
 * with NSS modules it is most of a starter's own time: a long-lived
 * caller (the startd) picks once and hands the result on with
 * ks_jobad_user_format(). */
int ks_jobad_user_pick(const char *owner, struct ks_jobad_user *u,
		       struct ks_err *err);

/* u as one word, "WHY:UID:GID:GROUPS:NAME:HOME" (GROUPS comma-separated),
 * for ks_jobad_user_parse().  Returns a new string (free()). */
char *ks_jobad_user_format(const struct ks_jobad_user *u);

/* The account ks_jobad_user_format() wrote into spec, for a job whose Owner is
 * owner (for the note), into u (zeroed first).  Returns 0, or KS_EPARSE
 * with err saying what is wrong.  Free with ks_jobad_user_free(). */
int ks_jobad_user_parse(const char *spec, const char *owner,
			struct ks_jobad_user *u, struct ks_err *err);

/* Becomes u in the calling process (a child about to exec the job): the
 * account's groups, then its gid, then its uid, for good (it checks that
 * root cannot be regained).  A no-op unless u->switch_to.  Returns 0 or
 * -1 with errno set.  System calls only, so it may run after vfork(). */
int ks_jobad_user_become(const struct ks_jobad_user *u);

void ks_jobad_user_free(struct ks_jobad_user *u);

#endif
