/*
 * xfer.c: files as ClassAds (ks_xfer.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <ftw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ks_mem.h"
#include "ks_text.h"
#include "ks_xfer.h"

#include "ks_b64.h"

/* Directories deeper than this are a loop or a mistake. */
#define MAX_DEPTH 32

void ks_xfer_set_free(struct ks_xfer_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n; i++)
		classad_free(set->ads[i]);
	free(set->ads);
	set->ads = NULL;
	set->n = set->cap = 0;
	set->bytes = 0;
}

void ks_xfer_set_take(struct ks_xfer_set *set, classad *ad)
{
	if (set->n == set->cap) {
		set->cap = set->cap ? set->cap * 2 : 8;
		set->ads = ks_xrealloc(set->ads, set->cap * sizeof(*set->ads));
	}
	set->ads[set->n++] = ad;
}

char *ks_xfer_b64_encode(const unsigned char *d, size_t len)
{
	return ks_b64_encode(d, len, KS_B64_STD);
}

int ks_xfer_b64_decode(const char *text, unsigned char **data, size_t *len,
		       struct ks_err *err)
{
	size_t at = 0;
	if (ks_b64_decode(text, strlen(text), KS_B64_STD, data, len, &at))
		return ks_err_set(err, KS_EPARSE, 0, 0, at,
				  "bad base64 at offset %zu", at);
	return 0;
}

