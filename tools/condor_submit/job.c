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
#include "sr_args.h"
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

static void put_expr(classad *ad, const char *name, const char *text)
{
	if (classad_insert_text(ad, name, text, NULL) != 0)
		classad_insert_string(ad, name, text);
}

/* A size with an optional unit (K, M, G, T; B allowed after), in units
 * of base (1 KiB for disk, 1 MiB for memory), rounded up. */
static bool size_in(const char *v, double base, long long *out)
{
	char *end;
	double x = strtod(v, &end);
	if (end == v)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	double mult = base;
	switch (toupper((unsigned char)*end)) {
	case 'K': mult = 1024; end++; break;
	case 'M': mult = 1024.0 * 1024; end++; break;
	case 'G': mult = 1024.0 * 1024 * 1024; end++; break;
	case 'T': mult = 1024.0 * 1024 * 1024 * 1024; end++; break;
	default: break;
	}
	if (toupper((unsigned char)*end) == 'B')
		end++;
	if (*end)
		return false;
	double r = x * mult / base;
	if (!(r > -9.2e18 && r < 9.2e18)) /* too big (or NaN) for a size */
		return false;
	long long i = (long long)r;
	*out = (double)i < r ? i + 1 : i;
	return true;
}

static void put_request(classad *ad, const char *attr, char *v, double base)
{
	long long n;
	if (base > 0 && size_in(v, base, &n))
		classad_insert_int(ad, attr, n);
	else
		put_expr(ad, attr, v);
}

/* Arguments: the quoted new syntax becomes Arguments (re-joined in its
 * canonical form), the old one Args as written. */
static int put_args(classad *ad, char *v, struct ks_err *err)
{
	if (!v) {
		classad_insert_string(ad, "Arguments", "");
		return 0;
	}
	if (!sr_args_is_v2_quoted(v)) {
		classad_insert_string(ad, "Args", v);
		free(v);
		return 0;
	}
	char *raw = NULL;
	struct ks_err e;
	struct sr_strv words = {0};
	if (sr_args_unquote_v2(v, &raw, &e) ||
	    sr_args_parse_v2(raw, &words, &e)) {
		free(raw);
		sr_strv_free(&words);
		int rc = ks_err_set(err, KS_EPARSE, 0, 0, 0,
				    "Unterminated double-quote.\nThe full "
				    "arguments you specified were: %s", v);
		free(v);
		return rc;
	}
	char *joined = sr_args_join_v2(&words, 0);
	classad_insert_string(ad, "Arguments", joined);
	free(joined);
	free(raw);
	free(v);
	sr_strv_free(&words);
	return 0;
}

extern char **environ;

/* Whether getenv's list takes variable name: HTCondor's white and black
 * list, names and * patterns compared without case, "!pattern" keeping a
 * name out, none of the first kind meaning every name. */
static bool getenv_takes(const char *list, const char *name, size_t len)
{
	static const char seps[] = ",; \t\r\n";
	char *var = ks_xstrndup(name, len);
	bool white = false, in_white = false, in_black = false;
	for (const char *p = list; *p;) {
		p += strspn(p, seps);
		size_t n = strcspn(p, seps);
		if (!n)
			break;
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
		p += n;
	}
	free(var);
	return !in_black && (!white || in_white);
}

/* Environment: the submitter's own variables getenv asks for, then those
 * the description gives (which win). */
static int put_env(classad *ad, char *v, char *getenv_spec,
		   struct ks_err *err)
{
	struct sr_env env = {0};
	/* a boolean (true, 1, false, 0 or an expression) takes all or
	 * nothing, as HTCondor reads getenv; anything else is a list */
	bool all = false;
	bool is_bool = getenv_spec && sub_value_bool(getenv_spec, &all);
	for (char **e = getenv_spec && (all || !is_bool) ? environ : NULL;
	     e && *e; e++) {
		const char *eq = strchr(*e, '=');
		if (eq && eq > *e &&
		    (is_bool || getenv_takes(getenv_spec, *e,
					     (size_t)(eq - *e))))
			sr_env_put(&env, *e, NULL);
	}
	free(getenv_spec);
	if (!v) {
		char *joined = sr_args_join_v2(&env.kv, 0);
		classad_insert_string(ad, "Environment", joined);
		free(joined);
		sr_env_free(&env);
		return 0;
	}
	struct ks_err e;
	int rc = sr_env_merge_v1_or_v2_quoted(&env, v, &e);
	free(v);
	if (rc) {
		sr_env_free(&env);
		return ks_err_set(err, KS_EPARSE, 0, 0, 0, "%s", e.msg);
	}
	char *joined = sr_args_join_v2(&env.kv, 0);
	classad_insert_string(ad, "Environment", joined);
	free(joined);
	sr_env_free(&env);
	return 0;
}

