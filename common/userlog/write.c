/*
 * write.c: appending events to a job's log and to the global EVENT_LOG.
 *
 * Many writers share these files: the schedd, several of its jobs'
 * events at once, a DAGMan reading them, possibly real HTCondor daemons
 * writing the same EVENT_LOG.  Each event goes out in one write() on an
 * O_APPEND descriptor, under an flock() so that writers that lock cannot
 * interleave even across a short write; the file is opened and closed for
 * every event so that a log moved or deleted by the user is simply
 * created again, as HTCondor does.
 */
#include "ks_userlog.h"
#include "userlog_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ks_clock.h"
#include "ks_mem.h"
#include "ks_text.h"

/* How long a writer waits for another's lock before writing anyway. */
#define LOCK_WAIT_MS 5000

void ks_userlog_event_init(struct ks_userlog_event *ev,
			   enum ks_userlog_type type, int cluster, int proc)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->cluster = cluster;
	ev->proc = proc;
	struct timespec ts;
	if (clock_gettime(CLOCK_REALTIME, &ts) == 0) {
		ev->time = (int64_t)ts.tv_sec;
		ev->usec = ts.tv_nsec / 1000;
	} else {
		ev->time = (int64_t)time(NULL);
	}
	ev->memory_usage_mb = -1;
	ev->rss_kb = 0;
	ev->pss_kb = -1;
	ev->queueing_delay = -1;
	ev->num_pids = -1;
	ev->normal = true;
}

int ks_userlog_parse_opts(const char *text, unsigned base, unsigned *out,
			  struct ks_err *err)
{
	static const struct {
		const char *word;
		unsigned flag;
	} words[] = {
		{"ISO_DATE", KS_USERLOG_ISO_DATE},
		{"UTC", KS_USERLOG_UTC},
		{"SUB_SECOND", KS_USERLOG_SUB_SECOND},
	};
	unsigned opts = base;
	const char *other = NULL;
	size_t other_len = 0;
	size_t pos = 0, n;
	for (const char *w; (w = ks_list_next(text, &pos, &n));) {
		bool bang = *w == '!';
		if (bang) {
			w++;
			n--;
		}
		for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i].word) == n &&
			    strncasecmp(w, words[i].word, n) == 0)
				opts = bang ? opts & ~words[i].flag
					    : opts | words[i].flag;
		if (n == 6 && strncasecmp(w, "LEGACY", 6) == 0)
			opts = bang ? opts | KS_USERLOG_ISO_DATE
				    : opts & ~(unsigned)(KS_USERLOG_ISO_DATE |
							 KS_USERLOG_UTC |
							 KS_USERLOG_SUB_SECOND);
		if (!bang && ((n == 3 && strncasecmp(w, "XML", 3) == 0) ||
			      (n == 4 && strncasecmp(w, "JSON", 4) == 0))) {
			other = w;
			other_len = n;
		}
	}
	*out = opts;
	if (other)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "event log format %.*s is not supported; "
				  "events are written as text (remove %.*s "
				  "from the format options)",
				  (int)other_len, other, (int)other_len, other);
	return 0;
}

/* ---- files ------------------------------------------------------------ */

static void make_parents(const char *path)
{
	char *dir = ks_xstrdup(path);
	for (char *s = dir + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(dir, 0755) != 0 && errno != EEXIST)
			break;
		*s = '/';
	}
	free(dir);
}

static int open_log(const char *path, struct ks_err *err)
{
	int flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY;
	int fd;
	do
		fd = open(path, flags, 0664);
	while (fd < 0 && errno == EINTR);
	if (fd < 0 && errno == ENOENT && strchr(path + 1, '/')) {
		make_parents(path);
		do
			fd = open(path, flags, 0664);
		while (fd < 0 && errno == EINTR);
	}
	if (fd < 0)
		ks_err_set(err, KS_EIO, 0, 0, 0,
			   "cannot open job event log %s: %s; check that its "
			   "directory exists and is writable",
			   path, strerror(errno));
	return fd;
}

/* Takes fd's exclusive lock, waiting LOCK_WAIT_MS at most.  Returns
 * whether the lock is held: a file system without locks, or a writer
 * that keeps its lock, must not stop the daemon from logging. */
static bool lock_log(int fd)
{
	int64_t start = ks_clock_ms();
	for (;;) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return true;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK)
			return false;
		if (ks_clock_ms() - start >= LOCK_WAIT_MS)
			return false;
		struct timespec pause = {0, 10 * 1000 * 1000};
		nanosleep(&pause, NULL);
	}
}

/* Writes all of text to the locked (or not) fd.  A write cut short is
 * taken back when the file still ends with it, so that no reader ever
 * sees half an event followed by the next writer's. */