bool ks_xfer_name_ok(const char *name)
{
	if (!name || !*name || *name == '/')
		return false;
	const char *p = name;
	while (*p) {
		const char *e = strchr(p, '/');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (l == 0 || (l == 1 && p[0] == '.') ||
		    (l == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		for (size_t i = 0; i < l; i++)
			if (p[i] == '\n' || p[i] == '\r')
				return false;
		if (!e)
			break;
		p = e + 1;
		if (!*p)
			return false; /* trailing '/' */
	}
	return true;
}

size_t ks_xfer_list_split(const char *list, char ***items)
{
	*items = NULL;
	size_t n = 0, cap = 0;
	const char *p = list;
	while (p && *p) {
		while (*p == ',' || *p == ' ' || *p == '\t' || *p == '\n')
			p++;
		const char *s = p;
		while (*p && *p != ',' && *p != ' ' && *p != '\t' &&
		       *p != '\n')
			p++;
		if (p == s)
			break;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			*items = ks_xrealloc(*items, cap * sizeof(**items));
		}
		(*items)[n++] = ks_xstrndup(s, (size_t)(p - s));
	}
	return n;
}

void ks_xfer_list_free(char **items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(items[i]);
	free(items);
}

static int sys_fail(int e, int *eno, struct ks_err *err, const char *what,
		    const char *path)
{
	if (eno)
		*eno = e;
	return ks_err_set(err, KS_EIO, 0, 0, 0, "%s %s: (errno %d) %s", what,
			  path, e, strerror(e));
}

static int add_fd(struct ks_xfer_set *set, int fd, const char *path,
		  const char *name, int depth, bool top, int *eno,
		  struct ks_err *err);

static int add_dir(struct ks_xfer_set *set, int fd, const char *path,
		   const char *name, int depth, int *eno, struct ks_err *err)
{
	if (depth > MAX_DEPTH) {
		close(fd);
		return sys_fail(ELOOP, eno, err, "reading from directory",
				path);
	}
	DIR *dir = fdopendir(fd);
	if (!dir) {
		int e = errno;
		close(fd);
		return sys_fail(e, eno, err, "reading from directory", path);
	}
	int rc = 0;
	struct dirent *de;
	while (rc == 0 && (errno = 0, de = readdir(dir))) {
		const char *d = de->d_name;
		if (!strcmp(d, ".") || !strcmp(d, ".."))
			continue;
		char *cpath = ks_path_in(path, d);
		size_t nl = strlen(name) + strlen(d) + 2;
		char *cname = ks_xmalloc(nl);
		snprintf(cname, nl, "%s%s%s", name, *name ? "/" : "", d);
		int cfd = openat(dirfd(dir), d,
				 O_RDONLY | O_CLOEXEC | O_NONBLOCK |
					 (set->nofollow ? O_NOFOLLOW : 0));
		if (cfd < 0) {
			/* a symbolic link the reader may not follow is
			 * not a file of the job's */
			if (!(set->nofollow && errno == ELOOP))
				rc = sys_fail(errno, eno, err,
					      "reading from file", cpath);
		} else {
			rc = add_fd(set, cfd, cpath, cname, depth + 1, false,
				    eno, err);
		}
		free(cpath);
		free(cname);
	}
	closedir(dir);
	return rc;
}

/* Adds what fd is (and closes it). */
static int add_fd(struct ks_xfer_set *set, int fd, const char *path,
		  const char *name, int depth, bool top, int *eno,
		  struct ks_err *err)
{
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return sys_fail(e, eno, err, "reading from file", path);
	}
	if (S_ISDIR(st.st_mode))
		return add_dir(set, fd, path, name, depth, eno, err);
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		/* fifos, devices and sockets inside a directory are not
		 * files to move; named at the top they are an error */
		return top ? sys_fail(EINVAL, eno, err,
				      "reading from file (not a regular file)",
				      path)
			   : 0;
	}
	uint64_t limit = set->limit ? set->limit : KS_XFER_MAX_BYTES;
	if ((uint64_t)st.st_size > limit - set->bytes ||
	    set->bytes > limit) {
		close(fd);
		if (eno)
			*eno = EFBIG;
		return ks_err_set(err, KS_ERANGE, 0, 0, 0,
				  "reading from file %s: the files to transfer "
				  "exceed %llu MiB, the most one transfer may "
				  "carry", path,
				  (unsigned long long)(limit >> 20));
	}
	size_t want = (size_t)st.st_size, got = 0;
	unsigned char *buf = ks_xmalloc(want + 1);
	while (got < want) {
		ssize_t r = read(fd, buf + got, want - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			close(fd);
			return sys_fail(e, eno, err, "reading from file", path);
		}
		if (r == 0)
			break; /* it shrank meanwhile: what there is */
		got += (size_t)r;
	}
	close(fd);
	char *text = ks_xfer_b64_encode(buf, got);
	free(buf);
	classad *ad = classad_new();
	classad_insert_string(ad, "FileName", name);
	classad_insert_int(ad, "FileMode", (int64_t)(st.st_mode & 0777));
	classad_insert_string(ad, "FileData", text);
	free(text);
	ks_xfer_set_take(set, ad);
	set->bytes += got;
	return 0;
}

int ks_xfer_add_path(struct ks_xfer_set *set, const char *path,
		     const char *name, int *eno, struct ks_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
				    (set->nofollow ? O_NOFOLLOW : 0));
	if (fd < 0)
		return sys_fail(errno, eno, err, "reading from file", path);
	return add_fd(set, fd, path, name, 0, true, eno, err);
}

/* Opens rel beneath the directory base without following any symbolic
 * link on the way.  A descriptor, or -1 with errno set. */
