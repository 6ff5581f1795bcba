/*
 * ad.c: the ads that job events carry or are turned into.
 *
 * The usage table of events 004/005, the structured notes of 000/035 and
 * the 028 "job ad information" event are all built from the job ad by
 * HTCondor's shadow and schedd; these functions build them the same way so
 * that the schedd only has to hand over the job ad.
 */
#include "ks_userlog.h"
#include "userlog_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "ks_text.h"

/* Calls fn for each word of list, words separated by commas and white
 * space as HTCondor's StringTokenIterator separates them. */
static void each_word(const char *list, void (*fn)(const char *w, void *arg),
		      void *arg)
{
	size_t pos = 0, n;
	for (const char *p; (p = ks_list_next(list, &pos, &n));) {
		char *w = ks_xstrndup(p, n);
		fn(w, arg);
		free(w);
	}
}

/* ---- usage ad ------------------------------------------------------------ */

struct usage_ctx {
	const classad *job;
	classad *ad;
};

/* Copies the evaluated value of job's attribute from into ad as to, when
 * it is one of the kinds HTCondor's shadow copies (numbers, booleans,
 * errors). */
static void copy_number(struct usage_ctx *c, const char *from, const char *to)
{
	classad_value v = CLASSAD_VALUE_INIT;
	if (classad_eval_attr(c->job, from, NULL, &v) == 0 &&
	    (v.type == CLASSAD_ERROR || v.type == CLASSAD_BOOLEAN ||
	     v.type == CLASSAD_INTEGER || v.type == CLASSAD_REAL))
		classad_insert_value(c->ad, to, &v);
	classad_value_clear(&v);
}

static void usage_resource(const char *resname, void *arg)
{
	struct usage_ctx *c = arg;
	if (!c->ad)
		c->ad = classad_new();
	/* "gpus" and "GPUs" print as "Gpus", as HTCondor's title_case(). */
	char *res = ks_xstrdup(resname);
	for (size_t i = 0; res[i]; i++) {
		if (i == 0 && res[i] >= 'a' && res[i] <= 'z')
			res[i] = (char)(res[i] - 'a' + 'A');
		else if (i > 0 && res[i] >= 'A' && res[i] <= 'Z')
			res[i] = (char)(res[i] - 'A' + 'a');
	}
	size_t n = strlen(res) + 32;
	char *a = ks_xmalloc(n);
	snprintf(a, n, "%sProvisioned", res);
	copy_number(c, a, resname);
	snprintf(a, n, "Request%s", res);
	copy_number(c, a, a);
	snprintf(a, n, "%sUsage", res);
	copy_number(c, a, a);
	snprintf(a, n, "%sAverageUsage", res);
	copy_number(c, a, a);
	snprintf(a, n, "%sMemoryUsage", res);
	copy_number(c, a, a);
	snprintf(a, n, "%sMemoryAverageUsage", res);
	copy_number(c, a, a);
	snprintf(a, n, "Assigned%s", res);
	const classad_expr *e = classad_lookup(c->job, a);
	if (e)
		classad_insert(c->ad, a, classad_expr_ref(e));
	free(a);
	free(res);
}

classad *ks_userlog_usage_ad(const classad *job)
{
	struct usage_ctx c = {job, NULL};
	char *list = NULL;
	if (!classad_eval_string(job, "ProvisionedResources", NULL, &list))
		list = ks_xstrdup("Cpus, Disk, Memory");
	each_word(list, usage_resource, &c);
	free(list);
	if (!c.ad)
		return NULL;
	int64_t i;
	if (classad_eval_int(job, "ActivationExecutionDuration", NULL, &i))
		classad_insert_int(c.ad, "TimeExecuteUsage", i);
	if (classad_eval_int(job, "ActivationDuration", NULL, &i))
		classad_insert_int(c.ad, "TimeSlotBusyUsage", i);
	return c.ad;
}

/* ---- structured notes ---------------------------------------------------- */

static void note_attr(const char *name, void *arg)
{
	struct usage_ctx *c = arg;
	classad_value v = CLASSAD_VALUE_INIT;
	if (classad_eval_attr(c->job, name, NULL, &v) == 0 &&
	    v.type != CLASSAD_UNDEFINED && v.type != CLASSAD_ERROR) {
		if (!c->ad)
			c->ad = classad_new();
		classad_insert_value(c->ad, name, &v);
	}
	classad_value_clear(&v);
}

classad *ks_userlog_notes_ad(const classad *job)
{
	struct usage_ctx c = {job, NULL};
	char *list = NULL;
	if (classad_eval_string(job, "SubmitEventNotesAttrs", NULL, &list))
		each_word(list, note_attr, &c);
	free(list);
	each_word("DAGNodeName,JobBatchName", note_attr, &c);
	if (c.ad && classad_size(c.ad) == 0) {
		classad_free(c.ad);
		c.ad = NULL;
	}
	return c.ad;
}

/* ---- an event as an ad ------------------------------------------------- */

