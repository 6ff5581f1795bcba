/* daemon_int.h: what the skeleton's files share (not for daemons). */
#ifndef KS_DAEMON_INT_H
#define KS_DAEMON_INT_H

#include "ks_daemon.h"

struct ks_srv_conn;

struct ks_daemon_priv {
	int tcp_fd, udp_fd, unix_fd;
	char *unix_path;
	struct ks_srv_conn *conns; /* doubly linked */
	size_t nconns;
	uint64_t sweep_timer, update_timer;
	bool foreground, to_stderr;
	int want_port;
	char *address_file;
	classad_cache *cache;
	int64_t seq; /* UpdateSequenceNumber */
	bool invalidated;
	int retries; /* quick retries of a failed update */
};

/* server.c */
int kd_server_start(ks_daemon *d, struct ks_err *err);
void kd_server_stop(ks_daemon *d);

#endif
