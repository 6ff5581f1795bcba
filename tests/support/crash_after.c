/*
 * crash_after.c: a fault injector for the crash tests, loaded with
 * LD_PRELOAD into the daemons of a test pool.  A daemon that sends a
 * message of command KS_CRASH_AFTER_CODE (a wire header's code) while the
 * file KS_CRASH_AFTER_FILE exists removes the file and kills itself with
 * SIGKILL the moment the message has left: the crash lands exactly
 * between telling a peer something and hearing its answer, a window a
 * test could otherwise only hit by luck.  A file that says "before"
 * makes it die just before the message would leave instead; "code=N"
 * names the command instead of KS_CRASH_AFTER_CODE, "who=NAME" aims at
 * one program of the pool (condor_startd), "skip=N" lets N such
 * messages go first, and "delay=MS" makes it wait (doing nothing else)
 * before it dies.  Without the two variables it does nothing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
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

/* What the crash file says: "before", "code=N" (instead of
 * KS_CRASH_AFTER_CODE) and "skip=N" (let N such messages go first). */
struct opts {
	int armed, before;
	long code, skip;
	long delay_ms; /* "delay=MS": how long it waits, then dies */
	char who[64]; /* "who=NAME": only the program NAME ("" any) */
};

static struct opts read_opts(void)
{
	struct opts o = {0, 0, -1, 0, 0, ""};
	const char *file = getenv("KS_CRASH_AFTER_FILE");
	const char *env = getenv("KS_CRASH_AFTER_CODE");
	if (env)
		o.code = atol(env);
	if (!file || access(file, F_OK) != 0)
		return o;
	o.armed = 1;
	char buf[128] = "";
	int fd = open(file, O_RDONLY);
	if (fd < 0)
		return o;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	o.before = strstr(buf, "before") != NULL;
	const char *c = strstr(buf, "code=");
	if (c)
		o.code = atol(c + 5);
	const char *k = strstr(buf, "skip=");
	if (k)
		o.skip = atol(k + 5);
	const char *dl = strstr(buf, "delay=");
	if (dl)
		o.delay_ms = atol(dl + 6);
	const char *w = strstr(buf, "who=");
	if (w) {
		size_t l = strcspn(w + 4, " \n");
		if (l >= sizeof(o.who))
			l = sizeof(o.who) - 1;
		memcpy(o.who, w + 4, l);
		o.who[l] = '\0';
	}
	return o;
}

/* Whether buf holds a kestrel message (ks_wire.h: a 16-byte header,
 * "KS", version, flags, the code and the payload's length on the wire,
 * big-endian) of the code asked for: the first of the buffer, or one
 * after it (a client may send several in one write). */
static int is_target(const void *buf, size_t len, long want)
{
	const unsigned char *p = buf;
	if (want < 0)
		return 0;
	while (len >= 16 && p[0] == 'K' && p[1] == 'S') {
		if ((int32_t)be32(p + 4) == (int32_t)want)
			return 1;
		uint32_t n = be32(p + 8);
		if (n > len - 16)
			break;
		p += 16 + n;
		len -= 16 + n;
	}
	return 0;
}

/* Whether buf is a message to crash at, when the file is there: one
 * skipped counts down the file's skip=N instead. */
static int check(const void *buf, size_t len)
{
	struct opts o = read_opts();
	if (!o.armed || !is_target(buf, len, o.code) ||
	    (o.who[0] && strcmp(o.who, program_invocation_short_name) != 0))
		return 0;
	if (o.skip > 0) {
		const char *file = getenv("KS_CRASH_AFTER_FILE");
		char text[128];
		int n = snprintf(text, sizeof(text),
				 "%s code=%ld skip=%ld delay=%ld who=%s\n",
				 o.before ? "before" : "after", o.code,
				 o.skip - 1, o.delay_ms, o.who);
		int fd = open(file, O_WRONLY | O_TRUNC);
		if (fd >= 0) {
			ssize_t (*real)(int, const void *, size_t) =
				(ssize_t(*)(int, const void *,
					    size_t))dlsym(RTLD_NEXT, "write");
			if (real(fd, text, (size_t)n) < 0) {
				/* (the next message then crashes) */
			}
			close(fd);
		}
		return 0;
	}
	return o.before ? 2 : 1;
}

/* Called before a send (sent < 0) and after it (the bytes sent), with
 * what check() said of the message before it left. */
static void maybe_crash(int target, ssize_t sent)
{
	const char *file = getenv("KS_CRASH_AFTER_FILE");
	if (!target || sent == 0 || (sent < 0) != (target == 2))
		return;
	long delay = read_opts().delay_ms;
	if (unlink(file) != 0)
		return;
	if (delay > 0)
		usleep((useconds_t)delay * 1000);
	kill(getpid(), SIGKILL);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	ssize_t (*real)(int, const void *, size_t) =
		(ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	int target = check(buf, len);
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
	int target = check(buf, len);
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
	int target = cnt > 0 ? check(iov[0].iov_base, iov[0].iov_len) : 0;
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
	int target = m->msg_iovlen > 0
			     ? check(m->msg_iov[0].iov_base,
				     m->msg_iov[0].iov_len)
			     : 0;
	maybe_crash(target, -1);
	ssize_t n = real(fd, m, flags);
	maybe_crash(target, n);
	return n;
}