static void put_str(classad *ad, const char *name, const char *s)
{
	if (s && *s)
		classad_insert_string(ad, name, s);
}

static void put_ad(classad *ad, const char *name, const classad *nested)
{
	if (!nested || classad_size(nested) == 0)
		return;
	char *text = classad_unparse(nested, CLASSAD_FMT_NEW);
	if (text)
		classad_insert_text(ad, name, text, NULL);
	free(text);
}

static void put_cpu(classad *ad, const char *name,
		    const struct ks_userlog_cpu *c)
{
	struct classad_buf b = {0};
	ul_add_cpu(&b, c);
	classad_insert_string(ad, name, b.data);
	free(b.data);
}

classad *ks_userlog_event_ad(const struct ks_userlog_event *ev, bool utc)
{
	classad *ad = classad_new();
	const char *my_type = ul_my_type(ev->type);
	classad_insert_int(ad, "EventTypeNumber", ev->type);
	classad_insert_string(ad, "MyType", my_type ? my_type : "FutureEvent");
	char when[64];
	ul_iso_time(when, sizeof(when), ev->time, ev->usec, utc);
	classad_insert_string(ad, "EventTime", when);
	if (ev->cluster >= 0)
		classad_insert_int(ad, "Cluster", ev->cluster);
	if (ev->proc >= 0)
		classad_insert_int(ad, "Proc", ev->proc);
	if (ev->subproc >= 0)
		classad_insert_int(ad, "Subproc", ev->subproc);

	switch (ev->type) {
	case KS_USERLOG_SUBMIT:
		put_str(ad, "SubmitHost", ev->submit_host);
		put_str(ad, "LogNotes", ev->notes);
		put_str(ad, "UserNotes", ev->user_notes);
		put_str(ad, "Warnings", ev->warnings);
		put_ad(ad, "StructuredNotes", ev->structured_notes);
		break;
	case KS_USERLOG_EXECUTE:
		put_str(ad, "ExecuteHost", ev->execute_host);
		put_str(ad, "SlotName", ev->slot_name);
		put_ad(ad, "ExecuteProps", ev->execute_props);
		break;
	case KS_USERLOG_EVICTED:
		classad_insert_bool(ad, "Checkpointed", ev->checkpointed);
		put_cpu(ad, "RunLocalUsage", &ev->run_local);
		put_cpu(ad, "RunRemoteUsage", &ev->run_remote);
		classad_insert_real(ad, "SentBytes", ev->sent_bytes);
		classad_insert_real(ad, "ReceivedBytes", ev->recvd_bytes);
		classad_insert_bool(ad, "TerminatedAndRequeued", ev->requeued);
		/* Outside a requeue HTCondor leaves the exit unset. */
		classad_insert_bool(ad, "TerminatedNormally",
				    ev->requeued && ev->normal);
		if (ev->requeued && ev->normal)
			classad_insert_int(ad, "ReturnValue", ev->return_value);
		if (ev->requeued && !ev->normal)
			classad_insert_int(ad, "TerminatedBySignal", ev->signal);
		put_str(ad, "Reason", ev->reason);
		if (ev->code != 0)
			classad_insert_int(ad, "ReasonCode", ev->code);
		if (ev->subcode != 0)
			classad_insert_int(ad, "ReasonSubCode", ev->subcode);
		put_str(ad, "CoreFile", ev->core_file);
		break;
	case KS_USERLOG_TERMINATED:
		if (ev->usage)
			classad_update(ad, ev->usage);
		classad_insert_bool(ad, "TerminatedNormally", ev->normal);
		if (ev->normal)
			classad_insert_int(ad, "ReturnValue", ev->return_value);
		else
			classad_insert_int(ad, "TerminatedBySignal", ev->signal);
		put_str(ad, "CoreFile", ev->core_file);
		put_cpu(ad, "RunLocalUsage", &ev->run_local);
		put_cpu(ad, "RunRemoteUsage", &ev->run_remote);
		put_cpu(ad, "TotalLocalUsage", &ev->total_local);
		put_cpu(ad, "TotalRemoteUsage", &ev->total_remote);
		classad_insert_real(ad, "SentBytes", ev->sent_bytes);
		classad_insert_real(ad, "ReceivedBytes", ev->recvd_bytes);
		classad_insert_real(ad, "TotalSentBytes", ev->total_sent_bytes);
		classad_insert_real(ad, "TotalReceivedBytes",
				    ev->total_recvd_bytes);
		break;
	case KS_USERLOG_IMAGE_SIZE:
		if (ev->image_size_kb >= 0)
			classad_insert_int(ad, "Size", ev->image_size_kb);
		if (ev->memory_usage_mb >= 0)
			classad_insert_int(ad, "MemoryUsage",
					   ev->memory_usage_mb);
		if (ev->rss_kb >= 0)
			classad_insert_int(ad, "ResidentSetSize", ev->rss_kb);
		if (ev->pss_kb >= 0)
			classad_insert_int(ad, "ProportionalSetSize",
					   ev->pss_kb);
		break;
	case KS_USERLOG_SHADOW_EXCEPTION:
		classad_insert_string(ad, "Message",
				      ev->reason ? ev->reason : "");
		classad_insert_real(ad, "SentBytes", ev->sent_bytes);
		classad_insert_real(ad, "ReceivedBytes", ev->recvd_bytes);
		break;
	case KS_USERLOG_GENERIC:
		put_str(ad, "Info", ev->info);
		break;
	case KS_USERLOG_ABORTED:
	case KS_USERLOG_RELEASED:
		put_str(ad, "Reason", ev->reason);
		break;
	case KS_USERLOG_SUSPENDED:
		classad_insert_int(ad, "NumberOfPIDs", ev->num_pids);
		break;
	case KS_USERLOG_UNSUSPENDED:
		break;
	case KS_USERLOG_HELD:
		put_str(ad, "HoldReason", ev->reason);
		classad_insert_int(ad, "HoldReasonCode", ev->code);
		classad_insert_int(ad, "HoldReasonSubCode", ev->subcode);
		break;
	case KS_USERLOG_DISCONNECTED:
		put_str(ad, "StartdAddr", ev->startd_addr);
		put_str(ad, "StartdName", ev->startd_name);
		put_str(ad, "DisconnectReason", ev->reason);
		classad_insert_string(ad, "EventDescription",
				      "Job disconnected, attempting to "
				      "reconnect");
		break;
	case KS_USERLOG_RECONNECTED:
		put_str(ad, "StartdAddr", ev->startd_addr);
		put_str(ad, "StartdName", ev->startd_name);
		put_str(ad, "StarterAddr", ev->starter_addr);
		classad_insert_string(ad, "EventDescription", "Job reconnected");
		break;
	case KS_USERLOG_RECONNECT_FAILED:
		put_str(ad, "StartdName", ev->startd_name);
		put_str(ad, "Reason", ev->reason);
		classad_insert_string(ad, "EventDescription",
				      "Job reconnect impossible: rescheduling "
				      "job");
		break;
	case KS_USERLOG_JOB_AD_INFO:
		if (ev->info_ad) {
			size_t n;
			struct ul_attr *v = ul_attrs_sorted(
				ev->info_ad, true, UL_ORDER_BYTES, &n);
			for (size_t i = 0; i < n; i++)
				if (!classad_lookup(ad, v[i].name))
					classad_insert(ad, v[i].name,
						       classad_expr_ref(v[i].e));
			free(v);
		}
		classad_insert_string(ad, "MyType", "JobAdInformationEvent");
		break;
	case KS_USERLOG_ATTRIBUTE_UPDATE:
		put_str(ad, "Attribute", ev->attr_name);
		put_str(ad, "Value", ev->attr_value);
		break;
	case KS_USERLOG_CLUSTER_SUBMIT:
		put_str(ad, "SubmitHost", ev->submit_host);
		put_ad(ad, "StructuredNotes", ev->structured_notes);
		break;
	case KS_USERLOG_CLUSTER_REMOVE:
		put_str(ad, "Notes", ev->notes);
		classad_insert_int(ad, "NextProcId", ev->next_proc_id);
		classad_insert_int(ad, "NextRow", ev->next_row);
		classad_insert_int(ad, "Completion", ev->completion);
		break;
	case KS_USERLOG_FILE_TRANSFER:
		classad_insert_int(ad, "Type", ev->xfer);
		if (ev->queueing_delay >= 0)
			classad_insert_int(ad, "QueueingDelay",
					   ev->queueing_delay);
		put_str(ad, "Host", ev->xfer_host);
		break;
	}
	return ad;
}

