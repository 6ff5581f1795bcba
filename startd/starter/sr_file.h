/*
 * sr_file.h: a small file written whole or not at all, for the startd
 * and its starters (a claim id file, a claim's record, a job's result).
 *
 * A reader that comes after a crash (the next startd) must find either
 * the old contents or the new, never half of them: the text goes into
 * PATH.tmp, which is then renamed over PATH.  Nothing is synced to the
 * disk: the files must outlive a process, not the machine.
 */
#ifndef SR_FILE_H
#define SR_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "ks_err.h"

/* Writes len bytes of data as path, mode 0600, given to uid:gid first
 * when chown_it (a root starter's file for its startd's account).  A
 * symbolic link at PATH.tmp is not followed.  Returns 0, or KS_EIO with
 * err naming the file and the system's reason (PATH.tmp is removed). */
int sr_file_replace(const char *path, const char *data, size_t len,
		    bool chown_it, uid_t uid, gid_t gid, struct ks_err *err);

/* The contents of the regular file path (not a link), NUL-terminated,
 * when it holds at most max bytes; *len (NULL allowed) their length.
 * Returns a new string (free()), or NULL with errno set (EFBIG when
 * larger, EINVAL when not a regular file). */
char *sr_file_read(const char *path, size_t max, size_t *len);

#endif
