/* auth.c: the handshake's crypto helpers and account names (ks_auth.h;
 * the authorization lists are authz.c). */
#include "ks_auth.h"

#include <ctype.h>
#include <errno.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "ks_mem.h"

int ks_auth_random(unsigned char *out, size_t n)
{
	/* The kernel's generator, not OpenSSL's: a local command that needs
	 * no other cryptography then never starts OpenSSL up (loading its
	 * configuration and providers was a tenth of a quick query). */
	while (n > 0) {
		ssize_t got = getrandom(out, n, 0);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return KS_EIO;
		}
		out += got;
		n -= (size_t)got;
	}
	return 0;
}

void ks_auth_hex(const unsigned char *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = '\0';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int ks_auth_unhex(const char *in, unsigned char *out, size_t n)
{
	if (strlen(in) != 2 * n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int hi = hexval(in[2 * i]), lo = hexval(in[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

void ks_auth_mac(const unsigned char *key, size_t keylen, const char *label,
		 const char *a, const char *b, unsigned char out[32])
{
	size_t ll = strlen(label), al = strlen(a), bl = strlen(b);
	unsigned char *msg = ks_xmalloc(ll + al + bl + 3);
	memcpy(msg, label, ll + 1); /* the NULs keep fields apart */
	memcpy(msg + ll + 1, a, al + 1);
	memcpy(msg + ll + al + 2, b, bl + 1);
	unsigned int outlen = 32;
	HMAC(EVP_sha256(), key, (int)keylen, msg, ll + al + bl + 3, out,
	     &outlen);
	free(msg);
}

char *ks_auth_username(unsigned uid)
{
	struct passwd pw, *res = NULL;
	char buf[1024];
	if (getpwuid_r((uid_t)uid, &pw, buf, sizeof(buf), &res) == 0 && res)
		return ks_xstrdup(pw.pw_name);
	char num[32];
	snprintf(num, sizeof(num), "uid%u", uid);
	return ks_xstrdup(num);
}
