/* extras.c: the submit commands that turn into job attributes with little
 * interpretation (HTCondor's table of simple commands) and the few that
 * need a rule of their own: the standard streams' transfer and streaming
 * flags, notification, kill signals, concurrency limits, accounting
 * groups, image size and the attributes HTCondor fills in last.  The
 * values, defaults and error messages are HTCondor 25's condor_submit's. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "sr_job.h"
#include "submit.h"

/* ---- values ---------------------------------------------------------- */

/* An expression of no attributes evaluated alone, as HTCondor does when a
 * value is not a plain literal. */
static bool eval_alone(const char *v, bool want_int, long long *i, bool *b)
{
	classad *ad = classad_new();
	bool ok = false;
	if (classad_insert_text(ad, "SubmitValue", v, NULL) == 0) {
		if (want_int) {
			int64_t x;
			ok = classad_eval_int(ad, "SubmitValue", NULL, &x);
			if (ok)
				*i = x;
		} else {
			ok = classad_eval_bool(ad, "SubmitValue", NULL, b);
		}
	}
	classad_free(ad);
	return ok;
}

bool sub_value_int(const char *v, long long *out)
{
	char *end;
	long long x = strtoll(v, &end, 10);
	if (end != v) {
		while (isspace((unsigned char)*end))
			end++;
		if (!*end) {
			*out = x;
			return true;
		}
	}
	return eval_alone(v, true, out, NULL);
}

bool sub_value_bool(const char *v, bool *out)
{
	/* "true", "false", "1" or "0" (any case), then only blanks */
	static const struct {
		const char *w;
		bool b;
	} words[] = {{"true", true}, {"1", true}, {"false", false}, {"0", false}};
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
		size_t n = strlen(words[i].w);
		if (strncasecmp(v, words[i].w, n))
			continue;
		const char *p = v + n;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p) {
			*out = words[i].b;
			return true;
		}
		break;
	}
	return eval_alone(v, false, NULL, out);
}

int sub_put_expr(classad *ad, const char *attr, const char *text,
		 struct ks_err *err)
{
	if (classad_insert_text(ad, attr, text, NULL) == 0)
		return 0;
	return ks_err_set(err, KS_EPARSE, 0, 0, 0,
			  "Parse error in expression: \n\t%s = %s\n\tError in "
			  "submit file", attr, text);
}

static int bad_int(struct ks_err *err, const char *key, const char *v)
{
	return ks_err_set(err, KS_EINVAL, 0, 0, 0,
			  "%s=%s is invalid, must eval to an integer.", key, v);
}

static int bad_bool(struct ks_err *err, const char *key, const char *v)
{
	return ks_err_set(err, KS_EINVAL, 0, 0, 0,
			  "%s=%s is invalid, must eval to a boolean.", key, v);
}

/* A boolean command (or its attribute name), def when not given. */
static int param_bool(const struct sub_job_ctx *c, const char *key,
		      const char *alt, bool def, bool *out, struct ks_err *err)
{
	char *v = sub_param(c, key, alt);
	*out = def;
	int rc = v && !sub_value_bool(v, out) ? bad_bool(err, key, v) : 0;
	free(v);
	return rc;
}

/* ---- the standard streams -------------------------------------------- */

/* which: 0 input, 1 output, 2 error.  A stream with a file is transferred
 * unless transfer_<stream> says not, and says whether it is streamed; one
 * without (or /dev/null) is not transferred. */
int sub_set_stdio(const struct sub_job_ctx *c, classad *ad, int which,
		  const char *file, struct ks_err *err)
{
	static const char *const keys[3][4] = {
		{"transfer_input", "TransferIn", "stream_input", "StreamIn"},
		{"transfer_output", "TransferOut", "stream_output", "StreamOut"},
		{"transfer_error", "TransferErr", "stream_error", "StreamErr"}};
	const char *const *k = keys[which];
	bool transfer, stream;
	int rc;
	if ((rc = param_bool(c, k[0], k[1], true, &transfer, err)) ||
	    (rc = param_bool(c, k[2], k[3], false, &stream, err)))
		return rc;
	if (!file || !*file || !strcmp(file, "/dev/null"))
		transfer = false;
	if (transfer)
		classad_insert_bool(ad, k[3], stream);
	else
		classad_insert_bool(ad, k[1], false);
	return 0;
}

