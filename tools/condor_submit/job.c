/* job.c: the job ad of one job of a submit description (submit.h), with
 * HTCondor's defaults for what the description leaves out. */
#define _GNU_SOURCE /* FNM_CASEFOLD */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ks_mem.h"
#include "ks_text.h"
#include "ks_jobad.h"
#include "submit.h"

/* Whether the name s is the len bytes at name, letter case aside
 * (without a strlen: a job's ad looks up some hundred commands, each in
 * every variable of the description). */
static bool same_name(const char *s, const char *name, size_t len)
{
	return tolower((unsigned char)*s) == tolower((unsigned char)*name) &&
	       !strncasecmp(s, name, len) && s[len] == '\0';
}

/* The raw value of a macro for this job, or NULL; the built-in numbers
 * ($(Cluster), $(Process)...) and the predefined macros ($(ARCH),
 * $(JobId)...) too when builtins (no command is named like them, and a
 * job's ad looks up some hundred commands).  HTCondor's submit does not
 * fall back on configuration macros. */
static const char *lookup(const struct sub_job_ctx *c, const char *name,
			  size_t len, bool builtins, char *num, size_t numsz)
{
	const struct sub_queue *q = c->queue;
	for (size_t i = 0; i < q->nvars; i++)
		if (same_name(q->vars[i], name, len))
			return q->nrows ? q->rows[c->row][i] : "";
	static const char *const num_names[] = {
		"Cluster", "ClusterId", "Process", "ProcId",
		"Step",	   "ItemIndex", "Row",	   "Node"};
	for (size_t i = 0; builtins && i < sizeof(num_names) / sizeof(*num_names);
	     i++)
		if (same_name(num_names[i], name, len)) {
			/* a parallel job's $(Node) is left for the shadow to
			 * fill in, node by node */
			const char *u = !strcmp(num_names[i], "Node")
						? lookup(c, "universe", 8, false,
							 num, numsz)
						: NULL;
			if (u && !strcasecmp(u, "parallel"))
				return "#pArAlLeLnOdE#";
			long v = i < 2	 ? c->cluster
				 : i < 4 ? c->proc
				 : i == 4 ? c->step
				 : i < 7 ? c->item_index
					 : c->proc;
			snprintf(num, numsz, "%ld", v);
			return num;
		}
	const struct sub_file *f = c->file;
	if (!sub_names_may_hold(f->names, name, len))
		return NULL;
	for (size_t i = q->nvars_set; i-- > 0;)
		if (!f->vars[i].attr && same_name(f->vars[i].name, name, len))
			return f->vars[i].value;
	/* (the defaults come last, as HTCondor's: the file may redefine
	 * them) */
	for (size_t i = 0; builtins && i < f->ndefs; i++)
		if (same_name(f->defs[i].name, name, len))
			return f->defs[i].value;
	return NULL;
}

int sub_where(const struct sub_job_ctx *c, const char *name, const char *alt,
	      const char **src)
{
	const struct sub_queue *q = c->queue;
	const struct sub_file *f = c->file;
	*src = NULL;
	for (int k = 0; k < 2; k++) {
		const char *n = k ? alt : name;
		size_t len = n ? strlen(n) : 0;
		if (!len)
			continue;
		/* (as lookup() finds it: the queue's variables first) */
		for (size_t i = 0; i < q->nvars; i++)
			if (same_name(q->vars[i], n, len)) {
				*src = q->src;
				return q->line;
			}
		for (size_t i = q->nvars_set; i-- > 0;)
			if (!f->vars[i].attr &&
			    same_name(f->vars[i].name, n, len)) {
				*src = f->vars[i].src;
				return f->vars[i].line;
			}
	}
	return 0;
}

struct expand_arg {
	const struct sub_job_ctx *c;
	char num[32]; /* a built-in number, until the next lookup */
};

static const char *expand_lookup(void *arg, const char *name, size_t len)
{
	struct expand_arg *a = arg;
	return lookup(a->c, name, len, true, a->num, sizeof(a->num));
}

/* value with its macros and macro functions expanded by the
 * configuration's expander (HTCondor's submit language is its macro
 * language): $$(...) is kept for the match, a macro met again inside its
 * own expansion expands to nothing, SUB_EXPAND_MAX bounds the growth.  A bad
 * function call ($INT(x) of a word) is the job's error: the first is kept
 * in c->expand_err, and the value is empty. */
