/*
 * sdt.c: finding startds and sending them a command, for condor_vacate
 * and condor_drain.  Each step follows the HTCondor function named beside
 * it (match_prefix.cpp, get_daemon_name.cpp, daemon.cpp), since users and
 * scripts rely on which names and flags those accept.
 */
#include <netdb.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ks_addr.h"
#include "ks_client.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_wire.h"
#include "sdt.h"

/* ---- flags ----------------------------------------------------------- */

/* is_arg_prefix(): every character of arg matches word, and at least
 * min of them (min < 0: all of word) */
static bool arg_prefix(const char *arg, const char *word, int min,
		       const char **colon)
{
	if (colon)
		*colon = NULL;
	if (!*word || *arg != *word)
		return false;
	int matched = 0;
	while (*arg == *word) {
		matched++;
		arg++;
		word++;
		if (colon && *arg == ':') {
			*colon = arg;
			break;
		}
		if (!*word)
			break;
	}
	if (*arg && !(colon && *arg == ':'))
		return false;
	if (min < 0)
		return *word == '\0';
	return matched >= min;
}

bool sdt_dash_prefix(const char *arg, const char *word, int min)
{
	if (*arg != '-')
		return false;
	arg++;
	if (*arg == '-') { /* "--word" is taken only whole */
		arg++;
		min = -1;
	}
	return arg_prefix(arg, word, min, NULL);
}

bool sdt_dash_colon_prefix(const char *arg, const char *word, int min,
			   const char **colon)
{
	const char *c = NULL;
	bool ok = false;
	if (*arg == '-') {
		arg++;
		if (*arg == '-') {
			arg++;
			min = -1;
		}
		ok = arg_prefix(arg, word, min, &c);
	}
	if (colon)
		*colon = ok ? c : NULL;
	return ok;
}

/* ---- names ----------------------------------------------------------- */

const char *sdt_host_part(const char *name)
{
	const char *at = strrchr(name, '@');
	return at ? at + 1 : name;
}

/* The canonical name of host from DNS, if it has a dot; *known tells
 * whether DNS knew the host at all. */
static char *canonical(const char *host, bool *known)
{
	struct addrinfo hints = {.ai_flags = AI_CANONNAME,
				 .ai_socktype = SOCK_STREAM};
	struct addrinfo *res = NULL;
	*known = getaddrinfo(host, NULL, &hints, &res) == 0;
	char *full = NULL;
	if (*known && res && res->ai_canonname &&
	    strchr(res->ai_canonname, '.'))
		full = ks_xstrdup(res->ai_canonname);
	if (res)
		freeaddrinfo(res);
	return full;
}

char *sdt_daemon_name(const ks_config *cfg, const char *name)
{
	if (strchr(name, '@') || strchr(name, '.'))
		return ks_xstrdup(name);
	bool nodns = false, known = true;
	if (cfg)
		ks_config_bool(cfg, "NO_DNS", &nodns);
	if (!nodns) {
		char *full = canonical(name, &known);
		if (full)
			return full;
	}
	char *domain = cfg ? ks_config_get(cfg, "DEFAULT_DOMAIN_NAME", NULL)
			   : NULL;
	if (domain) {
		size_t n = strlen(name) + strlen(domain) + 2;
		char *full = ks_xmalloc(n);
		snprintf(full, n, "%s.%s", name, domain);
		free(domain);
		return full;
	}
	/* HTCondor stops here; see sdt.h for why a known bare name stays */
	return known ? ks_xstrdup(name) : NULL;
}

char *sdt_local_host(void)
{
	char host[256] = "localhost";
	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	bool known;
	char *full = strchr(host, '.') ? NULL : canonical(host, &known);
	return full ? full : ks_xstrdup(host);
}

char *sdt_local_name(const ks_config *cfg)
{
	char *given = cfg ? ks_config_get(cfg, "STARTD_NAME", NULL) : NULL;
	char *host = sdt_local_host();
	if (!given)
		return host;
	if (strchr(given, '@')) {
		free(host);
		return given;
	}
	size_t n = strlen(given) + strlen(host) + 2;
	char *name = ks_xmalloc(n);
	snprintf(name, n, "%s@%s", given, host);
	free(given);
	free(host);
	return name;
}

/* ---- finding startds -------------------------------------------------- */

void sdt_startd_clear(struct sdt_startd *s)
{
	if (!s)
		return;
	free(s->addr);
	free(s->name);
	free(s->machine);
	*s = (struct sdt_startd){0};
}

void sdt_startds_free(struct sdt_startd *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		sdt_startd_clear(&s[i]);
	free(s);
}

