/*
 * result.c: the result ad (sr_result.h).
 */
#include "sr_result.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "ks_mem.h"
#include "sr_file.h"

enum sr_end sr_end_how(enum sr_kill kill, bool soft_sent, int status)
{
	bool of_sigkill = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
	if (kill == SR_KILL_SOFT ||
	    (kill == SR_KILL_HARD && (soft_sent || of_sigkill)))
		return SR_END_KILLED;
	return WIFSIGNALED(status) ? SR_END_SIGNALED : SR_END_EXITED;
}

void sr_outcome_fail(struct sr_outcome *o, int hold_code, int hold_subcode,
		     const char *fmt, ...)
{
	if (o->reason)
		return;
	va_list ap;
	va_start(ap, fmt);
	char buf[1024];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	o->how = SR_END_START_FAILED;
	o->reason = ks_xstrdup(buf);
	o->hold_code = hold_code;
	o->hold_subcode = hold_subcode;
}

void sr_outcome_startd_gone(struct sr_outcome *o, pid_t startd,
			    const char *when)
{
	char buf[160];
	snprintf(buf, sizeof(buf), "the startd (pid %ld) went away %s",
		 (long)startd, when);
	free(o->reason);
	o->reason = ks_xstrdup(buf);
	o->how = SR_END_KILLED;
	o->kill = SR_KILL_HARD;
	o->startd_gone = startd;
}

const char *sr_end_name(enum sr_end how)
{
	switch (how) {
	case SR_END_EXITED: return "exited";
	case SR_END_SIGNALED: return "signaled";
	case SR_END_KILLED: return "killed";
	default: return "start failed";
	}
}

static void exit_attrs(classad *ad, const struct sr_outcome *o)
{
	int st = o->status;
	if (WIFSIGNALED(st)) {
		int sig = WTERMSIG(st);
		classad_insert_bool(ad, "ExitBySignal", true);
		classad_insert_int(ad, "ExitSignal", sig);
		if (WCOREDUMP(st))
			classad_insert_bool(ad, "JobCoreDumped", true);
	} else {
		classad_insert_bool(ad, "ExitBySignal", false);
		classad_insert_int(ad, "ExitCode", WEXITSTATUS(st));
	}
	char text[160] = "";
	if (o->how == SR_END_KILLED && o->startd_gone) {
		snprintf(text, sizeof(text),
			 "killed (SIGKILL): its startd (pid %ld) went away",
			 (long)o->startd_gone);
	} else if (o->how == SR_END_KILLED) {
		const char *name = o->kill == SR_KILL_HARD
					   ? "SIGKILL"
					   : ks_jobad_signal_name(o->kill_sig);
		char num[16];
		snprintf(num, sizeof(num), "signal %d", o->kill_sig);
		snprintf(text, sizeof(text),
			 "killed on the startd's %s kill order (%s)",
			 o->kill == SR_KILL_HARD ? "hard" : "soft",
			 name ? name : num);
	} else if (WIFSIGNALED(st)) {
		/* HTCondor's wording for a job that died on a signal. */
		snprintf(text, sizeof(text), "died on signal %d (%s)",
			 WTERMSIG(st), strsignal(WTERMSIG(st)));
	}
	if (*text)
		classad_insert_string(ad, "ExitReason", text);
}

