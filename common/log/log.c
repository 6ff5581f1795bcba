/*
 * log.c: a daemon's log as HTCondor's dprintf writes it: which lines go
 * where, their header, and rotation.
 *
 * A log has a main output and optional per-category outputs
 * (<SUBSYS>_<CAT>_LOG).  Files are opened with O_APPEND and each line
 * leaves in one writev(), so that processes sharing a file (a starter
 * per slot) never interleave within a line.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "ks_log.h"
#include "ks_mem.h"
#include "log_int.h"

#define KL_DEFAULT_TIME_FORMAT "%m/%d/%y %H:%M:%S"
#define KL_DEFAULT_MAX (10LL * 1024 * 1024)
/* The main output and one per category at most. */
#define KL_MAX_OUT 18

struct kl_out {
	char *path;      /* NULL: the standard stream fd */
	int fd;          /* -1 while the file cannot be opened */
	dev_t dev;       /* identity of the file fd is open on, to notice */
	ino_t ino;       /* that path was renamed or removed under us */
	struct kl_flags f;
	bool accepts_all; /* the main output takes every D_ALWAYS line */
	bool trunc;
	long long max;   /* bytes; 0 never rotates */
	int max_num;
};

struct ks_log {
	char *subsys;
	bool to_stderr;
	char *timefmt;
	size_t nout;
	struct kl_out out[KL_MAX_OUT];
};

/* ---- which lines an output takes ---- */

/* Splits a ks_log_printf category into its one category bit and
 * whether it asks for verbosity 2. */
static unsigned cat_of(unsigned cat, bool *verbose)
{
	*verbose = (cat & KS_D_FULLDEBUG) != 0;
	unsigned c = cat & ~(unsigned)KS_D_FULLDEBUG;
	if (!c)
		return KS_D_ALWAYS;
	return c & -c;
}

static bool out_takes(const struct kl_out *o, unsigned cat)
{
	bool verbose;
	unsigned c = cat_of(cat, &verbose);
	if (o->f.verbose & c)
		return true;
	if (verbose)
		return false;
	if (c == KS_D_ALWAYS && o->accepts_all)
		return true;
	return (o->f.basic & c) != 0;
}

/* What a NULL log takes: HTCondor's defaults, to standard error. */
static struct kl_out stderr_default(void)
{
	struct kl_out o = {
		.path = NULL,
		.fd = STDERR_FILENO,
		.f = {KS_D_ALWAYS | KS_D_ERROR | KS_D_STATUS, 0, 0},
		.accepts_all = true,
	};
	return o;
}

bool ks_log_enabled(const ks_log *log, unsigned cat)
{
	if (!log) {
		struct kl_out o = stderr_default();
		return out_takes(&o, cat);
	}
	for (size_t i = 0; i < log->nout; i++)
		if (out_takes(&log->out[i], cat))
			return true;
	return false;
}

/* ---- writing ---- */

/* Writes all of iov, or gives up on the first error other than EINTR.
 * A standard stream may be a closed pipe: its SIGPIPE must not kill the
 * daemon, so it is held back and discarded around the write. */
