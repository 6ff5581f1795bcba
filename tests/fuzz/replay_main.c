/*
 * replay_main.c: a main() for a fuzz target without libFuzzer.  It runs
 * LLVMFuzzerTestOneInput() over every file named on the command line (or
 * every file of a named directory, in name order), so that a corpus is
 * replayed in every build: under gcc, under the sanitizers, under
 * valgrind.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include <dirent.h>
#include <sys/stat.h>

static int g_files, g_errors;

static void replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: cannot open %s\n", path);
		g_errors++;
		return;
	}
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "replay: out of memory\n");
		g_errors++;
		return;
	}
	/* An exact-size copy, as libFuzzer passes it. */
	uint8_t *exact = malloc(n ? n : 1);
	if (exact) {
		memcpy(exact, buf, n);
		fprintf(stderr, "replaying %s (%zu bytes)\n", path, n);
		LLVMFuzzerTestOneInput(exact, n);
		free(exact);
		g_files++;
	}
	free(buf);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void replay_path(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "replay: no such file %s\n", path);
		g_errors++;
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		replay_file(path);
		return;
	}
	DIR *d = opendir(path);
	if (!d) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		g_errors++;
		return;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				break;
			names = nn;
		}
		size_t l = strlen(path) + strlen(de->d_name) + 2;
		names[n] = malloc(l);
		if (!names[n])
			break;
		snprintf(names[n], l, "%s/%s", path, de->d_name);
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		struct stat fs;
		if (stat(names[i], &fs) == 0 && S_ISREG(fs.st_mode))
			replay_file(names[i]);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE-OR-DIRECTORY...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++)
		replay_path(argv[i]);
	fprintf(stderr, "replay: %d inputs replayed, %d errors\n",
		g_files, g_errors);
	if (g_files == 0)
		return 1;
	return g_errors ? 1 : 0;
}
