/*
 * job.c: reads and checks the job ad (ks_jobad.h).
 *
 * Attributes are evaluated, not just looked up, so an ad written by hand
 * with an expression (Cmd = strcat("/bin/", "echo")) works as it would in
 * HTCondor; a value of the wrong type is an error that names the
 * attribute, never a silent fallback, because a job that runs with the
 * wrong command or arguments is worse than one that does not start.
 */
#include "ks_jobad.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"

/* A job ad is a few kilobytes; this only guards against being handed
 * something that is not one. */
#define JOB_AD_MAX (16u << 20)

static const struct {
	int num;
	const char *name;
} signals[] = {
	{SIGHUP, "SIGHUP"},     {SIGINT, "SIGINT"},     {SIGQUIT, "SIGQUIT"},
	{SIGILL, "SIGILL"},     {SIGTRAP, "SIGTRAP"},   {SIGABRT, "SIGABRT"},
	{SIGBUS, "SIGBUS"},     {SIGFPE, "SIGFPE"},     {SIGKILL, "SIGKILL"},
	{SIGUSR1, "SIGUSR1"},   {SIGSEGV, "SIGSEGV"},   {SIGUSR2, "SIGUSR2"},
	{SIGPIPE, "SIGPIPE"},   {SIGALRM, "SIGALRM"},   {SIGTERM, "SIGTERM"},
	{SIGCHLD, "SIGCHLD"},   {SIGCONT, "SIGCONT"},   {SIGSTOP, "SIGSTOP"},
	{SIGTSTP, "SIGTSTP"},   {SIGTTIN, "SIGTTIN"},   {SIGTTOU, "SIGTTOU"},
	{SIGURG, "SIGURG"},     {SIGXCPU, "SIGXCPU"},   {SIGXFSZ, "SIGXFSZ"},
	{SIGVTALRM, "SIGVTALRM"}, {SIGPROF, "SIGPROF"}, {SIGWINCH, "SIGWINCH"},
	{SIGIO, "SIGIO"},       {SIGSYS, "SIGSYS"},
};

int ks_jobad_signal_number(const char *name)
{
	if (!name || !*name)
		return -1;
	if (name[strspn(name, "0123456789")] == '\0') {
		long n = strlen(name) < 4 ? strtol(name, NULL, 10) : -1;
		return n >= 1 && n < NSIG ? (int)n : -1;
	}
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++) {
		const char *full = signals[i].name;
		if (!strcasecmp(name, full) || !strcasecmp(name, full + 3))
			return signals[i].num;
	}
	return -1;
}

const char *ks_jobad_signal_name(int sig)
{
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		if (signals[i].num == sig)
			return signals[i].name;
	return NULL;
}

static char *read_file(const char *path, const char *what, size_t *len,
		       struct ks_err *err)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		ks_err_set(err, KS_EIO, 0, 0, 0, "cannot open the %s %s: %s",
			   what, path, strerror(errno));
		return NULL;
	}
	size_t cap = 8192, n = 0;
	char *text = ks_xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			if (cap >= JOB_AD_MAX) {
				ks_err_set(err, KS_EIO, 0, 0, 0,
					   "the %s %s is over %u bytes: not "
					   "a job or slot ad", what, path,
					   JOB_AD_MAX);
				goto fail;
			}
			cap *= 2;
			text = ks_xrealloc(text, cap);
		}
		size_t got = fread(text + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		ks_err_set(err, KS_EIO, 0, 0, 0, "cannot read the %s %s: %s",
			   what, path, strerror(errno));
		goto fail;
	}
	fclose(f);
	text[n] = '\0';
	*len = n;
	return text;
fail:
	fclose(f);
	free(text);
	return NULL;
}

/* What a value is, for messages: "an integer", "a list", "undefined". */
static const char *type_phrase(int type)
{
	switch (type) {
	case CLASSAD_UNDEFINED: return "undefined";
	case CLASSAD_ERROR: return "an error";
	case CLASSAD_BOOLEAN: return "a boolean";
	case CLASSAD_INTEGER: return "an integer";
	case CLASSAD_REAL: return "a real number";
	case CLASSAD_STRING: return "a string";
	case CLASSAD_LIST: return "a list";
	case CLASSAD_AD: return "a nested ClassAd";
	case CLASSAD_ABSTIME: return "an absolute time";
	default: return "a relative time";
	}
}

/* "job attribute Cmd = 5 is an integer, not a string": the expression as
 * written (shortened) and what it evaluated to. */
