/*
 * logdir.c: what a log directory says about the daemons of a machine,
 * read as HTCondor's condor_who reads it: every ".<daemon>_address" file
 * and "<Daemon>Log" names a daemon (StartLog the startd, SchedLog the
 * schedd, MatchLog the negotiator, StarterLog.slotN the slot), the
 * master's log since its last start gives the pids of the daemons it
 * started and how they exited, and a daemon's own log since its last
 * start gives its address when no address file does.
 *
 * The lines looked for are those kestrel's daemons write, which follow
 * HTCondor's ("Started DaemonCore process ..., pid and pgroup = N", "The
 * STARTD (pid N) exited with status S"), and HTCondor's own banner and
 * socket lines, so a directory written by either is understood.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "who.h"

/* Log files named otherwise than "<Daemon>Log". */
static const char *const log_alias[][2] = {
	{"Sched", "Schedd"}, {"Start", "Startd"}, {"Match", "Negotiator"},
	{"Cred", "Credd"},   {"Kbd", "Kbdd"},
};

/* Programs named otherwise than "condor_<daemon>". */
static const char *const prog_alias[][2] = {
	{"shared_port", "SharedPort"},
	{"job_router", "JobRouter"},
	{"ckpt_server", "CkptServer"},
};

static void copy(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* Whether s is longer than suffix and ends with it; *stem gets the
 * length before it. */
static bool ends_with(const char *s, const char *suffix, size_t *stem)
{
	size_t ls = strlen(s), lx = strlen(suffix);
	if (ls <= lx || strcmp(s + ls - lx, suffix) != 0)
		return false;
	*stem = ls - lx;
	return true;
}

struct who_daemon *who_logdir_find(struct who_logdir *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->d[i].name, name) == 0)
			return &l->d[i];
	return NULL;
}

static struct who_daemon *find_or_add(struct who_logdir *l, const char *name)
{
	struct who_daemon *d = who_logdir_find(l, name);
	if (d)
		return d;
	l->d = ks_xrealloc(l->d, (l->n + 1) * sizeof(*l->d));
	d = &l->d[l->n++];
	*d = (struct who_daemon){0};
	copy(d->name, sizeof(d->name), name, strlen(name));
	return d;
}

/* A daemon's name from a subsystem ("STARTD") or a program's name after
 * "condor_" ("startd", "shared_port"): lower case with the first letter
 * capitalized, or the alias. */
static void daemon_name(const char *sub, size_t len, char *out, size_t size)
{
	char low[64];
	copy(low, sizeof(low), sub, len);
	for (char *c = low; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	for (size_t i = 0; i < sizeof(prog_alias) / sizeof(prog_alias[0]); i++)
		if (strcmp(low, prog_alias[i][0]) == 0) {
			copy(out, size, prog_alias[i][1],
			     strlen(prog_alias[i][1]));
			return;
		}
	low[0] = (char)toupper((unsigned char)low[0]);
	copy(out, size, low, strlen(low));
}

void who_daemon_subsys(const char *name, char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof(prog_alias) / sizeof(prog_alias[0]); i++)
		if (strcmp(name, prog_alias[i][1]) == 0) {
			name = prog_alias[i][0];
			break;
		}
	copy(buf, size, name, strlen(name));
	for (char *c = buf; *c; c++)
		*c = (char)toupper((unsigned char)*c);
}

/* The first line of an address file: the sinful string. */
static void read_address(const char *path, char *addr, size_t size)
{
	FILE *f = fopen(path, "re");
	addr[0] = '\0';
	if (!f)
		return;
	if (fgets(addr, (int)size, f))
		addr[strcspn(addr, "\r\n")] = '\0';
	fclose(f);
}

