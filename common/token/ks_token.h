/*
 * ks_token.h: HTCondor-style IDTOKENS (signed, expiring identity tokens).
 *
 * A token is a JSON Web Token (RFC 7519) signed with HMAC-SHA256 (HS256),
 * as HTCondor's condor_token_create writes it:
 *
 *   base64url({"alg":"HS256","kid":"POOL"}) . base64url(payload) . base64url(sig)
 *
 * with the payload claims, keys in this order and only those present:
 * exp (only with a lifetime), iat, iss (TRUST_DOMAIN), jti (16 random bytes
 * as 32 lowercase hex digits), scope ("condor:/READ condor:/WRITE" when
 * limited to authorization levels), sub (the identity, user@domain).  The
 * JSON is compact and escapes '/' as "\/" and control characters as
 * "\u00xx", so that the same claims give the same bytes as HTCondor's
 * (checked against the token in HTCondor's manual; see tests/token).
 *
 * Signing keys (what HTCondor does, found in its source):
 *  - The key named "POOL" is the file SEC_TOKEN_POOL_SIGNING_KEY_FILE
 *    (default $(SEC_PASSWORD_FILE) = $(SEC_PASSWORD_DIRECTORY)/POOL); any
 *    other name N is the file $(SEC_PASSWORD_DIRECTORY)/N (default
 *    $(ETC)/passwords.d).
 *  - The file holds the key XORed with the repeating bytes DE AD BE EF
 *    (HTCondor's "scramble" of password files); reading undoes it.
 *  - For POOL only, the unscrambled bytes are doubled (k || k), which
 *    HTCondor keeps for tokens made from old pool passwords.
 *  - The HMAC key is HKDF-SHA256(ikm = those bytes, salt = "htcondor",
 *    info = "master jwt"), 32 bytes.
 *  - The file must be a regular file owned by the effective user and not
 *    readable or writable by group or others, as HTCondor's secure read
 *    demands; it may not be empty (HTCondor would accept an empty key).
 *  - A new pool key is 64 random bytes, written scrambled, mode 0600.
 *  So a key file made by either side signs identical tokens on both.
 *  HTCondor's SEC_TOKEN_POOL_SIGNING_KEY_IS_PASSWORD (truncate at the first
 *  NUL) is not supported.
 *
 * The handshake.  The client sends only "header.payload" (the signing
 * input); the server parses it (ks_token_parse), checks the claims and
 * recomputes the signature with its copy of the key
 * (ks_token_server_secret); both sides then use the 32-byte signature as
 * the shared secret, which never crosses the wire.
 *
 * Secrets: a ks_token_key, the signature of a struct ks_token and every
 * minted token string are secrets.  Nothing here logs them; keys and
 * signatures are wiped before they are freed.  Callers must not print a
 * token's third part, and should free token strings with
 * ks_token_string_free(), which wipes them.
 *
 * Errors: functions return 0 or a negative KS_E* code, with detail in the
 * caller's struct ks_err (NULL allowed).  Rejections of a peer's token are
 * KS_EAUTH.  No function here keeps global state; all are safe to call
 * from several threads with distinct arguments (a ks_config is read only).
 */
#ifndef KS_TOKEN_H
#define KS_TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "ks_err.h"

/* Length of an HS256 signature, the handshake's shared secret. */
#define KS_TOKEN_SIG_LEN 32
/* How far in the future a token's iat may be before it is refused: clocks
 * of a pool disagree a little.  (HTCondor does not check iat at all.) */
#define KS_TOKEN_CLOCK_SKEW 300
/* Longest token text accepted; a bound for the wire and for files. */
#define KS_TOKEN_MAX_LEN 65536

/* ---- base64url without padding (RFC 4648 section 5) ---- */

/* Encodes n bytes.  Returns a new NUL-terminated string (free()). */
char *ks_token_b64url_encode(const void *data, size_t n);

/* Decodes len characters of s: only the url-safe alphabet, no padding,
 * no whitespace, and unused low bits of the last character must be zero
 * (so each byte string has exactly one encoding).  On success *out is a
 * new buffer of *out_len bytes plus a NUL (free()).  Returns 0 or
 * KS_EPARSE. */
