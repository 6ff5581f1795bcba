/* base.c: what every job ad of a submission starts with, as HTCondor's
 * condor_submit makes its base job ad (submit.h), and the SUBMIT_ATTRS
 * knobs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "ks_text.h"
#include "ks_version.h"
#include "submit.h"

/* The counters a job starts with, which the schedd keeps up as the job
 * runs (reals for the times that add up to a fraction). */
static const char *const real_zero[] = {
	"RemoteWallClockTime", "RemoteUserCpu", "RemoteSysCpu",
	"CumulativeRemoteUserCpu", "CumulativeRemoteSysCpu"};
static const char *const int_zero[] = {
	"ExitStatus",	     "NumCkpts",	  "NumJobStarts",
	"NumJobCompletions", "NumRestarts",	  "NumSystemHolds",
	"CommittedTime",     "CommittedSlotTime", "CumulativeSlotTime",
	"TotalSuspensions",  "LastSuspensionTime", "CumulativeSuspensionTime",
	"CommittedSuspensionTime"};

/* A knob the lists name (not memoized: sub_knob() keeps the names it is
 * given, and these live in the list read). */
static char *named_knob(const struct sub_job_ctx *c, const char *name)
{
	return c->cfg ? ks_config_get(c->cfg, name, NULL) : NULL;
}

/* The knobs whose lists name the attributes to copy into every job. */
static const char *const attr_lists[] = {"SUBMIT_ATTRS", "SUBMIT_EXPRS",
					 "SYSTEM_SUBMIT_ATTRS"};

/* Calls fn for each name of the attr_lists knobs (names separated by
 * commas and blanks); stops at fn's first error. */
static int each_submit_attr(const struct sub_job_ctx *c,
			    int (*fn)(const struct sub_job_ctx *c, classad *ad,
				      const char *name, struct ks_err *err),
			    classad *ad, struct ks_err *err)
{
	int rc = 0;
	for (size_t k = 0; k < sizeof(attr_lists) / sizeof(*attr_lists) && !rc;
	     k++) {
		char *list = sub_knob(c, attr_lists[k]);
		for (char *cur = list, *n; !rc && (n = ks_list_cut(&cur));)
			rc = fn(c, ad, n, err);
		free(list);
	}
	return rc;
}

/* A knob named without + or MY.: its value as an expression, or nothing
 * when it is unset or no expression (HTCondor only logs that). */
static int plain_attr(const struct sub_job_ctx *c, classad *ad,
		      const char *name, struct ks_err *err)
{
	(void)err;
	if (*name == '+' || !strncasecmp(name, "MY.", 3))
		return 0;
	char *v = named_knob(c, name);
	classad_expr *e = v ? sub_parse_expr(c, v) : NULL;
	if (e)
		classad_insert(ad, name, e);
	free(v);
	return 0;
}

/* One named with + or MY.: the knob of the name that follows, which must
 * be an expression. */
static int forced_attr(const struct sub_job_ctx *c, classad *ad,
		       const char *name, struct ks_err *err)
{
	const char *attr = *name == '+'			  ? name + 1
			   : !strncasecmp(name, "MY.", 3) ? name + 3
							  : NULL;
	if (!attr || !*attr)
		return 0;
	char *v = named_knob(c, attr);
	classad_expr *e = v ? sub_parse_expr(c, v) : NULL;
	int rc = 0;
	if (e) {
		classad_insert(ad, attr, e);
	} else if (v) {
		struct ks_err why = {0};
		classad_expr_free(classad_parse_expr(v, strlen(v), &why));
		rc = sub_expr_error(err, 0, "the configuration (SUBMIT_ATTRS)",
				    attr, v, &why);
	}
	free(v);
	return rc;
}

void sub_set_base(const struct sub_job_ctx *c, classad *ad)
{
	classad_insert_string(ad, "MyType", "Job");
	/* (for schedds before HTCondor 23) */
	classad_insert_string(ad, "TargetType", "Machine");
	classad_insert_int(ad, "QDate", c->qdate);
	/* condor_submit's own number among the ways to submit */
	classad_insert_int(ad, "JobSubmitMethod", 0);
	/* the schedd sets the owner, from who the submitter proved to be;
	 * the pre-8.9.5 way only when asked for */
	if (sub_knob_bool(c, "SUBMIT_SHOULD_SET_LOCAL_OWNER", false) &&
	    c->user && *c->user)
		classad_insert_string(ad, "Owner", c->user);
	else
		classad_insert_text(ad, "Owner", "undefined", NULL);
	for (size_t i = 0; i < sizeof(real_zero) / sizeof(*real_zero); i++)
		classad_insert_real(ad, real_zero[i], 0.0);
	for (size_t i = 0; i < sizeof(int_zero) / sizeof(*int_zero); i++)
		classad_insert_int(ad, int_zero[i], 0);
	classad_insert_bool(ad, "ExitBySignal", false);
	each_submit_attr(c, plain_attr, ad, NULL);
	/* the schedd is kestrel's own, of the same version */
	classad_insert_string(ad, "CondorVersion", KS_CONDOR_VERSION);
	classad_insert_string(ad, "SubmitVersion", KS_CONDOR_VERSION);
	classad_insert_string(ad, "CondorPlatform", KS_CONDOR_PLATFORM);
}

int sub_set_forced_submit_attrs(const struct sub_job_ctx *c, classad *ad,
				struct ks_err *err)
{
	return each_submit_attr(c, forced_attr, ad, err);
}