static char *expand(const struct sub_job_ctx *c, const char *v)
{
	struct expand_arg a = {.c = c};
	struct ks_expand_opts o = {.lookup = expand_lookup, .arg = &a,
				   .cfg = c->cfg, .self_empty = true,
				   .max_len = SUB_EXPAND_MAX, .path_literals = true};
	struct ks_err e;
	char *r = ks_expand(&o, v, &e);
	if (!r) {
		if (c->expand_err && !c->expand_err->code)
			*c->expand_err = e;
		r = ks_xstrdup("");
	}
	return r;
}

/* Submit command name's expanded value (new string), or NULL. */
static char *get(const struct sub_job_ctx *c, const char *name)
{
	char num[32];
	const char *v = lookup(c, name, strlen(name), false, num, sizeof(num));
	return v ? expand(c, v) : NULL;
}

/* HTCondor's submit_param: the command name (or else its other name alt,
 * often the attribute it sets), expanded; a value that expands to nothing
 * counts as not given. */
char *sub_param(const struct sub_job_ctx *c, const char *name,
		const char *alt)
{
	char *v = get(c, name);
	if (!v && alt)
		v = get(c, alt);
	if (v && !*v) {
		free(v);
		v = NULL;
	}
	return v;
}

static char *get_any(const struct sub_job_ctx *c, const char *a,
		     const char *b)
{
	char *v = get(c, a);
	return v || !b ? v : get(c, b);
}

/* A java job's arguments start with the class to run. */
static int java_needs_class(struct ks_err *err)
{
	return ks_err_set(err, KS_EINVAL, 0, 0, 0,
			  "In Java universe, you must specify the class name to "
			  "run.\nExample:\n\narguments = MyClass\n");
}

/* arguments (or Args) in either syntax, arguments2 only in the quoted
 * new one; both only with allow_arguments_v1, and then arguments2 wins.
 * The quoted new syntax becomes Arguments (re-joined in its canonical
 * form), the old one Args as written.  shell replaces them all by
 * "-c <shell>". */
static int put_args(const struct sub_job_ctx *c, classad *ad, int universe,
		    struct ks_err *err)
{
	char *shell = sub_param(c, "shell", NULL);
	if (shell) {
		struct ks_jobad_strv words = {0};
		ks_jobad_strv_add(&words, "-c", 2);
		ks_jobad_strv_add(&words, shell, strlen(shell));
		char *joined = ks_jobad_args_join_v2(&words, 0);
		classad_insert_string(ad, "Arguments", joined);
		free(joined);
		ks_jobad_strv_free(&words);
		free(shell);
		return 0;
	}
	char *v1 = sub_param(c, "arguments", "Args");
	char *v2 = sub_param(c, "arguments2", NULL);
	bool allow_v1 = false;
	int rc = sub_param_bool(c, "allow_arguments_v1", NULL, false, &allow_v1,
				err);
	if (!rc && v1 && v2 && !allow_v1)
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"If you wish to specify both 'arguments' and\n"
				"'arguments2' for maximal compatibility with "
				"different\nversions of Condor, then you must "
				"also specify\nallow_arguments_v1=true.");
	const char *v = v2 ? v2 : v1;
	if (rc)
		goto out;
	if (v2 && !ks_jobad_args_is_v2_quoted(v2)) {
		rc = ks_err_set(err, KS_EPARSE, 0, 0, 0,
				"Expecting double-quoted input string (V2 "
				"format).\nThe full arguments you specified "
				"were: %s", v2);
		goto out;
	}
	if (!v) {
		if (universe == 10) {
			rc = java_needs_class(err);
			goto out;
		}
		classad_insert_string(ad, "Arguments", "");
		goto out;
	}
	if (!ks_jobad_args_is_v2_quoted(v)) {
		struct ks_jobad_strv words = {0};
		ks_jobad_args_parse_v1(v, &words);
		if (universe == 10 && !words.n)
			rc = java_needs_class(err);
		else
			classad_insert_string(ad, "Args", v);
		ks_jobad_strv_free(&words);
		goto out;
	}
	char *joined;
	if (sub_args_v2(v, &joined))
		rc = ks_err_set(err, KS_EPARSE, 0, 0, 0,
				"Unterminated double-quote.\nThe full "
				"arguments you specified were: %s", v);
	else if (universe == 10 && !joined)
		rc = java_needs_class(err);
	else
		classad_insert_string(ad, "Arguments", joined ? joined : "");
	free(joined);
out:
	free(v1);
	free(v2);
	return rc;
}