/* ---- notification ---------------------------------------------------- */

int sub_set_notification(const struct sub_job_ctx *c, classad *ad,
			 struct ks_err *err)
{
	static const struct {
		const char *n;
		int v;
	} hows[] = {{"never", 0}, {"always", 1}, {"complete", 2},
		    {"error", 3}, {"start", 4}};
	char *how = sub_param(c, "notification", "JobNotification");
	if (!how && c->cfg)
		how = ks_config_get(c->cfg, "JOB_DEFAULT_NOTIFICATION", NULL);
	int n = how ? -1 : 0;
	for (size_t i = 0; how && i < sizeof(hows) / sizeof(*hows); i++)
		if (!strcasecmp(how, hows[i].n))
			n = hows[i].v;
	free(how);
	if (n < 0)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "Notification must be 'Never', 'Always', "
				  "'Complete', 'Start', or 'Error'");
	classad_insert_int(ad, "JobNotification", n);
	return 0;
}

/* ---- kill signals ---------------------------------------------------- */

/* A signal as the job ad names it: a number becomes its name; a name
 * must be one of HTCondor's (in full, "SIGTERM"), and is upper-cased.
 * Takes v; NULL with err filled when it is no signal. */
static char *signal_name(char *v, struct ks_err *err)
{
	/* the starter's table of names; a name only in full ("SIGTERM",
	 * which the starter's reading would also take as "TERM") */
	bool number = v[strspn(v, "0123456789")] == '\0';
	int n = number || !strncasecmp(v, "SIG", 3) ? sr_signal_number(v) : -1;
	const char *name = n > 0 ? sr_signal_name(n) : NULL;
	if (!name) {
		ks_err_set(err, KS_EINVAL, 0, 0, 0, "invalid signal %s", v);
		free(v);
		return NULL;
	}
	free(v);
	return ks_xstrdup(name);
}

int sub_set_kill_sigs(const struct sub_job_ctx *c, classad *ad,
		      int universe, struct ks_err *err)
{
	static const char *const sigs[][2] = {{"kill_sig", "KillSig"},
					      {"remove_kill_sig", "RemoveKillSig"},
					      {"hold_kill_sig", "HoldKillSig"}};
	for (size_t i = 0; i < 3; i++) {
		char *v = sub_param(c, sigs[i][0], sigs[i][1]);
		if (v && !(v = signal_name(v, err)))
			return KS_EINVAL;
		/* a vanilla job's default is the starter's; others get
		 * SIGTERM */
		if (!v && i == 0 && universe != 5)
			v = ks_xstrdup("SIGTERM");
		if (v)
			classad_insert_string(ad, sigs[i][1], v);
		free(v);
	}
	char *t = sub_param(c, "kill_sig_timeout", "KillSigTimeout");
	if (t)
		classad_insert_int(ad, "KillSigTimeout", atoi(t));
	free(t);
	return 0;
}

/* ---- concurrency limits and accounting groups ------------------------ */