/* One file of the directory: which daemon it belongs to, and as what. */
static void add_file(struct who_logdir *l, const char *file)
{
	char name[64];
	size_t stem;
	enum { ADDR, LOG, OLD } kind;
	bool alias = false;
	if (file[0] == '.' && ends_with(file, "_address", &stem)) {
		copy(name, sizeof(name), file + 1, stem - 1);
		kind = ADDR;
	} else if (ends_with(file, "Log", &stem) ||
		   ends_with(file, "Log.old", &stem)) {
		copy(name, sizeof(name), file, stem);
		for (size_t i = 0; i < sizeof(log_alias) / sizeof(log_alias[0]);
		     i++)
			if (strcmp(name, log_alias[i][0]) == 0) {
				copy(name, sizeof(name), log_alias[i][1],
				     strlen(log_alias[i][1]));
				/* MatchLog is the negotiator's second log:
				 * NegotiatorLog wins whatever the order */
				alias = strcmp(log_alias[i][0], "Match") == 0;
			}
		kind = strchr(file + stem, '.') ? OLD : LOG;
	} else if (strncmp(file, "StarterLog.", 11) == 0 && file[11]) {
		const char *slot = file + 11;
		kind = ends_with(slot, ".old", &stem) ? OLD : LOG;
		copy(name, sizeof(name), slot, kind == OLD ? stem : strlen(slot));
	} else {
		return;
	}
	if (!name[0])
		return;
	name[0] = (char)toupper((unsigned char)name[0]);
	struct who_daemon *d = find_or_add(l, name);
	if (kind == ADDR) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", l->dir, file);
		read_address(path, d->addr, sizeof(d->addr));
	} else if (kind == LOG && !(alias && d->log[0])) {
		copy(d->log, sizeof(d->log), file, strlen(file));
	} else if (kind == OLD && !(alias && d->log_old[0])) {
		copy(d->log_old, sizeof(d->log_old), file, strlen(file));
	}
}

/* ---- the logs ---------------------------------------------------------- */

/* What the lines since a daemon's last start say. */
struct seen {
	char addr[320], pid[24], exit_code[24];
	struct who_daemon *kids; /* the master's: pid and exit per daemon */
	size_t nkids;
};

static void seen_reset(struct seen *s)
{
	free(s->kids);
	*s = (struct seen){0};
}

static struct who_daemon *seen_kid(struct seen *s, const char *name)
{
	for (size_t i = 0; i < s->nkids; i++)
		if (strcmp(s->kids[i].name, name) == 0)
			return &s->kids[i];
	s->kids = ks_xrealloc(s->kids, (s->nkids + 1) * sizeof(*s->kids));
	struct who_daemon *k = &s->kids[s->nkids++];
	*k = (struct who_daemon){0};
	copy(k->name, sizeof(k->name), name, strlen(name));
	return k;
}

/* The digits (and sign) at p, into out. */
static void number_at(const char *p, char *out, size_t size)
{
	size_t n = strspn(p, "-0123456789");
	copy(out, size, p, n);
}

/* A daemon's own lines: its address, and HTCondor's "PID =" banner. */
static void own_line(const char *line, struct seen *s)
{
	const char *p;
	if ((p = strstr(line, " listening on <")) ||
	    (p = strstr(line, " DaemonCore: command socket at <"))) {
		p = strchr(p, '<');
		copy(s->addr, sizeof(s->addr), p, strcspn(p, " \r\n"));
	} else if ((p = strstr(line, " ** PID = "))) {
		number_at(p + 10, s->pid, sizeof(s->pid));
	}
}

/* The last occurrence of word that starts before end in line, or NULL. */
static const char *rfind(const char *line, const char *end, const char *word)
{
	const char *found = NULL;
	for (const char *t = line; (t = strstr(t, word)) && t < end; t++)
		found = t;
	return found;
}