int sub_args_v2(const char *v, char **joined)
{
	char *raw = NULL;
	struct ks_err e;
	struct ks_jobad_strv words = {0};
	int rc = ks_jobad_args_unquote_v2(v, &raw, &e) ||
			 ks_jobad_args_parse_v2(raw, &words, &e)
		 ? -1
		 : 0;
	*joined = !rc && words.n ? ks_jobad_args_join_v2(&words, 0) : NULL;
	free(raw);
	ks_jobad_strv_free(&words);
	return rc;
}

extern char **environ;

/* Whether getenv's list takes variable name: HTCondor's white and black
 * list, names and * patterns compared without case, "!pattern" keeping a
 * name out, none of the first kind meaning every name. */
static bool getenv_takes(const char *list, const char *name, size_t len)
{
	char *var = ks_xstrndup(name, len);
	bool white = false, in_white = false, in_black = false;
	size_t pos = 0, n;
	const char *p;
	while ((p = ks_list_next_sep(list, ",; \t\r\n", &pos, &n))) {
		bool black = *p == '!';
		char *pat = ks_xstrndup(p + black, n - black);
		bool hit = *pat && fnmatch(pat, var, FNM_CASEFOLD) == 0;
		if (black) {
			in_black |= hit;
		} else {
			white = true;
			in_white |= hit;
		}
		free(pat);
	}
	free(var);
	return !in_black && (!white || in_white);
}

static int by_env_name(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t nx = strcspn(x, "="), ny = strcspn(y, "=");
	int r = memcmp(x, y, nx < ny ? nx : ny);
	return r ? r : (nx > ny) - (nx < ny);
}

/* The environment into the ad as HTCondor writes it: its variables in
 * the order of their names; in the old syntax (Env, and EnvDelim) when
 * the description used "env" with an old-syntax value, else in the new
 * (Environment). */
static int insert_env(classad *ad, struct ks_jobad_env *env, bool old,
		      struct ks_err *err)
{
	if (env->kv.n > 1)
		qsort(env->kv.v, env->kv.n, sizeof(*env->kv.v), by_env_name);
	if (!old) {
		char *joined = ks_jobad_args_join_v2(&env->kv, 0);
		classad_insert_string(ad, "Environment", joined);
		free(joined);
		return 0;
	}
	struct classad_buf b = {0};
	for (size_t i = 0; i < env->kv.n; i++) {
		const char *e = env->kv.v[i];
		if (e[strcspn(e, ";|\n")]) {
			free(b.data);
			return ks_err_set(err, KS_EINVAL, 0, 0, 0,
					  "failed to insert environment into job "
					  "ad: Environment entry is not compatible "
					  "with V1 syntax: %s", e);
		}
		if (b.len)
			classad_buf_add(&b, ";", 1);
		classad_buf_add(&b, e, strlen(e));
	}
	classad_insert_string(ad, "Env", b.data ? b.data : "");
	classad_insert_string(ad, "EnvDelim", ";");
	free(b.data);
	return 0;
}

/* Environment: what environment (or env, either syntax) or environment2
 * (the quoted new syntax only; both only with allow_environment_v1, and
 * then environment2 wins) give, then the submitter's own variables that
 * getenv asks for and the description does not set. */
static int put_env(const struct sub_job_ctx *c, classad *ad,
		   struct ks_err *err)
{
	char *v1 = sub_param(c, "environment", "env");
	char *v2 = sub_param(c, "environment2", NULL);
	char *getenv_spec = sub_param(c, "getenv", "get_env");
	char *env_cmd = v1 && !v2 ? sub_param(c, "env", NULL) : NULL;
	bool old = env_cmd && !ks_jobad_args_is_v2_quoted(env_cmd);
	bool allow_v1 = false;
	struct ks_jobad_env env = {0};
	struct ks_err e;
	int rc = sub_param_bool(c, "allow_environment_v1", NULL, false,
				&allow_v1, err);
	if (rc)
		goto out;
	if (v1 && v2 && !allow_v1) {
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"If you wish to specify both 'environment' and\n"
				"'environment2' for maximal compatibility with "
				"different\nversions of Condor, then you must "
				"also specify\nallow_environment_v1=true.");
		goto out;
	}
	if (v2 && !ks_jobad_args_is_v2_quoted(v2)) {
		rc = ks_err_set(err, KS_EPARSE, 0, 0, 0,
				"Expecting a double-quoted environment string "
				"(V2 format).\nThe environment you specified was: "
				"'%s'", v2);
		goto out;
	}
	if ((v2 || v1) &&
	    ks_jobad_env_merge_v1_or_v2_quoted(&env, v2 ? v2 : v1, &e)) {
		rc = ks_err_set(err, KS_EPARSE, 0, 0, 0, "%s", e.msg);
		goto out;
	}
	/* a boolean (true, 1, false, 0 or an expression) takes all or
	 * nothing, as HTCondor reads getenv; anything else is a list */
	bool all = false;
	bool is_bool = getenv_spec && sub_value_bool(getenv_spec, &all);
	for (char **p = getenv_spec && (all || !is_bool) ? environ : NULL;
	     p && *p; p++) {
		const char *eq = strchr(*p, '=');
		char *name = eq && eq > *p ? ks_xstrndup(*p, (size_t)(eq - *p))
					   : NULL;
		if (name && !ks_jobad_env_get(&env, name) &&
		    (is_bool || getenv_takes(getenv_spec, *p,
					     (size_t)(eq - *p))))
			ks_jobad_env_put(&env, *p, NULL);
		free(name);
	}
	rc = insert_env(ad, &env, old, err);
