/*
 * ks_io.h: blocking socket I/O with deadlines, for clients (tools, and
 * daemons talking to other daemons).  Internal to common/net and
 * common/daemon.
 */
#ifndef KS_IO_H
#define KS_IO_H

#include <stddef.h>
#include <stdint.h>

#include "ks_addr.h"
#include "ks_clock.h"
#include "ks_err.h"

/* Connects to a (TCP), or to the Unix-domain socket at path when path is
 * not NULL, before deadline (ks_clock_ms() time).  Returns the socket
 * (blocking mode off) or a negative KS_E* code with err filled. */
int ks_io_connect(const struct ks_addr *a, const char *path, int64_t deadline,
		  struct ks_err *err);

/* Starts connecting to a (TCP), or to the Unix-domain socket at path,
 * without waiting: the socket (non-blocking) is writable once connected,
 * and SO_ERROR then tells whether it worked.  A host name is resolved
 * first (which may wait; daemons' addresses are numeric).  Returns the
 * socket or a negative KS_E* code with err filled. */
int ks_io_connect_start(const struct ks_addr *a, const char *path,
			struct ks_err *err);

/* A UDP socket connected to a.  Returns it or a negative KS_E* code. */
int ks_io_udp_connect(const struct ks_addr *a, struct ks_err *err);

/* Waits until fd is ready for ev (POLLIN / POLLOUT) or the deadline.
 * Returns 0, KS_ETIMEDOUT or KS_EIO. */
int ks_io_wait(int fd, short ev, int64_t deadline);

struct iovec;

/* Writes all n parts in order before deadline (a few system calls for
 * many parts).  Returns as ks_io_write(). */
int ks_io_writev(int fd, const struct iovec *iov, size_t n, int64_t deadline,
		 struct ks_err *err);

/* Writes or reads exactly n bytes before deadline.  Returns 0 or
 * KS_ETIMEDOUT / KS_EIO (KS_EIO with "closed" for end of file). */
int ks_io_write(int fd, const void *buf, size_t n, int64_t deadline,
		struct ks_err *err);
int ks_io_read(int fd, void *buf, size_t n, int64_t deadline,
	       struct ks_err *err);

#endif
