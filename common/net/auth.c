/* auth.c: authorization lists and the handshake's crypto helpers
 * (ks_auth.h). */
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

static const char *const level_names[KS_LEVEL_COUNT] = {
	"ALLOW", "READ", "WRITE", "ADMINISTRATOR", "DAEMON", "NEGOTIATOR",
	"ADVERTISE_STARTD", "ADVERTISE_SCHEDD", "ADVERTISE_MASTER",
};

const char *ks_level_name(enum ks_level level)
{
	return level < KS_LEVEL_COUNT ? level_names[level] : "?";
}

struct list {
	char **items;
	size_t n;
	bool set; /* configured, as opposed to absent */
};

struct ks_authz {
	struct list allow[KS_LEVEL_COUNT];
	struct list deny[KS_LEVEL_COUNT];
};

static void list_split(struct list *l, const char *text)
{
	l->set = true;
	const char *p = text;
	while (*p) {
		while (*p && (isspace((unsigned char)*p) || *p == ','))
			p++;
		const char *s = p;
		while (*p && !isspace((unsigned char)*p) && *p != ',')
			p++;
		if (p > s) {
			l->items = ks_xrealloc(l->items,
					       (l->n + 1) * sizeof(*l->items));
			l->items[l->n++] = ks_xstrndup(s, (size_t)(p - s));
		}
	}
}

/* SUBSYS-specific list first (ALLOW_READ_COLLECTOR), as HTCondor reads
 * them; an empty value counts as set (it allows nobody). */
static void list_read(struct list *l, const ks_config *cfg, const char *kind,
		      enum ks_level level, const char *subsys)
{
	char name[96];
	const char *raw = NULL;
	if (subsys) {
		snprintf(name, sizeof(name), "%s_%s_%s", kind,
			 level_names[level], subsys);
		raw = ks_config_raw(cfg, name, NULL);
	}
	if (!raw) {
		snprintf(name, sizeof(name), "%s_%s", kind, level_names[level]);
		raw = ks_config_raw(cfg, name, NULL);
	}
	if (!raw)
		return;
	char *v = ks_config_get(cfg, name, NULL);
	list_split(l, v ? v : "");
	free(v);
}

ks_authz *ks_authz_new(const ks_config *cfg, const char *subsys,
		       const char *owner)
{
	ks_authz *a = ks_xcalloc(1, sizeof(*a));
	for (int lv = KS_LEVEL_READ; lv < KS_LEVEL_COUNT; lv++) {
		list_read(&a->allow[lv], cfg, "ALLOW", lv, subsys);
		list_read(&a->deny[lv], cfg, "DENY", lv, subsys);
	}
	/* kestrel's defaults: anyone reads and writes; the pool's own
	 * identities (the daemons' user, the identities HTCondor gives its
	 * daemons, root) administer, advertise and negotiate. */
	char trusted[512];
	snprintf(trusted, sizeof(trusted),
		 "%s@* condor@* condor_pool@* root@*", owner ? owner : "condor");
	static const enum ks_level open_levels[] = {KS_LEVEL_READ,
						     KS_LEVEL_WRITE};
	for (size_t i = 0; i < 2; i++)
		if (!a->allow[open_levels[i]].set)
			list_split(&a->allow[open_levels[i]], "*");
	for (int lv = KS_LEVEL_ADMINISTRATOR; lv <= KS_LEVEL_NEGOTIATOR; lv++)
		if (!a->allow[lv].set)
			list_split(&a->allow[lv], trusted);
	return a;
}

static void list_free(struct list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->items[i]);
	free(l->items);
}

void ks_authz_free(ks_authz *a)
{
	if (!a)
		return;
	for (int lv = 0; lv < KS_LEVEL_COUNT; lv++) {
		list_free(&a->allow[lv]);
		list_free(&a->deny[lv]);
	}
	free(a);
}

bool ks_auth_glob(const char *p, const char *s)
{
	const char *star = NULL, *resume = NULL;
	while (*s) {
		if (*p == '*') {
			star = p++;
			resume = s;
		} else if (tolower((unsigned char)*p) ==
			   tolower((unsigned char)*s)) {
			p++;
			s++;
		} else if (star) {
			p = star + 1;
			s = ++resume;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}

/* One entry against a peer: "user@domain/host", "user@domain" or "host". */
static bool entry_matches(const char *entry, const char *identity,
			  const char *host)
{
	const char *slash = strchr(entry, '/');
	bool has_user = strchr(entry, '@') != NULL;
	if (!has_user && !slash)
		return ks_auth_glob(entry, host);
	char user[320];
	size_t ul = slash ? (size_t)(slash - entry) : strlen(entry);
	if (ul >= sizeof(user))
		return false;
	memcpy(user, entry, ul);
	user[ul] = '\0';
	if (!ks_auth_glob(user, identity))
		return false;
	return !slash || ks_auth_glob(slash + 1, host);
}

static bool list_matches(const struct list *l, const char *identity,
			 const char *host)
{
	for (size_t i = 0; i < l->n; i++)
		if (entry_matches(l->items[i], identity, host))
			return true;
	return false;
}

/* The levels whose permission includes level's (HTCondor's hierarchy). */
static bool implies(enum ks_level have, enum ks_level want)
{
	if (have == want)
		return true;
	switch (want) {
	case KS_LEVEL_READ:
		return have == KS_LEVEL_WRITE || have == KS_LEVEL_NEGOTIATOR ||
		       have == KS_LEVEL_ADMINISTRATOR ||
		       have == KS_LEVEL_DAEMON;
	case KS_LEVEL_WRITE:
		return have == KS_LEVEL_ADMINISTRATOR ||
		       have == KS_LEVEL_DAEMON;
	default:
		return false;
	}
}

bool ks_authz_check(const ks_authz *a, enum ks_level level,
		    const char *identity, const char *host, char *why,
		    size_t why_size)
{
	if (level == KS_LEVEL_ALLOW)
		return true;
	if (!host || !*host)
		host = "127.0.0.1";
	if (level >= KS_LEVEL_ADVERTISE_STARTD && !a->allow[level].set) {
		if (a->deny[level].set &&
		    list_matches(&a->deny[level], identity, host))
			goto denied_deny;
		level = KS_LEVEL_DAEMON;
	}
	if (list_matches(&a->deny[level], identity, host))
		goto denied_deny;
	for (int lv = KS_LEVEL_READ; lv <= KS_LEVEL_NEGOTIATOR; lv++)
		if (implies(lv, level) &&
		    list_matches(&a->allow[lv], identity, host))
			return true;
	if (why)
		snprintf(why, why_size,
			 "%s from %s is not in ALLOW_%s (nor a level that "
			 "implies it)", identity, host, level_names[level]);
	return false;
denied_deny:
	if (why)
		snprintf(why, why_size, "%s from %s is in DENY_%s", identity,
			 host, level_names[level]);
	return false;
}

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