/* ---- the 028 event ----------------------------------------------------- */

struct info_ctx {
	const classad *job;
	classad *ad;
};

/* HTCondor copies only what evaluates to a boolean, number or string. */
static void info_attr(const char *name, void *arg)
{
	struct info_ctx *c = arg;
	classad_value v = CLASSAD_VALUE_INIT;
	if (classad_eval_attr(c->job, name, NULL, &v) == 0 &&
	    (v.type == CLASSAD_BOOLEAN || v.type == CLASSAD_INTEGER ||
	     v.type == CLASSAD_REAL || v.type == CLASSAD_STRING))
		classad_insert_value(c->ad, name, &v);
	classad_value_clear(&v);
}

classad *ks_userlog_info_ad(const struct ks_userlog_event *trigger,
			    const classad *job, const char *attrs, bool utc)
{
	struct info_ctx c = {job, ks_userlog_event_ad(trigger, utc)};
	if (job)
		each_word(attrs, info_attr, &c);
	classad_insert_int(c.ad, "TriggerEventTypeNumber", trigger->type);
	const char *name = ul_number_name(trigger->type);
	classad_insert_string(c.ad, "TriggerEventTypeName",
			      name ? name : "ULOG_FUTURE_EVENT");
	classad_insert_int(c.ad, "EventTypeNumber", KS_USERLOG_JOB_AD_INFO);
	return c.ad;
}
