/* condor_advertise: sends ads from a file to the collector with an update
 * or invalidate command, as HTCondor's does (docs/protocol.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "ks_addr.h"
#include "ks_client.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_wire.h"

static void usage(const char *prog, bool commands)
{
	fprintf(stderr,
		"Usage: %s [options] <update-command> [<classad-filename>]\n"
		"Where options are:\n"
		"    -help             Display options\n"
		"    -version          Display Condor version\n"
		"    -pool <hostname>  Use this central manager\n"
		"    -debug            Show extra debugging info\n"
		"    -tcp              Ship classad via TCP (default)\n"
		"    -udp              Ship classad via UDP\n"
		"    -multiple         Publish multiple ads, separated by blank "
		"lines\n", prog);
	if (commands) {
		fprintf(stderr, "\nAnd <update-command> is one of:\n");
		for (int code = 0; code < 100; code++) {
			const char *n = ks_command_name(code);
			if (n && (strncmp(n, "UPDATE_", 7) == 0 ||
				  strncmp(n, "INVALIDATE_", 11) == 0 ||
				  strncmp(n, "MERGE_", 6) == 0))
				fprintf(stderr, "    %s\n", n);
		}
	}
	fprintf(stderr, "\nIf <classad-filename> does not exist or is -, "
		"classads will be read from standard input\n");
}

/* The whole input.  A regular file is mapped, not copied: the ads of a
 * big file are read once, by the parser.  *mapped tells which to undo. */
static char *read_all(FILE *f, size_t *len, bool *mapped)
{
	struct stat st;
	*mapped = false;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > 0) {
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ,
			       MAP_PRIVATE | MAP_POPULATE, fileno(f), 0);
		if (p != MAP_FAILED) {
			*mapped = true;
			*len = (size_t)st.st_size;
			return p;
		}
	}
	size_t cap = 65536, n = 0, r;
	char *buf = ks_xmalloc(cap);
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n < 2) {
			cap *= 2;
			buf = ks_xrealloc(buf, cap);
		}
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* The command an ad's MyType implies, when none is given. */
static int guess_command(const classad *ad)
{
	char *type = NULL;
	if (!classad_eval_string(ad, "MyType", NULL, &type))
		return -2;
	char name[128];
	if (strcasecmp(type, "Generic") == 0)
		snprintf(name, sizeof(name), "UPDATE_AD_GENERIC");
	else
		snprintf(name, sizeof(name), "UPDATE_%s_AD", type);
	free(type);
	int code = ks_command_code(name);
	return code >= 0 ? code : KS_UPDATE_AD_GENERIC;
}

/* The ads of the file, each a message: its header, then the ad's own
 * text where it lies in the (mapped) file, sent without copying. */
struct msgs {
	unsigned char (*hdr)[KS_WIRE_HEADER + 4];
	const char **text;
	size_t *len;
	size_t n;
};

/* UDP: a connection first, whose handshake sets up the session that
 * signs the datagrams (docs/protocol.md); then one datagram per ad.
 * Nothing comes back, so "sent" is all that can be said, as HTCondor's
 * tool says it. */
static int send_udp(const ks_config *cfg, const char *addr,
		    const struct msgs *m, int *sent, struct ks_err *err)
{
	ks_conn *c = NULL;
	int rc = ks_conn_open(cfg, addr, 0, &c, err);
	struct classad_buf d = {0};
	for (size_t i = 0; i < m->n && rc == 0; i++) {
		d.len = 0;
		size_t need = sizeof(m->hdr[i]) + m->len[i];
		if (need > d.cap) {
			d.cap = need;
			d.data = ks_xrealloc(d.data, d.cap);
		}
		memcpy(d.data, m->hdr[i], sizeof(m->hdr[i]));
		memcpy(d.data + sizeof(m->hdr[i]), m->text[i], m->len[i]);
		rc = ks_conn_send_udp_raw(c, d.data, need, err);
		if (rc == 0)
			(*sent)++;
	}
	free(d.data);
	ks_conn_close(c);
	return rc;
}