/* The user's list "a.txt, b.txt" as HTCondor stores it: "a.txt,b.txt". */
static void put_list(classad *ad, const char *attr, const char *v)
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
static void put_custom_requests(const struct sub_job_ctx *c, classad *ad)
{
	const struct sub_file *f = c->file;
	for (size_t i = 0; i < c->queue->nvars_set; i++) {
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
			put_expr(ad, attr, v);
		free(v);
	}
}

/* gpus_minimum_memory: MiB, or a size with its unit; SUBMIT_REQUEST_
 * MISSING_UNITS says whether a bare number is an error or a warning. */
static int put_gpus_memory(const struct sub_job_ctx *c, classad *ad,
			   char *v, struct ks_err *err)
{
	long long mb;
	if (!size_in(v, 1024.0 * 1024, &mb)) {
		put_expr(ad, "GPUsMinMemory", v);
		return 0;
	}
	size_t n = strlen(v);
	while (n && isspace((unsigned char)v[n - 1]))
		n--;
	bool unit = n && isalpha((unsigned char)v[n - 1]);
	char *missing = c->cfg ? ks_config_get(c->cfg,
					       "SUBMIT_REQUEST_MISSING_UNITS",
					       NULL)
			       : NULL;
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
static void put_gpus_runtime(classad *ad, const char *v)
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
	if (!ok || *p || minor >= 100) {
		put_expr(ad, "GPUsMinRuntime", v);
		return;
	}
	long long ver = minor == -1 && major > 1000
				? major
				: (long long)major * 1000 + (minor > 0 ? minor * 10 : 0);
	classad_insert_int(ad, "GPUsMinRuntime", ver);
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
	for (size_t i = 0; i < sizeof(exprs) / sizeof(*exprs); i++)
		if ((v = sub_param(c, exprs[i].cmd, exprs[i].attr))) {
			put_expr(ad, exprs[i].attr, v);
			free(v);
		}
	int rc = 0;
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
		put_gpus_runtime(ad, v);
		free(v);
	}
	return rc;
}

