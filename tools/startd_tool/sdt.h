/*
 * sdt.h: what condor_vacate and condor_drain share: HTCondor's way of
 * matching command-line flags by prefix, of turning a machine name a
 * user typed into a daemon name, of finding a startd's address (its
 * address file, or the slot ads in the collector), and of sending one
 * command to a startd and reading its answer.
 *
 * Nothing here prints: callers word the messages, as HTCondor's tools do
 * each in their own way.  Prefix: sdt_ ("startd tool").
 */
#ifndef KS_SDT_H
#define KS_SDT_H

#include <stdbool.h>
#include <stddef.h>

#include "classad.h"
#include "config.h"
#include "ks_err.h"

/* ---- flags ----------------------------------------------------------- */

/* HTCondor's is_dash_arg_prefix(): arg is "-" and a prefix of word at
 * least min characters long (min 0: any prefix, even one character),
 * or "--" and exactly word; min < 0 asks for exactly word after one
 * dash too. */
bool sdt_dash_prefix(const char *arg, const char *word, int min);

/* The same, also taking "-word:FLAGS" (HTCondor's
 * is_dash_arg_colon_prefix()); *colon (NULL allowed) gets the ':' or
 * NULL. */
bool sdt_dash_colon_prefix(const char *arg, const char *word, int min,
			   const char **colon);

/* ---- names ----------------------------------------------------------- */

/* The daemon name HTCondor's get_daemon_name() makes of what a user
 * typed: a name with an '@' as it is; a host name with a dot as it is;
 * else the canonical name DNS gives when that has a dot (not asked when
 * NO_DNS is true), else the name with "." DEFAULT_DOMAIN_NAME.  Where
 * HTCondor gives up after that, the name is kept as typed, because
 * kestrel's startd names itself by the bare host name on a host with no
 * domain.  Returns a new string (free()), or NULL for a host name DNS
 * does not know (HTCondor's "unknown host"). */
char *sdt_daemon_name(const ks_config *cfg, const char *name);

/* The part after the last '@', or name itself.  Borrowed from name. */
const char *sdt_host_part(const char *name);

/* This host's name as kestrel's startd writes it in Machine (and after
 * the '@' of its slots' names): the host name, made canonical when DNS
 * gives a name with a dot.  New string. */
char *sdt_local_host(void);

/* The local startd's daemon name (HTCondor's localName()): STARTD_NAME
 * ("x" becomes "x@host"), else sdt_local_host().  New string. */
char *sdt_local_name(const ks_config *cfg);

/* ---- finding startds -------------------------------------------------- */

/* One startd (in fact one slot ad of it; all slots share the address). */
struct sdt_startd {
	char *addr;    /* MyAddress: the sinful string to send to */
	char *name;    /* Name ("slot1@host"), or NULL */
	char *machine; /* Machine, or NULL */
};

void sdt_startd_clear(struct sdt_startd *s);
void sdt_startds_free(struct sdt_startd *s, size_t n);

/* The slot ads of the pool's startds (pool NULL: COLLECTOR_HOST) that
 * satisfy constraint (NULL: all), projected to Name, Machine and
 * MyAddress; ads without MyAddress are left out.  *out is new
 * (sdt_startds_free()).  Returns 0, KS_EPARSE for a constraint that does
 * not parse, or the query's error (KS_ECONNECT, ...) with err. */
int sdt_query(const ks_config *cfg, const char *pool, const char *constraint,
	      struct sdt_startd **out, size_t *n, struct ks_err *err);

/* The address in STARTD_ADDRESS_FILE, or NULL.  New string. */
char *sdt_local_addr(const ks_config *cfg);

/* Finds one startd as HTCondor's Daemon::locate() does for a daemon
 * name (from sdt_daemon_name(); NULL for this host's): the local address
 * file first when the name is this host's and no pool is given (*local
 * tells), else the first slot ad whose Machine is the name (Name, when
 * the name has an '@').  Returns 0 once the address file or the
 * collector has answered, with *out filled (sdt_startd_clear()) and
 * out->addr NULL when no ad matches; or the query's error with err. */
int sdt_locate(const ks_config *cfg, const char *pool, const char *name,
	       bool *local, struct sdt_startd *out, struct ks_err *err);

/* ---- commands --------------------------------------------------------- */

/* The answer to one command. */
struct sdt_reply {
	int code;   /* KS_REPLY_OK, KS_REPLY_ERROR, KS_REPLY_DENIED, ... */
	classad *ad; /* its first ad, or NULL; owned (sdt_reply_clear()) */
};

void sdt_reply_clear(struct sdt_reply *r);

/* Sends command code to the daemon at addr with ad (NULL: none) and
 * reads the one answer.  Returns 0 with *reply filled (whatever its code),
 * or KS_ECONNECT / KS_ETIMEDOUT / KS_EAUTH / KS_EPROTO with err; *connected
 * (NULL allowed) tells whether the connection was made, so that a caller
 * can tell "can't connect" from "can't send". */
int sdt_send(const ks_config *cfg, const char *addr, int code, classad *ad,
	     bool *connected, struct sdt_reply *reply, struct ks_err *err);

/* The ErrorString of an answer (a denial's reason, or "no reason
 * given"); *code (NULL allowed) gets its ErrorCode, or 0.  New string. */
char *sdt_reply_error(const struct sdt_reply *r, int *code);

/* An address as HTCondor shows it in "daemon at <...>": the sinful
 * string without its "?..." parameters, into buf. */
void sdt_bare_addr(const char *addr, char *buf, size_t size);

/* The name of the user running the tool (HTCondor's my_username()), or
 * NULL.  New string. */
char *sdt_username(void);

#endif
