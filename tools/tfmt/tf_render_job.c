/*
 * tf_render_job.c: the custom column functions of job ads, by their
 * PRINTAS names in HTCondor's print formats (condor_q's and
 * condor_history's tables): OWNER, QDATE, CPU_TIME, JOB_STATUS,
 * MEMORY_USAGE, JOB_DESCRIPTION, BATCH_NAME, REMOTE_HOST, JOB_UNIVERSE,
 * RUNTIME.  What each shows is HTCondor's; see docs/man/condor_q.md.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ks_mem.h"
#include "tf_int.h"
#include "tfmt.h"

/* JobStatus values, and the universes the columns tell apart. */
enum { TF_JOB_IDLE = 1, TF_JOB_RUNNING = 2, TF_JOB_HELD = 5,
       TF_JOB_TRANSFERRING_OUTPUT = 6, TF_JOB_SUSPENDED = 7,
       TF_JOB_BLOCKED = 9 };
enum { TF_UNIVERSE_SCHEDULER = 7, TF_UNIVERSE_GRID = 9 };

/* HTCondor's status letters: JobStatus 1..10 are I R X C H > S F B P. */
static char tf_job_status_letter(long long status)
{
	static const char letters[] = " IRXCH>SFBP";
	if (status < 1 || status > 10)
		return ' ';
	return letters[status];
}

static void tf_set_str(classad_value *v, const char *s)
{
	classad_value_set_string(v, s, strlen(s));
}

static bool tf_r_owner(classad_value *v, const classad *ad,
		       const struct tf_col *c)
{
	(void)c;
	char *owner = classad_eval_string_dup(ad, "Owner");
	if (!owner)
		return false;
	tf_set_str(v, owner);
	free(owner);
	return true;
}

static void tf_f_date(const classad_value *v, struct classad_buf *out,
		      const struct tf_col *c)
{
	(void)c;
	tf_format_date(out, v->u.i);
}

static void tf_f_runtime(const classad_value *v, struct classad_buf *out,
			 const struct tf_col *c)
{
	(void)c;
	tf_format_time(out, (long long)v->u.r);
}

/* The run time of the current run as condor_q shows it: the schedd's
 * clock (ServerTime) less the start of the run for a job that runs,
 * the last run's length for one that waits; -1 (shown as a negative
 * time, as HTCondor shows it) when the ad has no ServerTime. */
static bool tf_r_cpu_time(classad_value *v, const classad *ad,
			  const struct tf_col *c)
{
	(void)c;
	double cpu;
	if (!tf_ad_real(ad, "RemoteUserCpu", &cpu))
		return false;
	long long now = 0, start = 0, status = 0;
	tf_ad_int(ad, "JobStatus", &status);
	tf_ad_int(ad, "ServerTime", &now);
	if (now == 0) {
		classad_value_set_real(v, -1);
		return true;
	}
	/* kestrel's schedd has no shadow; a job started without one is
	 * timed from JobCurrentStartDate */
	if (!tf_ad_int(ad, "ShadowBday", &start))
		tf_ad_int(ad, "JobCurrentStartDate", &start);
	double total = 0;
	if ((status == TF_JOB_RUNNING || status == TF_JOB_TRANSFERRING_OUTPUT ||
	     status == TF_JOB_SUSPENDED) && start) {
		total = (double)(now - start);
	} else if (status == TF_JOB_IDLE || status == TF_JOB_HELD ||
		   status == TF_JOB_BLOCKED) {
		tf_ad_real(ad, "LastRemoteWallClockTime", &total);
	}
	classad_value_set_real(v, total);
	return true;
}

/* The status letter, then a second character for file transfer ('<'
 * input, '>' output, 'q' queued for transfer) or a cool-down ('c'). */