static int write_all(int fd, bool locked, const char *path, const char *text,
		     size_t len, unsigned opts, struct ks_err *err)
{
	struct stat st;
	off_t before = -1;
	if (locked && fstat(fd, &st) == 0)
		before = st.st_size;
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(fd, text + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;
			if (before >= 0 && done > 0 && fstat(fd, &st) == 0 &&
			    st.st_size == before + (off_t)done &&
			    ftruncate(fd, before) != 0) {
				/* Nothing more can be done: report the
				 * write's own failure below. */
			}
			return ks_err_set(err, KS_EIO, 0, 0, 0,
					  "cannot write to job event log %s: "
					  "%s; the event was not logged",
					  path, strerror(e));
		}
		done += (size_t)w;
	}
	if ((opts & KS_USERLOG_FSYNC) && fdatasync(fd) != 0)
		return ks_err_set(err, KS_EIO, 0, 0, 0,
				  "cannot sync job event log %s to disk: %s",
				  path, strerror(errno));
	return 0;
}

int ks_userlog_write(const char *path, const char *text, size_t len,
		     unsigned opts, struct ks_err *err)
{
	if (!path || !*path)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "no job event log file named");
	if (strcmp(path, "/dev/null") == 0)
		return 0;
	int fd = open_log(path, err);
	if (fd < 0)
		return KS_EIO;
	bool locked = lock_log(fd);
	int rc = write_all(fd, locked, path, text, len, opts, err);
	close(fd); /* drops the lock */
	return rc;
}

int ks_userlog_append(const char *path, const struct ks_userlog_event *ev,
		      unsigned opts, struct ks_err *err)
{
	char *text;
	size_t len;
	int rc = ks_userlog_format(ev, opts, &text, &len, err);
	if (rc != 0)
		return rc;
	rc = ks_userlog_write(path, text, len, opts, err);
	free(text);
	return rc;
}

/* ---- the global event log --------------------------------------------- */

/* What a global log's header says about the files before it. */
struct header {
	int sequence;
	long long offset;    /* bytes in all earlier files */
	long long event_off; /* events in all earlier files */
};

/* Reads the header event at the start of fd's file, if it has one. */
static bool read_header(int fd, struct header *h)
{
	char buf[1100];
	ssize_t n;
	do
		n = pread(fd, buf, sizeof(buf) - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	char *nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	if (strncmp(buf, "008 ", 4) != 0)
		return false;
	const char *p = strstr(buf, "Global JobLog:");
	if (!p)
		return false;
	const char *q;
	if ((q = strstr(p, " sequence=")))
		h->sequence = atoi(q + 10);
	if ((q = strstr(p, " offset=")))
		h->offset = atoll(q + 8);
	if ((q = strstr(p, " event_off=")))
		h->event_off = atoll(q + 11);
	return true;
}

/* The header event of a new global log file, as HTCondor's writer makes
 * it: padded to 256 bytes so that a rotation could rewrite it in place. */
static char *header_text(const struct ks_userlog_global *g,
			 const struct header *h, size_t *len, struct ks_err *err)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	long long sec = (long long)ts.tv_sec;
	long usec = ts.tv_nsec / 1000;
	const char *creator = g->creator_name ? g->creator_name : "";
	char info[1024];
	int n = snprintf(info, sizeof(info),
			 "Global JobLog: ctime=%lld id=%s%s%d.%d.%lld.%ld.%d."
			 "%lld.%ld sequence=%d size=0 events=0 offset=%lld "
			 "event_off=%lld max_rotation=%d creator_name=<%s>",
			 sec, creator, *creator ? "." : "", (int)getuid(),
			 (int)getpid(), sec, usec, h->sequence, sec, usec,
			 h->sequence, h->offset, h->event_off,
			 g->max_rotations, creator);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(info))
		n = (int)sizeof(info) - 1;
	while (n < 256)
		info[n++] = ' ';
	info[n] = '\0';

	struct ks_userlog_event ev;
	ks_userlog_event_init(&ev, KS_USERLOG_GENERIC, -1, -1);
	ev.subproc = -1;
	ev.time = sec;
	ev.usec = usec;
	ev.info = info;
	char *text;
	if (ks_userlog_format(&ev, g->opts, &text, len, err) != 0)
		return NULL;
	return text;
}

/* Moves the full log aside: path.N-1 -> path.N ... path.1 -> path.2,
 * then the current file to path.1 (or path.old when one is kept).  The
 * current file is linked to its new name and the new file, already
 * holding its header, renamed over path, so that path always exists and
 * no writer can create a second new file in between. */
static int rotate(const struct ks_userlog_global *g, int fd, off_t size,
		  struct ks_err *err)
{
	struct header h = {0};
	read_header(fd, &h);
	h.sequence = h.sequence > 0 ? h.sequence + 1 : 2;
	h.offset += size;

