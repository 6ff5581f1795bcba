/* condor_advertise: sends ads from a file to the collector with an update
 * or invalidate command, as HTCondor's does (docs/protocol.md). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "ks_addr.h"
#include "ks_client.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_text.h"
#include "ks_version.h"
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
		"lines\n"
		"    -fake-private-ad  Send each startd ad with a made-up private "
		"ad (a claim id)\n", prog);
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
	struct classad_buf *pvt; /* -fake-private-ad: each message's private
				  * ad record, sent after its text */
};

/* The private ad HTCondor's tool makes up for a startd ad: its Name and
 * StartdIpAddr and a claim id of the form a startd gives
 * (<MyAddress>#<start>#<n>#<secret>), as a record to follow the ad. */
static void fake_private(const char *text, size_t len, long start, int seq,
			 struct classad_buf *out)
{
	struct ks_err err;
	classad *ad = classad_parse(text, len, CLASSAD_FMT_OLD, NULL, &err);
	classad *p = classad_new();
	classad_insert_string(p, "MyType", "Machine");
	static const char *const copy[] = {"StartdIpAddr", "Name"};
	for (size_t i = 0; ad && i < 2; i++) {
		const classad_expr *e = classad_lookup(ad, copy[i]);
		if (e)
			classad_insert(p, copy[i], classad_expr_ref(e));
	}
	char *addr = NULL;
	if (ad)
		classad_eval_string(ad, "MyAddress", NULL, &addr);
	char id[512];
	snprintf(id, sizeof(id), "%s#%ld#%d#%08XDEADBEEF01234567BEEFBAAD",
		 addr ? addr : "", start, seq, (unsigned)seq);
	classad_insert_string(p, "ClaimId", id);
	ks_wire_encode_ad(out, p);
	free(addr);
	classad_free(p);
	classad_free(ad);
}

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
		size_t extra = m->pvt ? m->pvt[i].len : 0;
		size_t need = sizeof(m->hdr[i]) + m->len[i] + extra;
		if (need > d.cap) {
			d.cap = need;
			d.data = ks_xrealloc(d.data, d.cap);
		}
		memcpy(d.data, m->hdr[i], sizeof(m->hdr[i]));
		memcpy(d.data + sizeof(m->hdr[i]), m->text[i], m->len[i]);
		if (extra)
			memcpy(d.data + sizeof(m->hdr[i]) + m->len[i],
			       m->pvt[i].data, extra);
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
	struct iovec *iov = ks_xmalloc(3 * m->n * sizeof(*iov));
	size_t k = 0;
	for (size_t i = 0; i < m->n; i++) {
		iov[k++] = (struct iovec){m->hdr[i], sizeof(m->hdr[i])};
		iov[k++] = (struct iovec){(void *)m->text[i], m->len[i]};
		if (m->pvt)
			iov[k++] = (struct iovec){m->pvt[i].data,
						  m->pvt[i].len};
	}
	rc = ks_conn_send_iov(c, iov, k, err);
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

/* A file bigger than this is checked in two halves, one per core. */
#define SPLIT_MIN (4u << 20)

/* The ads of text[from, to), checked: where each non-empty one lies, the
 * command the first one implies, or the first error. */
struct part {
	const char *text;
	size_t from, to;
	bool stop_at_two; /* without -multiple a second ad is an error */
	size_t *start, *len, n;
	int first_command;
	bool failed;
	struct ks_err err; /* its line counts from `from` */
};

static void check_part(struct part *p)
{
	classad_cache *cache = classad_cache_new();
	classad_reader *r = classad_reader_new(p->text + p->from,
					       p->to - p->from,
					       CLASSAD_FMT_OLD, cache);
	size_t cap = 0, at = 0;
	classad *ad;
	int got;
	while ((got = classad_reader_next(r, &ad, &p->err)) == 1) {
		size_t to = classad_reader_pos(r);
		size_t from = at;
		at = to;
		if (classad_size(ad) == 0) {
			classad_free(ad);
			continue;
		}
		if (p->n == 0)
			p->first_command = guess_command(ad);
		classad_free(ad);
		if (p->n == cap) {
			cap = cap ? cap * 2 : 1024;
			p->start = ks_xrealloc(p->start, cap * sizeof(*p->start));
			p->len = ks_xrealloc(p->len, cap * sizeof(*p->len));
		}
		p->start[p->n] = p->from + from;
		p->len[p->n] = to - from;
		p->n++;
		if (p->stop_at_two && p->n == 2)
			break;
	}
	p->failed = got < 0;
	classad_reader_free(r);
	classad_cache_free(cache);
}

static void *check_part_thread(void *arg)
{
	check_part(arg);
	return NULL;
}

/* Where the ad after position `from` starts: just past the first empty
 * line at or after it (len if there is none). */