/* TCP: every ad in its own message on one connection, then a DC_NOP whose
 * answer tells that the collector has handled them all; a refusal of any
 * comes back before it. */
static int send_tcp(const ks_config *cfg, const char *addr,
		    const struct msgs *m, int *sent, struct ks_err *err)
{
	ks_conn *c = NULL;
	int rc = ks_conn_open(cfg, addr, 0, &c, err);
	if (rc)
		return rc;
	struct iovec *iov = ks_xmalloc(2 * m->n * sizeof(*iov));
	for (size_t i = 0; i < m->n; i++) {
		iov[2 * i] = (struct iovec){m->hdr[i], sizeof(m->hdr[i])};
		iov[2 * i + 1] = (struct iovec){(void *)m->text[i], m->len[i]};
	}
	rc = ks_conn_send_iov(c, iov, 2 * m->n, err);
	free(iov);
	classad *nop = classad_new();
	if (rc == 0)
		rc = ks_conn_send(c, KS_DC_NOP, &nop, 1, false, err);
	classad_free(nop);
	size_t refused = 0;
	char why[256] = "";
	while (rc == 0) {
		int rcode;
		classad **got;
		size_t ngot;
		rc = ks_conn_recv(c, &rcode, &got, &ngot, NULL, err);
		if (rc)
			break;
		if (rcode == KS_REPLY_DENIED || rcode == KS_REPLY_ERROR) {
			char *s = NULL;
			if (ngot && classad_eval_string(got[0], "ErrorString",
							NULL, &s))
				snprintf(why, sizeof(why), "%s", s);
			free(s);
			refused++;
		}
		ks_ads_free(got, ngot);
		/* the DC_NOP's answer (or its refusal) comes last */
		if (rcode == KS_REPLY_OK || refused > m->n)
			break;
	}
	if (rc == 0) {
		*sent = refused > m->n ? 0 : (int)(m->n - refused);
		if (refused)
			fprintf(stderr, "the collector refused %zu ad%s: %s\n",
				refused, refused == 1 ? "" : "s", why);
	}
	ks_conn_close(c);
	return rc;
}

