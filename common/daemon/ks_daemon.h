/*
 * ks_daemon.h: the skeleton every kestrel daemon runs in.
 *
 * ks_daemon_main() does what all daemons share: the -f/-t/-p/-local-name
 * flags, loading the configuration (a broken one stops the daemon with
 * the configuration's own message), the log (ks_log.h), the command
 * sockets (TCP and UDP on one port, and a Unix-domain socket in
 * DAEMON_SOCKET_DIR for local peers), the handshake and authorization of
 * every connection, dispatch of commands to the daemon's table, the
 * daemon's own ad sent to the collector every UPDATE_INTERVAL (and
 * invalidated at shutdown), reconfig on SIGHUP and DC_RECONFIG(_FULL),
 * graceful shutdown on SIGTERM and DC_OFF_GRACEFUL, fast on SIGQUIT and
 * DC_OFF_FAST and when the master that started it has gone (parent.c),
 * the daemon's locks on its local state (ks_daemon_lock(), taken before
 * anything else), and a startd's QUERY_STARTD_ADS (its slot ads, asked
 * of it directly, as condor_who does).  A daemon supplies ops (its own start,
 * reconfig, shutdown and ad) and a command table.
 */
#ifndef KS_DAEMON_H
#define KS_DAEMON_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "classad.h"
#include "config.h"
#include "ks_auth.h"
#include "ks_log.h"
#include "ks_loop.h"
#include "ks_call.h"

typedef struct ks_daemon ks_daemon;
struct ks_srv_conn;

/* One command received: its ads belong to the skeleton and are freed
 * after the handler returns (take a classad_ref() to keep one). */
struct ks_request {
	int code;
	classad **ads;
	size_t n;
	const char *identity; /* authenticated peer, or KS_ANONYMOUS */
	const char *host;     /* peer IP address text; "" for Unix peers */
	bool udp;             /* no reply possible */
	bool paired;          /* public and private ads (KS_WIRE_PAIRED) */
	struct ks_srv_conn *conn;
};

typedef void (*ks_cmd_fn)(ks_daemon *d, struct ks_request *req);

struct ks_command_def {
	int code;
	enum ks_level level;
	ks_cmd_fn fn;
};

struct ks_daemon_ops {
	/* Optional, first of all (after the configuration, before the log,
	 * the sockets, the address file, anything a running twin would
	 * feel): takes the daemon's locks on its local state with
	 * ks_daemon_lock().  The log is not open yet: say what went wrong
	 * in err.  KS_EEXIST (another process holds a lock) stops the
	 * daemon with status KS_DAEMON_EXIT_LOCKED, any other error with 1;
	 * either way err's message goes to standard error. */
	int (*lock)(ks_daemon *d, struct ks_err *err);
	/* After configuration, log and sockets are up: the daemon's own
	 * start.  Non-zero stops the daemon with err's message. */
	int (*start)(ks_daemon *d, struct ks_err *err);
	/* After a successful reconfig (d->cfg is the new configuration). */
	void (*reconfig)(ks_daemon *d);
	/* Shutdown has begun; call ks_daemon_exit() when done (at once if
	 * the daemon has nothing to wind down).  NULL: exit at once. */
	void (*shutdown)(ks_daemon *d, bool fast);
	/* The daemon's ad for the collector (new ad), or NULL for none.
	 * The skeleton adds the attributes every daemon ad has. */
	classad *(*make_ad)(ks_daemon *d);
	/* Or, for a daemon with several ads (the startd's slots): sets
	 * *ads to a new array of new ads and returns how many. */
	size_t (*make_ads)(ks_daemon *d, classad ***ads);
	/* Optional, with make_ads: only the ads that changed since the last
	 * update (a slot that changed state), as make_ads gives them; 0 for
	 * none.  HTCondor's startd sends a slot's ad when that slot changes,
	 * and all of them every UPDATE_INTERVAL. */
	size_t (*make_changed_ads)(ks_daemon *d, classad ***ads);
	/* The code that updates (and invalidates) that ad. */
	int update_code, invalidate_code;
	/* make_ads gives each ad followed by its private ad (the startd's
	 * claim ids), sent flagged KS_WIRE_PAIRED; only the public ones are
	 * invalidated at exit. */
	bool paired_ads;
};

struct ks_daemon {
	const char *subsys;   /* "COLLECTOR", "MASTER", ... */
	char *local_name;     /* -local-name, or NULL */
	ks_config *cfg;
	ks_log *log;
	ks_loop *loop;
	ks_calls *calls;      /* its requests to other daemons under way */
	ks_authz *authz;
	char *owner;          /* the user the daemon runs as */
	/* the account it acts as (ks_priv.h): when root started it,
	 * CONDOR_IDS or the account named condor, else the user running it;
	 * what the programs it starts for itself (cron jobs) become */
	uid_t condor_uid;
	gid_t condor_gid;
	char *condor_name;
	char *name;           /* the Name in its ad */
	char sinful[320];     /* its public address, "<ip:port?sock=...>" */
	int port;
	long start_time;      /* time(NULL) at start */
	bool shutting_down;
	bool peaceful;        /* ... peacefully: jobs may finish however long
			       * they take (DC_OFF_PEACEFUL, or SIGUSR2 from
			       * the master) */
	void *ctx;            /* the daemon's own state */
	/* private to the skeleton */
	const struct ks_daemon_ops *ops;
	const struct ks_command_def *cmds;
	size_t ncmds;
	struct ks_daemon_priv *priv;
};

