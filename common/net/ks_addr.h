/*
 * ks_addr.h: daemon addresses as HTCondor writes them ("sinful strings"):
 * "<127.0.0.1:9618>", with an optional "?sock=NAME" naming the daemon's
 * Unix-domain socket in DAEMON_SOCKET_DIR, which local clients prefer.
 * Also accepted where a user types an address: "host:port" and "host".
 */
#ifndef KS_ADDR_H
#define KS_ADDR_H

#include <stdbool.h>

#include "config.h"
#include "ks_err.h"

#define KS_DEFAULT_PORT 9618

struct ks_addr {
	char host[256]; /* as written: an IP address or a host name */
	int port;       /* 0 when not given and no default applies */
	char sock[64];  /* the sock= name, or "" */
};

/* Parses s; a missing port becomes default_port.  Returns 0 or KS_EINVAL
 * with err saying what is wrong with the address. */
int ks_addr_parse(const char *s, int default_port, struct ks_addr *a,
		  struct ks_err *err);

/* "<host:port>" or "<host:port?sock=name>" into buf (at least 320
 * bytes). */
void ks_addr_format(const struct ks_addr *a, char *buf, size_t size);

/* True for an address of this host that needs no network: 127.x.x.x,
 * ::1, "localhost", or "" (a Unix-domain peer). */
bool ks_addr_is_local(const char *host);

/* The address a daemon wrote to an address file (its first line), if
 * the file exists and that line is an address; *a (NULL allowed) gets it
 * parsed.  Returns a new string (free()) or NULL. */
char *ks_addr_read_file(const char *path, struct ks_addr *a);

/* The directory of daemons' Unix-domain sockets: DAEMON_SOCKET_DIR, where
 * "auto" (the default) means $(LOCK)/daemon_sock.  Returns a new string
 * (free()) or NULL if the configuration names none. */
char *ks_addr_socket_dir(const ks_config *cfg);

/* The Unix-domain socket of a daemon of this host (its address a names
 * one, and is of this host: loopback or one of its interfaces), if it
 * exists in the socket directory.  A new string (free()) or NULL. */
char *ks_addr_local_socket(const ks_config *cfg, const struct ks_addr *a);

#endif