int ks_token_b64url_decode(const char *s, size_t len, unsigned char **out,
			   size_t *out_len);

/* ---- signing keys ---- */

typedef struct ks_token_key ks_token_key;

/* Whether name can name a key: 1 to 255 bytes, printable ASCII, no '/',
 * not starting with '.' (a token's kid chooses a file, so it must not
 * reach outside SEC_PASSWORD_DIRECTORY). */
bool ks_token_key_name_valid(const char *name);

/* The file of key name (see above).  *path_out is a new string (free()).
 * Returns 0, KS_EINVAL for a bad name, or KS_ENOTFOUND when the knob that
 * locates it is not set. */
int ks_token_key_path(const ks_config *cfg, const char *name,
		      char **path_out, struct ks_err *err);

/* A key from the raw contents of its file (scrambled, as stored), for key
 * name: the derivation above, without touching the file system.
 * *key_out is new (ks_token_key_free()).  Returns 0, KS_EINVAL (bad name,
 * empty data) or KS_EINTERNAL (OpenSSL failed). */
int ks_token_key_from_file_data(const char *name, const void *data,
				size_t len, ks_token_key **key_out,
				struct ks_err *err);

/* Reads key name from its file.  *key_out is new (ks_token_key_free()).
 * Returns 0, KS_ENOTFOUND (no such file or knob), KS_EPERM (owner or mode
 * unsafe), KS_EIO, KS_EINVAL (bad name, empty file) or KS_ERANGE (file
 * over 1 MiB). */
int ks_token_key_load(const ks_config *cfg, const char *name,
		      ks_token_key **key_out, struct ks_err *err);

/* The key's name (its kid); borrowed, valid while key lives. */
const char *ks_token_key_name(const ks_token_key *key);

/* Wipes and frees key (NULL allowed). */
void ks_token_key_free(ks_token_key *key);

/* Creates a new random signing key file at path (64 random bytes,
 * scrambled, mode 0600, missing parent directories made with mode 0700)
 * unless path already exists; the file appears whole or not at all.
 * *created (NULL allowed) says whether it was made.  Returns 0 or KS_EIO /
 * KS_EINTERNAL. */
int ks_token_key_create_file(const char *path, bool *created,
			     struct ks_err *err);

/* What a collector does at start-up: creates the POOL key file
 * (SEC_TOKEN_POOL_SIGNING_KEY_FILE) if it does not exist.  Returns 0 (also
 * when the file existed; *created, NULL allowed, tells), KS_ENOTFOUND if
 * the knob is empty, or as ks_token_key_create_file(). */
int ks_token_pool_key_ensure(const ks_config *cfg, bool *created,
			     struct ks_err *err);

/* HMAC-SHA256 of data with key, into out.  Returns 0 or KS_EINTERNAL. */
int ks_token_sign(const ks_token_key *key, const void *data, size_t len,
		  unsigned char out[KS_TOKEN_SIG_LEN]);

/* ---- minting ---- */

/* What a new token says. */
struct ks_token_request {
	const char *identity;       /* sub, user@domain: required */
	const char *const *authz;   /* authorization levels for scope */
	size_t nauthz;              /* 0: no scope claim */
	int64_t lifetime;           /* seconds until exp; < 0: no exp */
	int64_t now;                /* iat; 0: the current time */
	const char *jti;            /* NULL: 16 random bytes in hex */
};

/* Whether id is an identity a token may carry: user@domain, both parts
 * non-empty, printable ASCII, no whitespace. */
bool ks_token_identity_valid(const char *id);

/* Signs a token with key for issuer (iss).  *token_out is a new string
 * (ks_token_string_free()).  Returns 0, KS_EINVAL (bad identity, issuer
 * with a space, tab or comma as HTCondor refuses, authz level empty or with
 * whitespace) or KS_EINTERNAL. */
int ks_token_mint(const ks_token_key *key, const char *issuer,
		  const struct ks_token_request *req, char **token_out,
		  struct ks_err *err);

/* condor_token_create's work: loads key key_name (NULL: "POOL"), takes
 * iss from TRUST_DOMAIN (HTCondor's default: $(UID_DOMAIN)) and mints.
 * Returns 0 or a code of ks_token_key_load(), ks_token_trust_domain() or
 * ks_token_mint(). */
