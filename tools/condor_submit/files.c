/* files.c: the submit commands of a job's helpers that HTCondor 25's
 * condor_submit handles with rules of their own: the java VM's arguments
 * and the tool daemon's program, streams and arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "ks_text.h"
#include "ks_jobad.h"
#include "submit.h"

/* ---- more argument lists -------------------------------------------- */

/* A list of arguments given as the commands old (a former name), v1
 * (either syntax; alt its other name) and v2 (the quoted new syntax
 * only), as HTCondor reads java_vm_arguments and tool_daemon_arguments:
 * old and v1 not both; v1 and v2 both only with allow_arguments_v1, and
 * then v2 wins.  The old syntax goes to attr1 as written, the new (when
 * not empty) to attr2 re-joined.  The messages name them as HTCondor's
 * do. */
struct more_args {
	const char *old, *v1, *alt, *v2;
	const char *attr1, *attr2;
	const char *both; /* old and v1 both given */
	const char *what; /* "tool daemon arguments" */
	const char *were; /* "The arguments you specified were: " */
};

static const struct more_args tdp_args = {
	"tool_daemon_args", "tool_daemon_arguments", "ToolDaemonArgs",
	"tool_daemon_arguments2", "ToolDaemonArgs", "ToolDaemonArguments",
	"you specified both tdp_daemon_args and tdp_daemon_arguments",
	"tool daemon arguments", "The arguments you specified were: "};

static const struct more_args java_args = {
	"java_vm_args", "java_vm_arguments", "JavaVMArgs", "java_vm_arguments2",
	"JavaVMArgs", "JavaVMArguments",
	"you specified a value for both java_vm_args and java_vm_arguments.",
	"java VM arguments", "The full arguments you specified were "};

static int put_more_args(const struct sub_job_ctx *c, classad *ad,
			 const struct more_args *m, struct ks_err *err)
{
	char *old = sub_param(c, m->old, NULL);
	char *ext = sub_param(c, m->v1, m->alt);
	char *v2 = sub_param(c, m->v2, NULL);
	bool allow_v1 = false;
	int rc;
	if ((rc = sub_param_bool(c, "allow_arguments_v1", NULL, false,
				 &allow_v1, err)))
		goto out;
	if (old && ext) {
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0, "%s", m->both);
		goto out;
	}
	const char *v1 = ext ? ext : old;
	if (v1 && v2 && !allow_v1) {
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"If you wish to specify both '%s' and\n'%s' for "
				"maximal compatibility with different\nversions "
				"of Condor, then you must also specify\n"
				"allow_arguments_v1=true.", m->v1, m->v2);
		goto out;
	}
	const char *v = v2 ? v2 : v1;
	if (!v)
		goto out;
	if (!ks_jobad_args_is_v2_quoted(v)) {
		if (v2)
			rc = ks_err_set(err, KS_EPARSE, 0, 0, 0,
					"failed to parse %s: Expecting "
					"double-quoted input string (V2 format)."
					"\n%s%s", m->what, m->were, v);
		else
			classad_insert_string(ad, m->attr1, v);
		goto out;
	}
	char *joined;
	if (sub_args_v2(v, &joined))
		rc = ks_err_set(err, KS_EPARSE, 0, 0, 0,
				"failed to parse %s: Unterminated "
				"double-quote.\n%s%s", m->what, m->were, v);
	else if (joined)
		classad_insert_string(ad, m->attr2, joined);
	free(joined);
out:
	free(old);
	free(ext);
	free(v2);
	return rc;
}

int sub_set_java_vm_args(const struct sub_job_ctx *c, classad *ad,
			 struct ks_err *err)
{
	return put_more_args(c, ad, &java_args, err);
}

/* ---- the tool daemon ------------------------------------------------- */

int sub_set_tdp(const struct sub_job_ctx *c, classad *ad,
		struct ks_err *err)
{
	char *cmd = sub_param(c, "tool_daemon_cmd", "ToolDaemonCmd");
	if (!cmd)
		return 0; /* the other commands mean nothing without it */
	static const char *const files[][2] = {
		{"tool_daemon_input", "ToolDaemonInput"},
		{"tool_daemon_output", "ToolDaemonOutput"},
		{"tool_daemon_error", "ToolDaemonError"}};
	classad_insert_string(ad, "ToolDaemonCmd", cmd);
	free(cmd);
	for (size_t i = 0; i < 3; i++) {
		char *v = sub_param(c, files[i][0], files[i][1]);
		if (v)
			classad_insert_string(ad, files[i][1], v);
		free(v);
	}
	char *susp = sub_param(c, "suspend_job_at_exec", "SuspendJobAtExec");
	bool b;
	int rc = 0;
	if (susp) {
		if (!sub_value_bool(susp, &b))
			rc = sub_bad_bool(err, "suspend_job_at_exec", susp);
		else
			classad_insert_bool(ad, "SuspendJobAtExec", b);
		free(susp);
		if (rc)
			return rc;
	}
	return put_more_args(c, ad, &tdp_args, err);
}
