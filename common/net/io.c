/* io.c: blocking I/O with deadlines (ks_io.h). */
#include "ks_io.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

int ks_io_wait(int fd, short ev, int64_t deadline)
{
	for (;;) {
		int64_t left = deadline - ks_clock_ms();
		if (left <= 0)
			return KS_ETIMEDOUT;
		struct pollfd p = {.fd = fd, .events = ev};
		int r = poll(&p, 1, (int)(left > 60000 ? 60000 : left));
		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return KS_EIO;
	}
}

static int connect_one(int family, const struct sockaddr *sa, socklen_t len,
		       int64_t deadline, int *err_no)
{
	int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		*err_no = errno;
		return -1;
	}
	if (connect(fd, sa, len) == 0)
		return fd;
	if (errno != EINPROGRESS) {
		*err_no = errno;
		close(fd);
		return -1;
	}
	if (ks_io_wait(fd, POLLOUT, deadline)) {
		*err_no = ETIMEDOUT;
		close(fd);
		return -1;
	}
	int soerr = 0;
	socklen_t sl = sizeof(soerr);
	getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
	if (soerr) {
		*err_no = soerr;
		close(fd);
		return -1;
	}
	return fd;
}

/* getaddrinfo() for a and the socket type. */
static int resolve(const struct ks_addr *a, int type, struct addrinfo **res,
		   struct ks_err *err)
{
	struct addrinfo hints = {.ai_socktype = type, .ai_family = AF_UNSPEC};
	char port[16];
	snprintf(port, sizeof(port), "%d", a->port);
	int gr = getaddrinfo(a->host, port, &hints, res);
	if (gr)
		return ks_err_set(err, KS_ECONNECT, 0, 0, 0,
				  "cannot resolve %s: %s", a->host,
				  gai_strerror(gr));
	return 0;
}

int ks_io_connect(const struct ks_addr *a, const char *path, int64_t deadline,
		  struct ks_err *err)
{
	int e = 0;
	if (path) {
		struct sockaddr_un un = {.sun_family = AF_UNIX};
		if (strlen(path) >= sizeof(un.sun_path))
			return ks_err_set(err, KS_ECONNECT, 0, 0, 0,
					  "socket path %s is too long", path);
		strcpy(un.sun_path, path);
		int fd = connect_one(AF_UNIX, (struct sockaddr *)&un,
				     sizeof(un), deadline, &e);
		if (fd >= 0)
			return fd;
		return ks_err_set(err, e == ETIMEDOUT ? KS_ETIMEDOUT
						      : KS_ECONNECT,
				  0, 0, 0, "cannot connect to %s: %s", path,
				  strerror(e));
	}
	struct addrinfo *res = NULL;
	int rc = resolve(a, SOCK_STREAM, &res, err);
	if (rc)
		return rc;
	int fd = -1;
	for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next)
		fd = connect_one(ai->ai_family, ai->ai_addr, ai->ai_addrlen,
				 deadline, &e);
	freeaddrinfo(res);
	if (fd >= 0)
		return fd;
	return ks_err_set(err, e == ETIMEDOUT ? KS_ETIMEDOUT : KS_ECONNECT, 0,
			  0, 0, "cannot connect to %s:%d: %s", a->host,
			  a->port, strerror(e));
}

