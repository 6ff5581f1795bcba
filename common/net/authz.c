/* authz.c: the authorization levels and their ALLOW/DENY lists, resolved
 * as HTCondor's IpVerify and SecMan resolve them (ks_auth.h). */
#include "ks_auth.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_assert.h"
#include "ks_mem.h"

static const char *const level_names[KS_LEVEL_COUNT] = {
	"ALLOW",  "READ",   "WRITE", "NEGOTIATOR", "ADMINISTRATOR", "CONFIG",
	"DAEMON", "ADVERTISE_STARTD", "ADVERTISE_SCHEDD", "ADVERTISE_MASTER",
};

/* The level each level directly implies (KS_LEVEL_COUNT: none), from
 * HTCondor's DCpermissionHierarchy.  One table serves the lists (a peer
 * allowed WRITE is allowed READ) and token scopes (a WRITE token reads). */
static const enum ks_level implies_next[KS_LEVEL_COUNT] = {
	[KS_LEVEL_ALLOW] = KS_LEVEL_COUNT,
	[KS_LEVEL_READ] = KS_LEVEL_COUNT,
	[KS_LEVEL_WRITE] = KS_LEVEL_READ,
	[KS_LEVEL_NEGOTIATOR] = KS_LEVEL_READ,
	[KS_LEVEL_ADMINISTRATOR] = KS_LEVEL_WRITE,
	[KS_LEVEL_CONFIG] = KS_LEVEL_READ,
	[KS_LEVEL_DAEMON] = KS_LEVEL_WRITE,
	[KS_LEVEL_ADVERTISE_STARTD] = KS_LEVEL_READ,
	[KS_LEVEL_ADVERTISE_SCHEDD] = KS_LEVEL_READ,
	[KS_LEVEL_ADVERTISE_MASTER] = KS_LEVEL_READ,
};

const char *ks_level_name(enum ks_level level)
{
	return ALWAYS(level < KS_LEVEL_COUNT) ? level_names[level] : "?";
}

enum ks_level ks_level_from_name(const char *name)
{
	for (int lv = 0; lv < KS_LEVEL_COUNT; lv++)
		if (strcasecmp(name, level_names[lv]) == 0)
			return (enum ks_level)lv;
	return KS_LEVEL_COUNT;
}

unsigned ks_level_scope(const char *const *names, size_t n)
{
	unsigned mask = 0;
	for (size_t i = 0; i < n; i++)
		for (enum ks_level lv = ks_level_from_name(names[i]);
		     lv != KS_LEVEL_COUNT; lv = implies_next[lv])
			mask |= 1u << lv;
	/* as HTCondor: a scope of levels unknown here still limits the
	 * token, to the commands anyone may send */
	if (n && !mask)
		mask = 1u << KS_LEVEL_ALLOW;
	return mask;
}

/* The level whose lists stand in for lv's when lv has none; KS_LEVEL_COUNT
 * when only the DEFAULT lists are left (HTCondor's aConfigNext, or
 * aConfigNextLegacy under LEGACY_ALLOW_SEMANTICS). */
static enum ks_level falls_back_on(enum ks_level lv, bool legacy)
{
	switch (lv) {
	case KS_LEVEL_ADVERTISE_STARTD:
	case KS_LEVEL_ADVERTISE_SCHEDD:
	case KS_LEVEL_ADVERTISE_MASTER:
		return KS_LEVEL_DAEMON;
	case KS_LEVEL_DAEMON:
		return legacy ? KS_LEVEL_WRITE : KS_LEVEL_COUNT;
	default:
		return KS_LEVEL_COUNT;
	}
}

static const char *chain_name(enum ks_level lv)
{
	return lv == KS_LEVEL_COUNT ? "DEFAULT" : level_names[lv];
}

/* One entry, split as HTCondor's IpVerify::split_entry() splits it. */
struct entry {
	char *user, *host;
};

struct list {
	struct entry *e;
	size_t n;
	char knob[128];    /* the knob it was read from; "" when none has a value */
	bool is_default;   /* kestrel's default stands for the knob */
	char *unreadable;  /* why the list cannot be used, or NULL */
	char *note;        /* an entry that matches nobody, for the log */
};