out:
	ks_jobad_env_free(&env);
	free(v1);
	free(v2);
	free(getenv_spec);
	free(env_cmd);
	return rc;
}

void sub_put_list(classad *ad, const char *attr, const char *v)
{
	struct classad_buf b = {0};
	for (const char *p = v; *p;) {
		p += strspn(p, ", \t");
		size_t l = strcspn(p, ",");
		while (l && isspace((unsigned char)p[l - 1]))
			l--;
		if (l) {
			if (b.len)
				classad_buf_add(&b, ",", 1);
			classad_buf_add(&b, p, l);
		}
		p += strcspn(p, ",");
	}
	classad_insert_string(ad, attr, b.data ? b.data : "");
	free(b.data);
}

/* Request<name> for every request_<name> not handled above: a name of two
 * characters or more, not starting with '_', and not one HTCondor refuses
 * as a request. */
static int put_custom_requests(const struct sub_job_ctx *c, classad *ad,
			       struct ks_err *err)
{
	const struct sub_file *f = c->file;
	int rc = 0;
	for (size_t i = 0; i < c->queue->nvars_set && !rc; i++) {
		const char *n = f->vars[i].name;
		if (f->vars[i].attr || strncasecmp(n, "request_", 8) ||
		    !strcasecmp(n + 8, "cpus") || !strcasecmp(n + 8, "memory") ||
		    !strcasecmp(n + 8, "disk") || strlen(n + 8) < 2 ||
		    n[8] == '_' || !strcasecmp(n + 8, "gpu_memory") ||
		    !strcasecmp(n + 8, "gpus_memory"))
			continue;
		if (!strcasecmp(n + 8, "gpu")) {
			fprintf(stderr, "\nWARNING: %s is not a valid "
					"submit keyword, did you mean "
					"request_gpus?\n", n);
			continue;
		}
		char attr[256];
		snprintf(attr, sizeof(attr), "Request%s",
			 !strcasecmp(n + 8, "gpus") ? "GPUs" : n + 8);
		char *v = get(c, n);
		if (v)
			rc = sub_put_expr(c, ad, attr, v, n, err);
		free(v);
	}
	return rc;
}

/* gpus_minimum_memory: MiB, or a size with its unit; SUBMIT_REQUEST_
 * MISSING_UNITS says whether a bare number is an error or a warning. */
static int put_gpus_memory(const struct sub_job_ctx *c, classad *ad,
			   char *v, struct ks_err *err)
{
	long long mb;
	if (!sub_size_value(v, 1024 * 1024, NULL, &mb, NULL, NULL))
		return sub_put_expr(c, ad, "GPUsMinMemory", v,
				    "gpus_minimum_memory", err);
	size_t n = strlen(v);
	while (n && isspace((unsigned char)v[n - 1]))
		n--;
	bool unit = n && isalpha((unsigned char)v[n - 1]);
	char *missing = sub_knob(c, "SUBMIT_REQUEST_MISSING_UNITS");
	int rc = 0;
	if (missing && *missing && !unit) {
		if (!strcasecmp(missing, "error"))
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"gpus_minimum_memory=%s defaults to "
					"megabytes, but must contain a units "
					"suffix (i.e K, M, or B)", v);
		else
			fprintf(stderr, "\nWARNING: gpus_minimum_memory=%s "
					"defaults to megabytes, but should "
					"contain a units suffix (i.e K, M, or "
					"B)\n", v);
	}
	free(missing);
	if (!rc)
		classad_insert_int(ad, "GPUsMinMemory", mb);
	return rc;
}

/* gpus_minimum_runtime: a version x or x.y becomes x * 1000 + y * 10
 * (12.1 is 12010); a bare number above 1000 is taken as already so; any
 * other text is an expression. */