static int wrong_type(const classad *ad, const char *name,
		      const classad_value *v, const char *want,
		      struct ks_err *err)
{
	char *text = classad_expr_unparse(classad_lookup(ad, name), true);
	int rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
			    "job attribute %s = %.80s%s is %s, not %s", name,
			    text, strlen(text) > 80 ? "..." : "",
			    type_phrase(v->type), want);
	free(text);
	return rc;
}

/* Sets *out to a new copy of string attribute name.  Returns 1 for a
 * string, 0 if the ad does not have it, or KS_EINVAL if it holds
 * anything else (an expression that is undefined counts as anything
 * else: the ad says something, and it is not a string). */
static int get_string(const classad *ad, const char *name, char **out,
		      struct ks_err *err)
{
	*out = NULL;
	if (!classad_lookup(ad, name))
		return 0;
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, name, NULL, &v);
	size_t len;
	const char *s = classad_value_str(&v, &len);
	if (!s || strlen(s) != len) {
		int rc = s ? ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"job attribute %s holds a NUL byte",
					name)
			   : wrong_type(ad, name, &v, "a string", err);
		classad_value_clear(&v);
		return rc;
	}
	*out = ks_xstrdup(s);
	classad_value_clear(&v);
	return 1;
}

/* Integer attribute name into *out if it is one; anything else leaves
 * *out alone (these only feed totals, and HTCondor ignores bad ones). */
static void get_int(const classad *ad, const char *name, int64_t *out)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, name, NULL, &v);
	if (v.type == CLASSAD_INTEGER)
		*out = v.u.i;
	else if (v.type == CLASSAD_REAL && v.u.r == v.u.r) /* not NaN */
		*out = v.u.r >= 9.2e18	  ? INT64_MAX
		       : v.u.r <= -9.2e18 ? INT64_MIN
					  : (int64_t)v.u.r;
	classad_value_clear(&v);
}

static void get_real(const classad *ad, const char *name, double *out)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, name, NULL, &v);
	if (v.type == CLASSAD_INTEGER)
		*out = (double)v.u.i;
	else if (v.type == CLASSAD_REAL)
		*out = v.u.r;
	classad_value_clear(&v);
}

/* A standard file attribute: none, "" and /dev/null all mean none. */
static int get_std_file(const classad *ad, const char *name, char **out,
			struct ks_err *err)
{
	int rc = get_string(ad, name, out, err);
	if (rc == 1 && (!**out || !strcmp(*out, "/dev/null"))) {
		free(*out);
		*out = NULL;
	}
	return rc < 0 ? rc : 0;
}

static void read_kill_sig(const classad *ad, struct ks_jobad *job)
{
	job->kill_sig = SIGTERM;
	if (!classad_lookup(ad, "KillSig"))
		return;
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, "KillSig", NULL, &v);
	int sig = -1;
	if (v.type == CLASSAD_INTEGER)
		sig = v.u.i >= 1 && v.u.i < NSIG ? (int)v.u.i : -1;
	else if (v.type == CLASSAD_STRING)
		sig = ks_jobad_signal_number(classad_value_str(&v, NULL));
	if (sig > 0) {
		job->kill_sig = sig;
	} else {
		char *text = classad_expr_unparse(classad_lookup(ad, "KillSig"),
						  true);
		size_t n = strlen(text) + 64;
		job->kill_sig_note = ks_xmalloc(n);
		snprintf(job->kill_sig_note, n,
			 "KillSig = %s names no signal; using SIGTERM", text);
		free(text);
	}
	classad_value_clear(&v);
}

static int read_arguments(const classad *ad, struct ks_jobad *job,
			  struct ks_err *err)
{
	char *s;
	int rc = get_string(ad, "Arguments", &s, err);
	if (rc == 1) {
		struct ks_err e;
		if (ks_jobad_args_parse_v2(s, &job->args, &e))
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"job attribute Arguments: %s", e.msg);
		free(s);
		return rc < 0 ? rc : 0;
	}
	if (rc < 0)
		return rc;
	rc = get_string(ad, "Args", &s, err);
	if (rc == 1)
		ks_jobad_args_parse_v1(s, &job->args);
	free(s);
	return rc < 0 ? rc : 0;
}

static int read_environment(const classad *ad, struct ks_jobad *job,
			    struct ks_err *err)
{
	char *s;
	struct ks_err e;
	int rc = get_string(ad, "Environment", &s, err);
	if (rc == 1) {
		if (ks_jobad_env_merge_v2(&job->env, s, &e))
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"job attribute Environment: %s", e.msg);
		free(s);
		return rc < 0 ? rc : 0;
	}
	if (rc < 0)
		return rc;
	rc = get_string(ad, "Env", &s, err);
	if (rc != 1)
		return rc;
	char *delim = NULL;
	rc = get_string(ad, "EnvDelim", &delim, err);
	if (rc >= 0 && ks_jobad_env_merge_v1(&job->env, s, delim ? delim[0] : 0,
					     &e))
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"job attribute Env: %s", e.msg);
	free(delim);
	free(s);
	return rc < 0 ? rc : 0;
}