int ks_token_create(const ks_config *cfg, const char *key_name,
		    const struct ks_token_request *req, char **token_out,
		    struct ks_err *err);

/* For a daemon that can read a signing key (key_name, NULL: "POOL"): an
 * in-memory token for itself, identity "condor@<TRUST_DOMAIN>", valid for
 * lifetime seconds (HTCondor uses 60 for this ephemeral token, with the
 * identity "condor@password").  *token_out as ks_token_create(). */
int ks_token_mint_daemon(const ks_config *cfg, const char *key_name,
			 int64_t lifetime, char **token_out,
			 struct ks_err *err);

/* Wipes and frees a token string (NULL allowed). */
void ks_token_string_free(char *token);

/* TRUST_DOMAIN, expanded.  *out is a new string (free()).  Returns 0 or
 * KS_ENOTFOUND when it is not set. */
int ks_token_trust_domain(const ks_config *cfg, char **out,
			  struct ks_err *err);

/* ---- parsing (no verification) ---- */

/* A parsed token.  Every pointer is owned by the struct and freed by
 * ks_token_free(); strings are NUL-terminated and NULL when the claim is
 * absent. */
struct ks_token {
	char *signing_input;        /* "header.payload" as received */
	size_t signing_input_len;
	bool has_sig;               /* the text had a third part */
	unsigned char *sig;         /* decoded signature (secret), or NULL */
	size_t sig_len;
	char *header_json;          /* decoded JSON texts */
	char *payload_json;
	char *alg, *kid, *typ;      /* header */
	char *iss, *sub, *jti;      /* payload */
	char *scope;                /* the scope claim as written */
	bool has_iat, has_exp;
	int64_t iat, exp;
	bool cap;                   /* "cap": true (a capability token) */
	char **scopes;              /* scope split at whitespace */
	size_t nscopes;
	char **authz;               /* scopes "condor:/X" as "X" */
	size_t nauthz;
};

/* Parses len bytes of text: "header.payload" (what the handshake sends)
 * or "header.payload.signature".  Pure: no configuration, clock or files,
 * so it may be fed anything (a fuzz target).  Requires the header and
 * payload to be JSON objects; iat and exp, when present, integers; the
 * string claims, strings; and refuses a repeated claim that it reads.
 * *out is new (ks_token_free()).  Returns 0, KS_EPARSE or KS_ERANGE
 * (longer than KS_TOKEN_MAX_LEN). */
int ks_token_parse(const char *text, size_t len, struct ks_token **out,
		   struct ks_err *err);

/* Frees t, wiping its signature (NULL allowed). */
void ks_token_free(struct ks_token *t);

/* ---- verification (server side) ---- */

/* The checks of a token's claims, pure: alg is HS256; kid, iss, jti and
 * sub are present and not empty; not a capability token; iss equals
 * trust_domain (HTCondor servers leave this to the client's choice of
 * token; kestrel checks it here too); not expired (exp < now); iat not
 * more than KS_TOKEN_CLOCK_SKEW in the future; and, when max_age > 0,
 * now - iat <= max_age.  Returns 0 or KS_EAUTH with the reason. */
int ks_token_check_claims(const struct ks_token *t, const char *trust_domain,
			  int64_t now, int64_t max_age, struct ks_err *err);

/* The server's half of the handshake: checks t's claims against the
 * local TRUST_DOMAIN and SEC_TOKEN_MAX_AGE (as HTCondor, 0 or unset means
 * no limit), loads the key named by t->kid and writes the signature t's
 * signing input must have into sig_out: the shared secret.  now 0 means
 * the current time.  t->sig is not looked at.  Returns 0 or KS_EAUTH. */
int ks_token_server_secret(const ks_config *cfg, const struct ks_token *t,
			   int64_t now, unsigned char sig_out[KS_TOKEN_SIG_LEN],
			   struct ks_err *err);

/* Whole-token check with the local keys: parses token (NUL-terminated),
 * requires a signature, runs ks_token_server_secret() and compares in
 * constant time.  On success *out (NULL allowed) gets the parsed token
 * (ks_token_free()).  Returns 0, KS_EPARSE, KS_ERANGE or KS_EAUTH. */
