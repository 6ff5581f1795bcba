/*
 * events.c: a job's events into its event log (UserLog, relative to its
 * Iwd, written with its owner's identity) and the schedd's EVENT_LOG,
 * through common/userlog, each once what led to it is in the job queue.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_log.h"
#include "ks_mem.h"
#include "ks_priv.h"
#include "ks_text.h"
#include "ks_userlog.h"
#include "sc_events.h"

/* HTCondor's 028 event after ev, with the job's attributes that attrs
 * lists, if it lists any. */
static bool info_event(const struct ks_userlog_event *ev,
		       const struct sc_job *j, const char *attrs, unsigned opts,
		       struct ks_userlog_event *out, classad **ad)
{
	*ad = NULL;
	if (!attrs || !*attrs || ev->type == KS_USERLOG_JOB_AD_INFO)
		return false;
	*ad = ks_userlog_info_ad(ev, j->ad, attrs, (opts & KS_USERLOG_UTC) != 0);
	ks_userlog_event_init(out, KS_USERLOG_JOB_AD_INFO, ev->cluster,
			      ev->proc);
	out->time = ev->time;
	out->usec = ev->usec;
	out->info_ad = *ad;
	return true;
}

/* An event formatted for the job's log and for EVENT_LOG, written once
 * what led to it is in the job queue (sc_queue_after()): a log never
 * tells of something a restarted schedd does not know. */
struct pending {
	char *log;   /* the job's event log, or NULL */
	char *owner; /* whose identity writes it */
	char *text;  /* the event (and its 028) for it */
	size_t len;
	unsigned opts;
	char *global; /* the same for EVENT_LOG, or NULL */
	size_t glen;
	int cluster, proc;
};

static void drop_pending(void *arg)
{
	struct pending *p = arg;
	free(p->log);
	free(p->owner);
	free(p->text);
	free(p->global);
	free(p);
}

/* ev (and its 028 after it when attrs names some of the job's
 * attributes) as text in opts; NULL when it cannot be formatted. */
static char *format_two(const struct ks_userlog_event *ev,
			const struct sc_job *j, const char *attrs,
			unsigned opts, size_t *len, struct ks_err *err)
{
	char *text = NULL, *more = NULL;
	size_t n = 0, m = 0;
	struct ks_userlog_event info;
	classad *info_ad = NULL;
	if (ks_userlog_format(ev, opts, &text, &n, err))
		return NULL;
	if (info_event(ev, j, attrs, opts, &info, &info_ad) &&
	    ks_userlog_format(&info, opts, &more, &m, err) == 0) {
		text = ks_xrealloc(text, n + m + 1);
		memcpy(text + n, more, m + 1);
		n += m;
	}
	free(more);
	classad_free(info_ad);
	*len = n;
	return text;
}

/* The schedd runs as root (or as the condor account): a job's event log
 * is the user's file, opened and written with the user's identity only,
 * so a log named in a directory the user may not write, or a link to a
 * file the user may not change, is refused as it would be to the user. */
static void write_pending(struct sc_schedd *s, void *arg)
{
	struct pending *p = arg;
	struct ks_err err = {0};
	if (p->log) {
		struct ks_priv_saved ids;
		int rc = sc_as_owner(s, p->owner, &ids, &err);
		if (rc == 0) {
			rc = ks_userlog_write(p->log, p->text, p->len, p->opts,
					      &err);
			ks_priv_restore(&ids);
		}
		if (rc)
			ks_log_printf(s->d->log, KS_D_ALWAYS,
				      "job %d.%d: cannot write its event log: "
				      "%s",
				      p->cluster, p->proc, err.msg);
	}
	if (p->global && s->event_log) {
		char *opts_text =
			ks_config_get(s->d->cfg, "EVENT_LOG_FORMAT_OPTIONS", NULL);
		struct ks_userlog_global g = {
			.path = s->event_log,
			.creator_name = s->d->name,
			.opts = KS_USERLOG_GLOBAL_DEFAULT_OPTS,
			.max_size = ks_daemon_int(s->d, "EVENT_LOG_MAX_SIZE", -1),
			.max_rotations =
				(int)ks_daemon_int(s->d, "EVENT_LOG_MAX_ROTATIONS", 1),
		};
		ks_userlog_parse_opts(opts_text, KS_USERLOG_GLOBAL_DEFAULT_OPTS,
				      &g.opts, NULL);
		free(opts_text);
		if (ks_userlog_write_global(&g, p->global, p->glen, &err))
			ks_log_printf(s->d->log, KS_D_ALWAYS,
				      "cannot write EVENT_LOG: %s", err.msg);
	}
}