static size_t ad_boundary(const char *text, size_t from, size_t len)
{
	for (size_t i = from; i + 1 < len; i++)
		if (text[i] == '\n' && text[i + 1] == '\n')
			return i + 2;
	return len;
}

int main(int argc, char **argv)
{
	const char *pool = NULL, *filename = NULL;
	bool udp = false, multiple = false, fake_pvt = false;
	int command = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-help") == 0 || strcmp(a, "-h") == 0) {
			usage(argv[0], true);
			return 0;
		} else if (strcmp(a, "-version") == 0) {
			fputs(KS_CONDOR_VERSION_LINES, stdout);
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
		} else if (strcmp(a, "-fake-private-ad") == 0) {
			fake_pvt = true;
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
	/* Nothing is sent unless the whole file reads, as with HTCondor's
	 * tool; a big file is checked in two halves at once. */
	struct part parts[2];
	size_t nparts = 1;
	memset(parts, 0, sizeof(parts));
	parts[0] = (struct part){.text = text, .to = len, .stop_at_two = !multiple};
	size_t mid = multiple && len >= SPLIT_MIN ? ad_boundary(text, len / 2, len)
						  : len;
	pthread_t helper;
	if (mid < len) {
		parts[0].to = mid;
		parts[1] = (struct part){.text = text, .from = mid, .to = len};
		if (pthread_create(&helper, NULL, check_part_thread, &parts[1]) == 0)
			nparts = 2;
		else
			parts[0].to = len;
	}
	check_part(&parts[0]);
	if (nparts == 2)
		pthread_join(helper, NULL);

	struct msgs m = {0};
	struct ks_err err;
	int status = 0;
	long start_time = (long)time(NULL);
	for (size_t k = 0; k < nparts && !status; k++) {
		struct part *pt = &parts[k];
		if (!multiple && (m.n + pt->n > 1)) {
			fprintf(stderr, "ERROR: multiple ads in %s\n", filename);
			status = 1;
		} else if (command < 0 && pt->n) {
			command = pt->first_command;
			if (command == -2) {
				fprintf(stderr,
					"MyType not set in ad, aborting.\n");
				status = 1;
			}
		}
		/* only a startd update takes a private ad, as in HTCondor */
		bool pair = fake_pvt && (command == KS_UPDATE_STARTD_AD ||
					 command == KS_UPDATE_STARTD_AD_WITH_ACK);
		for (size_t i = 0; i < pt->n && !status; i++) {
			size_t at = m.n++;
			m.hdr = ks_xrealloc(m.hdr, m.n * sizeof(*m.hdr));
			m.text = ks_xrealloc(m.text, m.n * sizeof(*m.text));
			m.len = ks_xrealloc(m.len, m.n * sizeof(*m.len));
			/* the ad's own text goes on the wire: it parsed
			 * here, and parses the same at the collector */
			m.text[at] = text + pt->start[i];
			m.len[at] = pt->len[i];
			size_t extra = 0;
			if (pair) {
				m.pvt = ks_xrealloc(m.pvt,
						    m.n * sizeof(*m.pvt));
				m.pvt[at] = (struct classad_buf){0};
				fake_private(m.text[at], m.len[at], start_time,
					     (int)m.n, &m.pvt[at]);
				extra = m.pvt[at].len;
			}
			if (ks_wire_text_header(m.hdr[at], command, pt->len[i],
						extra,
						pair ? KS_WIRE_PAIRED : 0,
						&err)) {
				fprintf(stderr, "ad %zu of %s: %s\n", m.n,
					filename, err.msg);
				status = 1;
			}
		}
		if (!status && pt->failed) {
			/* line numbers of the second half count the first */
			int before = 0;
			for (const char *c = text;
			     (c = memchr(c, '\n', (size_t)(text + pt->from - c)));
			     c++)
				before++;
			fprintf(stderr, "couldn't parse ClassAd in %s: line %d: %s\n",
				filename, pt->err.line + before, pt->err.msg);
			status = 1;
		}
	}
	if (status)
		goto out;
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
	int rc;
	rc = ks_collector_addr(cfg, pool, &addr, &err);
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
		char *cur = host, *first = ks_list_cut(&cur);
		printf("Sent %d of %zu ad%s to %s.\n", sent, m.n,
		       m.n == 1 ? "" : "s", first ? first : addr);
		if ((size_t)sent != m.n)
			status = 1;
	}
	free(host);
	free(addr);
	ks_config_free(cfg);
out:
	free(m.hdr);
	free(m.text);
	for (size_t i = 0; m.pvt && i < m.n; i++)
		free(m.pvt[i].data);
	free(m.pvt);
	free(m.len);
	for (size_t k = 0; k < 2; k++) {
		free(parts[k].start);
		free(parts[k].len);
	}
	if (mapped)
		munmap(text, len);
	else
		free(text);
	return status;
}
