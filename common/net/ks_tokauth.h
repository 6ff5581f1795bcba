/*
 * ks_tokauth.h: the TOKEN method's use of common/token, for the handshake
 * on both sides.  Internal to common/net and common/daemon.
 */
#ifndef KS_TOKAUTH_H
#define KS_TOKAUTH_H

#include "config.h"
#include "ks_err.h"

/* Client side: a token to present (the user's tokens, or one the process
 * mints for itself when it can read the pool signing key).  *head is
 * the token without its signature (new string, free()); sig is the
 * signature, the secret the handshake proves.  Returns 0, or
 * KS_ENOTFOUND when there is no token to use. */
int ks_tokauth_client(const ks_config *cfg, char **head, unsigned char sig[32]);

/* Server side: checks a presented head (issuer, expiry, key) and computes
 * the signature it must have.  *identity is the token's subject (new
 * string); *levels the authorization levels its scope grants
 * (ks_level_scope(): the named levels and those they imply), as
 * bits 1 << enum ks_level (0: not limited).  Returns 0, or KS_EAUTH with
 * err saying why not. */
int ks_tokauth_server(const ks_config *cfg, const char *head,
		      unsigned char sig[32], char **identity,
		      unsigned *levels, struct ks_err *err);

#endif