struct ks_authz {
	struct list allow[KS_LEVEL_COUNT];
	struct list deny[KS_LEVEL_COUNT];
	bool legacy; /* LEGACY_ALLOW_SEMANTICS: DAEMON falls back on WRITE */
	char **problems;
	size_t nproblems;
};

/* ---- networks ------------------------------------------------------------ */

struct net {
	int af;
	unsigned char addr[16], mask[16];
};

static size_t af_len(int af)
{
	return af == AF_INET ? 4 : 16;
}

/* text as "address/bits" or (IPv4) "address/netmask". */
static bool net_parse(const char *text, struct net *n)
{
	const char *slash = strchr(text, '/');
	char a[INET6_ADDRSTRLEN];
	if (!slash || (size_t)(slash - text) >= sizeof(a))
		return false;
	memcpy(a, text, (size_t)(slash - text));
	a[slash - text] = '\0';
	memset(n, 0, sizeof(*n));
	if (inet_pton(AF_INET, a, n->addr) == 1)
		n->af = AF_INET;
	else if (inet_pton(AF_INET6, a, n->addr) == 1)
		n->af = AF_INET6;
	else
		return false;
	const char *m = slash + 1;
	size_t digits = strspn(m, "0123456789");
	if (digits > 0 && digits <= 3 && !m[digits]) {
		unsigned bits = (unsigned)atoi(m);
		if (bits > 8 * af_len(n->af))
			return false;
		for (unsigned i = 0; i < bits; i++)
			n->mask[i / 8] |= (unsigned char)(0x80u >> (i % 8));
		return true;
	}
	return n->af == AF_INET && inet_pton(AF_INET, m, n->mask) == 1;
}

static bool net_contains(const struct net *n, const char *ip)
{
	unsigned char a[16];
	if (inet_pton(n->af, ip, a) != 1)
		return false;
	for (size_t i = 0; i < af_len(n->af); i++)
		if ((a[i] & n->mask[i]) != (n->addr[i] & n->mask[i]))
			return false;
	return true;
}

/* ---- reading the lists --------------------------------------------------- */

/* What reading the lists needs to know. */
struct reading {
	const ks_config *cfg;
	const char *subsys; /* NULL: no subsystem forms */
	const char *trusted;
	bool legacy, pool_equiv, no_dns;
};

static void add_entry(struct list *l, const char *user, const char *host)
{
	l->e = ks_xrealloc(l->e, (l->n + 1) * sizeof(*l->e));
	l->e[l->n].user = ks_xstrdup(user);
	l->e[l->n].host = ks_xstrdup(host);
	l->n++;
}

/* "condor@X" and "condor_pool@X" name the same pool identity. */
static void add_pool_equivalent(struct list *l, const char *user,
				const char *host)
{
	static const char *const pair[2] = {"condor@", "condor_pool@"};
	for (int i = 0; i < 2; i++) {
		size_t n = strlen(pair[i]);
		if (strncasecmp(user, pair[i], n) == 0) {
			size_t len = strlen(pair[1 - i]) + strlen(user + n) + 1;
			char *alt = ks_xmalloc(len);
			snprintf(alt, len, "%s%s", pair[1 - i], user + n);
			add_entry(l, alt, host);
			free(alt);
			return;
		}
	}
}

static void add_user_host(struct list *l, const char *user, const char *host,
			  bool pool_equiv)
{
	add_entry(l, user, host);
	if (pool_equiv)
		add_pool_equivalent(l, user, host);
}

/* Written as an address, a network or an address pattern ("10.1.*",
 * "fd00::/8"), not as a host name. */
static bool address_like(const char *host)
{
	return host[strspn(host, "0123456789abcdefABCDEF.:*/")] == '\0';
}

static void note_once(struct list *l, const char *fmt, const char *host)
{
	if (l->note)
		return;
	size_t len = strlen(fmt) + strlen(host) + 1;
	l->note = ks_xmalloc(len);
	snprintf(l->note, len, fmt, host);
}