static void write_iov(int fd, struct iovec *iov, int n, bool is_stream)
{
	sigset_t pipe_set, old_set;
	bool guarded = false, was_pending = false;
	if (is_stream) {
		sigemptyset(&pipe_set);
		sigaddset(&pipe_set, SIGPIPE);
		if (pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set) == 0) {
			guarded = true;
			sigset_t pending;
			if (sigpending(&pending) == 0)
				was_pending = sigismember(&pending, SIGPIPE);
		}
	}
	bool broke = false;
	while (n > 0) {
		ssize_t w = writev(fd, iov, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			broke = errno == EPIPE;
			break;
		}
		while (n > 0 && (size_t)w >= iov->iov_len) {
			w -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	if (guarded) {
		if (broke && !was_pending) {
			struct timespec zero = {0, 0};
			while (sigtimedwait(&pipe_set, NULL, &zero) < 0 &&
			       errno == EINTR)
				;
		}
		pthread_sigmask(SIG_SETMASK, &old_set, NULL);
	}
}

static size_t header(char *buf, size_t size, const char *timefmt,
		    const struct kl_out *o, unsigned cat,
		    const struct timespec *now)
{
	size_t len = 0;
	unsigned hdr = o->f.hdr;
	time_t sec = now->tv_sec;
	int ms = (int)((now->tv_nsec / 1000 + 500) / 1000);
	if (ms >= 1000) {
		ms = 0;
		sec++;
	}
	if (hdr & KL_H_TIMESTAMP) {
		len = (size_t)snprintf(buf, size, "%lld",
				       (long long)(hdr & KL_H_SUBSEC ? sec : now->tv_sec));
	} else {
		struct tm tm;
		time_t t = hdr & KL_H_SUBSEC ? sec : now->tv_sec;
		if (localtime_r(&t, &tm))
			len = strftime(buf, size, timefmt, &tm);
	}
	if (len >= size)
		len = size - 1;
	int n = 0;
	if (hdr & KL_H_SUBSEC)
		n = snprintf(buf + len, size - len, ".%03d", ms);
	if (n > 0 && (size_t)n < size - len)
		len += (size_t)n;
	n = snprintf(buf + len, size - len, " ");
	if (n > 0 && (size_t)n < size - len)
		len += (size_t)n;
	if (hdr & KL_H_FDS) {
		n = snprintf(buf + len, size - len, "(fd:%d) ", o->fd);
		if (n > 0 && (size_t)n < size - len)
			len += (size_t)n;
	}
	if (hdr & KL_H_PID) {
		n = snprintf(buf + len, size - len, "(pid:%d) ", (int)getpid());
		if (n > 0 && (size_t)n < size - len)
			len += (size_t)n;
	}
	if (hdr & KL_H_CAT) {
		bool verbose;
		unsigned c = cat_of(cat, &verbose);
		/* HTCondor still shows D_STATUS lines as D_ALWAYS. */
		if (c == KS_D_STATUS)
			c = KS_D_ALWAYS;
		const char *name = kl_cat_name(c);
		n = snprintf(buf + len, size - len, "(%s%s) ",
			     name ? name : "D_ALWAYS", verbose ? ":2" : "");
		if (n > 0 && (size_t)n < size - len)
			len += (size_t)n;
	}
	return len;
}

/* Writes one formatted message (without its header) to o as is. */
static void put(const char *timefmt, const struct kl_out *o, unsigned cat,
		const struct timespec *now, const char *msg, size_t len)
{
	if (o->fd < 0)
		return;
	char hbuf[256];
	size_t hlen = header(hbuf, sizeof(hbuf), timefmt, o, cat, now);
	struct iovec iov[3] = {
		{hbuf, hlen},
		{(void *)msg, len},
		{"\n", 1},
	};
	int n = (len && msg[len - 1] == '\n') ? 2 : 3;
	write_iov(o->fd, iov, n, o->path == NULL);
}

/* A line of the log's own (rotation notes), D_ALWAYS. */
static void note(const char *timefmt, const struct kl_out *o,
		 const struct timespec *now, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void note(const char *timefmt, const struct kl_out *o,
		 const struct timespec *now, const char *fmt, ...)
{
	char buf[PATH_MAX + 256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	size_t len = (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1;
	put(timefmt, o, KS_D_ALWAYS, now, buf, len);
}

/* ---- files ---- */

static int open_file(const char *path, bool trunc, struct stat *st)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC |
				    (trunc ? O_TRUNC : 0),
		      0644);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Makes fd the file now at o->path if the one it had was renamed or
 * removed (another process rotated it, an administrator moved it).
 * Returns true if o->fd is the file at o->path. */
static bool follow_path(struct kl_out *o)
{
	struct stat st;
	if (o->fd >= 0) {
		if (stat(o->path, &st) == 0) {
			if (st.st_dev == o->dev && st.st_ino == o->ino)
				return true;
		} else if (errno != ENOENT) {
			return false;
		}
	}
	int fd = open_file(o->path, false, &st);
	if (fd < 0)
		return false;
	if (o->fd >= 0)
		close(o->fd);
	o->fd = fd;
	o->dev = st.st_dev;
	o->ino = st.st_ino;
	return true;
}

/* The rotated names HTCondor recognises: base.old and base.YYYYMMDDTHHMMSS. */
static bool is_rotated(const char *name, const char *base, size_t blen)
{
	if (strncmp(name, base, blen) != 0 || name[blen] != '.')
		return false;
	const char *s = name + blen + 1;
	if (strcmp(s, "old") == 0)
		return true;
	if (strlen(s) != 15 || s[8] != 'T')
		return false;
	for (int i = 0; i < 15; i++)
		if (i != 8 && (s[i] < '0' || s[i] > '9'))
			return false;
	return true;
}

/* Counts the rotated files of path and finds the oldest (the least
 * name: time stamps sort before "old"). */
static int count_rotated(const char *dir, const char *base, char *oldest,
			 size_t size)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t blen = strlen(base);
	int count = 0;
	oldest[0] = '\0';
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!is_rotated(e->d_name, base, blen))
			continue;
		count++;
		if (!oldest[0] || strcmp(e->d_name, oldest) < 0)
			snprintf(oldest, size, "%s", e->d_name);
	}
	closedir(d);
	return count;
}

