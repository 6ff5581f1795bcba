/* util.c: careful file reading and directory making for keys and tokens. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "ks_mem.h"
#include "ks_priv.h"
#include "token_int.h"

void kt_wipe_free(void *p, size_t n)
{
	if (!p)
		return;
	OPENSSL_cleanse(p, n);
	free(p);
}

static int read_file(const char *path, bool secure, unsigned char **buf,
		     size_t *len, struct ks_err *err);

int kt_read_file(const char *path, bool secure, unsigned char **buf,
		 size_t *len, struct ks_err *err)
{
	/* keys and the daemons' tokens are root's files, read as root by a
	 * daemon that otherwise runs as the condor account (nothing
	 * changes for a tool, or a daemon that is not root's) */
	struct ks_priv_saved saved;
	int rc = ks_priv_to_root(&saved, err);
	if (rc == 0) {
		rc = read_file(path, secure, buf, len, err);
		ks_priv_restore(&saved);
	}
	return rc;
}

static int read_file(const char *path, bool secure, unsigned char **buf,
		     size_t *len, struct ks_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		return ks_err_set(err, e == ENOENT ? KS_ENOTFOUND : KS_EIO, 0, 0,
				  0, "cannot open %s: %s", path, strerror(e));
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return ks_err_set(err, KS_EIO, 0, 0, 0, "cannot stat %s: %s",
				  path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return ks_err_set(err, KS_EIO, 0, 0, 0, "%s is not a regular file",
				  path);
	}
	/* Checked on the open descriptor, so a file swapped after the check
	 * is not the one read. */
	if (secure && st.st_uid != geteuid()) {
		close(fd);
		return ks_err_set(err, KS_EPERM, 0, 0, 0,
				  "%s must be owned by uid %d, not %d", path,
				  (int)geteuid(), (int)st.st_uid);
	}
	if (secure && (st.st_mode & 077)) {
		close(fd);
		return ks_err_set(err, KS_EPERM, 0, 0, 0,
				  "%s must not be accessible to group or others "
				  "(mode %03o)",
				  path, (unsigned)(st.st_mode & 0777));
	}
	if (st.st_size > KT_MAX_FILE) {
		close(fd);
		return ks_err_set(err, KS_ERANGE, 0, 0, 0,
				  "%s is too large (%lld bytes)", path,
				  (long long)st.st_size);
	}
	size_t cap = (size_t)st.st_size + 1, n = 0;
	unsigned char *b = ks_xmalloc(cap);
	/* The size may change under us; read to EOF, within the bound. */
	for (;;) {
		if (n + 1 >= cap) {
			if (cap > KT_MAX_FILE) {
				kt_wipe_free(b, cap);
				close(fd);
				return ks_err_set(err, KS_ERANGE, 0, 0, 0,
						  "%s is too large", path);
			}
			unsigned char *nb = ks_xmalloc(cap * 2);
			memcpy(nb, b, n);
			kt_wipe_free(b, cap);
			b = nb;
			cap *= 2;
		}
		ssize_t r = read(fd, b + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			kt_wipe_free(b, cap);
			close(fd);
			return ks_err_set(err, KS_EIO, 0, 0, 0,
					  "cannot read %s: %s", path,
					  strerror(e));
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