/* The address of a lookup's result as text. */
static bool sockaddr_ip(const struct addrinfo *ai, char *ip, size_t size)
{
	const void *addr;
	if (ai->ai_family == AF_INET)
		addr = &((const struct sockaddr_in *)ai->ai_addr)->sin_addr;
	else if (ai->ai_family == AF_INET6)
		addr = &((const struct sockaddr_in6 *)ai->ai_addr)->sin6_addr;
	else
		return false;
	return inet_ntop(ai->ai_family, addr, ip, (socklen_t)size) != NULL;
}

/* A host part.  A host name stands for its addresses, looked up now, as
 * HTCondor looks them up when it reads the lists.  Peers are known only
 * by address: a host name pattern ("*.example.org") matches nobody, so a
 * DENY list that holds one is not used as written (it refuses everyone). */
static void host_add(struct list *l, const char *user, const char *host,
		     const struct reading *r, bool deny)
{
	bool pool_equiv = r->pool_equiv;
	add_user_host(l, user, host, pool_equiv);
	if (address_like(host))
		return;
	if (strchr(host, '*')) {
		note_once(l, "the host name pattern %s matches nobody (kestrel "
			  "knows peers by address only: use addresses or "
			  "networks)", host);
		if (deny && !l->unreadable) {
			size_t len = strlen(l->note) + 32;
			l->unreadable = ks_xmalloc(len);
			snprintf(l->unreadable, len, "cannot be matched: %s",
				 l->note);
		}
		return;
	}
	if (r->no_dns) {
		note_once(l, "the host name %s matches nobody (NO_DNS is true: "
			  "use addresses or networks)", host);
		return;
	}
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
	if (getaddrinfo(host, NULL, &hints, &res) != 0) {
		note_once(l, "the host name %s does not resolve, so it matches "
			  "nobody", host);
		return;
	}
	for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
		char ip[INET6_ADDRSTRLEN];
		if (sockaddr_ip(ai, ip, sizeof(ip)))
			add_user_host(l, user, ip, pool_equiv);
	}
	freeaddrinfo(res);
}

/* One entry: "user@domain/host", "user@domain", "host", a network, or
 * "user/net/mask". */
static void entry_add(struct list *l, char *s, const struct reading *r,
		      bool deny)
{
	char *slash = strchr(s, '/');
	const char *user = s, *host = "*";
	struct net net;
	if (!slash) {
		if (!strchr(s, '@')) {
			user = "*";
			host = s;
		}
	} else {
		char *at = strchr(s, '@');
		bool user_first = strchr(slash + 1, '/') || (at && at < slash) ||
				  s[0] == '*';
		if (!user_first && net_parse(s, &net)) {
			user = "*";
			host = s;
		} else {
			*slash = '\0';
			host = slash + 1;
		}
	}
	host_add(l, user, host, r, deny);
}

static void list_fill(struct list *l, const char *text,
		      const struct reading *r, bool deny)
{
	const char *p = text;
	while (*p) {
		while (*p && (isspace((unsigned char)*p) || *p == ','))
			p++;
		const char *s = p;
		while (*p && !isspace((unsigned char)*p) && *p != ',')
			p++;
		if (p > s) {
			char *entry = ks_xstrndup(s, (size_t)(p - s));
			entry_add(l, entry, r, deny);
			free(entry);
		}
	}
}

/* One knob into l.  True when it decides the list: it has a value, or
 * one that does not expand (which must not let a later, wider list
 * decide instead).  A knob whose value is empty, or expands to nothing,
 * is not set (HTCondor's param()). */
static bool knob_read(struct list *l, const struct reading *r,
		      const char *name, bool deny)
{
	const char *raw = ks_config_raw(r->cfg, name, NULL);
	if (!raw || !*raw)
		return false;
	struct ks_err err;
	char *v = ks_config_get(r->cfg, name, &err);
	if (!v && !err.code)
		return false;
	if (v) {
		list_fill(l, v, r, deny);
	} else {
		size_t len = strlen(err.msg) + 32;
		l->unreadable = ks_xmalloc(len);
		snprintf(l->unreadable, len, "cannot be read: %s", err.msg);
	}
	free(v);
	snprintf(l->knob, sizeof(l->knob), "%s", name);
	return true;
}