static void read_id(const classad *ad, struct ks_jobad *job)
{
	int64_t cluster = -1, proc = -1;
	get_int(ad, "ClusterId", &cluster);
	get_int(ad, "ProcId", &proc);
	char buf[48] = "?";
	if (cluster >= 0 && proc >= 0)
		snprintf(buf, sizeof(buf), "%lld.%lld", (long long)cluster,
			 (long long)proc);
	job->id = ks_xstrdup(buf);
}

static int read_ad(const classad *ad, struct ks_jobad *job, struct ks_err *err)
{
	int rc = get_string(ad, "Cmd", &job->cmd, err);
	if (rc < 0)
		return rc;
	if (rc == 0 || !*job->cmd)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "the job ad has no Cmd: nothing to run");
	if ((rc = read_arguments(ad, job, err)) ||
	    (rc = read_environment(ad, job, err)))
		return rc;

	char *stf = NULL;
	if ((rc = get_string(ad, "ShouldTransferFiles", &stf, err)) < 0)
		return rc;
	job->shared_fs = stf && !strcasecmp(stf, "NO");
	free(stf);
	if ((rc = get_string(ad, "Iwd", &job->iwd, err)) < 0)
		return rc;
	if (job->shared_fs && (!job->iwd || job->iwd[0] != '/'))
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "ShouldTransferFiles is \"NO\" but the job ad "
				  "has %s Iwd: the job's directory is unknown",
				  job->iwd ? "a relative" : "no");

	if ((rc = get_std_file(ad, "In", &job->in, err)) ||
	    (rc = get_std_file(ad, "Out", &job->out, err)) ||
	    (rc = get_std_file(ad, "Err", &job->err, err)))
		return rc;
	bool erase = true;
	classad_eval_bool(ad, "EraseOutputAndErrorOnRestart", NULL, &erase);
	job->append = !erase;

	read_kill_sig(ad, job);
	if (get_string(ad, "Owner", &job->owner, NULL) < 0)
		job->owner = NULL;
	if (get_string(ad, "X509UserProxy", &job->x509_proxy, NULL) < 0)
		job->x509_proxy = NULL;
	get_int(ad, "JobStartDate", &job->prev_start_date);
	get_int(ad, "CumulativeSuspensionTime", &job->prev_suspension_time);
	get_int(ad, "TotalSuspensions", &job->prev_suspensions);
	get_real(ad, "RemoteWallClockTime", &job->prev_wall_clock);
	return 0;
}

classad *ks_jobad_ad_load(const char *path, const char *what, char **text,
			  size_t *len, struct ks_err *err)
{
	size_t n = 0;
	char *t = read_file(path, what, &n, err);
	if (text)
		*text = NULL;
	if (!t)
		return NULL;
	struct ks_err e;
	ks_err_clear(&e);
	classad *ad = classad_parse(t, n, CLASSAD_FMT_OLD, NULL, &e);
	if (!ad)
		ks_err_set(err, KS_EPARSE, e.line, e.col, e.offset,
			   "the %s %s is not a ClassAd in old syntax: line %d: "
			   "%s", what, path, e.line, e.msg);
	if (ad && text) {
		*text = t;
		*len = n;
	} else {
		free(t);
	}
	return ad;
}

int ks_jobad_load(const char *path, struct ks_jobad *job, struct ks_err *err)
{
	memset(job, 0, sizeof(*job));
	job->kill_sig = SIGTERM;
	job->ad = ks_jobad_ad_load(path, "job ad", &job->text, &job->text_len,
				   err);
	if (!job->ad) {
		job->id = ks_xstrdup("?");
		return err->code;
	}
	read_id(job->ad, job);
	return read_ad(job->ad, job, err);
}

void ks_jobad_free(struct ks_jobad *job)
{
	if (!job)
		return;
	classad_free(job->ad);
	free(job->text);
	free(job->id);
	free(job->cmd);
	ks_jobad_strv_free(&job->args);
	ks_jobad_env_free(&job->env);
	free(job->iwd);
	free(job->in);
	free(job->out);
	free(job->err);
	free(job->kill_sig_note);
	free(job->owner);
	free(job->x509_proxy);
	memset(job, 0, sizeof(*job));
}