static bool tf_r_job_status(classad_value *v, const classad *ad,
			    const struct tf_col *c)
{
	(void)c;
	long long status;
	if (!tf_ad_int(ad, "JobStatus", &status))
		return false;
	char r[3] = {tf_job_status_letter(status), ' ', '\0'};
	bool in = false, out = false, queued = false;
	tf_ad_bool(ad, "TransferringInput", &in);
	tf_ad_bool(ad, "TransferringOutput", &out);
	tf_ad_bool(ad, "TransferQueued", &queued);
	if (in) {
		r[0] = '<';
		r[1] = queued ? 'q' : ' ';
	}
	if (out || status == TF_JOB_TRANSFERRING_OUTPUT) {
		r[0] = queued ? 'q' : ' ';
		r[1] = '>';
	}
	long long cooldown = 0;
	tf_ad_int(ad, "JobCoolDownExpiration", &cooldown);
	if (cooldown > (long long)time(NULL))
		r[1] = 'c';
	tf_set_str(v, r);
	return true;
}

/* MemoryUsage (MB), else ImageSize (KB) in MB. */
static bool tf_r_memory_usage(classad_value *v, const classad *ad,
			      const struct tf_col *c)
{
	(void)c;
	classad_value t = CLASSAD_VALUE_INIT;
	bool ok = true;
	classad_eval_attr(ad, "MemoryUsage", NULL, &t);
	if (t.type == CLASSAD_INTEGER) {
		classad_value_set_real(v, (double)t.u.i);
	} else {
		classad_value_clear(&t);
		classad_eval_attr(ad, "ImageSize", NULL, &t);
		if (t.type == CLASSAD_INTEGER)
			classad_value_set_real(v, (double)t.u.i / 1024.0);
		else
			ok = false;
	}
	classad_value_clear(&t);
	return ok;
}

/* "(JobDescription)" when the job has one, else the program's base name
 * and its arguments as submitted. */
static bool tf_r_job_description(classad_value *v, const classad *ad,
				 const struct tf_col *c)
{
	(void)c;
	char *cmd = classad_eval_string_dup(ad, "Cmd");
	if (!cmd)
		return false;
	struct classad_buf b = {0};
	char *desc = classad_eval_string_dup(ad, "MATCH_EXP_JobDescription");
	if (!desc)
		desc = classad_eval_string_dup(ad, "JobDescription");
	if (desc && *desc) {
		classad_buf_printf(&b, "(%s)", desc);
	} else {
		const char *base = strrchr(cmd, '/');
		tf_buf_add(&b, base ? base + 1 : cmd);
		char *args = classad_eval_string_dup(ad, "Arguments");
		if (!args)
			args = classad_eval_string_dup(ad, "Args");
		if (args && *args) {
			tf_buf_addc(&b, ' ');
			tf_buf_add(&b, args);
		}
		free(args);
	}
	tf_set_str(v, tf_buf_str(&b));
	tf_buf_free(&b);
	free(desc);
	free(cmd);
	return true;
}

/* JobBatchName; a DAGMan job's "DAG: <cluster>"; a node's
 * "NODE: <name>"; otherwise nothing. */
static bool tf_r_batch_name(classad_value *v, const classad *ad,
			    const struct tf_col *c)
{
	(void)c;
	char *name = classad_eval_string_dup(ad, "JobBatchName");
	long long universe = 0, cluster = 0;
	bool ok = true;
	if (name) {
		tf_set_str(v, name);
	} else if (tf_ad_int(ad, "JobUniverse", &universe) &&
		   universe == TF_UNIVERSE_SCHEDULER) {
		char buf[40];
		tf_ad_int(ad, "ClusterId", &cluster);
		snprintf(buf, sizeof buf, "DAG: %d", (int)cluster);
		tf_set_str(v, buf);
	} else if (classad_lookup(ad, "DAGManJobId") &&
		   (name = classad_eval_string_dup(ad,
						   "DAGNodeName")) != NULL) {
		struct classad_buf b = {0};
		classad_buf_printf(&b, "NODE: %s", name);
		tf_set_str(v, tf_buf_str(&b));
		tf_buf_free(&b);
	} else {
		ok = false;
	}
	free(name);
	return ok;
}

/* Where the job runs: RemoteHost ("slot1@host"), or a grid job's
 * resource. */