/* What the master puts in each daemon's GLIBC_TUNABLES when the pool's
 * environment sets none: its heap on transparent huge pages, which pays
 * for a long-lived daemon that takes in thousands of ads.  A daemon drops
 * exactly this value from its own environment as it starts (glibc has
 * read it by then), so that what it starts (a starter, a job, a hook),
 * short-lived, does not pay for a 2 MiB page it barely uses. */
#define KS_DAEMON_TUNABLES "glibc.malloc.hugetlb=1"

/* The exit status of a daemon refused its lock at start (its state is
 * another process's): the master says so in its log when it restarts
 * the daemon.  (HTCondor counts its codes for the master down from 100:
 * 99 is DAEMON_NO_RESTART.) */
#define KS_DAEMON_EXIT_LOCKED 98

/* Locks the local state at path for as long as the process lives: an
 * advisory lock (flock) that the kernel drops when the process ends,
 * however it ends.  dir: path is a directory (made when missing, as are
 * a file's parent directories; a file is made empty, mode 0600).  what
 * names the state for the message ("the job queue").  Returns 0;
 * KS_EEXIST when another process holds it, err naming the path, that
 * process's program and pid, and what to do; KS_EIO when path cannot be
 * opened or locked.  Call it from ops->lock. */
int ks_daemon_lock(const char *path, bool dir, const char *what,
		   struct ks_err *err);

/* In the master's child about to become a daemon: names the master
 * (pid parent, its address) in the daemon's environment
 * (CONDOR_INHERIT, as HTCondor's master sets it), so that the daemon
 * shuts down fast when the master has gone.  The daemon removes it from
 * its own environment as it starts. */
void ks_daemon_set_inherit(const ks_daemon *d, pid_t parent);

/* Runs a daemon: returns the process's exit status. */
int ks_daemon_main(int argc, char **argv, const char *subsys,
		   const struct ks_daemon_ops *ops,
		   const struct ks_command_def *cmds, size_t ncmds, void *ctx);

/* Appends a reply message to the request's connection (no-op for UDP).
 * more: further messages of this reply follow. */
void ks_reply(struct ks_request *req, int code, classad *const *ads, size_t n,
	      bool more);

/* Makes the next piece of a streamed reply: appends ad records
 * (ks_wire_encode_ad()) to out; returns true while more pieces remain. */
typedef bool (*ks_stream_fn)(ks_daemon *d, void *arg, struct classad_buf *out);

/* Replies with messages of code made a piece at a time by produce(), each
 * once the peer has taken most of what went before: a slow reader costs
 * the daemon a piece of memory rather than the whole reply, and other
 * connections are served in between.  Requests that come behind it on
 * the same connection wait for its end.  done(arg) is called once, after
 * the last piece or when the connection goes away (at once for UDP). */
void ks_reply_stream(struct ks_request *req, int code, ks_stream_fn produce,
		     void (*done)(void *arg), void *arg);

/* A reply promised now and sent later, when something has happened (a
 * job has ended): the request's connection stays open for it, and is
 * not closed as idle meanwhile.  NULL for UDP or when the connection
 * already waits for one.  Exactly one of ks_later_reply() and
 * ks_later_cancel() frees it. */
typedef struct ks_later ks_later;
ks_later *ks_reply_later(struct ks_request *req);
/* Sends the reply; false when the peer had gone (nothing sent). */
bool ks_later_reply(ks_later *l, int code, classad *const *ads, size_t n);
/* Sends a message ahead of the reply (marked "more": the reply still
 * follows; news of a running job); l stays.  False when the peer had
 * gone. */
bool ks_later_update(ks_later *l, int code, classad *const *ads, size_t n);
void ks_later_cancel(ks_later *l);

/* An error reply: code KS_REPLY_ERROR and an ad with ErrorString. */
void ks_reply_error(struct ks_request *req, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Sends the daemon's ad now (also done every UPDATE_INTERVAL). */
void ks_daemon_update_collector(ks_daemon *d);

/* Sends the ads that changed (make_changed_ads) at the next whole second
 * of the clock, with whatever else changes until then; all of them at
 * once for a daemon without that operation. */
void ks_daemon_update_changed(ks_daemon *d);

/* Sends ads to the collector in one message with the given command (an
 * invalidation of one of several ads, say), without waiting (a failure
 * is logged).  Returns 0, or the error code (logged) when the collector's
 * address is not known. */
int ks_daemon_send(ks_daemon *d, int code, classad *const *ads, size_t n);

/* Withdraws the daemon's ad from the collector (once; done at exit if
 * not before). */
void ks_daemon_invalidate(ks_daemon *d);

/* Starts a reconfig: re-reads the whole configuration; on error keeps the
 * old one and logs why.  Returns 0 or the error code. */
int ks_daemon_reconfig(ks_daemon *d);

/* Starts shutdown (as SIGTERM / SIGQUIT do). */
void ks_daemon_shutdown(ks_daemon *d, bool fast);

/* Ends the loop, once its requests to other daemons are answered (10 s
 * at most): the daemon exits after invalidating its ad. */
void ks_daemon_exit(ks_daemon *d);

/* Reads an int knob with the daemon's prefixes, or def. */
long ks_daemon_int(const ks_daemon *d, const char *name, long def);

#endif