/* Keeps at most max_num rotated files: the oldest time-stamped ones are
 * renamed over File.old, as HTCondor does, which also tidies up after
 * MAX_NUM_<SUBSYS>_LOG was lowered. */
static void clean_rotated(const struct kl_out *o)
{
	if (o->max_num < 1)
		return;
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", o->path);
	char *slash = strrchr(dir, '/');
	const char *base;
	if (!slash) {
		base = o->path;
		strcpy(dir, ".");
	} else {
		base = o->path + (slash - dir) + 1;
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	char old_name[NAME_MAX + 1], oldest[NAME_MAX + 1];
	snprintf(old_name, sizeof(old_name), "%s.old", base);
	char old_path[PATH_MAX + 8];
	snprintf(old_path, sizeof(old_path), "%s.old", o->path);

	int count = count_rotated(dir, base, oldest, sizeof(oldest));
	/* A file we cannot rename must not keep us here. */
	int tries = count < 10 ? count : 10;
	while (count > o->max_num && tries-- > 0) {
		if (strcmp(oldest, old_name) == 0)
			break;
		char from[PATH_MAX + NAME_MAX + 2];
		snprintf(from, sizeof(from), "%s/%s", dir, oldest);
		if (rename(from, old_path) != 0)
			break;
		count = count_rotated(dir, base, oldest, sizeof(oldest));
	}
}

static void rotate(const char *timefmt, struct kl_out *o,
		   const struct timespec *now, long long length)
{
	char old[PATH_MAX + 32];
	if (o->max_num <= 1) {
		snprintf(old, sizeof(old), "%s.old", o->path);
	} else {
		char stamp[32] = "";
		struct tm tm;
		if (localtime_r(&now->tv_sec, &tm))
			strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
		snprintf(old, sizeof(old), "%s.%s", o->path, stamp);
	}
	note(timefmt, o, now, "MaxLog = %lld bytes, length = %lld", o->max,
	     length);
	note(timefmt, o, now, "Saving log file to \"%s\"", old);
	int failed = rename(o->path, old) != 0 ? errno : 0;

	struct stat st;
	int fd = open_file(o->path, false, &st);
	if (fd < 0)
		return; /* stay in the old file; follow_path() retries */
	close(o->fd);
	o->fd = fd;
	o->dev = st.st_dev;
	o->ino = st.st_ino;
	note(timefmt, o, now, "Now in new log file %s", o->path);
	if (failed)
		note(timefmt, o, now,
		     "WARNING: Failed to rotate old log into file %s: %s", old,
		     strerror(failed));
	clean_rotated(o);
}

/* Gets a file output ready for one more line. */
static void prepare(const char *timefmt, struct kl_out *o,
		    const struct timespec *now)
{
	if (!o->path)
		return;
	if (!follow_path(o) || o->max <= 0)
		return;
	struct stat st;
	if (fstat(o->fd, &st) != 0 || st.st_size < o->max)
		return;
	rotate(timefmt, o, now, (long long)st.st_size);
}

void ks_log_printf(ks_log *log, unsigned cat, const char *fmt, ...)
{
	if (!ks_log_enabled(log, cat))
		return;
	int saved_errno = errno;

	char small[1024];
	char *msg = small;
	va_list ap, again;
	va_start(ap, fmt);
	va_copy(again, ap);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	size_t len = 0;
	if (n >= 0 && (size_t)n < sizeof(small)) {
		len = (size_t)n;
	} else if (n >= 0) {
		/* A long message (a whole ClassAd) is worth one allocation;
		 * if that fails, the start of it is better than nothing. */
		char *big = malloc((size_t)n + 1);
		if (big && vsnprintf(big, (size_t)n + 1, fmt, again) == n) {
			msg = big;
			len = (size_t)n;
		} else {
			free(big);
			len = sizeof(small) - 1;
		}
	}
	va_end(again);

	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	if (!log) {
		struct kl_out o = stderr_default();
		put(KL_DEFAULT_TIME_FORMAT, &o, cat, &now, msg, len);
	} else {
		for (size_t i = 0; i < log->nout; i++) {
			struct kl_out *o = &log->out[i];
			if (!out_takes(o, cat))
				continue;
			prepare(log->timefmt, o, &now);
			put(log->timefmt, o, cat, &now, msg, len);
		}
	}
	if (msg != small)
		free(msg);
	errno = saved_errno;
}

/* ---- configuration ---- */

/* The expanded value of name (NULL if undefined or empty), or an error
 * when its expansion fails. */
static int get(const ks_config *cfg, const char *name, char **out,
	       struct ks_err *err)
{
	struct ks_err e;
	ks_err_clear(&e);
	*out = ks_config_get(cfg, name, &e);
	if (!*out && e.code)
		return ks_err_set(err, e.code, 0, 0, 0, "%s: %s", name, e.msg);
	return 0;
}

static int get_size(const ks_config *cfg, const char *name, long long *out,
		    struct ks_err *err)
{
	char *v;
	int rc = get(cfg, name, &v, err);
	if (rc || !v)
		return rc;
	long long size;
	bool is_time;
	if (!kl_parse_size(v, &size, &is_time))
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"Invalid config %s = %s: %s must be an integer "
				">= 0, optionally followed by a unit (b, Kb, "
				"Mb, Gb, Tb)",
				name, v, name);
	else if (is_time)
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"Invalid config %s = %s: rotation by time is "
				"not supported; give a size",
				name, v);
	else
		*out = size;
	free(v);
	return rc;
}

