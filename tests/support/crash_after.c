/*
 * crash_after.c: a fault injector for the crash tests, loaded with
 * LD_PRELOAD into the daemons of a test pool.  A daemon that sends a
 * message of command KS_CRASH_AFTER_CODE (a wire header's code) while the
 * file KS_CRASH_AFTER_FILE exists removes the file and kills itself with
 * SIGKILL the moment the message has left: the crash lands exactly
 * between telling a peer something and hearing its answer, a window a
 * test could otherwise only hit by luck.  A file that says "before"
 * makes it die just before the message would leave instead.  Without
 * the two variables it does nothing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* Whether buf holds a kestrel message (ks_wire.h: a 16-byte header,
 * "KS", version, flags, the code and the payload's length on the wire,
 * big-endian) of the code asked for: the first of the buffer, or one
 * after it (a client may send several in one write). */
static int is_target(const void *buf, size_t len)
{
	const char *code = getenv("KS_CRASH_AFTER_CODE");
	const unsigned char *p = buf;
	if (!code)
		return 0;
	int32_t want = atoi(code);
	while (len >= 16 && p[0] == 'K' && p[1] == 'S') {
		if ((int32_t)be32(p + 4) == want)
			return 1;
		uint32_t n = be32(p + 8);
		if (n > len - 16)
			break;
		p += 16 + n;
		len -= 16 + n;
	}
	return 0;
}

/* Whether the crash file says "before". */
static int before(const char *file)
{
	char buf[8] = "";
	int fd = open(file, O_RDONLY);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n >= 6 && strncmp(buf, "before", 6) == 0;
}

/* Called before a send (sent < 0) and after it (the bytes sent). */
static void maybe_crash(int target, ssize_t sent)
{
	const char *file = getenv("KS_CRASH_AFTER_FILE");
	if (!target || sent == 0 || !file || access(file, F_OK) != 0 ||
	    (sent < 0) != before(file) || unlink(file) != 0)
		return;
	kill(getpid(), SIGKILL);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	ssize_t (*real)(int, const void *, size_t) =
		(ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	int target = is_target(buf, len);
	maybe_crash(target, -1);
	ssize_t n = real(fd, buf, len);
	maybe_crash(target, n);
	return n;
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	ssize_t (*real)(int, const void *, size_t, int) =
		(ssize_t(*)(int, const void *, size_t, int))dlsym(RTLD_NEXT,
								  "send");
	int target = is_target(buf, len);
	maybe_crash(target, -1);
	ssize_t n = real(fd, buf, len, flags);
	maybe_crash(target, n);
	return n;
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	ssize_t (*real)(int, const struct iovec *, int) =
		(ssize_t(*)(int, const struct iovec *, int))dlsym(RTLD_NEXT,
								  "writev");
	int target = cnt > 0 && is_target(iov[0].iov_base, iov[0].iov_len);
	maybe_crash(target, -1);
	ssize_t n = real(fd, iov, cnt);
	maybe_crash(target, n);
	return n;
}

ssize_t sendmsg(int fd, const struct msghdr *m, int flags)
{
	ssize_t (*real)(int, const struct msghdr *, int) =
		(ssize_t(*)(int, const struct msghdr *, int))dlsym(RTLD_NEXT,
								   "sendmsg");
	int target = m->msg_iovlen > 0 &&
		     is_target(m->msg_iov[0].iov_base, m->msg_iov[0].iov_len);
	maybe_crash(target, -1);
	ssize_t n = real(fd, m, flags);
	maybe_crash(target, n);
	return n;
}