static bool is_attr_name(const char *s, size_t n)
{
	if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/* "name", "name.sub", either with ":increment" */
static bool is_limit(const char *s)
{
	size_t n = strcspn(s, ":");
	const char *dot = memchr(s, '.', n);
	if (!dot)
		return is_attr_name(s, n);
	return is_attr_name(s, (size_t)(dot - s)) &&
	       is_attr_name(dot + 1, n - (size_t)(dot - s) - 1);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The list lower-cased, checked, sorted and joined with commas. */
static int put_limits(classad *ad, char *v, struct ks_err *err)
{
	for (char *p = v; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	char **items = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	char *save = NULL;
	for (char *t = strtok_r(v, ", \t\r\n", &save); t;
	     t = strtok_r(NULL, ", \t\r\n", &save)) {
		if (!is_limit(t)) {
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"Invalid concurrency limit '%s'", t);
			break;
		}
		if (n == cap)
			items = ks_xrealloc(items, (cap = cap ? cap * 2 : 8) *
						   sizeof(*items));
		items[n++] = t;
	}
	if (!rc && n) {
		qsort(items, n, sizeof(*items), cmp_str);
		struct classad_buf b = {0};
		for (size_t i = 0; i < n; i++) {
			if (i)
				classad_buf_add(&b, ",", 1);
			classad_buf_add(&b, items[i], strlen(items[i]));
		}
		classad_insert_string(ad, "ConcurrencyLimits", b.data);
		free(b.data);
	}
	free(items);
	return rc;
}

static int set_limits(const struct sub_job_ctx *c, classad *ad,
		      struct ks_err *err)
{
	char *list = sub_param(c, "concurrency_limits", NULL);
	char *expr = sub_param(c, "concurrency_limits_expr", NULL);
	int rc = 0;
	if (list && expr)
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"concurrency_limits and concurrency_limits_expr "
				"can't be used together");
	else if (list)
		rc = put_limits(ad, list, err);
	else if (expr)
		rc = sub_put_expr(ad, "ConcurrencyLimits", expr, err);
	free(list);
	free(expr);
	return rc;
}

static bool has_space(const char *s)
{
	for (; *s; s++)
		if (isspace((unsigned char)*s))
			return true;
	return false;
}

/* AcctGroup, AcctGroupUser and AccountingGroup ("group.user", or the
 * user alone as an alias); nice_user is the group nice-user unless a
 * group is given. */
static int set_group(const struct sub_job_ctx *c, classad *ad,
		     struct ks_err *err)
{
	char *project = sub_param(c, "project_name", "ProjectName");
	if (project)
		classad_insert_string(ad, "ProjectName", project);
	free(project);
	bool nice;
	int rc = param_bool(c, "nice_user", "NiceUser", false, &nice, err);
	if (rc)
		return rc;
	char *group = sub_param(c, "accounting_group", "AccountingGroup");
	if (nice) {
		char *ng = c->cfg ? ks_config_get(
					    c->cfg,
					    "NICE_USER_ACCOUNTING_GROUP_NAME",
					    NULL)
				  : NULL;
		if (!ng)
			ng = ks_xstrdup("nice-user");
		if (!group)
			group = ng;
		else {
			if (strcmp(ng, group))
				fprintf(stderr, "\nWARNING: nice_user conflicts "
						"with accounting_group. nice_user "
						"will be ignored\n");
			free(ng);
		}
		/* nice jobs give way at once unless they say otherwise */
		classad_insert_int(ad, "MaxJobRetirementTime", 0);
	}
	char *gu = sub_param(c, "accounting_group_user", "AcctGroupUser");
	const char *user = gu ? gu : c->user;
	if (group && has_space(group))
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"Invalid accounting_group: %s", group);
	else if ((group || gu) && has_space(user))
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"Invalid accounting_group_user: %s", user);
	else if (group || gu) {
		classad_insert_string(ad, "AcctGroupUser", user);
		if (group) {
			classad_insert_string(ad, "AcctGroup", group);
			size_t n = strlen(group) + strlen(user) + 2;
			char *full = ks_xmalloc(n);
			snprintf(full, n, "%s.%s", group, user);
			classad_insert_string(ad, "AccountingGroup", full);
			free(full);
		} else {
			classad_insert_string(ad, "AccountingGroup", user);
		}
	}
	free(group);
	free(gu);
	return rc;
}

int sub_set_limits_and_group(const struct sub_job_ctx *c, classad *ad,
			     struct ks_err *err)
{
	int rc = set_limits(c, ad, err);
	return rc ? rc : set_group(c, ad, err);
}

/* ---- the simple commands --------------------------------------------- */

enum simple_kind {
	AS_EXPR,   /* the value is an expression */
	AS_STRING, /* a string, as written */
	AS_STRIP,  /* a string, one pair of enclosing quotes dropped */
	AS_LIST,   /* a list, rejoined "a,b,c" */
	AS_BOOL,
	AS_INT,
	AS_UINT,
};

/* HTCondor's table, in its order: each command may also be written as
 * its attribute's name; an entry marked alt is skipped when the one
 * before it was given. */
