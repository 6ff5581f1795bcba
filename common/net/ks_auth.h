/*
 * ks_auth.h: who a peer is, and what it may do.
 *
 * Authentication happens in the handshake (docs/protocol.md): FS over a
 * Unix-domain socket (the kernel's peer credentials), TOKEN (a pool-signed
 * token, proved by challenge-response so that the token's signature never
 * crosses the wire), or nothing, which makes the peer
 * "unauthenticated@unmapped", as HTCondor names it.
 *
 * Authorization: every command has a level, resolved as HTCondor's
 * IpVerify and SecMan resolve it (docs/protocol.md, "Authorization"):
 *
 *  - a level's ALLOW and DENY lists are each the first of
 *    <KIND>_<LEVEL>_<SUBSYS>, <KIND>_<LEVEL>, then the same for the level
 *    it falls back on (ADVERTISE_STARTD/SCHEDD/MASTER on DAEMON; DAEMON
 *    on WRITE when LEGACY_ALLOW_SEMANTICS is true), then
 *    <KIND>_DEFAULT_<SUBSYS>, <KIND>_DEFAULT, that has a value;
 *  - entries are "user@domain/host", "user@domain", "host", or a
 *    network ("10.0.0.0/8", "10.0.0.0/255.0.0.0", IPv6 alike); '*'
 *    matches any run of characters; condor@X and condor_pool@X stand for
 *    each other (USE_POOL_USERNAME_EQUIVALENT);
 *  - a peer in the level's DENY list is refused; else one in its ALLOW
 *    list is allowed; else it is allowed if it is allowed a level that
 *    implies this one: WRITE, NEGOTIATOR, CONFIG and the ADVERTISE levels
 *    imply READ, ADMINISTRATOR and DAEMON imply WRITE.
 *
 * kestrel's defaults stand where the configuration does not name
 * ALLOW_READ, ALLOW_WRITE (both "*"), ALLOW_ADMINISTRATOR, ALLOW_DAEMON
 * or ALLOW_NEGOTIATOR (the daemon's user, condor, condor_pool and root,
 * from anywhere), as if the configuration said so, so that a personal
 * pool works with no set-up.
 *
 * A list that cannot be read (its value does not expand: a reference
 * loop, a bad $INT()) never widens what is allowed: a DENY list that
 * cannot be read refuses everyone that level, an ALLOW list that cannot
 * be read allows nobody, and neither falls back on another list.
 */
#ifndef KS_AUTH_H
#define KS_AUTH_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "ks_err.h"

#define KS_ANONYMOUS "unauthenticated@unmapped"

/* HTCondor's levels, in its order.  (OWNER is not one: HTCondor 9.9
 * merged it into ADMINISTRATOR, and ALLOW_OWNER is read by nobody.) */
enum ks_level {
	KS_LEVEL_ALLOW, /* anyone, no check */
	KS_LEVEL_READ,
	KS_LEVEL_WRITE,
	KS_LEVEL_NEGOTIATOR,
	KS_LEVEL_ADMINISTRATOR,
	KS_LEVEL_CONFIG,
	KS_LEVEL_DAEMON,
	KS_LEVEL_ADVERTISE_STARTD,
	KS_LEVEL_ADVERTISE_SCHEDD,
	KS_LEVEL_ADVERTISE_MASTER,
	KS_LEVEL_COUNT
};

/* "READ", "DAEMON", ...  Static. */
const char *ks_level_name(enum ks_level level);

/* The level named name (any case), or KS_LEVEL_COUNT if none is. */
enum ks_level ks_level_from_name(const char *name);

/* The levels a token whose scope names the n levels in names grants, as
 * bits 1 << enum ks_level: each named level and every level it implies
 * (a WRITE token may READ).  0 when n is 0 (the token is not limited);
 * only the ALLOW bit when no name is a level (it grants nothing that
 * needs authorization). */
unsigned ks_level_scope(const char *const *names, size_t n);

/* The compiled ALLOW/DENY lists of one daemon. */
typedef struct ks_authz ks_authz;

/* Reads the lists from cfg for a daemon of subsystem subsys (NULL: no
 * subsystem forms); owner is the user name the daemon runs as (its peers
 * of the same user are trusted as the pool's own daemons).  Never fails:
 * a list that cannot be read is compiled to its narrowest meaning and
 * reported by ks_authz_problem().  Free with ks_authz_free(). */
ks_authz *ks_authz_new(const ks_config *cfg, const char *subsys,
		       const char *owner);
void ks_authz_free(ks_authz *a);

/* The i-th list that could not be read, as a sentence for the daemon's
 * log ("DENY_WRITE cannot be read (...): it refuses everyone WRITE"), or
 * NULL past the last.  Borrowed: valid until ks_authz_free(). */
const char *ks_authz_problem(const ks_authz *a, size_t i);

/* True if identity ("user@domain"), connecting from host (an IP address
 * text, "" for a Unix-domain socket), may use level.  why (NULL allowed,
 * size >= 200) says which list decided when the answer is no. */
bool ks_authz_check(const ks_authz *a, enum ks_level level,
		    const char *identity, const char *host, char *why,
		    size_t why_size);

/* True if pattern (with '*' wildcards) matches s, ignoring case. */
bool ks_auth_glob(const char *pattern, const char *s);

/* ---- handshake helpers, shared by client and server ------------------ */

/* n random bytes from the system's generator.  Returns 0 or KS_EIO. */
int ks_auth_random(unsigned char *out, size_t n);

/* Lower-case hex of n bytes into out (2n+1 bytes). */
void ks_auth_hex(const unsigned char *in, size_t n, char *out);

/* Decodes 2n hex digits into out.  Returns 0 or -1. */
int ks_auth_unhex(const char *in, unsigned char *out, size_t n);

/* HMAC-SHA256 of label, a and b (in that order) under key: the proofs and
 * session keys of the TOKEN method. */
void ks_auth_mac(const unsigned char *key, size_t keylen, const char *label,
		 const char *a, const char *b, unsigned char out[32]);

/* The user name of uid ("uid1234" when it has none).  Returns a new
 * string (free()). */
char *ks_auth_username(unsigned uid);

#endif