int sdt_query(const ks_config *cfg, const char *pool, const char *constraint,
	      struct sdt_startd **out, size_t *n, struct ks_err *err)
{
	*out = NULL;
	*n = 0;
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "Machine");
	classad_insert_string(q, "Projection", "Name Machine MyAddress");
	int rc = constraint ? classad_insert_text(q, "Requirements", constraint,
						  err)
			    : classad_insert_bool(q, "Requirements", true);
	if (rc) {
		classad_free(q);
		return KS_EPARSE;
	}
	classad **ads = NULL;
	size_t nads = 0;
	rc = ks_collector_query(cfg, pool, KS_QUERY_STARTD_ADS, q, &ads, &nads,
				err);
	classad_free(q);
	if (rc)
		return rc;
	struct sdt_startd *s = ks_xcalloc(nads + 1, sizeof(*s));
	size_t k = 0;
	for (size_t i = 0; i < nads; i++) {
		/* an ad without an address names no one we can reach */
		if (!classad_eval_string(ads[i], "MyAddress", NULL, &s[k].addr))
			continue;
		classad_eval_string(ads[i], "Name", NULL, &s[k].name);
		classad_eval_string(ads[i], "Machine", NULL, &s[k].machine);
		k++;
	}
	ks_ads_free(ads, nads);
	*out = s;
	*n = k;
	return 0;
}

char *sdt_local_addr(const ks_config *cfg)
{
	char *path = ks_config_get(cfg, "STARTD_ADDRESS_FILE", NULL);
	char *addr = path ? ks_addr_read_file(path, NULL) : NULL;
	free(path);
	return addr;
}

int sdt_locate(const ks_config *cfg, const char *pool, const char *name,
	       bool *local, struct sdt_startd *out, struct ks_err *err)
{
	*out = (struct sdt_startd){0};
	char *me = sdt_local_name(cfg);
	/* Daemon::getDaemonInfo(): the local daemon unless a pool is named */
	*local = !name || (!pool && strcmp(name, me) == 0);
	const char *want = name ? name : me;
	if (*local) {
		char *addr = sdt_local_addr(cfg);
		if (addr) {
			out->addr = addr;
			out->name = ks_xstrdup(want);
			out->machine = ks_xstrdup(sdt_host_part(want));
			free(me);
			return 0;
		}
	}
	/* a bare host name finds any slot of that machine, since all of a
	 * startd's slots share its address; "slot1@host" names one ad */
	struct classad_buf b = {0};
	classad_buf_printf(&b, "%s == ", strchr(want, '@') ? "Name" : "Machine");
	classad_quote_string_buf(&b, want, strlen(want));
	struct sdt_startd *s;
	size_t n;
	int rc = sdt_query(cfg, pool, b.data, &s, &n, err);
	free(b.data);
	if (rc == 0 && n > 0) {
		*out = s[0];
		s[0] = (struct sdt_startd){0};
		/* the name as asked for, as HTCondor's Daemon keeps it */
		free(out->name);
		out->name = ks_xstrdup(want);
	}
	if (rc == 0)
		sdt_startds_free(s, n);
	free(me);
	return rc;
}

/* ---- commands --------------------------------------------------------- */

void sdt_reply_clear(struct sdt_reply *r)
{
	if (!r)
		return;
	classad_free(r->ad);
	*r = (struct sdt_reply){0};
}

int sdt_send(const ks_config *cfg, const char *addr, int code, classad *ad,
	     bool *connected, struct sdt_reply *reply, struct ks_err *err)
{
	*reply = (struct sdt_reply){0};
	if (connected)
		*connected = false;
	ks_conn *c = NULL;
	int rc = ks_conn_open(cfg, addr, 0, &c, err);
	if (rc)
		return rc;
	if (connected)
		*connected = true;
	classad *ads[1] = {ad};
	rc = ks_conn_send(c, code, ads, ad ? 1 : 0, false, err);
	classad **got = NULL;
	size_t ngot = 0;
	if (rc == 0)
		rc = ks_conn_recv(c, &reply->code, &got, &ngot, NULL, err);
	ks_conn_close(c);
	if (rc)
		return rc;
	if (ngot) {
		reply->ad = got[0];
		got[0] = NULL;
	}
	ks_ads_free(got, ngot);
	return 0;
}

char *sdt_reply_error(const struct sdt_reply *r, int *code)
{
	char *why = NULL;
	int64_t c = 0;
	if (r->ad) {
		classad_eval_string(r->ad, "ErrorString", NULL, &why);
		classad_eval_int(r->ad, "ErrorCode", NULL, &c);
	}
	if (code)
		*code = (int)c;
	return why ? why : ks_xstrdup("no reason given");
}

void sdt_bare_addr(const char *addr, char *buf, size_t size)
{
	size_t n = strcspn(addr, "?>");
	if (addr[0] == '<' && addr[n] != '\0')
		snprintf(buf, size, "%.*s>", (int)n, addr);
	else
		snprintf(buf, size, "%s", addr);
}

char *sdt_username(void)
{
	struct passwd *pw = getpwuid(getuid());
	return pw && pw->pw_name ? ks_xstrdup(pw->pw_name) : NULL;
}
