/*
 * tmp_dir.c: temporary directories for unit tests (tmp_dir.h).
 */
#include "tmp_dir.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tmp_dir_make(const char *prefix, char *buf, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	int n = snprintf(buf, size, "%s/%s.XXXXXX", tmp && *tmp ? tmp : "/tmp",
			 prefix);
	if (n < 0 || (size_t)n >= size)
		return -1;
	return mkdtemp(buf) ? 0 : -1;
}

void tmp_dir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char p[512];
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		struct stat st;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			tmp_dir_remove(p);
		else
			unlink(p);
	}
	closedir(d);
	rmdir(dir);
}
