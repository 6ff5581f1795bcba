/* daemon_int.h: what the skeleton's files share (not for daemons). */
#ifndef KS_DAEMON_INT_H
#define KS_DAEMON_INT_H

#include "ks_daemon.h"
#include "ks_tls.h"

struct ks_srv_conn;

/* A security session: what lets a peer that authenticated over TCP sign
 * its UDP datagrams. */
struct kd_session {
	char id[33];
	unsigned char key[32];
	char *identity;
	unsigned levels; /* a token's scope, as ks_srv_conn's */
	int64_t expires; /* time() */
};

struct ks_daemon_priv {
	struct kd_session *sessions; /* oldest first */
	size_t nsessions;
	int64_t exit_by; /* ks_clock_ms() by which to exit, once exiting */
	/* post.c: messages for the collector, the first one on its way */
	struct kd_post *posts, *posts_tail;
	ks_call *post_call;
	int tcp_fd, udp_fd, unix_fd;
	char *unix_path;
	struct ks_srv_conn *conns; /* doubly linked */
	size_t nconns;
	uint64_t sweep_timer, update_timer;
	bool foreground, to_stderr;
	int want_port;
	char *address_file;
	uint64_t address_timer; /* the next try of a file not written */
	classad_cache *cache;
	int64_t seq; /* UpdateSequenceNumber */
	bool invalidated;
	int retries; /* quick retries of a failed update */
	uint64_t retry_timer;
	uint64_t changed_timer; /* ks_daemon_update_changed()'s send */
	struct kd_settings *runtime; /* -rset settings (runtime.c) */
	SSL_CTX *tls_ctx; /* for peers on other hosts (ks_tls.h) */
	unsigned sweeps;  /* connection sweeps so far (every 5 s) */
	/* the identity of the last local peer uid (server.c), kept until
	 * PASSWD_CACHE_REFRESH runs out or a reconfig */
	uid_t id_uid;
	char *id_name;
	int64_t id_until;
	/* the master that started the daemon (CONDOR_INHERIT), or 0; its
	 * pidfd, or the timer that polls for it (parent.c) */
	pid_t parent;
	int parent_fd;
	uint64_t parent_timer;
	/* free heap bytes when memory.c last gave pages back, or the least
	 * seen since */
	size_t heap_free_mark;
};

/* server.c */
int kd_server_start(ks_daemon *d, struct ks_err *err);
void kd_server_stop(ks_daemon *d);

/* A collector that does not take a message in this long is taken as gone
 * for that message. */
#define KD_COLLECTOR_TIMEOUT_MS 5000

/* post.c: queues a message for the collector (ads: a new array of ads,
 * taken), sent through the loop after those before it; update: the
 * daemon's update, which a later one may replace by a whole update. */
void kd_post(ks_daemon *d, int code, classad **ads, size_t n, unsigned flags,
	     bool update);
/* Drops what is queued (at the daemon's end). */
void kd_posts_free(ks_daemon *d);
/* daemon.c: how a posted message went (why: NULL when it went); and the
 * daemon's whole update as it is now (new array of new ads). */
void kd_posted(ks_daemon *d, int code, bool update, int rc, const char *why);
classad **kd_update_ads(ks_daemon *d, size_t *n);
void kd_sessions_free(ks_daemon *d);
/* Forgets the remembered peer identity (the configuration changed). */
void kd_identity_forget(ks_daemon *d);

/* daemon.c */
/* The daemon's ads as the collector gets them (with the attributes every
 * daemon ad carries), without the private ads of a paired list: a new
 * array of new ads (classad_free() each, then free()); *n of them. */
classad **kd_public_ads(ks_daemon *d, size_t *n);

/* own_query.c */
/* QUERY_STARTD_ADS sent to the startd itself (see own_query.c). */
void kd_cmd_query_own(ks_daemon *d, struct ks_request *req);

/* parent.c */
/* Takes the master's pid from CONDOR_INHERIT (and drops the variable). */
void kd_parent_read(ks_daemon *d);
/* Once the loop runs: shuts the daemon down fast when that master has
 * gone (not for the master itself). */
void kd_parent_watch(ks_daemon *d);
void kd_parent_stop(ks_daemon *d);

/* memory.c */
/* Fixes when the allocator gives memory back: blocks of 1 MiB and more
 * in mappings of their own (called first thing at start). */
void kd_memory_setup(void);
/* Gives the free pages inside the heap back once much has been freed
 * since the last time (the connection sweep's, every 5 s). */
void kd_memory_sweep(ks_daemon *d);

/* priv.c */
/* The account the daemon acts as (d->condor_*): 0, or an error saying
 * why a daemon started by root has none. */
int kd_priv_ids(ks_daemon *d, struct ks_err *err);
/* LOG, SPOOL, EXECUTE and LOCK, made (as root, for the account) when
 * missing. */
void kd_priv_make_dirs(ks_daemon *d);
/* The account's identity from now on (root stays the real uid). */
int kd_priv_become_condor(ks_daemon *d, struct ks_err *err);

/* runtime.c */
struct kd_settings;
/* Reads the -set and -rset settings into cfg, after its files. */
int kd_runtime_apply(ks_daemon *d, ks_config *cfg, struct ks_err *err);
void kd_runtime_free(ks_daemon *d);
void kd_cmd_config_set(ks_daemon *d, struct ks_request *req);

#endif