/* kestrel's default for ALLOW_<lv>, as if the configuration set it. */
static const char *default_allow(enum ks_level lv, const char *trusted)
{
	switch (lv) {
	case KS_LEVEL_READ:
	case KS_LEVEL_WRITE:
		return "*";
	case KS_LEVEL_NEGOTIATOR:
	case KS_LEVEL_ADMINISTRATOR:
	case KS_LEVEL_DAEMON:
		return trusted;
	default:
		return NULL;
	}
}


/* The list of kind ("ALLOW", "DENY") for level: the first knob of the
 * level's chain that has a value (ks_auth.h). */
static void list_resolve(struct list *l, const struct reading *r,
			 const char *kind, enum ks_level level)
{
	bool deny = !strcmp(kind, "DENY");
	for (enum ks_level lv = level;; lv = falls_back_on(lv, r->legacy)) {
		char name[128];
		if (r->subsys) {
			snprintf(name, sizeof(name), "%s_%s_%s", kind,
				 chain_name(lv), r->subsys);
			if (knob_read(l, r, name, deny))
				return;
		}
		snprintf(name, sizeof(name), "%s_%s", kind, chain_name(lv));
		if (knob_read(l, r, name, deny))
			return;
		const char *def = lv != KS_LEVEL_COUNT && !deny
					  ? default_allow(lv, r->trusted)
					  : NULL;
		if (def && !ks_config_raw(r->cfg, name, NULL)) {
			list_fill(l, def, r, false);
			snprintf(l->knob, sizeof(l->knob), "%s", name);
			l->is_default = true;
			return;
		}
		if (lv == KS_LEVEL_COUNT)
			return;
	}
}

/* Reports a list that cannot be used as written, or holds an entry that
 * matches nobody, once per knob (ALLOW_DAEMON may serve four levels). */
static void note_problem(ks_authz *a, const struct list *l, bool deny)
{
	if (!l->unreadable && !l->note)
		return;
	size_t klen = strlen(l->knob);
	for (size_t i = 0; i < a->nproblems; i++)
		if (!strncmp(a->problems[i], l->knob, klen) &&
		    strchr(" :", a->problems[i][klen]))
			return;
	size_t len = klen + strlen(l->unreadable ? l->unreadable : l->note) +
		     64;
	char *msg = ks_xmalloc(len);
	if (l->unreadable)
		snprintf(msg, len, "%s %s; as a%s list it %s", l->knob,
			 l->unreadable, deny ? " DENY" : "n ALLOW",
			 deny ? "refuses everyone" : "allows nobody");
	else
		snprintf(msg, len, "%s: %s", l->knob, l->note);
	a->problems = ks_xrealloc(a->problems,
				  (a->nproblems + 1) * sizeof(*a->problems));
	a->problems[a->nproblems++] = msg;
}

ks_authz *ks_authz_new(const ks_config *cfg, const char *subsys,
		       const char *owner)
{
	ks_authz *a = ks_xcalloc(1, sizeof(*a));
	char trusted[512];
	snprintf(trusted, sizeof(trusted),
		 "%s@* condor@* condor_pool@* root@*", owner ? owner : "condor");
	struct reading r = {cfg, subsys, trusted, false, true, false};
	ks_config_bool(cfg, "LEGACY_ALLOW_SEMANTICS", &r.legacy);
	ks_config_bool(cfg, "USE_POOL_USERNAME_EQUIVALENT", &r.pool_equiv);
	ks_config_bool(cfg, "NO_DNS", &r.no_dns);
	a->legacy = r.legacy;
	for (int lv = KS_LEVEL_READ; lv < KS_LEVEL_COUNT; lv++) {
		list_resolve(&a->allow[lv], &r, "ALLOW", lv);
		list_resolve(&a->deny[lv], &r, "DENY", lv);
		note_problem(a, &a->deny[lv], true);
		note_problem(a, &a->allow[lv], false);
	}
	return a;
}

const char *ks_authz_problem(const ks_authz *a, size_t i)
{
	return i < a->nproblems ? a->problems[i] : NULL;
}

static void list_free(struct list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->e[i].user);
		free(l->e[i].host);
	}
	free(l->e);
	free(l->unreadable);
	free(l->note);
}