int main(int argc, char **argv)
{
	const char *pool = NULL, *filename = NULL;
	bool udp = false, multiple = false;
	int command = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-help") == 0 || strcmp(a, "-h") == 0) {
			usage(argv[0], true);
			return 0;
		} else if (strcmp(a, "-version") == 0) {
			printf("$CondorVersion: 25.14.0 2026-11-01 kestrel $\n"
			       "$CondorPlatform: x86_64_Debian12 $\n");
			return 0;
		} else if (strcmp(a, "-pool") == 0) {
			if (++i >= argc) {
				fprintf(stderr, "-pool requires an argument.\n\n");
				usage(argv[0], false);
				return 1;
			}
			pool = argv[i];
		} else if (strcmp(a, "-tcp") == 0) {
			udp = false;
		} else if (strcmp(a, "-udp") == 0) {
			udp = true;
		} else if (strcmp(a, "-multiple") == 0) {
			multiple = true;
		} else if (strcmp(a, "-debug") == 0) {
			/* accepted; kestrel's messages are already plain */
		} else if (a[0] != '-' || strcmp(a, "-") == 0) {
			if (command == -1 && strcmp(a, "-") != 0) {
				command = ks_command_code(a);
				if (command < 0) {
					fprintf(stderr,
						"Unknown command name %s\n\n", a);
					usage(argv[0], true);
					return 1;
				}
			} else if (!filename) {
				filename = a;
			} else {
				fprintf(stderr, "Extra argument: %s\n\n", a);
				usage(argv[0], false);
				return 1;
			}
		} else {
			fprintf(stderr, "Unknown argument: %s\n\n", a);
			usage(argv[0], false);
			return 1;
		}
	}
	FILE *f = stdin;
	if (filename && strcmp(filename, "-") != 0) {
		f = fopen(filename, "rb");
		if (!f) {
			fprintf(stderr, "couldn't open %s: %s\n", filename,
				strerror(errno));
			return 1;
		}
	} else {
		filename = "(stdin)";
	}
	size_t len;
	bool mapped;
	char *text = read_all(f, &len, &mapped);
	if (f != stdin)
		fclose(f);
	classad_cache *cache = classad_cache_new();
	classad_reader *r = classad_reader_new(text, len, CLASSAD_FMT_OLD,
					       cache);
	struct msgs m = {0};
	size_t cap = 0;
	classad *ad;
	struct ks_err err;
	int got, status = 0;
	/* Each ad is encoded as soon as it is read and then freed: nothing is
	 * sent unless the whole file reads. */
	size_t from = 0;
	while ((got = classad_reader_next(r, &ad, &err)) == 1) {
		size_t to = classad_reader_pos(r);
		size_t start = from;
		from = to;
		if (classad_size(ad) == 0) {
			classad_free(ad);
			continue;
		}
		if (!multiple && m.n > 0) {
			fprintf(stderr, "ERROR: multiple ads in %s\n", filename);
			classad_free(ad);
			status = 1;
			goto out;
		}
		if (command < 0) {
			command = guess_command(ad);
			if (command == -2) {
				fprintf(stderr,
					"MyType not set in ad, aborting.\n");
				classad_free(ad);
				status = 1;
				goto out;
			}
		}
		if (m.n + 1 > cap) {
			cap = cap ? cap * 2 : 1024;
			m.hdr = ks_xrealloc(m.hdr, cap * sizeof(*m.hdr));
			m.text = ks_xrealloc(m.text, cap * sizeof(*m.text));
			m.len = ks_xrealloc(m.len, cap * sizeof(*m.len));
		}
		/* the ad's own text goes on the wire: it parsed here, and
		 * parses the same at the collector, with no unparsing */
		m.text[m.n] = text + start;
		m.len[m.n] = to - start;
		int rc = ks_wire_text_header(m.hdr[m.n], command, to - start, 0,
					     &err);
		m.n++;
		classad_free(ad);
		if (rc) {
			fprintf(stderr, "ad %zu of %s: %s\n", m.n, filename,
				err.msg);
			status = 1;
			goto out;
		}
	}
	if (got < 0) {
		fprintf(stderr, "couldn't parse ClassAd in %s: line %d: %s\n",
			filename, err.line, err.msg);
		status = 1;
		goto out;
	}
	if (m.n == 0) {
		fprintf(stderr, "%s is empty\n", filename);
		status = 1;
		goto out;
	}
	if (command == KS_UPDATE_STARTD_AD_WITH_ACK)
		udp = false;
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &err);
	if (!cfg) {
		fprintf(stderr, "ERROR: %s\n", err.msg);
		status = 1;
		goto out;
	}
	char *addr = NULL;
	int sent = 0;
	int rc = ks_collector_addr(cfg, pool, &addr, &err);
	if (rc == 0)
		rc = udp ? send_udp(cfg, addr, &m, &sent, &err)
			 : send_tcp(cfg, addr, &m, &sent, &err);
	if (rc) {
		fprintf(stderr, "failed to send classad to %s: %s\n",
			addr ? addr : (pool ? pool : "the collector"), err.msg);
		status = 1;
	}
	char *host = pool ? ks_xstrdup(pool)
			  : ks_config_get(cfg, "COLLECTOR_HOST", NULL);
	if (rc == 0) {
		if (host)
			host[strcspn(host, ", \t")] = '\0';
		printf("Sent %d of %zu ad%s to %s.\n", sent, m.n,
		       m.n == 1 ? "" : "s", host ? host : addr);
		if ((size_t)sent != m.n)
			status = 1;
	}
	free(host);
	free(addr);
	ks_config_free(cfg);
out:
	free(m.hdr);
	free(m.text);
	free(m.len);
	classad_reader_free(r);
	classad_cache_free(cache);
	if (mapped)
		munmap(text, len);
	else
		free(text);
	return status;
}
