/*
 * ks_handshake.h: the client's side of the handshake (docs/protocol.md)
 * as a step function, so that a blocking tool and a daemon's loop drive
 * the same logic: begin() gives the HELLO to send; each answer goes to
 * step(), which gives the next message to send or says it is over.  The
 * proofs are the ones the server (common/daemon/server.c) checks and
 * makes with ks_hs_proof().
 */
#ifndef KS_HANDSHAKE_H
#define KS_HANDSHAKE_H

#include <openssl/ssl.h>
#include <stdbool.h>

#include "classad.h"
#include "config.h"
#include "ks_err.h"
#include "ks_wire.h"

struct ks_hs_client {
	const char *peer; /* for messages; borrowed */
	char cn[33];      /* our nonce, hex */
	char *head;       /* the token's head we present, or NULL */
	unsigned char sig[32];
	bool proving;     /* PROOF sent, DONE awaited */
	char server_proof[65]; /* the proof the server must then send */
	/* the outcome, once step() has returned 0 */
	char *identity;   /* as the server knows us (new string) */
	char session[KS_WIRE_SESSION_ID + 1]; /* "" without a session */
	unsigned char key[32];
};

/* Starts a handshake with peer (named in messages; must outlive h) over
 * a Unix-domain socket (unix_peer: the kernel vouches for us) or TCP
 * (then a token from cfg is offered when TOKEN is an allowed method).
 * *hello (new) is the KS_HS_HELLO message's ad.  Returns 0 or KS_EIO. */
int ks_hs_client_begin(struct ks_hs_client *h, const ks_config *cfg,
		       bool unix_peer, const char *peer, classad **hello,
		       struct ks_err *err);

/* Takes the server's answer (its code and first ad, NULL allowed); ssl
 * is the connection's TLS channel or NULL, which the proofs cover.
 * Returns 1 with the next message to send (*out_code, *out new), 0 when
 * the handshake is over (identity and session in h), or KS_EAUTH /
 * KS_EPROTO with err saying why. */
int ks_hs_client_step(struct ks_hs_client *h, SSL *ssl, int code,
		      const classad *in, int *out_code, classad **out,
		      struct ks_err *err);

/* Wipes the secrets and frees what h holds (identity too, unless the
 * caller took it and set it NULL). */
void ks_hs_client_clear(struct ks_hs_client *h);

/* The proof of one side ("client" or "server") for the nonces cn and sn
 * (sn already bound to the TLS channel) under the token's signature sig:
 * 64 hex digits and a NUL into hex. */
void ks_hs_proof(const unsigned char sig[32], const char *side,
		 const char *cn, const char *sn, char hex[65]);

#endif