int ks_token_verify(const ks_config *cfg, const char *token, int64_t now,
		    struct ks_token **out, struct ks_err *err);

/* The same with a given key and trust domain instead of the configuration
 * (kid must name key).  max_age as ks_token_check_claims(). */
int ks_token_verify_key(const ks_token_key *key, const char *trust_domain,
			int64_t max_age, const char *token, int64_t now,
			struct ks_token **out, struct ks_err *err);

/* ---- finding the client's token ---- */

/* Where tokens live: SEC_TOKEN_DIRECTORY if set; else, for a process whose
 * effective user is not root, ~/.condor/tokens.d (HOME, or the password
 * database's home when HOME is unset; HTCondor uses only the latter);
 * else SEC_TOKEN_SYSTEM_DIRECTORY (default $(ETC)/tokens.d).  *dir_out is
 * new (free()).  Returns 0 or KS_ENOTFOUND. */
int ks_token_dir(const ks_config *cfg, char **dir_out, struct ks_err *err);

/* The token files of dir in lexical (byte) order: regular files whose
 * names LOCAL_CONFIG_DIR_EXCLUDE_REGEXP does not match (by default, no
 * dot files, backups or scripts).  *files_out is a new array of *n_out new
 * full paths (ks_token_strv_free()).  Returns 0 or KS_EIO (dir unreadable).
 */
int ks_token_dir_files(const ks_config *cfg, const char *dir,
		       char ***files_out, size_t *n_out, struct ks_err *err);

/* The token lines of file path: lines with surrounding whitespace trimmed,
 * without blank ones and ones starting with '#'.  With secure, the file
 * must be owned by the effective user and not accessible to group or
 * others, as HTCondor requires of token files.  *lines_out as
 * ks_token_dir_files() (the lines are secrets: ks_token_strv_free() wipes
 * them).  Returns 0, KS_ENOTFOUND, KS_EPERM, KS_EIO or KS_ERANGE (over
 * 1 MiB). */
int ks_token_file_lines(const char *path, bool secure, char ***lines_out,
			size_t *n_out, struct ks_err *err);

/* Wipes and frees an array from the two functions above (NULL allowed). */
void ks_token_strv_free(char **v, size_t n);

/* What the client knows of the server when choosing a token. */
struct ks_token_find_opts {
	const char *issuer;         /* server's trust domain; NULL: any */
	const char *const *key_ids; /* keys the server has; NULL: any */
	size_t nkey_ids;
	const char *subsys;         /* try <SUBSYS>_auto_generated_token first */
	int64_t now;                /* 0: the current time */
};

/* The token to present: the first, in the files of ks_token_dir() (the
 * file <subsys>_auto_generated_token first, if any, as HTCondor), read
 * securely, that parses, has a kid, a subject and a 32-byte signature, is
 * not expired (HTCondor leaves that to the server), and whose iss and kid
 * match opts when given (HTCondor skips the others, so this filters rather
 * than prefers).  Files that cannot be read or are unsafe are skipped.
 * *token_out is the line (ks_token_string_free()); *parsed_out (NULL
 * allowed) its parse (ks_token_free()).  Returns 0, KS_ENOTFOUND (none) or
 * as ks_token_dir(). */
int ks_token_find(const ks_config *cfg, const struct ks_token_find_opts *opts,
		  char **token_out, struct ks_token **parsed_out,
		  struct ks_err *err);

/* Writes token and a newline to path: created with mode 0600 (an existing
 * file is truncated and set to 0600), not following a final symlink.
 * Returns 0 or KS_EIO. */
int ks_token_write_file(const char *path, const char *token,
			struct ks_err *err);

/* Saves token as file name (a plain file name: no '/', not "." or "..")
 * of ks_token_dir(), made with mode 0700 if missing, as
 * ks_token_write_file() does.  *path_out (NULL allowed) gets the file's
 * path (free()).  Returns 0, KS_EINVAL (name), KS_EIO or as
 * ks_token_dir(). */
int ks_token_save(const ks_config *cfg, const char *name, const char *token,
		  char **path_out, struct ks_err *err);

#endif
