/* ks_text.c: small text helpers (ks_text.h). */
#include "ks_text.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ks_mem.h"

char *ks_trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* What separates the items of an HTCondor list. */
static const char list_delims[] = " ,\t\r\n";

const char *ks_list_next_sep(const char *list, const char *seps, size_t *pos,
			     size_t *len)
{
	if (!list)
		return NULL;
	const char *p = list + *pos;
	p += strspn(p, seps);
	*len = strcspn(p, seps);
	if (!*len)
		return NULL;
	*pos = (size_t)(p - list) + *len;
	return p;
}

const char *ks_list_next(const char *list, size_t *pos, size_t *len)
{
	return ks_list_next_sep(list, list_delims, pos, len);
}

char *ks_list_cut(char **cur)
{
	size_t pos = 0, len;
	char *t = *cur ? (char *)ks_list_next(*cur, &pos, &len) : NULL;
	if (!t) {
		*cur = NULL;
		return NULL;
	}
	*cur = t + len;
	if (**cur)
		*(*cur)++ = '\0';
	return t;
}

char *ks_path_in(const char *dir, const char *name)
{
	if (name[0] == '/')
		return ks_xstrdup(name);
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = ks_xmalloc(n);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

char *ks_read_all(FILE *f, size_t *len)
{
	size_t cap = 8192, n = 0, r;
	char *buf = ks_xmalloc(cap);
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n < 2)
			buf = ks_xrealloc(buf, cap *= 2);
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int ks_mkdirs(const char *dir, mode_t mode)
{
	if (!dir[0]) {
		errno = ENOENT;
		return -1;
	}
	char *p = ks_xstrdup(dir);
	int rc = 0;
	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, mode) != 0 && errno != EEXIST) {
			rc = -1;
			break;
		}
		*s = c;
		if (c == '\0')
			break;
	}
	int e = errno;
	free(p);
	errno = e;
	if (rc == 0) {
		struct stat st;
		if (stat(dir, &st) != 0)
			return -1;
		if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			return -1;
		}
	}
	return rc;
}