static const struct simple_cmd {
	const char *key, *attr;
	enum simple_kind kind;
	bool alt;
} simple_cmds[] = {
	{"next_job_start_delay", "NextJobStartDelay", AS_EXPR, false},
	{"keep_claim_idle", "KeepClaimIdle", AS_EXPR, false},
	{"job_ad_information_attrs", "JobAdInformationAttrs", AS_STRING, false},
	{"ulog_execute_attrs", "UserLogExecuteEventAttrs", AS_STRING, false},
	{"docker_network_type", "DockerNetworkType", AS_STRING, false},
	{"docker_pull_policy", "DockerPullPolicy", AS_STRING, false},
	{"docker_override_entrypoint", "DockerOverrideEntrypoint", AS_BOOL,
	 false},
	{"docker_send_credentials", "DockerSendCredentials", AS_BOOL, false},
	{"container_target_dir", "ContainerTargetDir", AS_STRIP, false},
	{"mount_under_scratch", "MountUnderScratch", AS_STRIP, false},
	{"transfer_container", "TransferContainer", AS_BOOL, false},
	{"transfer_plugins", "TransferPlugins", AS_STRING, false},
	{"want_io_proxy", "WantIOProxy", AS_BOOL, false},
	{"want_job_networking", "WantJobNetworking", AS_BOOL, false},
	{"starter_debug", "JobStarterDebug", AS_STRIP, false},
	{"container_is_common", "ContainerIsCommon", AS_BOOL, false},
	{"job_machine_attrs", "JobMachineAttrs", AS_STRING, false},
	{"job_machine_attrs_history_length", "JobMachineAttrsHistoryLength",
	 AS_INT, false},
	{"notify_user", "NotifyUser", AS_STRING, false},
	{"email_attributes", "EmailAttributes", AS_LIST, false},
	{"remote_initialdir", "RemoteIwd", AS_STRING, false},
	{"output_destination", "OutputDestination", AS_STRING, false},
	{"want_graceful_removal", "WantGracefulRemoval", AS_EXPR, false},
	{"job_max_vacate_time", "JobMaxVacateTime", AS_EXPR, false},
	{"encrypt_execute_directory", "EncryptExecuteDirectory", AS_BOOL,
	 false},
	{"encrypt_input_files", "EncryptInputFiles", AS_STRING, false},
	{"encrypt_output_files", "EncryptOutputFiles", AS_STRING, false},
	{"dont_encrypt_input_files", "DontEncryptInputFiles", AS_STRING, false},
	{"dont_encrypt_output_files", "DontEncryptOutputFiles", AS_STRING,
	 false},
	{"load_profile", "LoadProfile", AS_BOOL, false},
	{"primary_unix_group", "PrimaryUnixGroup", AS_STRING, false},
	{"file_remaps", "FileRemaps", AS_EXPR, false},
	{"buffer_files", "BufferFiles", AS_EXPR, false},
	{"buffer_size", "BufferSize", AS_EXPR, false},
	{"buffer_block_size", "BufferBlockSize", AS_EXPR, false},
	{"fetch_files", "FetchFiles", AS_STRING, false},
	{"compress_files", "CompressFiles", AS_STRING, false},
	{"append_files", "AppendFiles", AS_STRING, false},
	{"local_files", "LocalFiles", AS_STRING, false},
	{"log_xml", "UserLogUseXML", AS_BOOL, false},
	{"noop_job", "IsNoopJob", AS_EXPR, false},
	{"noop_job_exit_signal", "NoopJobExitSignal", AS_EXPR, false},
	{"noop_job_exit_code", "NoopJobExitCode", AS_EXPR, false},
	{"dag_node_name", "DAGNodeName", AS_STRING, false},
	{"match_list_length", "LastMatchListLength", AS_INT, false},
	{"dagman_job_id", "DAGManJobId", AS_UINT, false},
	{"submit_event_notes", "SubmitEventNotes", AS_STRING, false},
	{"submit_event_user_notes", "SubmitEventUserNotes", AS_STRING, false},
	{"submit_event_notes_attrs", "SubmitEventNotesAttrs", AS_STRING, false},
	{"stack_size", "StackSize", AS_EXPR, false},
	{"jar_files", "JarFiles", AS_STRING, false},
	{"parallel_script_shadow", "ParallelScriptShadow", AS_STRING, false},
	{"parallel_script_starter", "ParallelScriptStarter", AS_STRING, false},
	{"cron_minute", "CronMinute", AS_STRING, false},
	{"cron_hour", "CronHour", AS_STRING, false},
	{"cron_day_of_month", "CronDayOfMonth", AS_STRING, false},
	{"cron_month", "CronMonth", AS_STRING, false},
	{"cron_day_of_week", "CronDayOfWeek", AS_STRING, false},
	{"description", "JobDescription", AS_STRING, false},
	{"batch_name", "JobBatchName", AS_STRIP, false},
	{"batch_id", "JobBatchId", AS_STRIP, false},
	{"max_job_retirement_time", "MaxJobRetirementTime", AS_EXPR, false},
	{"job_lease_duration", "JobLeaseDuration", AS_EXPR, false},
	{"core_size", "CoreSize", AS_INT, false},
	{"priority", "JobPrio", AS_INT, false},
	{"prio", "JobPrio", AS_INT, true},
	{"run_as_owner", "RunAsOwner", AS_BOOL, false},
	{"max_transfer_input_mb", "MaxTransferInputMB", AS_EXPR, false},
	{"max_transfer_output_mb", "MaxTransferOutputMB", AS_EXPR, false},
	{"manifest", "ManifestDesired", AS_BOOL, false},
	{"manifest_dir", "ManifestDir", AS_STRING, false},
	{"checkpoint_exit_code", "SuccessCheckpointExitCode", AS_INT, false},
	{"checkpoint_destination", "CheckpointDestination", AS_STRING, false},
	{"erase_output_and_error_on_restart", "EraseOutputAndErrorOnRestart",
	 AS_BOOL, false},
	{"transfer_checkpoint_files", "TransferCheckpoint", AS_STRING, false},
	{"preserve_relative_paths", "PreserveRelativePaths", AS_BOOL, false},
	{"cuda_version", "CUDAVersion", AS_STRING, false},
	{"skip_if_dataflow", "SkipIfDataflow", AS_BOOL, false},
	{"allowed_job_duration", "AllowedJobDuration", AS_EXPR, false},
	{"allowed_execute_duration", "AllowedExecuteDuration", AS_EXPR, false},
};

