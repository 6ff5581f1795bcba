/*
 * sr_spawn.h: starting the job's process.
 *
 * The child puts itself in a new session (so the job is its own process
 * group, signalled as one), becomes the job's account, enters the job's
 * directory, opens its standard files, and executes the job -- each step
 * as the job's account, so a job can read and write only what its owner
 * could.  A step that fails is reported back over a close-on-exec pipe,
 * so the starter knows for sure whether the job started and, if not,
 * which step failed with which errno.
 */
#ifndef SR_SPAWN_H
#define SR_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

#include "sr_result.h"
#include "ks_jobad.h"

struct sr_spawn {
	const char *path;    /* the executable, absolute */
	char *const *argv;   /* argv[0] included, NULL-terminated */
	char *const *envp;   /* the whole environment, NULL-terminated */
	const char *cwd;     /* absolute */
	const char *cwd_attr;/* "Iwd" or "the sandbox", for messages */
	const char *in;      /* absolute paths; NULL for /dev/null */
	const char *out;
	const char *err;
	bool append;         /* open Out and Err for appending */
	const struct ks_jobad_user *user;
	int nice;            /* added to the job's niceness (0..19) */
};

/* Starts the job.  Returns its pid (also its process group and session),
 * or -1 with the failure recorded in o (what failed, where, as which
 * user, and HTCondor's hold code for it). */
pid_t sr_spawn_job(const struct sr_spawn *s, struct sr_outcome *o);

#endif
