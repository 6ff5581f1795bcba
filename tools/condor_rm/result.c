/*
 * result.c: what the schedd's ACT_ON_JOBS answer means to the user, in
 * HTCondor's words (dc_schedd.cpp, JobActionResults::getResultString).
 */
#include <stdlib.h>
#include <string.h>

#include "act.h"
#include "ks_mem.h"
#include "tfmt.h"

/* The schedd's codes (docs/schedd.md), which are HTCondor's. */
enum { AR_SUCCESS = 1, AR_NOT_FOUND = 2, AR_PERMISSION_DENIED = 3,
       AR_BAD_STATUS = 4, AR_ALREADY_DONE = 5 };

const char *act_word(enum act_mode mode, bool past)
{
	switch (mode) {
	case ACT_REMOVE: return past ? "marked for removal" : "remove";
	case ACT_REMOVE_X:
		return past ? "removed locally (remote state unknown)" : "remove";
	case ACT_HOLD: return past ? "held" : "hold";
	case ACT_RELEASE: return past ? "released" : "release";
	}
	return "";
}

const char *act_action_name(enum act_mode mode)
{
	switch (mode) {
	case ACT_REMOVE: return "Remove";
	case ACT_REMOVE_X: return "RemoveX";
	case ACT_HOLD: return "Hold";
	case ACT_RELEASE: return "Release";
	}
	return "";
}

char *act_result_message(enum act_mode mode, int cluster, int proc, int code,
			 bool *ok)
{
	struct classad_buf b = {0};
	*ok = false;
	switch (code) {
	case AR_SUCCESS:
		classad_buf_printf(&b, "Job %d.%d %s", cluster, proc,
				   act_word(mode, true));
		*ok = true;
		break;
	case AR_NOT_FOUND:
		classad_buf_printf(&b, "Job %d.%d not found", cluster, proc);
		break;
	case AR_PERMISSION_DENIED:
		classad_buf_printf(&b, "Permission denied to %s job %d.%d",
				   mode == ACT_REMOVE_X ? "force removal of"
							: act_word(mode, false),
				   cluster, proc);
		break;
	case AR_BAD_STATUS:
		if (mode == ACT_RELEASE)
			classad_buf_printf(&b, "Job %d.%d not held to be released",
					   cluster, proc);
		else if (mode == ACT_REMOVE_X)
			classad_buf_printf(&b, "Job %d.%d not in `X' state to be forcibly removed",
					   cluster, proc);
		else
			classad_buf_printf(&b, "Invalid result for job %d.%d",
					   cluster, proc);
		break;
	case AR_ALREADY_DONE:
		if (mode == ACT_HOLD)
			classad_buf_printf(&b, "Job %d.%d already held", cluster,
					   proc);
		else if (mode == ACT_REMOVE)
			classad_buf_printf(&b, "Job %d.%d already marked for removal",
					   cluster, proc);
		else if (mode == ACT_REMOVE_X)
			classad_buf_printf(&b, "Job %d.%d already marked for forced removal",
					   cluster, proc);
		else
			classad_buf_printf(&b, "Invalid result for job %d.%d",
					   cluster, proc);
		break;
	default:
		classad_buf_printf(&b, "No result found for job %d.%d", cluster,
				   proc);
		break;
	}
	return b.data;
}

bool act_succeeded(const classad *result)
{
	/* HTCondor's schedd answers ActionResult 1 when any job was acted
	 * on; kestrel's says whether all were, so the count decides */
	long long n;
	if (tf_ad_int(result, "TotalSuccess", &n))
		return n > 0;
	return tf_ad_int(result, "ActionResult", &n) && n != 0;
}

void act_print_id_results(FILE *out, FILE *err, enum act_mode mode,
			  const classad *result, const struct qt_idlist *ids,
			  bool *had_error)
{
	if (!act_succeeded(result))
		*had_error = true;
	for (size_t i = 0; i < ids->n; i++) {
		int c = ids->v[i].cluster, p = ids->v[i].proc;
		char attr[64];
		if (p < 0)
			snprintf(attr, sizeof attr, "cluster_%d", c);
		else
			snprintf(attr, sizeof attr, "job_%d_%d", c, p);
		long long code = 0;
		tf_ad_int(result, attr, &code);
		bool ok;
		char *msg = act_result_message(mode, c, p, (int)code, &ok);
		fprintf(ok ? out : err, "%s\n", msg);
		free(msg);
	}
}

void act_print_totals(FILE *out, const classad *result)
{
	static const char *const attrs[] = {
		"TotalSuccess", "TotalError", "TotalNotFound", "TotalBadStatus",
		"TotalAlreadyDone", "TotalPermissionDenied"};
	long long v[6] = {0};
	for (int i = 0; i < 6; i++)
		tf_ad_int(result, attrs[i], &v[i]);
	fprintf(out, "%lld Succeeded, %lld Failed, %lld Not Found, %lld Bad Status, %lld Already Done, %lld Permission Denied\n",
		v[0], v[1], v[2], v[3], v[4], v[5]);
}
