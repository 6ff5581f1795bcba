/*
 * ks_auth.h: who a peer is, and what it may do.
 *
 * Authentication happens in the handshake (docs/protocol.md): FS over a
 * Unix-domain socket (the kernel's peer credentials), TOKEN (a pool-signed
 * token, proved by challenge-response so that the token's signature never
 * crosses the wire), or nothing, which makes the peer
 * "unauthenticated@unmapped", as HTCondor names it.
 *
 * Authorization: every command has a level.  A level's ALLOW_<LEVEL> and
 * DENY_<LEVEL> lists (and ALLOW_<LEVEL>_<SUBSYS>, checked first) hold
 * entries "user@domain/host", "user@domain", or "host"; '*' matches any
 * run of characters.  DENY wins over ALLOW.  Levels imply others as
 * HTCondor's do: ADMINISTRATOR and DAEMON imply WRITE, WRITE and
 * NEGOTIATOR imply READ; ADVERTISE_STARTD/SCHEDD/MASTER fall back on
 * DAEMON when not set.  Unset lists take kestrel's defaults, which let a
 * personal pool work with no set-up (docs/protocol.md).
 */
#ifndef KS_AUTH_H
#define KS_AUTH_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "ks_err.h"

#define KS_ANONYMOUS "unauthenticated@unmapped"

enum ks_level {
	KS_LEVEL_ALLOW, /* anyone, no check */
	KS_LEVEL_READ,
	KS_LEVEL_WRITE,
	KS_LEVEL_ADMINISTRATOR,
	KS_LEVEL_DAEMON,
	KS_LEVEL_NEGOTIATOR,
	KS_LEVEL_ADVERTISE_STARTD,
	KS_LEVEL_ADVERTISE_SCHEDD,
	KS_LEVEL_ADVERTISE_MASTER,
	KS_LEVEL_COUNT
};

/* "READ", "DAEMON", ...  Static. */
const char *ks_level_name(enum ks_level level);

/* The compiled ALLOW/DENY lists of one daemon. */
typedef struct ks_authz ks_authz;

/* Reads the lists from cfg for a daemon of subsystem subsys; owner is the
 * user name the daemon runs as (its peers of the same user are trusted as
 * the pool's own daemons).  Free with ks_authz_free(). */
ks_authz *ks_authz_new(const ks_config *cfg, const char *subsys,
		       const char *owner);
void ks_authz_free(ks_authz *a);

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
