/*
 * render.c: condor_who's own columns, by the names of HTCondor's local
 * print formats: the slot's number (1, or 1_2 for a dynamic slot), the
 * job's pid, and what this machine's /proc says of that process (its
 * command line, its directory).  The last two only make sense run on the
 * execute machine itself, which is what condor_who is for; a process
 * that cannot be read shows an empty column.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ks_mem.h"
#include "who.h"

static void set_str(classad_value *v, const char *s)
{
	classad_value_set_string(v, s, strlen(s));
}

/* SLOT_ID: SlotID, or for a dynamic slot what its Name has between
 * "slot" and '@' (at most 9 characters, as HTCondor cuts it). */
static bool r_slot_id(classad_value *v, const classad *ad,
		      const struct tf_col *c)
{
	(void)c;
	long long id;
	if (!tf_ad_int(ad, "SlotID", &id))
		return false;
	char out[32];
	bool dynamic = false;
	if (tf_ad_bool(ad, "DynamicSlot", &dynamic) && dynamic) {
		char *name = classad_eval_string_dup(ad, "Name");
		if (name && strncmp(name, "slot", 4) == 0) {
			snprintf(out, sizeof(out), "%.9s", name + 4);
			out[strcspn(out, "@")] = '\0';
		} else {
			snprintf(out, sizeof(out), "%lld_?", id);
		}
		free(name);
	} else {
		snprintf(out, sizeof(out), "%lld", id);
	}
	set_str(v, out);
	return true;
}

/* The job's pid from the slot ad (JobPid), or 0. */
static long job_pid(const classad *ad)
{
	long long pid = 0;
	return tf_ad_int(ad, "JobPid", &pid) && pid > 0 ? (long)pid : 0;
}

/* JOB_PID */
static bool r_job_pid(classad_value *v, const classad *ad,
		      const struct tf_col *c)
{
	(void)c;
	long pid = job_pid(ad);
	if (!pid)
		return false;
	classad_value_set_int(v, pid);
	return true;
}

/* A file of /proc/PID, whole (at most max bytes); *len its length. */
static char *proc_file(long pid, const char *what, size_t max, size_t *len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/%s", pid, what);
	FILE *f = fopen(path, "re");
	*len = 0;
	if (!f)
		return NULL;
	char *buf = ks_xmalloc(max + 1);
	*len = fread(buf, 1, max, f);
	fclose(f);
	buf[*len] = '\0';
	return buf;
}

/* The command line of a process as ps shows it (its arguments joined by
 * spaces; "[name]" when it has none), or "" when it cannot be read. */
static void program_of(long pid, struct classad_buf *out)
{
	size_t len;
	char *args = proc_file(pid, "cmdline", 64 * 1024, &len);
	while (len && args[len - 1] == '\0')
		len--;
	if (args && len) {
		for (size_t i = 0; i < len; i++)
			tf_buf_addc(out, args[i] ? args[i] : ' ');
	} else {
		free(args);
		args = proc_file(pid, "comm", 256, &len);
		if (args && len) {
			args[strcspn(args, "\n")] = '\0';
			classad_buf_printf(out, "[%s]", args);
		}
	}
	free(args);
}

/* The directory a job runs in: its current directory, else the
 * _CONDOR_SCRATCH_DIR of its environment; "" when neither can be read
 * (another user's process, for one who is not root). */
static void dir_of(long pid, struct classad_buf *out)
{
	char path[64], dir[PATH_MAX];
	snprintf(path, sizeof(path), "/proc/%ld/cwd", pid);
	ssize_t n = readlink(path, dir, sizeof(dir) - 1);
	if (n >= 0) {
		dir[n] = '\0';
		tf_buf_add(out, dir);
		return;
	}
	size_t len;
	char *env = proc_file(pid, "environ", 256 * 1024, &len);
	static const char key[] = "_CONDOR_SCRATCH_DIR=";
	for (size_t i = 0; env && i < len; i += strlen(env + i) + 1)
		if (strncmp(env + i, key, sizeof(key) - 1) == 0) {
			tf_buf_add(out, env + i + sizeof(key) - 1);
			break;
		}
	free(env);
}

enum what { PROGRAM, DIR, DIR_OR_PROGRAM };

/* The process columns: valid once the slot runs a job with a known pid,
 * even when /proc has nothing to say. */
static bool r_process(classad_value *v, const classad *ad, enum what w)
{
	char *jobid = classad_eval_string_dup(ad, "JobId");
	bool running = jobid != NULL;
	free(jobid);
	long pid = job_pid(ad);
	if (!running || !pid)
		return false;
	struct classad_buf b = {0};
	if (w != PROGRAM)
		dir_of(pid, &b);
	if (w != DIR && !b.len)
		program_of(pid, &b);
	set_str(v, tf_buf_str(&b));
	tf_buf_free(&b);
	return true;
}

static bool r_job_program(classad_value *v, const classad *ad,
			  const struct tf_col *c)
{
	(void)c;
	return r_process(v, ad, PROGRAM);
}

static bool r_job_dir(classad_value *v, const classad *ad,
		      const struct tf_col *c)
{
	(void)c;
	return r_process(v, ad, DIR);
}

static bool r_job_dircmd(classad_value *v, const classad *ad,
			 const struct tf_col *c)
{
	(void)c;
	return r_process(v, ad, DIR_OR_PROGRAM);
}

/* The attributes after each are those it reads besides its column's own
 * (for the query's projection). */
static const struct tf_custom customs[] = {
	{"JOB_DIR", TF_K_STR_RENDER, r_job_dir, NULL, NULL,
	 "JobPid CondorScratchDir ClusterId ProcId"},
	{"JOB_DIRCMD", TF_K_STR_RENDER, r_job_dircmd, NULL, NULL,
	 "JobPid CondorScratchDir ClusterId ProcId Cmd Args Arguments"},
	{"JOB_PID", TF_K_INT_RENDER, r_job_pid, NULL, "%d",
	 "JobId JobPid ClusterId ProcId"},
	{"JOB_PROGRAM", TF_K_STR_RENDER, r_job_program, NULL, NULL,
	 "JobPid Cmd Args Arguments"},
	{"SLOT_ID", TF_K_STR_RENDER, r_slot_id, NULL, NULL,
	 "Name DynamicSlot DSlotId"},
};

const struct tf_custom *who_custom_find(const char *name)
{
	for (size_t i = 0; i < sizeof(customs) / sizeof(customs[0]); i++)
		if (strcmp(customs[i].name, name) == 0)
			return &customs[i];
	return NULL;
}

/* -af's "#NAME" columns, as HTCondor's condor_who names them. */
static const struct {
	const char *name, *expr, *custom;
} af_columns[] = {
	{"DIRCMD", "JobId", "JOB_DIRCMD"},
	{"DIR", "JobId", "JOB_DIR"},
	{"PID", "JobPid", "JOB_PID"},
	{"PROGRAM", "JobId", "JOB_PROGRAM"},
	{"RUNTIME", "TotalJobRunTime", "TIME"},
	{"SLOT", "SlotID", "SLOT_ID"},
	{"SlotID", "SlotID", "SLOT_ID"},
};

bool who_af_column(const char *name, const char **expr, const char **custom)
{
	for (size_t i = 0; i < sizeof(af_columns) / sizeof(af_columns[0]); i++)
		if (strcasecmp(af_columns[i].name, name) == 0) {
			*expr = af_columns[i].expr;
			*custom = af_columns[i].custom;
			return true;
		}
	return false;
}