static int open_beneath(const char *base, const char *rel)
{
	int dfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	char *copy = ks_xstrdup(rel);
	char *save = NULL;
	int fd = dfd;
	for (char *c = strtok_r(copy, "/", &save); c;
	     c = strtok_r(NULL, "/", &save)) {
		int nfd = openat(fd, c,
				 O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
		int e = errno;
		close(fd);
		if (nfd < 0) {
			free(copy);
			errno = e;
			return -1;
		}
		fd = nfd;
	}
	free(copy);
	return fd;
}

int ks_xfer_add_entry(struct ks_xfer_set *set, const char *base,
		      const char *entry, int *eno, struct ks_err *err)
{
	size_t l = strlen(entry);
	bool contents = l > 1 && entry[l - 1] == '/';
	char *e = ks_xstrdup(entry);
	while (l > 1 && e[l - 1] == '/')
		e[--l] = '\0';
	const char *slash = strrchr(e, '/');
	const char *bn = slash ? slash + 1 : e;
	char *path = ks_path_in(base, e);
	int rc;
	if (!*bn || !strcmp(bn, ".") || !strcmp(bn, "..") ||
	    (set->nofollow && (e[0] == '/' || strstr(e, "..")))) {
		rc = sys_fail(EINVAL, eno, err,
			      "reading from file (not a name that may be "
			      "transferred)", path);
	} else if (set->nofollow) {
		int fd = open_beneath(base, e);
		rc = fd < 0 ? sys_fail(errno, eno, err, "reading from file",
				       path)
			    : add_fd(set, fd, path, contents ? "" : bn, 0,
				     true, eno, err);
	} else {
		rc = ks_xfer_add_path(set, path, contents ? "" : bn, eno, err);
	}
	free(path);
	free(e);
	return rc;
}

char *ks_xfer_name(const classad *ad)
{
	char *s = NULL;
	if (!ad || !classad_eval_string(ad, "FileName", NULL, &s))
		return NULL;
	if (!ks_xfer_name_ok(s)) {
		free(s);
		return NULL;
	}
	return s;
}

static int make_parents(const char *path)
{
	char *dir = ks_xstrdup(path);
	char *slash = strrchr(dir, '/');
	int rc = 0;
	if (slash && slash != dir) {
		*slash = '\0';
		rc = ks_mkdirs(dir, 0755);
	}
	free(dir);
	return rc;
}

int ks_xfer_write(const classad *ad, const char *path, bool mkparents,
		  bool chown_it, uid_t uid, gid_t gid, uint64_t *written,
		  int *eno, struct ks_err *err)
{
	if (written)
		*written = 0;
	char *text = NULL;
	int64_t mode = 0644;
	if (!classad_eval_string(ad, "FileData", NULL, &text))
		return ks_err_set(err, KS_EPARSE, 0, 0, 0,
				  "writing to file %s: the file's ad has no "
				  "FileData", path);
	classad_eval_int(ad, "FileMode", NULL, &mode);
	unsigned char *data = NULL;
	size_t len = 0;
	struct ks_err e2;
	int drc = ks_xfer_b64_decode(text, &data, &len, &e2);
	free(text);
	if (drc)
		return ks_err_set(err, KS_EPARSE, 0, 0, 0,
				  "writing to file %s: its data: %s", path,
				  e2.msg);
	if (mkparents && make_parents(path) != 0) {
		free(data);
		return sys_fail(errno, eno, err, "writing to file", path);
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		      (mode_t)(mode & 0777));
	if (fd < 0) {
		free(data);
		return sys_fail(errno, eno, err, "writing to file", path);
	}
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			int e = errno;
			free(data);
			close(fd);
			return sys_fail(e, eno, err, "writing to file", path);
		}
		done += (size_t)w;
	}
	free(data);
	/* an existing file keeps its mode on open(): give it the sender's */
	int rc = fchmod(fd, (mode_t)(mode & 0777));
	if (rc == 0 && chown_it)
		rc = fchown(fd, uid, gid);
	if (rc != 0) {
		int e = errno;
		close(fd);
		return sys_fail(e, eno, err, "writing to file", path);
	}
	if (close(fd) != 0)
		return sys_fail(errno, eno, err, "writing to file", path);
	if (written)
		*written = len;
	return 0;
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	int rc = flag == FTW_DP ? rmdir(p) : unlink(p);
	return rc != 0 && errno != ENOENT ? errno : 0;
}

int ks_xfer_remove_tree(const char *path)
{
	int e = nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	if (e > 0) {
		errno = e;
		return -1;
	}
	return e < 0 && errno != ENOENT ? -1 : 0;
}