static classad *make_ad(const struct sub_job_ctx *c, struct ks_err *err)
{
	classad *ad = classad_new();
	char *exe = get(c, "executable");
	char *iwd = get_any(c, "initialdir", "initial_dir");
	char *dir = iwd ? ks_path_in(c->iwd, iwd) : ks_xstrdup(c->iwd);
	char *uni = get(c, "universe");
	int topping = SUB_PLAIN;
	int universe = uni ? sub_universe_of(uni, &topping) : 5;
	int rc = 0;
	if (universe < 0) {
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"I don't know about the '%s' universe.", uni);
		goto out;
	}
	if ((rc = sub_set_container(c, ad, universe, &topping, err)))
		goto out;
	/* a docker or container job may leave its program to the image */
	if (!exe && topping == SUB_PLAIN) {
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"No 'executable' parameter was provided");
		goto out;
	}
	/* transfer_executable = false (only a leading F counts) names a
	 * program already on the execute side: kept as written, unchecked */
	char *v = sub_param(c, "transfer_executable", "TransferExecutable");
	bool send_exe = exe && (!v || (*v != 'f' && *v != 'F'));
	free(v);
	char *cmd = !exe      ? ks_xstrdup("")
		    : send_exe ? ks_path_in(dir, exe)
			       : ks_xstrdup(exe);
	if (send_exe && !strstr(exe, "$$") && access(cmd, F_OK) != 0) {
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"Can't access executable file %s: %s", exe,
				strerror(errno));
		free(cmd);
		goto out;
	}
	classad_insert_string(ad, "Cmd", cmd);
	free(cmd);
	if (!send_exe)
		classad_insert_bool(ad, "TransferExecutable", false);

	/* (put_args and put_env take the strings over) */
	if ((rc = put_args(ad, get(c, "arguments"), err)) ||
	    (rc = put_env(ad, get(c, "environment"), get(c, "getenv"), err)))
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
	classad_insert_string(ad, "Iwd", dir);
	classad_insert_int(ad, "JobUniverse", universe);

	/* a job's requests, or the pool's JOB_DEFAULT_REQUEST* (as
	 * expressions, which HTCondor allows there) */
	static const struct {
		const char *cmd, *attr, *knob, *def;
		double base;
	} req[] = {
		{"request_cpus", "RequestCpus", "JOB_DEFAULT_REQUESTCPUS", "1", 0},
		{"request_memory", "RequestMemory", "JOB_DEFAULT_REQUESTMEMORY",
		 "128", 1024.0 * 1024},
		{"request_disk", "RequestDisk", "JOB_DEFAULT_REQUESTDISK",
		 "MAX({ 1024,(TransferInputSizeMB + 1) * 1.25 }) * 1024", 1024}};
	for (size_t i = 0; i < sizeof(req) / sizeof(*req); i++) {
		if ((v = get(c, req[i].cmd))) {
			put_request(ad, req[i].attr, v, req[i].base);
			free(v);
			continue;
		}
		char *d = c->cfg ? ks_config_get(c->cfg, req[i].knob, NULL)
				 : NULL;
		put_expr(ad, req[i].attr, d ? d : req[i].def);
		free(d);
	}
	put_custom_requests(c, ad);
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
	v = get(c, "rank");
	put_expr(ad, "Rank", v ? v : "0.0");
	free(v);
	if ((rc = sub_set_policy(c, ad, err)) ||
	    (rc = sub_set_kill_sigs(c, ad, universe, err)) ||
	    (rc = sub_set_limits_and_group(c, ad, err)) ||
	    (rc = sub_set_simple(c, ad, err)) ||
	    (rc = sub_set_deferral(c, ad, universe, err)) ||
	    (rc = sub_set_image_size(c, ad, err)))
		goto out;
	v = get(c, "should_transfer_files");
	for (char *p = v; p && *p; p++)
		*p = (char)toupper((unsigned char)*p);
	classad_insert_string(ad, "ShouldTransferFiles", v ? v : "IF_NEEDED");
	free(v);
	v = get(c, "when_to_transfer_output");
	for (char *p = v; p && *p; p++)
		*p = (char)toupper((unsigned char)*p);
	classad_insert_string(ad, "WhenToTransferOutput", v ? v : "ON_EXIT");
	free(v);
	if ((v = get(c, "transfer_input_files"))) {
		put_list(ad, "TransferInput", v);
		free(v);
	}
	if ((v = get(c, "transfer_output_files"))) {
		put_list(ad, "TransferOutput", v);
		free(v);
	}
	if ((v = get(c, "transfer_output_remaps"))) {
		/* "name = path; ..." in double quotes, kept as a string */
		size_t n = strlen(v);
		if (n < 2 || v[0] != '"' || v[n - 1] != '"') {
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"transfer_output_remaps must be a quoted "
					"string, not: %s", v);
			free(v);
			goto out;
		}
		v[n - 1] = '\0';
		classad_insert_string(ad, "TransferOutputRemaps", v + 1);
		free(v);
	}
	if (topping == SUB_CONTAINER &&
	    (rc = sub_set_container_transfer(c, ad, err)))
		goto out;
	if ((rc = sub_set_auto(c, ad, universe, err)))
		goto out;
	classad_insert_int(ad, "ProcId", c->proc);
	classad_insert_int(ad, "ClusterId", c->cluster);
	/* one host, unless machine_count said otherwise */
	if (!classad_lookup(ad, "MaxHosts")) {
		classad_insert_int(ad, "MaxHosts", 1);
		classad_insert_int(ad, "MinHosts", 1);
	}
	/* +Attr and MY.Attr, as written */
	const struct sub_file *f = c->file;
	bool own_req = false;
	for (size_t i = 0; i < c->queue->nvars_set; i++) {
		if (!f->vars[i].attr)
			continue;
		char *e = expand(c, f->vars[i].value);
		put_expr(ad, f->vars[i].name, e);
		free(e);
		own_req |= !strcasecmp(f->vars[i].name, "Requirements");
	}
	/* RequireGPUs and Requirements read the job's own attributes too,
	 * as HTCondor's do */
	sub_gpus_require(ad);
	/* Requirements: the user's, and what HTCondor adds for the job's
	 * universe, requests and transfers; +Requirements stands alone */
	v = get(c, "requirements");
	if (own_req && v)
		fprintf(stderr, "\nWARNING: Use of MY.Requirements or "
				"+Requirements  overrides requirements. You "
				"should remove one of these statements from your "
				"submit file.\n");
	if (!own_req && (v || c->for_schedd)) {
		/* -dry-run without requirements of the user's shows none, as
		 * HTCondor's does; a job for a schedd always has them */
		bool custom = true;
		if (c->cfg)
			ks_config_bool(c->cfg,
				       "SUBMIT_GENERATE_CUSTOM_RESOURCE_REQUIREMENTS",
				       &custom);
		char *req = NULL;
		rc = sub_requirements(ad, v, universe, topping, custom, &req,
				      err);
		if (!rc)
			put_expr(ad, "Requirements", req);
		free(req);
	}
	free(v);
out:
	free(exe);
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