/* TRUNC_, MAX_ and MAX_NUM_ for one output; level is "" for the main
 * output or "_MATCH" for <SUBSYS>_MATCH_LOG. */
static int read_limits(const ks_config *cfg, const char *subsys,
		       const char *level, struct kl_out *o,
		       struct ks_err *err)
{
	char name[160];
	snprintf(name, sizeof(name), "TRUNC_%s%s_LOG_ON_OPEN", subsys, level);
	bool b;
	if (ks_config_bool(cfg, name, &b))
		o->trunc = b;

	snprintf(name, sizeof(name), "MAX_%s%s_LOG", subsys, level);
	int rc = get_size(cfg, name, &o->max, err);
	if (rc)
		return rc;

	snprintf(name, sizeof(name), "MAX_NUM_%s%s_LOG", subsys, level);
	char *v;
	rc = get(cfg, name, &v, err);
	if (rc || !v)
		return rc;
	int64_t num;
	if (!ks_config_int(cfg, name, &num) || num < 0 || num > INT_MAX)
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"Invalid config %s = %s: must be an integer "
				">= 0",
				name, v);
	else
		o->max_num = (int)num;
	free(v);
	return rc;
}

/* Points o at a standard stream for the special names "1>" and "2>",
 * else takes path as its file. */
static void set_target(struct kl_out *o, char *path)
{
	o->fd = -1;
	if (strcmp(path, "2>") == 0 || strcmp(path, "1>") == 0) {
		o->fd = path[0] == '1' ? STDOUT_FILENO : STDERR_FILENO;
		free(path);
		path = NULL;
	}
	o->path = path;
}