static int put_gpus_runtime(const struct sub_job_ctx *c, classad *ad,
			    const char *v, struct ks_err *err)
{
	const char *p = v;
	long major = 0, minor = -1;
	while (isdigit((unsigned char)*p) && major < 100000000)
		major = major * 10 + (*p++ - '0');
	bool ok = p > v;
	if (ok && *p == '.') {
		const char *q = ++p;
		long m = 0;
		while (isdigit((unsigned char)*p) && m < 1000)
			m = m * 10 + (*p++ - '0');
		if (p > q)
			minor = m;
	}
	if (!ok || *p || minor >= 100)
		return sub_put_expr(c, ad, "GPUsMinRuntime", v,
				    "gpus_minimum_runtime", err);
	long long ver = minor == -1 && major > 1000
				? major
				: (long long)major * 1000 + (minor > 0 ? minor * 10 : 0);
	classad_insert_int(ad, "GPUsMinRuntime", ver);
	return 0;
}

/* What a GPU request may add: require_gpus and the limits on the GPUs'
 * properties (which sub_gpus_require() later turns into RequireGPUs
 * clauses).  Without a request they mean nothing. */
static int put_gpus(const struct sub_job_ctx *c, classad *ad,
		    struct ks_err *err)
{
	if (!classad_lookup(ad, "RequestGPUs"))
		return 0;
	static const struct {
		const char *cmd, *attr;
	} exprs[] = {{"require_gpus", "RequireGPUs"},
		     {"gpus_minimum_capability", "GPUsMinCapability"},
		     {"gpus_maximum_capability", "GPUsMaxCapability"}};
	char *v;
	int rc = 0;
	for (size_t i = 0; i < sizeof(exprs) / sizeof(*exprs) && !rc; i++)
		if ((v = sub_param(c, exprs[i].cmd, exprs[i].attr))) {
			rc = sub_put_expr(c, ad, exprs[i].attr, v, exprs[i].cmd,
					  err);
			free(v);
		}
	if (rc)
		return rc;
	if ((v = sub_param(c, "gpus_minimum_memory", "GPUsMinMemory"))) {
		rc = put_gpus_memory(c, ad, v, err);
		free(v);
	} else if ((v = sub_param(c, "request_gpu_memory",
				  "request_gpus_memory"))) {
		fprintf(stderr, "\nWARNING: request_gpu_memory is not a submit "
				"command, did you mean gpus_minimum_memory?\n");
		free(v);
	}
	if (!rc && (v = sub_param(c, "gpus_minimum_runtime",
				  "GPUsMinRuntime"))) {
		rc = put_gpus_runtime(c, ad, v, err);
		free(v);
	}
	return rc;
}

/* The name of the description as the job records it (JobSubmitFile):
 * $(SUBMIT_FILE), which the description may redefine; none for standard
 * input.  New string or NULL. */
static char *submit_file(const struct sub_job_ctx *c)
{
	char num[32];
	const char *v = lookup(c, "SUBMIT_FILE", 11, true, num, sizeof(num));
	char *e = v ? expand(c, v) : NULL;
	if (e && !*e) {
		free(e);
		e = NULL;
	}
	return e;
}

/* Rank: the job's rank (or preferences), else DEFAULT_RANK_VANILLA for a
 * vanilla job or DEFAULT_RANK, plus APPEND_RANK_VANILLA or APPEND_RANK
 * (added: a rank is a number), else 0.0. */
static int put_rank(const struct sub_job_ctx *c, classad *ad, int universe,
		    struct ks_err *err)
{
	char *rank = sub_param(c, "rank", "preferences");
	char *def = NULL, *app = NULL;
	if (universe == 5) {
		def = sub_knob(c, "DEFAULT_RANK_VANILLA");
		app = sub_knob(c, "APPEND_RANK_VANILLA");
	}
	if (!def)
		def = sub_knob(c, "DEFAULT_RANK");
	if (!app)
		app = sub_knob(c, "APPEND_RANK");
	const char *r = rank ? rank : def;
	char *both = NULL;
	if (r && app) {
		both = ks_xmalloc(strlen(r) + strlen(app) + 10);
		sprintf(both, "(%s) + (%s)", r, app);
		r = both;
	} else if (app) {
		r = app;
	}
	int rc = 0;
	if (r)
		rc = sub_put_expr(c, ad, "Rank", r,
				  rank ? "rank" : NULL, err);
	else
		classad_insert_real(ad, "Rank", 0.0);
	free(both);
	free(rank);
	free(def);
	free(app);
	return rc;
}

