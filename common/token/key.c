/*
 * key.c: token signing keys, stored and derived as HTCondor does (see
 * ks_token.h for the facts), so that either side's key files work on the
 * other.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>

#include "ks_assert.h"
#include "ks_mem.h"
#include "ks_priv.h"
#include "ks_token.h"
#include "ks_text.h"
#include "token_int.h"

struct ks_token_key {
	char *name;
	unsigned char hmac_key[KS_TOKEN_SIG_LEN];
};

/* HTCondor's fixed XOR pad for password files: no secrecy, it only keeps
 * the key from being read at a glance; both directions are the same. */
static void scramble(unsigned char *out, const unsigned char *in, size_t n)
{
	static const unsigned char pad[4] = {0xDE, 0xAD, 0xBE, 0xEF};
	for (size_t i = 0; i < n; i++)
		out[i] = in[i] ^ pad[i % 4];
}

bool ks_token_key_name_valid(const char *name)
{
	size_t n = name ? strlen(name) : 0;
	if (n == 0 || n > 255 || name[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c <= 0x20 || c >= 0x7f || c == '/')
			return false;
	}
	return true;
}

static bool is_pool(const char *name)
{
	return strcmp(name, "POOL") == 0;
}

int ks_token_key_path(const ks_config *cfg, const char *name,
		      char **path_out, struct ks_err *err)
{
	if (!ks_token_key_name_valid(name))
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "invalid signing key name");
	if (is_pool(name)) {
		char *p = ks_config_get(cfg, "SEC_TOKEN_POOL_SIGNING_KEY_FILE",
					NULL);
		if (!p)
			return ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
					  "SEC_TOKEN_POOL_SIGNING_KEY_FILE is not "
					  "set: no pool signing key");
		*path_out = p;
		return 0;
	}
	char *dir = ks_config_get(cfg, "SEC_PASSWORD_DIRECTORY", NULL);
	if (!dir)
		return ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
				  "SEC_PASSWORD_DIRECTORY is not set");
	size_t n = strlen(dir) + 1 + strlen(name) + 1;
	*path_out = ks_xmalloc(n);
	snprintf(*path_out, n, "%s/%s", dir, name);
	free(dir);
	return 0;
}

int ks_token_key_from_file_data(const char *name, const void *data,
				size_t len, ks_token_key **key_out,
				struct ks_err *err)
{
	if (!ks_token_key_name_valid(name))
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "invalid signing key name");
	if (len == 0)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "signing key %s is empty", name);
	if (len > KT_MAX_FILE)
		return ks_err_set(err, KS_ERANGE, 0, 0, 0,
				  "signing key %s is too large", name);
	size_t n = is_pool(name) ? 2 * len : len;
	unsigned char *ikm = ks_xmalloc(n);
	scramble(ikm, data, len);
	if (is_pool(name))
		memcpy(ikm + len, ikm, len);

	ks_token_key *key = ks_xcalloc(1, sizeof(*key));
	size_t outlen = sizeof(key->hmac_key);
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);
	bool ok = ctx && EVP_PKEY_derive_init(ctx) > 0 &&
		  EVP_PKEY_CTX_set_hkdf_md(ctx, EVP_sha256()) > 0 &&
		  EVP_PKEY_CTX_set1_hkdf_salt(ctx, (const unsigned char *)"htcondor", 8) > 0 &&
		  EVP_PKEY_CTX_set1_hkdf_key(ctx, ikm, (int)n) > 0 &&
		  EVP_PKEY_CTX_add1_hkdf_info(ctx, (const unsigned char *)"master jwt", 10) > 0 &&
		  EVP_PKEY_derive(ctx, key->hmac_key, &outlen) > 0 &&
		  outlen == sizeof(key->hmac_key);
	EVP_PKEY_CTX_free(ctx);
	kt_wipe_free(ikm, n);
	if (!ok) {
		ks_token_key_free(key);
		return ks_err_set(err, KS_EINTERNAL, 0, 0, 0,
				  "HKDF failed for signing key %s", name);
	}
	key->name = ks_xstrdup(name);
	*key_out = key;
	return 0;
}