void ks_authz_free(ks_authz *a)
{
	if (!a)
		return;
	for (int lv = 0; lv < KS_LEVEL_COUNT; lv++) {
		list_free(&a->allow[lv]);
		list_free(&a->deny[lv]);
	}
	for (size_t i = 0; i < a->nproblems; i++)
		free(a->problems[i]);
	free(a->problems);
	free(a);
}

/* ---- checking ------------------------------------------------------------ */

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

static bool host_matches(const char *pattern, const char *ip)
{
	struct net n;
	if (strchr(pattern, '/') && net_parse(pattern, &n))
		return net_contains(&n, ip);
	return ks_auth_glob(pattern, ip);
}

static bool list_matches(const struct list *l, const char *identity,
			 const char *ip)
{
	for (size_t i = 0; i < l->n; i++)
		if (ks_auth_glob(l->e[i].user, identity) &&
		    host_matches(l->e[i].host, ip))
			return true;
	return false;
}

static bool implied_by_another(enum ks_level lv)
{
	for (int p = 0; p < KS_LEVEL_COUNT; p++)
		if (implies_next[p] == lv)
			return true;
	return false;
}

/* Why nobody is allowed level by its ALLOW lists: none has a value
 * ("no ALLOW_ADVERTISE_STARTD, ALLOW_DAEMON or ALLOW_DEFAULT is set"). */
static void say_unset(enum ks_level level, bool legacy, char *why,
		      size_t size)
{
	const char *names[4];
	size_t n = 0;
	for (enum ks_level lv = level; n < 4; lv = falls_back_on(lv, legacy)) {
		names[n++] = chain_name(lv);
		if (lv == KS_LEVEL_COUNT)
			break;
	}
	size_t len = (size_t)snprintf(why, size, "no ");
	for (size_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(why + len, size - len, "%sALLOW_%s",
					i == 0 ? "" : i + 1 == n ? " or " : ", ",
					names[i]);
	if (len < size)
		snprintf(why + len, size - len, " is set, so %s is allowed to "
			 "nobody", level_names[level]);
}

/* HTCondor's IpVerify::Verify(): DENY, then ALLOW, then the levels that
 * imply this one. */
static bool verify(const ks_authz *a, enum ks_level lv, const char *identity,
		   const char *ip, char *why, size_t size)
{
	const struct list *deny = &a->deny[lv], *allow = &a->allow[lv];
	if (deny->unreadable) {
		if (why)
			snprintf(why, size, "%s %s; so it refuses everyone %s",
				 deny->knob, deny->unreadable, level_names[lv]);
		return false;
	}
	if (list_matches(deny, identity, ip)) {
		if (why)
			snprintf(why, size, "%s from %s is in %s", identity, ip,
				 deny->knob);
		return false;
	}
	if (list_matches(allow, identity, ip))
		return true;
	for (int p = 0; p < KS_LEVEL_COUNT; p++)
		if (implies_next[p] == lv &&
		    verify(a, (enum ks_level)p, identity, ip, NULL, 0))
			return true;
	if (!why)
		return false;
	const char *implied = implied_by_another(lv)
				      ? " (nor allowed a level that implies it)"
				      : "";
	if (allow->unreadable)
		snprintf(why, size, "%s %s; so it allows nobody%s",
			 allow->knob, allow->unreadable, implied);
	else if (!allow->knob[0])
		say_unset(lv, a->legacy, why, size);
	else
		snprintf(why, size, "%s from %s is not in %s%s%s", identity,
			 ip, allow->knob,
			 allow->is_default ? " (kestrel's default)" : "",
			 implied);
	return false;
}

bool ks_authz_check(const ks_authz *a, enum ks_level level,
		    const char *identity, const char *host, char *why,
		    size_t why_size)
{
	if (level == KS_LEVEL_ALLOW)
		return true;
	if (level >= KS_LEVEL_COUNT) {
		if (why)
			snprintf(why, why_size, "no such authorization level");
		return false;
	}
	if (!host || !*host)
		host = "127.0.0.1";
	/* an IPv4 peer on an IPv6 socket is matched as the IPv4 address */
	if (!strncasecmp(host, "::ffff:", 7) && strchr(host + 7, '.'))
		host += 7;
	return verify(a, level, identity, host, why, why_size);
}