/* The requests of a job (request_cpus, request_memory, request_disk), or
 * the pool's JOB_DEFAULT_REQUEST* (expressions, which HTCondor allows
 * there); "undefined" asks for none. */
static int put_requests(const struct sub_job_ctx *c, classad *ad,
			int universe, const char *grid, struct ks_err *err)
{
	static const struct {
		const char *cmd, *attr, *knob, *def;
	} req[] = {
		{"request_cpus", "RequestCpus", "JOB_DEFAULT_REQUESTCPUS", "1"},
		{"request_memory", "RequestMemory", "JOB_DEFAULT_REQUESTMEMORY",
		 "128"},
		{"request_disk", "RequestDisk", "JOB_DEFAULT_REQUESTDISK",
		 "MAX({ 1024,(TransferInputSizeMB + 1) * 1.25 }) * 1024"}};
	int rc = 0;
	for (size_t i = 0; i < sizeof(req) / sizeof(*req) && !rc; i++) {
		char *v = get(c, req[i].cmd);
		bool given = v != NULL;
		/* a batch system's job asks only for what it says */
		if (!given && grid && !strcasecmp(grid, "batch"))
			continue;
		if (!v)
			v = sub_knob(c, req[i].knob);
		if (!v)
			v = ks_xstrdup(req[i].def);
		if (i == 1 && !given && universe == 13) {
			/* a virtual machine asks for its own memory */
			fprintf(stderr, "\nWARNING: request_memory was NOT "
					"specified.  Using RequestMemory = "
					"MY.JobVMMemory\n");
			rc = sub_put_expr(c, ad, req[i].attr, "MY.JobVMMemory",
					  NULL, err);
		} else if (i == 0) {
			if (strcasecmp(v, "undefined"))
				rc = sub_put_expr(c, ad, req[i].attr, v,
						  given ? req[i].cmd : NULL, err);
		} else {
			rc = sub_set_request_size(c, ad, req[i].attr, v, given,
						  err);
		}
		free(v);
	}
	return rc;
}

/* +Attr and MY.Attr, as written; one with no value is undefined, as in
 * HTCondor.  *own_req: one of them is Requirements. */
static int put_attrs(const struct sub_job_ctx *c, classad *ad, bool *own_req,
		     struct ks_err *err)
{
	const struct sub_file *f = c->file;
	*own_req = false;
	for (size_t i = 0; i < c->queue->nvars_set; i++) {
		const struct sub_var *a = &f->vars[i];
		if (!a->attr)
			continue;
		char *e = expand(c, a->value);
		const char *text = *ks_trim(e) ? e : "undefined";
		classad_expr *x = sub_parse_expr(c, text);
		int rc = 0;
		if (!x) {
			struct ks_err why = {0};
			classad_expr_free(
				classad_parse_expr(text, strlen(text), &why));
			rc = sub_expr_error(err, a->line, a->src, a->name,
					    text, &why);
		} else {
			classad_insert(ad, a->name, x);
		}
		free(e);
		if (rc)
			return rc;
		*own_req |= !strcasecmp(a->name, "Requirements");
	}
	return 0;
}

/* Requirements: the user's, APPEND_REQ_VANILLA / APPEND_REQ_VM or
 * APPEND_REQUIREMENTS, and what HTCondor adds for the job's universe,
 * requests and transfers; +Requirements stands alone. */
static int put_requirements(const struct sub_job_ctx *c, classad *ad,
			    int universe, int topping, const char *grid,
			    bool own_req, struct ks_err *err)
{
	char *v = get(c, "requirements");
	if (own_req) {
		if (v)
			fprintf(stderr, "\nWARNING: Use of MY.Requirements or "
					"+Requirements  overrides requirements. "
					"You should remove one of these statements "
					"from your submit file.\n");
		free(v);
		return 0;
	}
	struct classad_buf start = {0};
	int rc = 0;
	if (v) {
		/* the user's own first, alone: an error there is the user's
		 * line, not a clause of HTCondor's */
		classad_buf_printf(&start, "(%s)", v);
		classad_expr *x = sub_parse_expr(c, start.data);
		if (!x) {
			/* (HTCondor parses it in its parentheses; the reason
			 * is the one of the user's text as written) */
			struct ks_err why = {0}, alone = {0};
			const char *src;
			int line = sub_where(c, "requirements", NULL, &src);
			classad_expr_free(classad_parse_expr(
				start.data, start.len, &why));
			x = classad_parse_expr(v, strlen(v), &alone);
			classad_expr_free(x);
			rc = sub_expr_error(err, line, src, "requirements", v,
					    x ? &why : &alone);
			goto out;
		}
		classad_expr_free(x);
	}
	char *app = NULL;
	if (universe == 5)
		app = sub_knob(c, "APPEND_REQ_VANILLA");
	else if (universe == 13)
		app = sub_knob(c, "APPEND_REQ_VM");
	if (!app)
		app = sub_knob(c, "APPEND_REQUIREMENTS");
	if (app)
		classad_buf_printf(&start, start.len ? " && (%s)" : "(%s)", app);
	free(app);
	bool custom = sub_knob_bool(
		c, "SUBMIT_GENERATE_CUSTOM_RESOURCE_REQUIREMENTS", true);
	char *req = NULL;
	if (grid && sub_grid_plain_requirements(c, grid))
		/* no clauses of HTCondor's for another batch system or a
		 * cloud */
		req = ks_xstrdup(start.len ? start.data : "TRUE");
	else
		rc = sub_requirements(ad, start.data, universe, topping, custom,
				      &req, err);
	if (!rc)
		rc = sub_put_expr(c, ad, "Requirements", req, NULL, err);
	free(req);
out:
	free(start.data);
	free(v);
	return rc;
}

