/*
 * sr_sandbox.h: the job's scratch directory, DIR/dir_<starter pid>.
 *
 * Made mode 0700 and owned by the job's account, so that only the job
 * (and root) can see into it; removed with everything in it at the end.
 * Removal never follows a symbolic link the job left behind.
 */
#ifndef SR_SANDBOX_H
#define SR_SANDBOX_H

#include <stdbool.h>
#include <sys/types.h>

#include "classad.h"
#include "ks_err.h"

/* Creates root/dir_<pid> (a stale one of that name, left by an earlier
 * starter with the same pid, is removed first) owned by uid:gid when
 * chown_it.  Sets *path to a new string (free()).  Returns 0 or KS_EIO
 * with err naming the directory and the reason. */
int sr_sandbox_create(const char *root, pid_t pid, bool chown_it, uid_t uid,
		      gid_t gid, char **path, struct ks_err *err);

/* Writes an ad's text (len bytes, in old syntax) to dir/name, owned by
 * uid:gid when chown_it and readable by that account only.  Sets *file
 * to the new file's path (new string, free()).  Returns 0 or KS_EIO with
 * err filled. */
int sr_sandbox_write_ad(const char *dir, const char *name, const char *text,
			size_t len, bool chown_it, uid_t uid, gid_t gid,
			char **file, struct ks_err *err);

/* Removes path and everything under it.  Returns 0 or KS_EIO with err
 * naming the first thing that could not be removed (removal goes on past
 * it). */
int sr_sandbox_remove(const char *path, struct ks_err *err);

#endif