static void free_outputs(struct ks_log *l, bool close_files)
{
	for (size_t i = 0; i < l->nout; i++) {
		struct kl_out *o = &l->out[i];
		if (close_files && o->path && o->fd >= 0)
			close(o->fd);
		free(o->path);
	}
	l->nout = 0;
	free(l->timefmt);
	l->timefmt = NULL;
}

/* Reads every knob into l (outputs without open files). */
static int read_settings(const ks_config *cfg, const char *subsys,
			 bool to_stderr, struct ks_log *l, struct ks_err *err)
{
	char name[160];
	char *v;
	int rc;
	memset(l->out, 0, sizeof(l->out));
	l->nout = 0;
	l->timefmt = NULL;

	struct kl_flags f = {KS_D_ALWAYS | KS_D_ERROR | KS_D_STATUS, 0, 0};
	if ((rc = get(cfg, "ALL_DEBUG", &v, err)))
		return rc;
	kl_parse_debug(v, &f);
	free(v);
	snprintf(name, sizeof(name), "%s_DEBUG", subsys);
	if ((rc = get(cfg, name, &v, err)))
		return rc;
	kl_parse_debug(v, &f);
	free(v);
	bool b;
	if (ks_config_bool(cfg, "LOGS_USE_TIMESTAMP", &b) && b)
		f.hdr |= KL_H_TIMESTAMP;

	if ((rc = get(cfg, "DEBUG_TIME_FORMAT", &v, err)))
		return rc;
	if (v && v[0] == '"') {
		/* HTCondor takes a quoted format up to its closing quote. */
		char *close = strchr(v + 1, '"');
		size_t n = close ? (size_t)(close - v - 1) : strlen(v + 1);
		l->timefmt = ks_xstrndup(v + 1, n);
		free(v);
	} else {
		l->timefmt = v ? v : ks_xstrdup(KL_DEFAULT_TIME_FORMAT);
	}

	long long def_max = KL_DEFAULT_MAX;
	if ((rc = get_size(cfg, "MAX_DEFAULT_LOG", &def_max, err)))
		return rc;

	struct kl_out *main_out = &l->out[l->nout++];
	main_out->f = f;
	main_out->accepts_all = true;
	main_out->max = def_max;
	main_out->max_num = 1;
	if (to_stderr) {
		main_out->fd = STDERR_FILENO;
	} else {
		snprintf(name, sizeof(name), "%s_LOG", subsys);
		if ((rc = get(cfg, name, &v, err)))
			return rc;
		if (!v) {
			char *dir, *sub;
			if ((rc = get(cfg, "LOG", &dir, err)))
				return rc;
			if (!dir)
				return ks_err_set(err, KS_EINVAL, 0, 0, 0,
						  "neither %s nor LOG is "
						  "defined",
						  name);
			if ((rc = get(cfg, "SUBSYSTEM", &sub, err))) {
				free(dir);
				return rc;
			}
			char camel[128];
			kl_camel_name(sub ? sub : subsys, camel,
				      sizeof(camel));
			size_t n = strlen(dir) + strlen(camel) + 8;
			v = ks_xmalloc(n);
			snprintf(v, n, "%s/%sLog", dir, camel);
			free(dir);
			free(sub);
		}
		set_target(main_out, v);
	}
	if ((rc = read_limits(cfg, subsys, "", main_out, err)))
		return rc;
	if (to_stderr)
		return 0;

	/* <SUBSYS>_<CAT>_LOG: a file of that category alone, shared with
	 * another output when the names are the same. */
	for (size_t i = 0; i < kl_ncats; i++) {
		unsigned bit = kl_cats[i].bit;
		if (bit == KS_D_ALWAYS)
			continue;
		const char *lvl = kl_cats[i].name + 1; /* "_MATCH" */
		snprintf(name, sizeof(name), "%s%s_LOG", subsys, lvl);
		if ((rc = get(cfg, name, &v, err)))
			return rc;
		if (!v)
			continue;
		struct kl_out *o = NULL;
		for (size_t j = 0; j < l->nout; j++)
			if (l->out[j].path && strcmp(l->out[j].path, v) == 0)
				o = &l->out[j];
		if (o) {
			o->f.basic |= bit;
			free(v);
		} else {
			o = &l->out[l->nout++];
			o->f.basic = bit;
			o->max = def_max;
			o->max_num = 1;
			set_target(o, v);
		}
		if ((rc = read_limits(cfg, subsys, lvl, o, err)))
			return rc;
	}
	return 0;
}