/* Blanks trimmed, and a pair of enclosing double quotes dropped. */
static char *strip_quotes(char *v)
{
	while (isspace((unsigned char)*v))
		v++;
	size_t n = strlen(v);
	while (n && isspace((unsigned char)v[n - 1]))
		v[--n] = '\0';
	if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		v[n - 1] = '\0';
		v++;
	}
	return v;
}

/* Items split at commas and blanks, rejoined with commas. */
static void put_joined(classad *ad, const char *attr, char *v)
{
	struct classad_buf b = {0};
	char *save = NULL;
	for (char *t = strtok_r(v, ", \t\r\n", &save); t;
	     t = strtok_r(NULL, ", \t\r\n", &save)) {
		if (b.len)
			classad_buf_add(&b, ",", 1);
		classad_buf_add(&b, t, strlen(t));
	}
	classad_insert_string(ad, attr, b.data ? b.data : "");
	free(b.data);
}

static int put_simple(classad *ad, const struct simple_cmd *s, char *v,
		      struct ks_err *err)
{
	long long i;
	bool b;
	switch (s->kind) {
	case AS_STRING:
		classad_insert_string(ad, s->attr, v);
		return 0;
	case AS_STRIP:
		classad_insert_string(ad, s->attr, strip_quotes(v));
		return 0;
	case AS_LIST:
		put_joined(ad, s->attr, v);
		return 0;
	case AS_BOOL:
		if (!sub_value_bool(v, &b))
			return bad_bool(err, s->key, v);
		classad_insert_bool(ad, s->attr, b);
		return 0;
	case AS_INT:
	case AS_UINT:
		if (!sub_value_int(v, &i))
			return bad_int(err, s->key, v);
		if (i < 0 && s->kind == AS_UINT)
			return ks_err_set(err, KS_EINVAL, 0, 0, 0,
					  "%s=%s is invalid, must eval to a "
					  "non-negative integer.", s->key, v);
		classad_insert_int(ad, s->attr, i);
		return 0;
	case AS_EXPR:
		break;
	}
	return sub_put_expr(ad, s->attr, v, err);
}