/* The master's lines about the daemons it runs. */
static void master_line(const char *line, struct seen *s)
{
	const char *p, *q, *e;
	char name[64];
	if ((p = strstr(line, "Started DaemonCore process")) &&
	    (q = strstr(p, ", pid and pgroup = "))) {
		/* the program: after its last "condor_", up to '"' or '.' */
		const char *c = rfind(p, q, "condor_");
		if (!c)
			return;
		c += 7;
		daemon_name(c, strcspn(c, "\"."), name, sizeof(name));
		struct who_daemon *k = seen_kid(s, name);
		number_at(q + 19, k->pid, sizeof(k->pid));
		k->exit_code[0] = '\0';
	} else if ((p = strstr(line, "Sent signal")) &&
		   (q = strstr(p, " to ")) && strstr(q, " (pid ")) {
		q += 4;
		const char *r = strstr(q, " (pid ");
		daemon_name(q, (size_t)(r - q), name, sizeof(name));
		struct who_daemon *k = seen_kid(s, name);
		number_at(r + 6, k->pid, sizeof(k->pid));
		k->exit_code[0] = '\0';
	} else if (((e = strstr(line, ") exited with status ")) ||
		    (e = strstr(line, ") died on signal "))) &&
		   (q = rfind(line, e, " (pid ")) && (p = rfind(line, q, "The "))) {
		/* "The STARTD (pid N) exited with status S"; kestrel's master
		 * says "died on signal N" where a daemon had no exit status:
		 * shown as sigN */
		daemon_name(p + 4, (size_t)(q - p - 4), name, sizeof(name));
		struct who_daemon *k = seen_kid(s, name);
		number_at(q + 6, k->pid, sizeof(k->pid));
		if (e[2] == 'e') {
			number_at(e + 21, k->exit_code, sizeof(k->exit_code));
		} else {
			e += 17;
			snprintf(k->exit_code, sizeof(k->exit_code), "sig%.*s",
				 (int)strspn(e, "0123456789"), e);
		}
	} else if ((p = strstr(line, " EXITING WITH STATUS ")) &&
		   (strstr(line, "condor_master") ||
		    strstr(line, "condor_MASTER"))) {
		number_at(p + 21, s->exit_code, sizeof(s->exit_code));
		if ((q = strstr(line, ") pid ")) && q < p)
			number_at(q + 6, s->pid, sizeof(s->pid));
	} else {
		own_line(line, s);
	}
}

/* Reads one daemon's log from its last start ("... STARTING UP") to its
 * end, and fills in what d (and, for the master's, the daemons of l)
 * still lacks: what was seen last counts. */
static void scan_log(struct who_logdir *l, struct who_daemon *d, bool master)
{
	if (!d->log[0])
		return;
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", l->dir, d->log);
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	struct seen s = {0};
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0) {
		if (strstr(line, " STARTING UP")) {
			seen_reset(&s);
			continue;
		}
		if (master)
			master_line(line, &s);
		else
			own_line(line, &s);
	}
	free(line);
	fclose(f);
	if (!d->addr[0])
		copy(d->addr, sizeof(d->addr), s.addr, strlen(s.addr));
	if (!d->pid[0])
		copy(d->pid, sizeof(d->pid), s.pid, strlen(s.pid));
	if (s.exit_code[0])
		copy(d->exit_code, sizeof(d->exit_code), s.exit_code,
		     strlen(s.exit_code));
	/* only daemons the directory knows of, as HTCondor's tool */
	for (size_t i = 0; i < s.nkids; i++) {
		struct who_daemon *k = who_logdir_find(l, s.kids[i].name);
		if (!k || k == d)
			continue;
		memcpy(k->pid, s.kids[i].pid, sizeof(k->pid));
		memcpy(k->exit_code, s.kids[i].exit_code, sizeof(k->exit_code));
	}
	seen_reset(&s);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct who_daemon *)a)->name,
		      ((const struct who_daemon *)b)->name);
}

void who_logdir_scan(const char *dir, bool addresses_only,
		     struct who_logdir *l)
{
	*l = (struct who_logdir){.dir = dir};
	DIR *dh = opendir(dir);
	struct dirent *de;
	while (dh && (de = readdir(dh)))
		add_file(l, de->d_name);
	if (dh)
		closedir(dh);
	if (l->n)
		qsort(l->d, l->n, sizeof(*l->d), by_name);
	struct who_daemon *m = who_logdir_find(l, "Master");
	if (m)
		scan_log(l, m, true);
	for (size_t i = 0; i < l->n; i++) {
		struct who_daemon *d = &l->d[i];
		/* kestrel's starters log to the startd's standard error: a
		 * StarterLog here is another pool's, and holds no address */
		if (d == m || strncmp(d->name, "Slot", 4) == 0 ||
		    strncmp(d->name, "Starter", 7) == 0)
			continue;
		if ((d->pid[0] && d->addr[0]) || strcmp(d->name, "Shadow") == 0)
			continue;
		if (!addresses_only && strcmp(d->name, "Schedd") != 0 &&
		    strcmp(d->name, "Startd") != 0)
			continue;
		scan_log(l, d, false);
	}
}

void who_logdir_free(struct who_logdir *l)
{
	free(l->d);
	*l = (struct who_logdir){0};
}