int ks_token_key_load(const ks_config *cfg, const char *name,
		      ks_token_key **key_out, struct ks_err *err)
{
	char *path = NULL;
	int rc = ks_token_key_path(cfg, name, &path, err);
	if (rc)
		return rc;
	unsigned char *buf = NULL;
	size_t len = 0;
	struct ks_err rerr;
	rc = kt_read_file(path, true, &buf, &len, &rerr);
	if (rc)
		ks_err_set(err, rc, 0, 0, 0, "cannot read signing key %s: %s",
			   name, rerr.msg);
	if (rc == 0 && len == 0)
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"signing key file %s is empty", path);
	if (rc == 0)
		rc = ks_token_key_from_file_data(name, buf, len, key_out, err);
	if (buf)
		kt_wipe_free(buf, len + 1);
	free(path);
	return rc;
}

const char *ks_token_key_name(const ks_token_key *key)
{
	return key->name;
}

void ks_token_key_free(ks_token_key *key)
{
	if (!key)
		return;
	free(key->name);
	kt_wipe_free(key, sizeof(*key));
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Writes data to a new file beside path and links it into place, so that a
 * daemon reading path at the same moment finds nothing or the whole key,
 * and an existing key is never replaced.  Returns 0 created, 1 existed,
 * -1 error (errno). */
static int create_whole(const char *path, const unsigned char *data, size_t n)
{
	size_t tn = strlen(path) + 16;
	char *tmp = ks_xmalloc(tn);
	snprintf(tmp, tn, "%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp); /* mode 0600 */
	if (fd < 0) {
		int e = errno;
		free(tmp);
		errno = e;
		return -1;
	}
	int rc = 0;
	if (fchmod(fd, 0600) != 0 || write_all(fd, data, n) != 0 || fsync(fd) != 0)
		rc = -1;
	int e = errno;
	close(fd);
	if (rc == 0 && link(tmp, path) != 0) {
		e = errno;
		rc = e == EEXIST ? 1 : -1;
	}
	unlink(tmp);
	free(tmp);
	errno = e;
	return rc;
}

int ks_token_key_create_file(const char *path, bool *created,
			     struct ks_err *err)
{
	if (created)
		*created = false;
	if (access(path, F_OK) == 0)
		return 0;
	char *dir = ks_xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (ks_mkdirs(dir, 0700) != 0) {
			int e = errno;
			int rc = ks_err_set(err, KS_EIO, 0, 0, 0,
					    "cannot make directory %s: %s", dir,
					    strerror(e));
			free(dir);
			return rc;
		}
	}
	free(dir);

	unsigned char raw[64], stored[64];
	if (RAND_bytes(raw, sizeof(raw)) != 1)
		return ks_err_set(err, KS_EINTERNAL, 0, 0, 0,
				  "no random bytes for a signing key");
	scramble(stored, raw, sizeof(raw));
	int r = create_whole(path, stored, sizeof(stored));
	int e = errno;
	OPENSSL_cleanse(raw, sizeof(raw));
	OPENSSL_cleanse(stored, sizeof(stored));
	if (r < 0)
		return ks_err_set(err, KS_EIO, 0, 0, 0,
				  "cannot create signing key %s: %s", path,
				  strerror(e));
	if (created)
		*created = r == 0;
	return 0;
}

int ks_token_pool_key_ensure(const ks_config *cfg, bool *created,
			     struct ks_err *err)
{
	if (created)
		*created = false;
	char *path = NULL;
	int rc = ks_token_key_path(cfg, "POOL", &path, err);
	if (rc)
		return rc;
	/* as HTCondor keeps it: root's file, made and read as root by a
	 * daemon that otherwise runs as the condor account */
	struct ks_priv_saved saved;
	rc = ks_priv_to_root(&saved, err);
	if (rc == 0) {
		rc = ks_token_key_create_file(path, created, err);
		ks_priv_restore(&saved);
	}
	free(path);
	return rc;
}

int ks_token_sign(const ks_token_key *key, const void *data, size_t len,
		  unsigned char out[KS_TOKEN_SIG_LEN])
{
	unsigned int n = KS_TOKEN_SIG_LEN;
	if (!HMAC(EVP_sha256(), key->hmac_key, (int)sizeof(key->hmac_key),
		  data, len, out, &n) ||
	    NEVER(n != KS_TOKEN_SIG_LEN))
		return KS_EINTERNAL;
	return 0;
}
