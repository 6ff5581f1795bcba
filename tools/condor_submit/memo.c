/*
 * memo.c: what the jobs of one submission look up alike (submit.h):
 * their expressions, the configuration's knobs, the files they check.
 * A 100,000-job submission asks each of these a 100,000 times.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ks_mem.h"
#include "submit.h"

/* More knobs than condor_submit reads for a job. */
#define MEMO_KNOBS 64

struct sub_memo {
	classad_cache *exprs;
	struct {
		const char *name; /* borrowed: the callers' constants */
		char *value;      /* NULL: not set */
	} knobs[MEMO_KNOBS];
	size_t nknobs;
	/* the last path access() was asked of, with its mode and answer
	 * (the jobs of a cluster share their Iwd and executable) */
	struct {
		char *path;
		int mode, rc, err;
	} access[2];	/* the first job's executable size (KiB), which HTCondor gives
	 * every job of the cluster */
	long long exe_kb;
	bool exe_known;
	/* directory entries sub_file_kb() may still count */
	long walk_left;
	/* the last path sub_stat() was asked of, and its answer */
	struct {
		char *path;
		int rc, err;
		bool is_dir;
		long long size;
	} stat;
};

struct sub_memo *sub_memo_new(void)
{
	struct sub_memo *m = ks_xcalloc(1, sizeof(*m));
	m->exprs = classad_cache_new();
	m->walk_left = SUB_WALK_MAX;
	return m;
}

void sub_memo_free(struct sub_memo *m)
{
	if (!m)
		return;
	classad_cache_free(m->exprs);
	for (size_t i = 0; i < m->nknobs; i++)
		free(m->knobs[i].value);
	for (size_t i = 0; i < 2; i++)
		free(m->access[i].path);
	free(m->stat.path);
	free(m);
}

classad_expr *sub_parse_expr(const struct sub_job_ctx *c, const char *text)
{
	return classad_parse_expr_cached(c->memo ? c->memo->exprs : NULL, text,
					 strlen(text), NULL);
}

char *sub_knob(const struct sub_job_ctx *c, const char *name)
{
	if (!c->cfg)
		return NULL;
	struct sub_memo *m = c->memo;
	if (!m)
		return ks_config_get(c->cfg, name, NULL);
	for (size_t i = 0; i < m->nknobs; i++)
		if (strcmp(m->knobs[i].name, name) == 0)
			return m->knobs[i].value ? ks_xstrdup(m->knobs[i].value)
						 : NULL;
	char *v = ks_config_get(c->cfg, name, NULL);
	if (m->nknobs < MEMO_KNOBS) {
		m->knobs[m->nknobs].name = name;
		m->knobs[m->nknobs].value = v ? ks_xstrdup(v) : NULL;
		m->nknobs++;
	}
	return v;
}

bool sub_knob_bool(const struct sub_job_ctx *c, const char *name, bool def)
{
	char *v = sub_knob(c, name);
	bool b = def;
	if (v)
		ks_config_text_bool(v, &b);
	free(v);
	return b;
}

int sub_access(const struct sub_job_ctx *c, const char *path, int mode)
{
	struct sub_memo *m = c->memo;
	if (!m)
		return access(path, mode);
	for (size_t i = 0; i < 2; i++)
		if (m->access[i].path && m->access[i].mode == mode &&
		    strcmp(m->access[i].path, path) == 0) {
			errno = m->access[i].err;
			return m->access[i].rc;
		}
	int rc = access(path, mode), e = errno;
	/* the directory check comes first for a job, then its program's */
	size_t slot = mode == F_OK ? 1 : 0;
	free(m->access[slot].path);
	m->access[slot].path = ks_xstrdup(path);
	m->access[slot].mode = mode;
	m->access[slot].rc = rc;
	m->access[slot].err = e;
	errno = e;
	return rc;
}

long long sub_exe_size(const struct sub_job_ctx *c, const char *path)
{
	struct sub_memo *m = c->memo;
	if (m && m->exe_known && c->proc > 0)
		return m->exe_kb;
	long long kb = sub_file_kb(c, NULL, path);
	if (m) {
		m->exe_kb = kb;
		m->exe_known = true;
	}
	return kb;
}

bool sub_walk_take(const struct sub_job_ctx *c)
{
	struct sub_memo *m = c->memo;
	if (!m)
		return true;
	if (m->walk_left > 0) {
		m->walk_left--;
		return true;
	}
	if (m->walk_left == 0) {
		fprintf(stderr, "\nWARNING: the job's input directories hold "
				"more than %d files: its DiskUsage and "
				"TransferInputSizeMB count the first %d\n",
			SUB_WALK_MAX, SUB_WALK_MAX);
		m->walk_left = -1;
	}
	return false;
}

int sub_stat(const struct sub_job_ctx *c, const char *path, bool *is_dir,
	     long long *size)
{
	struct sub_memo *m = c->memo;
	if (!m || !m->stat.path || strcmp(m->stat.path, path) != 0) {
		struct stat st;
		int rc = stat(path, &st), e = errno;
		if (!m) {
			*is_dir = !rc && S_ISDIR(st.st_mode);
			*size = rc ? 0 : (long long)st.st_size;
			errno = e;
			return rc;
		}
		free(m->stat.path);
		m->stat.path = ks_xstrdup(path);
		m->stat.rc = rc;
		m->stat.err = e;
		m->stat.is_dir = !rc && S_ISDIR(st.st_mode);
		m->stat.size = rc ? 0 : (long long)st.st_size;
	}
	*is_dir = m->stat.is_dir;
	*size = m->stat.size;
	errno = m->stat.err;
	return m->stat.rc;
}