int sub_set_simple(const struct sub_job_ctx *c, classad *ad,
		   struct ks_err *err)
{
	bool last_given = false;
	size_t n = sizeof(simple_cmds) / sizeof(*simple_cmds);
	for (size_t i = 0; i < n; i++) {
		const struct simple_cmd *s = &simple_cmds[i];
		if (s->alt && last_given) {
			last_given = false;
			continue;
		}
		char *v = sub_param(c, s->key, s->attr);
		last_given = v != NULL;
		int rc = v ? put_simple(ad, s, v, err) : 0;
		free(v);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- image size, and what HTCondor fills in last --------------------- */

/* A size in KiB: a number (a fraction allowed) with an optional unit K,
 * M, G or T (B may follow), KiB without one; rounded up. */
static bool size_kb(const char *v, long long *out)
{
	while (isspace((unsigned char)*v))
		v++;
	char *p;
	long long whole = strtoll(v, &p, 10);
	double frac = 0, scale = 0.1;
	if (*p == '.') {
		/* (three digits are plenty: the result is rounded up) */
		for (p++; isdigit((unsigned char)*p); p++, scale /= 10)
			if (scale > 0.0005)
				frac += (*p - '0') * scale;
	}
	if (p == v)
		return false;
	while (isspace((unsigned char)*p))
		p++;
	long long mult = 1024;
	if (*p) {
		switch (toupper((unsigned char)*p)) {
		case 'K': mult = 1024; break;
		case 'M': mult = 1024LL * 1024; break;
		case 'G': mult = 1024LL * 1024 * 1024; break;
		case 'T': mult = 1024LL * 1024 * 1024 * 1024; break;
		default: return false;
		}
		p++;
		if (*p == 'b' || *p == 'B')
			p++;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p)
		return false;
	*out = (long long)(((double)whole + frac) * (double)mult + 1023) / 1024;
	return true;
}

int sub_set_image_size(const struct sub_job_ctx *c, classad *ad,
		       struct ks_err *err)
{
	char *v = sub_param(c, "image_size", "ImageSize");
	if (!v)
		return 0;
	long long kb = 0;
	int rc = 0;
	if (!size_kb(v, &kb))
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"'%s' is not valid for Image Size\nImage Size "
				"must be positive", v);
	else if (kb < 1)
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"Image Size must be positive");
	else
		classad_insert_int(ad, "ImageSize", kb);
	free(v);
	return rc;
}

/* After every command: the counters every job has, the lease and the
 * priority's defaults, and the checks HTCondor makes of the result. */
int sub_set_auto(const struct sub_job_ctx *c, classad *ad, int universe,
		 struct ks_err *err)
{
	classad_insert_int(ad, "CurrentHosts", 0);
	if (classad_lookup(ad, "SuccessCheckpointExitCode"))
		classad_insert_bool(ad, "WantFTOnCheckpoint", true);
	/* local and scheduler jobs cannot reconnect: no lease */
	if (universe != 12 && universe != 7 &&
	    !classad_lookup(ad, "JobLeaseDuration")) {
		char *d = c->cfg ? ks_config_get(c->cfg,
						 "JOB_DEFAULT_LEASE_DURATION",
						 NULL)
				 : NULL;
		int rc = sub_put_expr(ad, "JobLeaseDuration", d ? d : "2400",
				      err);
		free(d);
		if (rc)
			return rc;
	}
	if (!classad_lookup(ad, "JobPrio"))
		classad_insert_int(ad, "JobPrio", 0);
	classad_value lv = CLASSAD_VALUE_INIT;
	const classad_expr *lease = classad_lookup(ad, "JobLeaseDuration");
	int64_t secs;
	if (lease && classad_expr_is_literal(lease, &lv) &&
	    classad_eval_int(ad, "JobLeaseDuration", NULL, &secs) &&
	    secs > 0 && secs < 20) {
		fprintf(stderr, "\nWARNING: JobLeaseDuration less than 20 "
				"seconds is not allowed, using 20 instead\n");
		classad_insert_int(ad, "JobLeaseDuration", 20);
	}
	classad_value_clear(&lv);
	int64_t hist;
	if (classad_lookup(ad, "JobMachineAttrsHistoryLength") &&
	    classad_eval_int(ad, "JobMachineAttrsHistoryLength", NULL, &hist) &&
	    (hist < 0 || hist > INT_MAX))
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "job_machine_attrs_history_length=%lld is out "
				  "of bounds 0 to %d", (long long)hist, INT_MAX);
	return 0;
}