classad *sr_result_ad(const struct ks_jobad *job, const struct sr_outcome *o,
		      const char *memory_metric)
{
	classad *ad = classad_new();
	/* whose end it is: a claim runs one job after another, and a
	 * claimer that reconnects asks for its own job's */
	int64_t id;
	if (job->ad && classad_eval_int(job->ad, "ClusterId", NULL, &id))
		classad_insert_int(ad, "ClusterId", id);
	if (job->ad && classad_eval_int(job->ad, "ProcId", NULL, &id))
		classad_insert_int(ad, "ProcId", id);
	classad_insert_string(ad, "JobExitReason", sr_end_name(o->how));
	if (o->how == SR_END_START_FAILED) {
		const char *why = o->reason ? o->reason : "unknown failure";
		classad_insert_string(ad, "ExitReason", why);
		classad_insert_string(ad, "HoldReason", why);
		classad_insert_int(ad, "HoldReasonCode",
				   o->hold_code ? o->hold_code
						: SR_HOLD_CREATE_PROCESS);
		classad_insert_int(ad, "HoldReasonSubCode", o->hold_subcode);
	} else if (!o->pid) {
		/* killed before it began: there is no exit to tell */
		classad_insert_string(ad, "ExitReason",
				      o->reason ? o->reason : "killed");
	} else {
		exit_attrs(ad, o);
		classad_insert_int(ad, "JobPid", o->pid);
	}
	int64_t first = job->prev_start_date > 0 ? job->prev_start_date
						 : o->start_date;
	classad_insert_int(ad, "JobStartDate", first);
	classad_insert_int(ad, "JobCurrentStartDate", o->start_date);
	if (o->exec_date > 0) {
		classad_insert_int(ad, "JobCurrentStartExecutingDate",
				   o->exec_date);
		classad_insert_real(ad, "JobDuration", o->run);
	}
	if (o->how == SR_END_EXITED || o->how == SR_END_SIGNALED)
		classad_insert_int(ad, "CompletionDate", o->end_date);
	classad_insert_real(ad, "RemoteUserCpu", o->user_cpu);
	classad_insert_real(ad, "RemoteSysCpu", o->sys_cpu);
	classad_insert_int(ad, "ImageSize", (int64_t)o->image_kb);
	classad_insert_int(ad, "ResidentSetSize", (int64_t)o->rss_kb);
	const char *metric = memory_metric && *memory_metric
				     ? memory_metric
				     : "((ResidentSetSize+1023)/1024)";
	if (classad_insert_text(ad, "MemoryUsage", metric, NULL))
		classad_insert_text(ad, "MemoryUsage",
				    "((ResidentSetSize+1023)/1024)", NULL);
	classad_insert_real(ad, "LastRemoteWallClockTime", o->wall);
	classad_insert_real(ad, "RemoteWallClockTime",
			    job->prev_wall_clock + o->wall);
	classad_insert_int(ad, "CumulativeSuspensionTime",
			   job->prev_suspension_time + o->suspension);
	classad_insert_int(ad, "TotalSuspensions",
			   job->prev_suspensions + o->suspensions);
	return ad;
}

bool sr_result_hold(classad *ad, const struct sr_outcome *o,
		    const char *text, size_t len)
{
	if (o->how != SR_END_KILLED || !text)
		return false;
	classad *h = classad_parse(text, len, CLASSAD_FMT_OLD, NULL, NULL);
	char *why = NULL;
	int64_t code = 0, sub = 0;
	bool ok = h && classad_eval_string(h, "HoldReason", NULL, &why) &&
		  classad_eval_int(h, "HoldReasonCode", NULL, &code) &&
		  classad_eval_int(h, "HoldReasonSubCode", NULL, &sub) &&
		  code > 0;
	if (ok) {
		classad_insert_string(ad, "HoldReason", why);
		classad_insert_int(ad, "HoldReasonCode", code);
		classad_insert_int(ad, "HoldReasonSubCode", sub);
	}
	free(why);
	classad_free(h);
	return ok;
}

int sr_result_write(FILE *f, const classad *ad, struct ks_err *err)
{
	char *text = classad_unparse(ad, CLASSAD_FMT_OLD);
	size_t len = strlen(text);
	size_t n = fwrite(text, 1, len, f);
	free(text);
	if (n != len || fflush(f) == EOF)
		return ks_err_set(err, KS_EIO, 0, 0, 0,
				  "cannot write the result ad: %s",
				  strerror(errno));
	return 0;
}

int sr_result_save(const char *path, const classad *ad, bool chown_it,
		   uid_t uid, gid_t gid, struct ks_err *err)
{
	char *text = classad_unparse(ad, CLASSAD_FMT_OLD);
	int rc = sr_file_replace(path, text, strlen(text), chown_it, uid, gid,
				 err);
	free(text);
	return rc;
}

void sr_outcome_free(struct sr_outcome *o)
{
	if (!o)
		return;
	free(o->reason);
	o->reason = NULL;
}