static void emit(struct sc_schedd *s, struct sc_job *j,
		 struct ks_userlog_event *ev)
{
	struct ks_err err = {0};
	struct pending *p = ks_xcalloc(1, sizeof(*p));
	p->cluster = j->cluster;
	p->proc = j->proc;
	char *log = classad_eval_string_dup(j->ad, "UserLog");
	if (log && *log) {
		char *iwd = classad_eval_string_dup(j->ad, "Iwd");
		p->log = ks_path_in(iwd ? iwd : "/", log);
		free(iwd);
		p->owner = ks_xstrdup(j->owner);
		char *opts_text = ks_config_get(s->d->cfg,
						"DEFAULT_USERLOG_FORMAT_OPTIONS",
						NULL);
		p->opts = KS_USERLOG_DEFAULT_OPTS;
		ks_userlog_parse_opts(opts_text, KS_USERLOG_DEFAULT_OPTS,
				      &p->opts, NULL);
		free(opts_text);
		char *attrs = classad_eval_string_dup(j->ad,
						      "JobAdInformationAttrs");
		p->text = format_two(ev, j, attrs, p->opts, &p->len, &err);
		free(attrs);
		if (!p->text) {
			ks_log_printf(s->d->log, KS_D_ALWAYS,
				      "job %d.%d: cannot write its event log: "
				      "%s",
				      j->cluster, j->proc, err.msg);
			free(p->log);
			p->log = NULL;
		}
	}
	free(log);
	if (s->event_log) {
		char *opts_text =
			ks_config_get(s->d->cfg, "EVENT_LOG_FORMAT_OPTIONS", NULL);
		unsigned opts = KS_USERLOG_GLOBAL_DEFAULT_OPTS;
		ks_userlog_parse_opts(opts_text, KS_USERLOG_GLOBAL_DEFAULT_OPTS,
				      &opts, NULL);
		free(opts_text);
		char *attrs = ks_config_get(
			s->d->cfg, "EVENT_LOG_JOB_AD_INFORMATION_ATTRS", NULL);
		p->global = format_two(ev, j, attrs, opts, &p->glen, &err);
		free(attrs);
		if (!p->global)
			ks_log_printf(s->d->log, KS_D_ALWAYS,
				      "cannot write EVENT_LOG: %s", err.msg);
	}
	if (!p->log && !p->global) {
		drop_pending(p);
		return;
	}
	sc_queue_after(s, write_pending, p, drop_pending);
}

static void init(struct ks_userlog_event *ev, enum ks_userlog_type t,
		 const struct sc_job *j)
{
	ks_userlog_event_init(ev, t, j->cluster, j->proc);
}

void sc_event_submit(struct sc_schedd *s, struct sc_job *j,
		     const char *warnings)
{
	struct ks_userlog_event ev;
	init(&ev, KS_USERLOG_SUBMIT, j);
	ev.submit_host = s->d->sinful;
	char *notes = classad_eval_string_dup(j->ad, "SubmitEventNotes");
	char *user_notes = classad_eval_string_dup(j->ad,
						   "SubmitEventUserNotes");
	classad *structured = ks_userlog_notes_ad(j->ad);
	ev.notes = notes;
	ev.user_notes = user_notes;
	ev.structured_notes = structured;
	ev.warnings = warnings;
	emit(s, j, &ev);
	classad_free(structured);
	free(notes);
	free(user_notes);
}

void sc_event_execute(struct sc_schedd *s, struct sc_job *j,
		      const char *host, const char *slot)
{
	struct ks_userlog_event ev;
	init(&ev, KS_USERLOG_EXECUTE, j);
	ev.execute_host = host;
	ev.slot_name = slot;
	emit(s, j, &ev);
}

static void usage_of(struct ks_userlog_event *ev, const struct sc_job *j,
		     const classad *res)
{
	double u = 0, sy = 0;
	if (res) {
		classad_eval_real(res, "RemoteUserCpu", NULL, &u);
		classad_eval_real(res, "RemoteSysCpu", NULL, &sy);
	}
	ev->run_remote.user_secs = (int64_t)u;
	ev->run_remote.sys_secs = (int64_t)sy;
	u = sy = 0;
	classad_eval_real(j->ad, "CumulativeRemoteUserCpu", NULL, &u);
	classad_eval_real(j->ad, "CumulativeRemoteSysCpu", NULL, &sy);
	ev->total_remote.user_secs = (int64_t)u;
	ev->total_remote.sys_secs = (int64_t)sy;
}

void sc_event_terminated(struct sc_schedd *s, struct sc_job *j,
			 const classad *result)
{
	struct ks_userlog_event ev;
	init(&ev, KS_USERLOG_TERMINATED, j);
	bool sig = false;
	classad_eval_bool(j->ad, "ExitBySignal", NULL, &sig);
	int64_t v = 0;
	ev.normal = !sig;
	if (sig) {
		classad_eval_int(j->ad, "ExitSignal", NULL, &v);
		ev.signal = (int)v;
	} else {
		classad_eval_int(j->ad, "ExitCode", NULL, &v);
		ev.return_value = (int)v;
	}
	usage_of(&ev, j, result);
	classad *usage = ks_userlog_usage_ad(j->ad);
	ev.usage = usage;
	emit(s, j, &ev);
	classad_free(usage);
}