static bool tf_r_remote_host(classad_value *v, const classad *ad,
			     const struct tf_col *c)
{
	(void)c;
	long long universe = 5;
	tf_ad_int(ad, "JobUniverse", &universe);
	char *s = NULL;
	if (universe == TF_UNIVERSE_GRID) {
		s = classad_eval_string_dup(ad, "EC2RemoteVirtualMachineName");
		if (!s)
			s = classad_eval_string_dup(ad, "GridResource");
	} else {
		s = classad_eval_string_dup(ad, "RemoteHost");
	}
	if (!s)
		return false;
	tf_set_str(v, s);
	free(s);
	return true;
}

/* HTCondor's universe names, capitalised as condor_q prints them. */
static void tf_f_job_universe(const classad_value *v, struct classad_buf *out,
			      const struct tf_col *c)
{
	(void)c;
	static const char *const names[] = {
		NULL, "Standard", "Pipe", "Linda", "PVM", "Vanilla", "PVMD",
		"Scheduler", "MPI", "Grid", "Java", "Parallel", "Local", "VM",
		"Docker"};
	long long u = v->u.i;
	if (u > 0 && u < (long long)(sizeof names / sizeof names[0]))
		tf_buf_add(out, names[u]);
	else
		tf_buf_add(out, "Unknown");
}

/* HTCondor's render_buffer_io_misc(): which transfers are under way. */
static bool tf_r_buffer_io_misc(classad_value *v, const classad *ad,
				const struct tf_col *c)
{
	(void)c;
	static const char *const names[] = {"TransferringInput",
					    "TransferringOutput",
					    "TransferQueued"};
	static const char *const what[] = {
		"in", "out", "in,out", "queued", "in,queued", "out,queued",
		"in,out,queued"};
	int ix = 0;
	for (int i = 0; i < 3; i++) {
		bool b = false;
		if (classad_eval_bool(ad, names[i], NULL, &b) && b)
			ix |= 1 << i;
	}
	struct classad_buf b = {0};
	if (ix)
		classad_buf_printf(&b, " transfer=%s", what[ix - 1]);
	tf_set_str(v, ix ? b.data : "");
	tf_buf_free(&b);
	return true;
}

static const struct tf_custom tf_job_table[] = {
	{"BATCH_NAME", TF_K_STR_RENDER, tf_r_batch_name, NULL, NULL,
	 "JobBatchName Cmd DAGManJobId DAGNodeName JobUniverse ClusterId"},
	{"BUFFER_IO_MISC", TF_K_STR_RENDER, tf_r_buffer_io_misc, NULL, NULL,
	 "TransferringInput TransferringOutput TransferQueued"},
	{"CPU_TIME", TF_K_FLT_RENDER, tf_r_cpu_time, NULL, "%T",
	 "JobStatus ServerTime ShadowBday JobCurrentStartDate "
	 "RemoteWallClockTime LastRemoteWallClockTime"},
	{"JOB_DESCRIPTION", TF_K_STR_RENDER, tf_r_job_description, NULL, NULL,
	 "Args Arguments JobDescription MATCH_EXP_JobDescription"},
	{"JOB_STATUS", TF_K_STR_RENDER, tf_r_job_status, NULL, NULL,
	 "LastSuspensionTime TransferringInput TransferringOutput "
	 "TransferQueued JobCoolDownExpiration"},
	{"JOB_UNIVERSE", TF_K_INT_FMT, NULL, tf_f_job_universe, NULL, NULL},
	{"MEMORY_USAGE", TF_K_FLT_RENDER, tf_r_memory_usage, NULL, "%.1f",
	 "MemoryUsage"},
	{"OWNER", TF_K_STR_RENDER, tf_r_owner, NULL, NULL, "NiceUser"},
	{"QDATE", TF_K_INT_FMT, NULL, tf_f_date, "%Y", NULL},
	{"REMOTE_HOST", TF_K_STR_RENDER, tf_r_remote_host, NULL, NULL,
	 "JobUniverse RemoteHost EC2RemoteVirtualMachineName GridResource"},
	{"RUNTIME", TF_K_FLT_FMT, NULL, tf_f_runtime, NULL, NULL},
};

const struct tf_custom *tf_job_custom_find(const char *name)
{
	for (size_t i = 0; i < sizeof tf_job_table / sizeof tf_job_table[0];
	     i++)
		if (strcmp(tf_job_table[i].name, name) == 0)
			return &tf_job_table[i];
	return NULL;
}
