/* lock.c: a daemon's lock on its local state (ks_daemon_lock()).
 *
 * flock() rather than fcntl(): it locks a directory as well as a file
 * (the startd's EXECUTE), and it belongs to the open file, so that it
 * passes through nothing but the daemon itself (the descriptor is
 * close-on-exec: starters and jobs never hold it).  The kernel drops it
 * when the daemon ends, however it ends: nothing stale is left for a
 * later start to clean up.  Who holds a lock is read from /proc/locks,
 * where no file of our own has to say it. */
#include "ks_daemon.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ks_mem.h"
#include "ks_text.h"

/* The pid holding the flock on the file st describes, from
 * /proc/locks ("1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; lines
 * of waiters have "->" before the type); 0 when it cannot be told. */
static long holder_pid(const struct stat *st)
{
	FILE *f = fopen("/proc/locks", "re");
	if (!f)
		return 0;
	char line[256];
	long pid = 0;
	while (!pid && fgets(line, sizeof(line), f)) {
		char type[16], mode[16], rw[16];
		long p;
		unsigned maj, min;
		unsigned long long ino;
		if (sscanf(line, "%*d: %15s %15s %15s %ld %x:%x:%llu", type,
			   mode, rw, &p, &maj, &min, &ino) == 7 &&
		    strcmp(type, "FLOCK") == 0 && maj == major(st->st_dev) &&
		    min == minor(st->st_dev) && ino == (unsigned long long)st->st_ino)
			pid = p;
	}
	fclose(f);
	return pid;
}

/* The program pid runs (the last part of its argv[0]) into out; false
 * when it is gone or cannot be read. */
static bool program_of(long pid, char *out, size_t size)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	char buf[256];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (!n)
		return false;
	const char *base = strrchr(buf, '/');
	snprintf(out, size, "%s", base ? base + 1 : buf);
	return true;
}

/* Opens what is locked, making it (and its directory) when missing. */
static int open_state(const char *path, bool dir)
{
	if (dir) {
		if (ks_mkdirs(path, 0755) != 0)
			return -1;
		return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	char *parent = ks_xstrdup(path);
	char *slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		ks_mkdirs(parent, 0755); /* open() says what went wrong */
	}
	free(parent);
	return open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
}

int ks_daemon_lock(const char *path, bool dir, const char *what,
		   struct ks_err *err)
{
	int fd = open_state(path, dir);
	if (fd < 0)
		return ks_err_set(err, KS_EIO, 0, 0, 0,
				  "cannot open %s (%s) to lock it: %s", path,
				  what, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		return 0; /* fd stays open: the lock lasts as long as we do */
	int e = errno;
	struct stat st;
	long pid = e == EWOULDBLOCK && fstat(fd, &st) == 0 ? holder_pid(&st)
							   : 0;
	close(fd);
	if (e != EWOULDBLOCK)
		return ks_err_set(err, KS_EIO, 0, 0, 0,
				  "cannot lock %s (%s): %s", path, what,
				  strerror(e));
	char prog[256];
	if (pid > 0 && program_of(pid, prog, sizeof(prog)))
		return ks_err_set(err, KS_EEXIST, 0, 0, 0,
				  "Can't get lock on \"%s\" (%s): %s (pid %ld) "
				  "holds it; stop that one first",
				  path, what, prog, pid);
	return ks_err_set(err, KS_EEXIST, 0, 0, 0,
			  "Can't get lock on \"%s\" (%s): another process "
			  "holds it; stop that one first", path, what);
}
