/*
 * ks_tls.h: TLS (OpenSSL) for connections that leave the host.
 *
 * Between hosts every connection is encrypted unless
 * SEC_DEFAULT_ENCRYPTION is NEVER.  A daemon presents the certificate of
 * AUTH_SSL_SERVER_CERTFILE / AUTH_SSL_SERVER_KEYFILE (the first pair of
 * the lists that can be read) or, with none, one it makes at start-up.
 * Clients do not check the certificate: who the daemon is, is proved by
 * the handshake (the TOKEN proofs), and those proofs are bound to the TLS
 * channel (ks_tls_binding()) so that a man in the middle cannot relay
 * them.  Internal to common/net and common/daemon.
 */
#ifndef KS_TLS_H
#define KS_TLS_H

#include <openssl/ssl.h>
#include <stdbool.h>

#include "config.h"
#include "ks_err.h"

/* Whether a connection to or from host (an address text; "" for a
 * Unix-domain peer) is to be encrypted. */
bool ks_tls_wanted(const ks_config *cfg, const char *host);

/* Whether a peer from host must use TLS: SEC_DEFAULT_ENCRYPTION is
 * REQUIRED and host is another host. */
bool ks_tls_required(const ks_config *cfg, const char *host);

/* A client context (free with SSL_CTX_free()), or NULL with err. */
SSL_CTX *ks_tls_client_ctx(struct ks_err *err);

/* A server context with the configured certificate or a new one; *made
 * (NULL allowed) tells which.  NULL with err on failure. */
SSL_CTX *ks_tls_server_ctx(const ks_config *cfg, bool *made,
			   struct ks_err *err);

/* The server nonce as the TOKEN proofs use it: nonce itself without TLS
 * (ssl NULL), else nonce and the channel's exporter value (RFC 5705), so
 * that proofs relayed through another channel fail.  New string. */
char *ks_tls_bind_nonce(SSL *ssl, const char *nonce);

#endif