int ks_io_connect_start(const struct ks_addr *a, const char *path,
			struct ks_err *err)
{
	struct sockaddr_storage ss;
	socklen_t len = 0;
	int family;
	if (path) {
		struct sockaddr_un *un = (struct sockaddr_un *)&ss;
		if (strlen(path) >= sizeof(un->sun_path))
			return ks_err_set(err, KS_ECONNECT, 0, 0, 0,
					  "socket path %s is too long", path);
		memset(un, 0, sizeof(*un));
		un->sun_family = AF_UNIX;
		strcpy(un->sun_path, path);
		len = sizeof(*un);
		family = AF_UNIX;
	} else {
		struct addrinfo *res = NULL;
		int rc = resolve(a, SOCK_STREAM, &res, err);
		if (rc)
			return rc;
		memcpy(&ss, res->ai_addr, res->ai_addrlen);
		len = res->ai_addrlen;
		family = res->ai_family;
		freeaddrinfo(res);
	}
	int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&ss, len) != 0 &&
	    errno != EINPROGRESS) {
		int e = errno;
		close(fd);
		fd = -1;
		errno = e;
	}
	if (fd < 0)
		return ks_err_set(err, KS_ECONNECT, 0, 0, 0,
				  "cannot connect to %s: %s",
				  path ? path : a->host, strerror(errno));
	return fd;
}

int ks_io_udp_connect(const struct ks_addr *a, struct ks_err *err)
{
	struct addrinfo *res = NULL;
	int rc = resolve(a, SOCK_DGRAM, &res, err);
	if (rc)
		return rc;
	int fd = socket(res->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, res->ai_addr, res->ai_addrlen) != 0) {
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return ks_err_set(err, KS_ECONNECT, 0, 0, 0,
				  "cannot reach %s:%d over UDP: %s", a->host,
				  a->port, strerror(errno));
	return fd;
}

int ks_io_write(int fd, const void *buf, size_t n, int64_t deadline,
		struct ks_err *err)
{
	const char *p = buf;
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			return ks_err_set(err, KS_EIO, 0, 0, 0,
					  "write failed: %s", strerror(errno));
		if (ks_io_wait(fd, POLLOUT, deadline))
			return ks_err_set(err, KS_ETIMEDOUT, 0, 0, 0,
					  "timed out writing to the peer");
	}
	return 0;
}

int ks_io_writev(int fd, const struct iovec *iov, size_t n, int64_t deadline,
		 struct ks_err *err)
{
	struct iovec part = {0}; /* the rest of a part written in half */
	size_t i = 0;
	while (i < n || part.iov_len) {
		struct iovec batch[64];
		size_t k = 0;
		if (part.iov_len)
			batch[k++] = part;
		size_t from = i;
		while (k < 64 && i < n)
			batch[k++] = iov[i++];
		ssize_t w = writev(fd, batch, (int)k);
		if (w < 0) {
			if (errno != EAGAIN && errno != EINTR)
				return ks_err_set(err, KS_EIO, 0, 0, 0,
						  "write failed: %s",
						  strerror(errno));
			i = from;
			if (ks_io_wait(fd, POLLOUT, deadline))
				return ks_err_set(err, KS_ETIMEDOUT, 0, 0, 0,
						  "timed out writing to the "
						  "peer");
			continue;
		}
		/* find where the written bytes end; the rest goes again */
		size_t left = (size_t)w, j = 0;
		while (j < k && left >= batch[j].iov_len)
			left -= batch[j++].iov_len;
		part = (struct iovec){0};
		if (j < k) {
			part.iov_base = (char *)batch[j].iov_base + left;
			part.iov_len = batch[j].iov_len - left;
			/* the parts after j were not written either */
			size_t unsent = k - j - 1;
			i -= unsent;
		}
	}
	return 0;
}

int ks_io_read(int fd, void *buf, size_t n, int64_t deadline,
	       struct ks_err *err)
{
	char *p = buf;
	while (n) {
		ssize_t r = recv(fd, p, n, 0);
		if (r > 0) {
			p += r;
			n -= (size_t)r;
			continue;
		}
		if (r == 0)
			return ks_err_set(err, KS_EIO, 0, 0, 0,
					  "the peer closed the connection");
		if (errno != EAGAIN && errno != EINTR)
			return ks_err_set(err, KS_EIO, 0, 0, 0,
					  "read failed: %s", strerror(errno));
		if (ks_io_wait(fd, POLLIN, deadline))
			return ks_err_set(err, KS_ETIMEDOUT, 0, 0, 0,
					  "timed out waiting for the peer");
	}
	return 0;
}