	size_t plen = strlen(g->path);
	char *old = ks_xmalloc(plen + 32);
	char *older = ks_xmalloc(plen + 32);
	char *tmp = ks_xmalloc(plen + 48);
	if (g->max_rotations == 1) {
		snprintf(old, plen + 32, "%s.old", g->path);
	} else {
		for (int i = g->max_rotations; i > 1; i--) {
			snprintf(old, plen + 32, "%s.%d", g->path, i - 1);
			snprintf(older, plen + 32, "%s.%d", g->path, i);
			rename(old, older); /* a missing one is fine */
		}
		snprintf(old, plen + 32, "%s.1", g->path);
	}
	snprintf(tmp, plen + 48, "%s.new.%ld", g->path, (long)getpid());

	int rc = KS_EIO;
	size_t hlen;
	char *head = header_text(g, &h, &hlen, err);
	int nfd = -1;
	if (!head)
		goto out;
	nfd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY,
		   0664);
	if (nfd < 0 || write_all(nfd, false, tmp, head, hlen, 0, err) != 0) {
		if (nfd < 0)
			ks_err_set(err, KS_EIO, 0, 0, 0,
				   "cannot rotate event log %s: cannot create "
				   "%s: %s",
				   g->path, tmp, strerror(errno));
		unlink(tmp);
		goto out;
	}
	unlink(old);
	if (link(g->path, old) == 0) {
		if (rename(tmp, g->path) != 0) {
			ks_err_set(err, KS_EIO, 0, 0, 0,
				   "cannot rotate event log %s: %s", g->path,
				   strerror(errno));
			unlink(old);
			unlink(tmp);
			goto out;
		}
	} else if (rename(g->path, old) != 0 || rename(tmp, g->path) != 0) {
		/* No hard links here: a short gap where path is missing. */
		ks_err_set(err, KS_EIO, 0, 0, 0,
			   "cannot rotate event log %s: %s", g->path,
			   strerror(errno));
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	if (nfd >= 0)
		close(nfd);
	free(head);
	free(old);
	free(older);
	free(tmp);
	return rc;
}

int ks_userlog_append_global(const struct ks_userlog_global *g,
			     const struct ks_userlog_event *ev,
			     struct ks_err *err)
{
	if (!g || !g->path || !*g->path)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "no global event log named (EVENT_LOG)");
	char *text;
	size_t len;
	int rc = ks_userlog_format(ev, g->opts, &text, &len, err);
	if (rc != 0)
		return rc;
	rc = ks_userlog_write_global(g, text, len, err);
	free(text);
	return rc;
}

int ks_userlog_write_global(const struct ks_userlog_global *g,
			    const char *events, size_t len, struct ks_err *err)
{
	if (!g || !g->path || !*g->path)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "no global event log named (EVENT_LOG)");
	if (strcmp(g->path, "/dev/null") == 0)
		return 0;
	int rc;
	char *text = ks_xstrndup(events, len);

	int fd = -1;
	bool locked = false;
	struct stat st;
	/* Another writer may rotate the file between our open and our lock:
	 * then the path names a new file, and that is the one to write. */
	for (int tries = 0;; tries++) {
		fd = open_log(g->path, err);
		if (fd < 0) {
			free(text);
			return KS_EIO;
		}
		locked = lock_log(fd);
		struct stat cur;
		if (fstat(fd, &st) != 0) {
			rc = ks_err_set(err, KS_EIO, 0, 0, 0,
					"cannot examine event log %s: %s",
					g->path, strerror(errno));
			goto out;
		}
		if (tries >= 3 || (stat(g->path, &cur) == 0 &&
				   cur.st_ino == st.st_ino &&
				   cur.st_dev == st.st_dev))
			break;
		close(fd);
	}

	if (locked && g->max_rotations > 0 && g->max_size > 0 &&
	    (int64_t)st.st_size > g->max_size) {
		rc = rotate(g, fd, st.st_size, err);
		if (rc != 0)
			goto out;
		close(fd);
		fd = open_log(g->path, err);
		if (fd < 0) {
			rc = KS_EIO;
			goto out;
		}
		locked = lock_log(fd);
		if (fstat(fd, &st) != 0)
			st.st_size = 1; /* do not write a second header */
	}

	if (st.st_size == 0) {
		struct header h = {1, 0, 0};
		size_t hlen;
		char *head = header_text(g, &h, &hlen, err);
		if (!head) {
			rc = KS_EINVAL;
			goto out;
		}
		head = ks_xrealloc(head, hlen + len + 1);
		memcpy(head + hlen, text, len + 1);
		free(text);
		text = head;
		len += hlen;
	}
	rc = write_all(fd, locked, g->path, text, len, g->opts, err);
out:
	if (fd >= 0)
		close(fd);
	free(text);
	return rc;
}
