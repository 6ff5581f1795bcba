/*
 * file.c: small files written whole or not at all (sr_file.h).
 */
#define _GNU_SOURCE /* O_NOFOLLOW, O_CLOEXEC */
#include "sr_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ks_mem.h"

int sr_file_replace(const char *path, const char *data, size_t len,
		    bool chown_it, uid_t uid, gid_t gid, struct ks_err *err)
{
	size_t n = strlen(path) + 5;
	char *tmp = ks_xmalloc(n);
	snprintf(tmp, n, "%s.tmp", path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
				   O_NOFOLLOW, 0600);
	int e = fd < 0 ? errno : 0;
	if (!e && chown_it && fchown(fd, uid, gid) != 0)
		e = errno;
	for (size_t off = 0; !e && off < len;) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			e = w < 0 ? errno : EIO;
		else
			off += (size_t)w;
	}
	if (fd >= 0 && close(fd) != 0 && !e)
		e = errno;
	if (!e && rename(tmp, path) != 0)
		e = errno;
	if (e) {
		if (fd >= 0)
			unlink(tmp);
		ks_err_set(err, KS_EIO, 0, 0, 0, "cannot write %s: %s", path,
			   strerror(e));
	}
	free(tmp);
	return e ? KS_EIO : 0;
}

char *sr_file_read(const char *path, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return NULL;
	struct stat st;
	int e = 0;
	if (fstat(fd, &st) != 0)
		e = errno;
	else if (!S_ISREG(st.st_mode))
		e = EINVAL;
	else if ((uint64_t)st.st_size > max)
		e = EFBIG;
	if (e) {
		close(fd);
		errno = e;
		return NULL;
	}
	char *buf = ks_xmalloc((size_t)st.st_size + 1);
	size_t got = 0;
	/* (a file that grew meanwhile is read no further than it was) */
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	if (len)
		*len = got;
	return buf;
}