static classad *make_ad(const struct sub_job_ctx *c, struct ks_err *err)
{
	classad *ad = classad_new();
	sub_set_base(c, ad);
	/* (empty is not given, as HTCondor reads it) */
	char *exe = sub_param(c, "executable", "Cmd");
	/* initialdir (or Iwd), else initial_dir (or job_iwd) */
	char *iwd = sub_param(c, "initialdir", "Iwd");
	if (!iwd)
		iwd = sub_param(c, "initial_dir", "job_iwd");
	char *dir = iwd ? ks_path_in(c->iwd, iwd) : ks_xstrdup(c->iwd);
	char *uni = get(c, "universe");
	char *shell = sub_param(c, "shell", NULL);
	char *grid = NULL;
	int topping = SUB_PLAIN;
	int universe = uni ? sub_universe_of(uni, &topping) : 5;
	int rc = 0;
	if (universe < 0) {
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"I don't know about the '%s' universe.", uni);
		goto out;
	}
	if ((rc = sub_grid_type(c, universe, &grid, err)))
		goto out;
	if (sub_access(c, dir, F_OK | X_OK) != 0) {
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0, "No such directory: %s",
				dir);
		goto out;
	}
	/* (first: the files of later commands are named from it) */
	classad_insert_string(ad, "Iwd", dir);
	char *subfile = submit_file(c);
	if (subfile)
		classad_insert_string(ad, "JobSubmitFile", subfile);
	free(subfile);
	if ((rc = sub_set_remote_universe(c, ad, err)) ||
	    (rc = sub_set_container(c, ad, universe, &topping, err)))
		goto out;
	/* a docker or container job may leave its program to the image, and
	 * shell runs its command under /bin/sh */
	if (!exe && !shell && topping == SUB_PLAIN) {
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"No 'executable' parameter was provided");
		goto out;
	}
	/* transfer_executable = false (only a leading F counts) names a
	 * program already on the execute side: kept as written, unchecked;
	 * a vm job's executable is only a name, and so is an ec2, gce or
	 * azure job's */
	char *v = sub_param(c, "transfer_executable", "TransferExecutable");
	bool send_exe = exe && universe != 13 && !sub_grid_exe_is_name(grid) &&
			(!v || (*v != 'f' && *v != 'F'));
	free(v);
	char *cmd = shell     ? ks_xstrdup("/bin/sh")
		    : !exe     ? ks_xstrdup("")
		    : send_exe ? ks_path_in(dir, exe)
			       : ks_xstrdup(exe);
	send_exe = send_exe && !shell;
	bool is_dir = false;
	long long size = 1;
	if (send_exe && !strstr(exe, "$$") &&
	    sub_stat(c, cmd, &is_dir, &size) != 0) {
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"Can't access executable file %s: %s", exe,
				strerror(errno));
		free(cmd);
		goto out;
	}
	/* HTCondor's check of an empty file; a directory (which HTCondor
	 * takes, and whose run fails on the execute side) is refused here */
	if (send_exe && (is_dir || size == 0)) {
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				is_dir ? "Executable file %s is a directory, not a "
					 "program"
				       : "Executable file %s has zero length",
				cmd);
		free(cmd);
		goto out;
	}
	classad_insert_string(ad, "Cmd", cmd);
	free(cmd);
	if (!send_exe)
		classad_insert_bool(ad, "TransferExecutable", false);

	if ((rc = put_args(c, ad, universe, err)) ||
	    (grid && (rc = sub_set_grid(c, ad, grid, err))) ||
	    (rc = sub_set_java_vm_args(c, ad, err)) ||
	    (universe == 13 && (rc = sub_set_vm(c, ad, err))) ||
	    (rc = put_env(c, ad, err)))
		goto out;
	if ((rc = sub_set_tdp(c, ad, err)))
		goto out;
	static const char *const io[][3] = {{"input", "stdin", "In"},
					    {"output", "stdout", "Out"},
					    {"error", "stderr", "Err"}};
	for (size_t i = 0; i < 3; i++) {
		v = get_any(c, io[i][0], io[i][1]);
		classad_insert_string(ad, io[i][2], v && *v ? v : "/dev/null");
		rc = sub_set_stdio(c, ad, (int)i, v, err);
		free(v);
		if (rc)
			goto out;
	}
	if ((v = get(c, "log"))) {
		char *p = ks_path_in(dir, v);
		classad_insert_string(ad, "UserLog", p);
		free(p);
		free(v);
	}
	classad_insert_int(ad, "JobUniverse", universe);
	if ((rc = sub_set_credentials(c, ad, err)))
		goto out;

	/* (on_evict_checks first: a growing request adds to its list) */
	if ((rc = sub_set_on_evict(c, ad, err)) ||
	    (rc = put_requests(c, ad, universe, grid, err)) ||
	    (rc = put_custom_requests(c, ad, err)))
		goto out;
	if ((rc = put_gpus(c, ad, err)) ||
	    (rc = sub_set_parallel(c, ad, universe, err)))
		goto out;

	bool hold = false;
	if ((rc = sub_param_bool(c, "hold", NULL, false, &hold, err)))
		goto out;
	classad_insert_int(ad, "JobStatus", hold ? 5 : 1);
	if (hold) {
		classad_insert_string(ad, "HoldReason",
				      "submitted on hold at user's request");
		classad_insert_int(ad, "HoldReasonCode", 15);
	}
	if ((rc = sub_set_notification(c, ad, err)))
		goto out;
	if ((rc = put_rank(c, ad, universe, err)) ||
	    (rc = sub_set_policy(c, ad, err)) ||
	    (rc = sub_set_kill_sigs(c, ad, universe, err)) ||
	    (rc = sub_set_limits_and_group(c, ad, err)) ||
	    (sub_set_oauth(c, ad), 0) ||
	    (rc = sub_set_simple(c, ad, err)) ||
	    (rc = sub_set_deferral(c, ad, universe, err)) ||
	    (rc = sub_set_image_size(c, ad, universe, grid, err)) ||
	    (rc = sub_set_transfer(c, ad, universe, topping, err)) ||
	    (rc = sub_set_auto(c, ad, universe, err)))
		goto out;
	classad_insert_int(ad, "ProcId", c->proc);
	classad_insert_int(ad, "ClusterId", c->cluster);
	/* one host, unless machine_count said otherwise */
	if (!classad_lookup(ad, "MaxHosts")) {
		classad_insert_int(ad, "MaxHosts", 1);
		classad_insert_int(ad, "MinHosts", 1);
	}
	bool own_req = false;
	if ((rc = sub_set_forced_submit_attrs(c, ad, err)) ||
	    (rc = put_attrs(c, ad, &own_req, err)))
		goto out;
	/* the job's ids are the schedd's to give: a "+ProcId =" of the
	 * submit file gives way to them, as HTCondor forces them last */
	classad_insert_int(ad, "ProcId", c->proc);
	classad_insert_int(ad, "ClusterId", c->cluster);
	/* RequireGPUs and Requirements read the job's own attributes too,
	 * as HTCondor's do */
	if (!(rc = sub_gpus_require(c, ad, err)))
		rc = put_requirements(c, ad, universe, topping, grid, own_req,
				      err);
out:
	free(exe);
	free(shell);
	free(grid);
	free(iwd);
	free(dir);
	free(uni);
	if (rc) {
		classad_free(ad);
		return NULL;
	}
	return ad;
}

classad *sub_job_ad(const struct sub_job_ctx *c, struct ks_err *err)
{
	/* a macro function that fails ($INT() of a word) fails the job,
	 * before whatever its empty value would have made of it */
	struct ks_err xerr = {0};
	struct sub_job_ctx with = *c;
	with.expand_err = &xerr;
	classad *ad = make_ad(&with, err);
	if (xerr.code) {
		classad_free(ad);
		*err = xerr;
		return NULL;
	}
	return ad;
}