static int open_out(struct kl_out *o, bool trunc, struct ks_err *err)
{
	struct stat st;
	o->fd = open_file(o->path, trunc, &st);
	if (o->fd < 0)
		return ks_err_set(err, KS_EIO, 0, 0, 0,
				  "cannot open log file %s: %s", o->path,
				  strerror(errno));
	o->dev = st.st_dev;
	o->ino = st.st_ino;
	return 0;
}

/* A per-category file that cannot be opened does not stop the daemon,
 * as in HTCondor: the main log says so, and each of its lines tries
 * again. */
static void open_extra(ks_log *log, struct kl_out *o, bool trunc)
{
	struct ks_err e;
	if (!open_out(o, trunc, &e))
		return;
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	prepare(log->timefmt, &log->out[0], &now);
	note(log->timefmt, &log->out[0], &now, "%s", e.msg);
}

static bool valid_subsys(const char *subsys)
{
	return subsys && *subsys && strlen(subsys) < 64;
}

ks_log *ks_log_open(const ks_config *cfg, const char *subsys, bool to_stderr,
		    struct ks_err *err)
{
	if (!cfg || !valid_subsys(subsys)) {
		ks_err_set(err, KS_EINVAL, 0, 0, 0,
			   "ks_log_open: no configuration or subsystem");
		return NULL;
	}
	ks_log *log = ks_xcalloc(1, sizeof(*log));
	log->subsys = ks_xstrdup(subsys);
	log->to_stderr = to_stderr;
	if (read_settings(cfg, subsys, to_stderr, log, err))
		goto fail;
	for (size_t i = 0; i < log->nout; i++) {
		struct kl_out *o = &log->out[i];
		if (!o->path)
			continue;
		if (i == 0) {
			if (open_out(o, o->trunc, err))
				goto fail;
		} else {
			open_extra(log, o, o->trunc);
		}
	}
	return log;
fail:
	ks_log_close(log);
	return NULL;
}

static bool has_path(const ks_log *log, const char *path)
{
	for (size_t i = 0; i < log->nout; i++)
		if (log->out[i].path && strcmp(log->out[i].path, path) == 0)
			return true;
	return false;
}

int ks_log_reconfig(ks_log *log, const ks_config *cfg, struct ks_err *err)
{
	if (!log || !cfg)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "ks_log_reconfig: no log or configuration");
	struct ks_log next = {0};
	int rc = read_settings(cfg, log->subsys, log->to_stderr, &next, err);
	if (rc) {
		free_outputs(&next, true);
		return rc;
	}
	/* A new main file is opened before anything changes hands, so that
	 * failing leaves the old files untouched; files that stay are moved
	 * over below. */
	struct kl_out *m = &next.out[0];
	if (m->path && !has_path(log, m->path) &&
	    (rc = open_out(m, false, err))) {
		free_outputs(&next, true);
		return rc;
	}
	for (size_t i = 0; i < next.nout; i++) {
		struct kl_out *o = &next.out[i];
		if (!o->path || o->fd >= 0)
			continue;
		for (size_t j = 0; j < log->nout; j++) {
			struct kl_out *p = &log->out[j];
			if (p->path && strcmp(p->path, o->path) == 0) {
				o->fd = p->fd;
				o->dev = p->dev;
				o->ino = p->ino;
				p->fd = -1;
				break;
			}
		}
	}
	for (size_t i = 1; i < next.nout; i++)
		if (next.out[i].path && next.out[i].fd < 0)
			open_extra(&next, &next.out[i], false);
	free_outputs(log, true);
	log->timefmt = next.timefmt;
	log->nout = next.nout;
	memcpy(log->out, next.out, sizeof(log->out));
	return 0;
}

const char *ks_log_path(const ks_log *log)
{
	return log && log->nout ? log->out[0].path : NULL;
}

void ks_log_close(ks_log *log)
{
	if (!log)
		return;
	free_outputs(log, true);
	free(log->subsys);
	free(log);
}
