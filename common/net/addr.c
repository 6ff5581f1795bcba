/* addr.c: sinful strings (ks_addr.h). */
#include "ks_addr.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "ks_mem.h"

static int parse_port(const char *p, size_t n, int *port)
{
	if (n == 0 || n > 5)
		return -1;
	int v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)p[i]))
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	if (v > 65535)
		return -1;
	*port = v;
	return 0;
}

/* Reads "sock=NAME" among '&'-separated parameters; others are ignored, as
 * HTCondor ignores parameters it does not use. */
static int parse_params(const char *p, size_t n, struct ks_addr *a)
{
	while (n) {
		const char *amp = memchr(p, '&', n);
		size_t len = amp ? (size_t)(amp - p) : n;
		if (len > 5 && strncmp(p, "sock=", 5) == 0) {
			if (len - 5 >= sizeof(a->sock) ||
			    memchr(p + 5, '/', len - 5))
				return -1;
			memcpy(a->sock, p + 5, len - 5);
			a->sock[len - 5] = '\0';
		}
		if (!amp)
			break;
		n -= len + 1;
		p = amp + 1;
	}
	return 0;
}

int ks_addr_parse(const char *s, int default_port, struct ks_addr *a,
		  struct ks_err *err)
{
	memset(a, 0, sizeof(*a));
	const char *given = s;
	size_t n = strlen(s);
	bool sinful = n && s[0] == '<';
	if (sinful) {
		if (s[n - 1] != '>')
			goto bad;
		s++;
		n -= 2;
	}
	const char *q = memchr(s, '?', n);
	size_t hp = q ? (size_t)(q - s) : n;
	if (q && parse_params(q + 1, n - hp - 1, a))
		goto bad;
	const char *colon = NULL;
	if (hp && s[0] == '[') { /* [v6]:port */
		const char *close = memchr(s, ']', hp);
		if (!close)
			goto bad;
		colon = close + 1 < s + hp && close[1] == ':' ? close + 1 : NULL;
		size_t hl = (size_t)(close - s - 1);
		if (hl == 0 || hl >= sizeof(a->host))
			goto bad;
		memcpy(a->host, s + 1, hl);
	} else {
		colon = memchr(s, ':', hp);
		size_t hl = colon ? (size_t)(colon - s) : hp;
		if (hl == 0 || hl >= sizeof(a->host))
			goto bad;
		memcpy(a->host, s, hl);
	}
	for (const char *c = a->host; *c; c++)
		if (isspace((unsigned char)*c) || *c == '<' || *c == '>')
			goto bad;
	if (colon) {
		if (parse_port(colon + 1, (size_t)(s + hp - colon - 1), &a->port))
			goto bad;
	} else {
		if (sinful)
			goto bad;
		a->port = default_port;
	}
	return 0;
bad:
	return ks_err_set(err, KS_EINVAL, 0, 0, 0,
			  "'%s' is not an address (expected host:port or "
			  "<ip:port>)", given);
}

void ks_addr_format(const struct ks_addr *a, char *buf, size_t size)
{
	bool v6 = strchr(a->host, ':') != NULL;
	snprintf(buf, size, "<%s%s%s:%d%s%s>", v6 ? "[" : "", a->host,
		 v6 ? "]" : "", a->port, a->sock[0] ? "?sock=" : "", a->sock);
}

bool ks_addr_is_local(const char *host)
{
	return !host || !*host || strncmp(host, "127.", 4) == 0 ||
	       strcmp(host, "::1") == 0 || strcasecmp(host, "localhost") == 0;
}

char *ks_addr_read_file(const char *path, struct ks_addr *a)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char line[512];
	char *got = NULL;
	struct ks_addr tmp;
	if (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (ks_addr_parse(line, KS_DEFAULT_PORT, a ? a : &tmp, NULL) ==
		    0)
			got = ks_xstrdup(line);
	}
	fclose(f);
	return got;
}

char *ks_addr_socket_dir(const ks_config *cfg)
{
	char *dir = ks_config_get(cfg, "DAEMON_SOCKET_DIR", NULL);
	if (dir && strcasecmp(dir, "auto") != 0)
		return dir;
	free(dir);
	char *lock = ks_config_get(cfg, "LOCK", NULL);
	if (!lock)
		return NULL;
	size_t n = strlen(lock) + sizeof("/daemon_sock");
	char *out = ks_xmalloc(n);
	snprintf(out, n, "%s/daemon_sock", lock);
	free(lock);
	return out;
}

/* Whether host (numeric) is an address of one of this host's interfaces:
 * a daemon bound to its NETWORK_INTERFACE is still on this host, and its
 * local clients (a user's condor_submit) are known by their Unix-domain
 * socket's credentials. */
static bool own_address(const char *host)
{
	unsigned char want[16];
	int family = AF_INET;
	if (inet_pton(AF_INET, host, want) != 1) {
		family = AF_INET6;
		if (inet_pton(AF_INET6, host, want) != 1)
			return false;
	}
	struct ifaddrs *ifs = NULL;
	if (getifaddrs(&ifs) != 0)
		return false;
	bool found = false;
	for (struct ifaddrs *i = ifs; i && !found; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != family)
			continue;
		if (family == AF_INET)
			found = memcmp(&((struct sockaddr_in *)i->ifa_addr)
					       ->sin_addr,
				       want, 4) == 0;
		else
			found = memcmp(&((struct sockaddr_in6 *)i->ifa_addr)
					       ->sin6_addr,
				       want, 16) == 0;
	}
	freeifaddrs(ifs);
	return found;
}

char *ks_addr_local_socket(const ks_config *cfg, const struct ks_addr *a)
{
	if (!a->sock[0] ||
	    (!ks_addr_is_local(a->host) && !own_address(a->host)))
		return NULL;
	char *dir = ks_addr_socket_dir(cfg);
	if (!dir)
		return NULL;
	size_t n = strlen(dir) + strlen(a->sock) + 2;
	char *path = ks_xmalloc(n);
	snprintf(path, n, "%s/%s", dir, a->sock);
	free(dir);
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISSOCK(st.st_mode)) {
		free(path);
		return NULL;
	}
	return path;
}
