/*
 * sandbox.c: the job's scratch directory (sr_sandbox.h).
 *
 * Removal works from directory descriptors (openat/unlinkat with
 * O_NOFOLLOW) rather than path names, so a symbolic link the job planted
 * is removed as a link and never followed, even by a root starter.  Each
 * level of the tree holds one descriptor, which bounds the depth that can
 * be removed by the descriptor limit; a job that nests deeper than that
 * leaves the rest behind, and the error says where.
 */
#include "sr_sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ks_mem.h"

static char *join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *s = ks_xmalloc(n);
	snprintf(s, n, "%s/%s", a, b);
	return s;
}

/* Records the first failure only: later ones are usually its echo. */
static void note_fail(struct ks_err *err, int *rc, const char *shown)
{
	if (*rc == 0)
		ks_err_set(err, KS_EIO, 0, 0, 0, "cannot remove %s: %s", shown,
			   strerror(errno));
	*rc = KS_EIO;
}

static void remove_at(int at, const char *name, const char *shown,
		      struct ks_err *err, int *rc)
{
	struct stat st;
	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT)
			note_fail(err, rc, shown);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (unlinkat(at, name, 0) && errno != ENOENT)
			note_fail(err, rc, shown);
		return;
	}
	int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	int fd = openat(at, name, flags);
	if (fd < 0 && errno == EACCES) {
		/* A job may take the permissions off its own directories; the
		 * starter (their owner, or root) can put them back. */
		fchmodat(at, name, 0700, 0);
		fd = openat(at, name, flags);
	}
	if (fd < 0) {
		note_fail(err, rc, shown);
		return;
	}
	fchmod(fd, 0700);
	DIR *d = fdopendir(fd);
	if (!d) {
		note_fail(err, rc, shown);
		close(fd);
		return;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *sub = join(shown, de->d_name);
		remove_at(dirfd(d), de->d_name, sub, err, rc);
		free(sub);
	}
	closedir(d);
	if (unlinkat(at, name, AT_REMOVEDIR) && errno != ENOENT)
		note_fail(err, rc, shown);
}

int sr_sandbox_remove(const char *path, struct ks_err *err)
{
	char *copy = ks_xstrdup(path);
	char *slash = strrchr(copy, '/');
	const char *parent = ".", *base = copy;
	if (slash) {
		*slash = '\0';
		parent = slash == copy ? "/" : copy;
		base = slash + 1;
	}
	int rc = 0;
	int at = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (at < 0) {
		note_fail(err, &rc, path);
	} else {
		remove_at(at, base, path, err, &rc);
		close(at);
	}
	free(copy);
	return rc;
}

int sr_sandbox_create(const char *root, pid_t pid, bool chown_it, uid_t uid,
		      gid_t gid, char **path, struct ks_err *err)
{
	*path = NULL;
	char name[32];
	snprintf(name, sizeof(name), "dir_%ld", (long)pid);
	char *dir = join(root, name);
	struct stat st;
	if (lstat(dir, &st) == 0 && sr_sandbox_remove(dir, err)) {
		free(dir);
		return KS_EIO;
	}
	if (mkdir(dir, 0700)) {
		ks_err_set(err, KS_EIO, 0, 0, 0,
			   "cannot create the job's sandbox %s: %s%s", dir,
			   strerror(errno),
			   errno == ENOENT ? " (does the -sandbox-root "
					     "directory exist?)" : "");
		free(dir);
		return KS_EIO;
	}
	/* mkdir's mode went through the umask; the sandbox must be exactly
	 * 0700 whatever the startd's umask was. */
	if (chmod(dir, 0700) || (chown_it && chown(dir, uid, gid))) {
		ks_err_set(err, KS_EIO, 0, 0, 0,
			   "cannot give the job's sandbox %s to uid %u: %s",
			   dir, (unsigned)uid, strerror(errno));
		rmdir(dir);
		free(dir);
		return KS_EIO;
	}
	*path = dir;
	return 0;
}

int sr_sandbox_write_ad(const char *dir, const char *name, const char *text,
			size_t len, bool chown_it, uid_t uid, gid_t gid,
			char **file, struct ks_err *err)
{
	*file = join(dir, name);
	int fd = open(*file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				     O_CLOEXEC, 0600);
	if (fd < 0) {
		ks_err_set(err, KS_EIO, 0, 0, 0, "cannot create %s: %s", *file,
			   strerror(errno));
		return KS_EIO;
	}
	size_t off = 0;
	int rc = 0;
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = ks_err_set(err, KS_EIO, 0, 0, 0,
					"cannot write %s: %s", *file,
					strerror(n < 0 ? errno : EIO));
			break;
		}
		off += (size_t)n;
	}
	if (!rc && chown_it && fchown(fd, uid, gid))
		rc = ks_err_set(err, KS_EIO, 0, 0, 0,
				"cannot give %s to uid %u: %s", *file,
				(unsigned)uid, strerror(errno));
	if (close(fd) && !rc)
		rc = ks_err_set(err, KS_EIO, 0, 0, 0, "cannot write %s: %s",
				*file, strerror(errno));
	return rc;
}