void sc_event_evicted(struct sc_schedd *s, struct sc_job *j,
		      const classad *result)
{
	struct ks_userlog_event ev;
	init(&ev, KS_USERLOG_EVICTED, j);
	usage_of(&ev, j, result);
	char *how = NULL;
	if (result)
		classad_eval_string(result, "JobExitReason", NULL, &how);
	if (how && (strcmp(how, "exited") == 0 || strcmp(how, "signaled") == 0)) {
		/* it ended but its OnExitRemove sent it back to the queue */
		ev.requeued = true;
		int64_t v = 0;
		ev.normal = strcmp(how, "exited") == 0;
		classad_eval_int(result, ev.normal ? "ExitCode" : "ExitSignal",
				 NULL, &v);
		if (ev.normal)
			ev.return_value = (int)v;
		else
			ev.signal = (int)v;
	}
	free(how);
	classad *usage = ks_userlog_usage_ad(j->ad);
	ev.usage = usage;
	emit(s, j, &ev);
	classad_free(usage);
}

void sc_event_aborted(struct sc_schedd *s, struct sc_job *j,
		      const char *reason)
{
	struct ks_userlog_event ev;
	init(&ev, KS_USERLOG_ABORTED, j);
	ev.reason = reason;
	emit(s, j, &ev);
}

void sc_event_held(struct sc_schedd *s, struct sc_job *j, const char *reason,
		   int code, int subcode)
{
	struct ks_userlog_event ev;
	init(&ev, KS_USERLOG_HELD, j);
	ev.reason = reason;
	ev.code = code;
	ev.subcode = subcode;
	emit(s, j, &ev);
}

void sc_event_released(struct sc_schedd *s, struct sc_job *j,
		       const char *reason)
{
	struct ks_userlog_event ev;
	init(&ev, KS_USERLOG_RELEASED, j);
	ev.reason = reason;
	emit(s, j, &ev);
}

void sc_event_disconnected(struct sc_schedd *s, struct sc_job *j,
			   const char *slot, const char *startd,
			   const char *reason)
{
	struct ks_userlog_event ev;
	init(&ev, KS_USERLOG_DISCONNECTED, j);
	ev.startd_name = slot;
	ev.startd_addr = startd;
	ev.reason = reason;
	emit(s, j, &ev);
}

void sc_event_reconnected(struct sc_schedd *s, struct sc_job *j,
			  const char *slot, const char *startd)
{
	struct ks_userlog_event ev;
	init(&ev, KS_USERLOG_RECONNECTED, j);
	ev.startd_name = slot;
	ev.startd_addr = startd;
	/* the starter has no address of its own: the startd speaks for it */
	ev.starter_addr = startd;
	emit(s, j, &ev);
}

void sc_event_reconnect_failed(struct sc_schedd *s, struct sc_job *j,
			       const char *slot, const char *reason)
{
	struct ks_userlog_event ev;
	init(&ev, KS_USERLOG_RECONNECT_FAILED, j);
	ev.startd_name = slot;
	ev.reason = reason;
	emit(s, j, &ev);
}

void sc_event_file_transfer(struct sc_schedd *s, struct sc_job *j, int xfer,
			    const char *host)
{
	struct ks_userlog_event ev;
	init(&ev, KS_USERLOG_FILE_TRANSFER, j);
	ev.xfer = (enum ks_userlog_xfer)xfer;
	ev.xfer_host = host;
	emit(s, j, &ev);
}

void sc_event_suspended(struct sc_schedd *s, struct sc_job *j, int num_pids)
{
	struct ks_userlog_event ev;
	init(&ev, KS_USERLOG_SUSPENDED, j);
	ev.num_pids = num_pids;
	emit(s, j, &ev);
}

void sc_event_unsuspended(struct sc_schedd *s, struct sc_job *j)
{
	struct ks_userlog_event ev;
	init(&ev, KS_USERLOG_UNSUSPENDED, j);
	emit(s, j, &ev);
}

void sc_event_image_size(struct sc_schedd *s, struct sc_job *j,
			 int64_t image_kb, int64_t memory_mb, int64_t rss_kb)
{
	struct ks_userlog_event ev;
	init(&ev, KS_USERLOG_IMAGE_SIZE, j);
	ev.image_size_kb = image_kb;
	ev.memory_usage_mb = memory_mb;
	ev.rss_kb = rss_kb < 0 ? 0 : rss_kb;
	emit(s, j, &ev);
}
