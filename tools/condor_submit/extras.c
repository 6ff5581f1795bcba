/* extras.c: the submit commands that turn into job attributes with little
 * interpretation (HTCondor's table of simple commands) and the few that
 * need a rule of their own: the standard streams' transfer and streaming
 * flags, notification, kill signals, concurrency limits, accounting
 * groups, image size and the attributes HTCondor fills in last; and the
 * universes with rules of their own: docker and container (to HTCondor,
 * vanilla jobs with an image), parallel (its node count), with the
 * Requirements condor_submit writes for a job of each universe.  The
 * values, defaults, clauses and error messages are HTCondor 25's
 * condor_submit's. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "ks_name.h"
#include "ks_text.h"
#include "ks_jobad.h"
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

int sub_expr_error(struct ks_err *err, int line, const char *src,
		   const char *attr, const char *text,
		   const struct ks_err *why)
{
	/* HTCondor's words, with what it leaves out: the line, and the
	 * parser's reason; a long text is cut in the middle so that both
	 * fit the message */
	char where[160] = "";
	if (line > 0 && src)
		snprintf(where, sizeof(where), "on Line %d of %s: ", line, src);
	else if (src)
		snprintf(where, sizeof(where), "in %s: ", src);
	char reason[sizeof(why->msg) + 32];
	if (why && why->msg[0] && why->col > 0)
		snprintf(reason, sizeof(reason), "at column %d: %s", why->col,
			 why->msg);
	else
		snprintf(reason, sizeof(reason), "%s",
			 why && why->msg[0] ? why->msg : "not an expression");
	size_t room = sizeof(err->msg) - strlen(where) - strlen(reason) -
		      strlen(attr) - 40;
	if ((ptrdiff_t)room < 20)
		room = 20;
	size_t n = strlen(text);
	if (n <= room)
		return ks_err_set(err, KS_EPARSE, line, why ? why->col : 0, 0,
				  "%sParse error in expression: \n\t%s = %s\n\t%s",
				  where, attr, text, reason);
	size_t head = room / 2, tail = room - head - 3;
	return ks_err_set(err, KS_EPARSE, line, why ? why->col : 0, 0,
			  "%sParse error in expression: \n\t%s = %.*s...%s\n\t%s",
			  where, attr, (int)head, text, text + n - tail, reason);
}

int sub_put_expr(const struct sub_job_ctx *c, classad *ad, const char *attr,
		 const char *text, const char *key, struct ks_err *err)
{
	classad_expr *e = sub_parse_expr(c, text);
	if (e && classad_insert(ad, attr, e) == 0)
		return 0;
	/* (parsed again for the reason: the cache keeps none) */
	struct ks_err why = {0};
	classad_expr_free(classad_parse_expr(text, strlen(text), &why));
	const char *src = NULL;
	int line = key ? sub_where(c, key, attr, &src) : 0;
	return sub_expr_error(err, line, src, attr, text, &why);
}

static int bad_int(struct ks_err *err, const char *key, const char *v)
{
	return ks_err_set(err, KS_EINVAL, 0, 0, 0,
			  "%s=%s is invalid, must eval to an integer.", key, v);
}

int sub_bad_bool(struct ks_err *err, const char *key, const char *v)
{
	return ks_err_set(err, KS_EINVAL, 0, 0, 0,
			  "%s=%s is invalid, must eval to a boolean.", key, v);
}

int sub_param_bool(const struct sub_job_ctx *c, const char *key,
		   const char *alt, bool def, bool *out, struct ks_err *err)
{
	char *v = sub_param(c, key, alt);
	*out = def;
	int rc = v && !sub_value_bool(v, out) ? sub_bad_bool(err, key, v) : 0;
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
	if ((rc = sub_param_bool(c, k[0], k[1], true, &transfer, err)) ||
	    (rc = sub_param_bool(c, k[2], k[3], false, &stream, err)))
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
	if (!how)
		how = sub_knob(c, "JOB_DEFAULT_NOTIFICATION");
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
	int n = number || !strncasecmp(v, "SIG", 3) ?
		ks_jobad_signal_number(v) : -1;
	const char *name = n > 0 ? ks_jobad_signal_name(n) : NULL;
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

/* "name", "name.sub", either with ":increment" */
static bool is_limit(const char *s)
{
	return ks_name_is_limit(s, strcspn(s, ":"));
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
	for (char *cur = v, *t; (t = ks_list_cut(&cur));) {
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
		rc = sub_put_expr(c, ad, "ConcurrencyLimits", expr,
				  "concurrency_limits_expr", err);
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
	int rc = sub_param_bool(c, "nice_user", "NiceUser", false, &nice, err);
	if (rc)
		return rc;
	char *group = sub_param(c, "accounting_group", "AccountingGroup");
	if (nice) {
		char *ng = sub_knob(c, "NICE_USER_ACCOUNTING_GROUP_NAME");
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
	AS_PATH,   /* a file name, made absolute from the job's Iwd */
	AS_STRIP_PATH, /* the same, enclosing quotes dropped first */
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
	{"max_idle", "JobMaterializeMaxIdle", AS_EXPR, false},
	{"materialize_max_idle", "JobMaterializeMaxIdle", AS_EXPR, true},
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
	{"starter_log", "JobStarterLog", AS_STRIP_PATH, false},
	{"container_is_common", "ContainerIsCommon", AS_BOOL, false},
	{"job_machine_attrs", "JobMachineAttrs", AS_STRING, false},
	{"job_machine_attrs_history_length", "JobMachineAttrsHistoryLength",
	 AS_INT, false},
	{"notify_user", "NotifyUser", AS_STRING, false},
	{"email_attributes", "EmailAttributes", AS_LIST, false},
	{"remote_initialdir", "RemoteIwd", AS_STRING, false},
	{"Remote_grid_resource", "Remote_GridResource", AS_STRING, false},
	{"Remote_Remote_grid_resource", "Remote_Remote_GridResource", AS_STRING,
	 false},
	{"output_destination", "OutputDestination", AS_STRING, false},
	{"output_directory", "OutputDirectory", AS_PATH, false},
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
	{"dagman_log", "DAGManNodesLog", AS_PATH, false},
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
	/* credential files for s3:// and gs:// URLs */
	{"aws_region", "AWSRegion", AS_STRING, false},
	{"aws_access_key_id_file", "EC2AccessKeyId", AS_STRING, false},
	{"aws_secret_access_key_file", "EC2SecretAccessKey", AS_STRING, false},
	{"s3_access_key_id_file", "EC2AccessKeyId", AS_STRING, false},
	{"s3_secret_access_key_file", "EC2SecretAccessKey", AS_STRING, false},
	{"gs_access_key_id_file", "EC2AccessKeyId", AS_STRING, false},
	{"gs_secret_access_key_file", "EC2SecretAccessKey", AS_STRING, false},
	{"erase_output_and_error_on_restart", "EraseOutputAndErrorOnRestart",
	 AS_BOOL, false},
	{"transfer_checkpoint_files", "TransferCheckpoint", AS_STRING, false},
	{"preserve_relative_paths", "PreserveRelativePaths", AS_BOOL, false},
	{"cuda_version", "CUDAVersion", AS_STRING, false},
	{"jobset", "JobSetName", AS_STRIP, false},
	{"skip_if_dataflow", "SkipIfDataflow", AS_BOOL, false},
	{"allowed_job_duration", "AllowedJobDuration", AS_EXPR, false},
	{"allowed_execute_duration", "AllowedExecuteDuration", AS_EXPR, false},
};

char *sub_strip_quotes(char *v)
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
	for (char *cur = v, *t; (t = ks_list_cut(&cur));) {
		if (b.len)
			classad_buf_add(&b, ",", 1);
		classad_buf_add(&b, t, strlen(t));
	}
	classad_insert_string(ad, attr, b.data ? b.data : "");
	free(b.data);
}

static int put_simple(const struct sub_job_ctx *c, classad *ad,
		      const struct simple_cmd *s, char *v,
		      struct ks_err *err)
{
	long long i;
	bool b;
	switch (s->kind) {
	case AS_STRING:
		classad_insert_string(ad, s->attr, v);
		return 0;
	case AS_STRIP:
		classad_insert_string(ad, s->attr, sub_strip_quotes(v));
		return 0;
	case AS_PATH:
	case AS_STRIP_PATH: {
		const char *name = s->kind == AS_STRIP_PATH ? sub_strip_quotes(v) : v;
		char *iwd = NULL;
		classad_eval_string(ad, "Iwd", NULL, &iwd);
		char *path = *name ? ks_path_in(iwd ? iwd : ".", name)
				   : ks_xstrdup("");
		classad_insert_string(ad, s->attr, path);
		free(path);
		free(iwd);
		return 0;
	}
	case AS_LIST:
		put_joined(ad, s->attr, v);
		return 0;
	case AS_BOOL:
		if (!sub_value_bool(v, &b))
			return sub_bad_bool(err, s->key, v);
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
	return sub_put_expr(c, ad, s->attr, v, s->key, err);
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
		int rc = v ? put_simple(c, ad, s, v, err) : 0;
		free(v);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- image size, and what HTCondor fills in last --------------------- */

bool sub_size_value(const char *v, long long base, const char *seps,
		    long long *out, char *unit, const char **end)
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
	long long mult = base;
	char u = 0;
	if (*p && !(seps && strchr(seps, *p))) {
		switch (toupper((unsigned char)*p)) {
		case 'K': mult = 1024; break;
		case 'M': mult = 1024LL * 1024; break;
		case 'G': mult = 1024LL * 1024 * 1024; break;
		case 'T': mult = 1024LL * 1024 * 1024 * 1024; break;
		default: return false;
		}
		u = *p++;
		if (*p == 'b' || *p == 'B')
			p++;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p && !(seps && strchr(seps, *p)))
		return false;
	double bytes = ((double)whole + frac) * (double)mult + (double)base - 1;
	/* a size no 64-bit count can hold is no size */
	if (!(bytes < 9.2e18) || bytes < 0)
		return false;
	*out = (long long)bytes / base;
	if (unit)
		*unit = u;
	if (end)
		*end = p;
	return true;
}

int sub_set_image_size(const struct sub_job_ctx *c, classad *ad,
		       int universe, const char *grid, struct ks_err *err)
{
	/* a vm job's is its memory (vm.c); an ec2, gce or azure job's
	 * executable is only a name; a container job may have none */
	if (universe != 13) {
		char *cmd = NULL, *iwd = NULL;
		classad_eval_string(ad, "Cmd", NULL, &cmd);
		classad_eval_string(ad, "Iwd", NULL, &iwd);
		long long kb = 0;
		if (cmd && *cmd && !sub_grid_exe_is_name(grid)) {
			char *path = ks_path_in(iwd ? iwd : c->iwd, cmd);
			kb = sub_exe_size(c, path);
			free(path);
		}
		classad_insert_int(ad, "ExecutableSize", kb);
		free(cmd);
		free(iwd);
	}
	char *v = sub_param(c, "image_size", "ImageSize");
	if (!v) {
		int64_t kb = 0;
		if (!classad_lookup(ad, "ImageSize")) {
			classad_eval_int(ad, "ExecutableSize", NULL, &kb);
			classad_insert_int(ad, "ImageSize", kb);
		}
		return 0;
	}
	long long kb = 0;
	int rc = 0;
	if (!sub_size_value(v, 1024, NULL, &kb, NULL, NULL))
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
	/* only vanilla, java, parallel and vm jobs can reconnect (not
	 * local, scheduler or grid ones): the others have no lease */
	if ((universe == 5 || universe == 10 || universe == 11 ||
	     universe == 13) &&
	    !classad_lookup(ad, "JobLeaseDuration")) {
		char *d = sub_knob(c, "JOB_DEFAULT_LEASE_DURATION");
		int rc = sub_put_expr(c, ad, "JobLeaseDuration", d ? d : "2400",
				      NULL, err);
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

/* ---- the docker, container and parallel universes ------------------- */

static bool starts_with(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static bool ends_with(const char *s, const char *p)
{
	size_t n = strlen(s), m = strlen(p);
	return n >= m && !strcmp(s + n - m, p);
}

/* What an image names: a docker repository ("docker:..."), a singularity
 * file (".sif"), or else a directory to run in. */
enum image_kind { IMAGE_DOCKER, IMAGE_SIF, IMAGE_SANDBOX };

static enum image_kind image_kind_of(const char *image)
{
	char *copy = ks_xstrdup(image);
	char *s = copy;
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	enum image_kind k = starts_with(s, "docker:") ? IMAGE_DOCKER
			    : ends_with(s, ".sif") ? IMAGE_SIF
						   : IMAGE_SANDBOX;
	free(copy);
	return k;
}

int sub_universe_of(const char *u, int *topping)
{
	static const struct {
		const char *n;
		int v, topping;
	} us[] = {{"vanilla", 5, SUB_PLAIN},	 {"standard", 1, SUB_PLAIN},
		  {"scheduler", 7, SUB_PLAIN},	 {"grid", 9, SUB_PLAIN},
		  {"java", 10, SUB_PLAIN},	 {"parallel", 11, SUB_PLAIN},
		  {"local", 12, SUB_PLAIN},	 {"vm", 13, SUB_PLAIN},
		  {"docker", 5, SUB_DOCKER},	 {"container", 5, SUB_CONTAINER}};
	*topping = SUB_PLAIN;
	for (size_t i = 0; i < sizeof(us) / sizeof(*us); i++)
		if (!strcasecmp(u, us[i].n)) {
			*topping = us[i].topping;
			return us[i].v;
		}
	return -1;
}

int sub_set_remote_universe(const struct sub_job_ctx *c, classad *ad,
			    struct ks_err *err)
{
	static const char *const keys[][3] = {
		{"Remote_universe", "Remote_JobUniverse", "Remote_Universe"},
		{"Remote_Remote_universe", "Remote_Remote_JobUniverse",
		 "Remote_Remote_Universe"}};
	for (size_t i = 0; i < 2; i++) {
		char *v = sub_param(c, keys[i][0], keys[i][1]);
		if (!v)
			continue;
		/* a number (as older descriptions wrote it) or a name */
		int topping = SUB_PLAIN, n = atoi(v);
		if (!n)
			n = sub_universe_of(v, &topping);
		if (n <= 0 || topping != SUB_PLAIN) {
			int rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					    "Unknown %s of '%s' specified",
					    keys[i][2], v);
			free(v);
			return rc;
		}
		classad_insert_int(ad, keys[i][1], n);
		free(v);
	}
	return 0;
}

/* ---- images ---------------------------------------------------------- */

/* The image a docker job runs: docker_image, required. */
static int set_docker_image(const struct sub_job_ctx *c, classad *ad,
			    struct ks_err *err)
{
	char *v = sub_param(c, "docker_image", "DockerImage");
	if (!v)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "docker jobs require a docker_image");
	const char *image = sub_strip_quotes(v);
	int rc = 0;
	if (!*image)
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"'%s' is not a valid docker_image", v);
	else
		classad_insert_string(ad, "DockerImage", image);
	free(v);
	return rc;
}

/* A container job's image: container_image (a docker:// repository, a
 * .sif file or a directory), or docker_image; one of them. */
static int set_container_image(const struct sub_job_ctx *c, classad *ad,
			       struct ks_err *err)
{
	char *d = sub_param(c, "docker_image", "DockerImage");
	char *v = sub_param(c, "container_image", "ContainerImage");
	int rc = 0;
	if (d) {
		const char *image = sub_strip_quotes(d);
		if (!*image)
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"'%s' is not a valid docker_image for "
					"container universe", d);
		else
			classad_insert_string(ad, "DockerImage", image);
	}
	if (!rc && v) {
		char *raw = ks_xstrdup(v);
		const char *image = sub_strip_quotes(v);
		static const char *const refused[] = {"instance://", "library://",
						      "shub://"};
		bool valid = *image != '\0';
		for (size_t i = 0; i < 3; i++)
			if (starts_with(image, refused[i]))
				valid = false;
		if (!valid) {
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"'%s' is not a valid container image", raw);
		} else {
			classad_insert_string(ad, "ContainerImage", image);
			static const char *const wants[] = {
				"WantDockerImage", "WantSIF", "WantSandboxImage"};
			classad_insert_bool(ad, wants[image_kind_of(image)], true);
		}
		free(raw);
	} else if (!rc && !d) {
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"container jobs require a container_image or "
				"docker_image");
	}
	free(d);
	free(v);
	return rc;
}

/* container_service_names, and each service's <name>_container_port. */
static int set_services(const struct sub_job_ctx *c, classad *ad,
			struct ks_err *err)
{
	char *list = sub_param(c, "container_service_names",
			       "ContainerServiceNames");
	if (!list)
		return 0;
	classad_insert_string(ad, "ContainerServiceNames", list);
	int rc = 0;
	for (char *cur = list, *s; !rc && (s = ks_list_cut(&cur));) {
		size_t n = strlen(s) + sizeof("_container_port");
		char *key = ks_xmalloc(n);
		snprintf(key, n, "%s_container_port", s);
		char *v = sub_param(c, key, NULL);
		long long port = -1;
		if (v && !sub_value_int(v, &port))
			port = -1;
		if (port < 0 || port > 65535) {
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"Requested container service '%s' was not "
					"assigned a port, or the assigned port was "
					"not valid.", s);
		} else {
			snprintf(key, n, "%s_ContainerPort", s);
			classad_insert_int(ad, key, port);
		}
		free(v);
		free(key);
	}
	free(list);
	return rc;
}

int sub_set_container(const struct sub_job_ctx *c, classad *ad,
		      int universe, int *topping, struct ks_err *err)
{
	if (universe != 5 && universe != 12)
		return 0;
	char *d = sub_param(c, "docker_image", "DockerImage");
	char *v = sub_param(c, "container_image", "ContainerImage");
	int rc = 0;
	if (*topping == SUB_DOCKER) {
		if (v)
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"docker universe does not allow use of "
					"container_image.");
	} else if (d && v) {
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"cannot declare both docker_image and "
				"container_image");
	} else if (d || v) {
		/* an image alone makes a vanilla (or local) job a container
		 * job */
		*topping = SUB_CONTAINER;
		if (d)
			classad_insert_bool(ad, "WantDockerImage", true);
	}
	free(d);
	free(v);
	if (rc)
		return rc;
	if (*topping == SUB_DOCKER) {
		classad_insert_bool(ad, "WantDocker", true);
		rc = set_docker_image(c, ad, err);
	} else if (*topping == SUB_CONTAINER) {
		classad_insert_bool(ad, "WantContainer", true);
		rc = set_container_image(c, ad, err);
	}
	return rc ? rc : *topping != SUB_PLAIN ? set_services(c, ad, err) : 0;
}

/* ---- the image's transfer -------------------------------------------- */

int sub_set_container_transfer(const struct sub_job_ctx *c, classad *ad,
			       struct classad_buf *inputs, long long *kb,
			       const char *iwd, struct ks_err *err)
{
	(void)err;
	char *image = sub_param(c, "container_image", "ContainerImage");
	if (!image)
		return 0; /* docker_image alone: the execute side pulls it */
	bool transfer = true;
	if (classad_lookup(ad, "TransferContainer"))
		classad_eval_bool(ad, "TransferContainer", NULL, &transfer);
	/* an image on a file system every execute node shares stays put */
	char *shared = transfer ? sub_knob(c, "CONTAINER_SHARED_FS") : NULL;
	char *save = NULL;
	for (char *p = shared ? strtok_r(shared, ",", &save) : NULL;
	     p && transfer; p = strtok_r(NULL, ",", &save))
		if (starts_with(image, p))
			transfer = false;
	free(shared);
	if (!transfer) {
		classad_insert_string(ad, "ContainerImageSource", "local");
		goto out;
	}
	/* repositories the execute side pulls itself */
	if (starts_with(image, "docker://") || starts_with(image, "oras://")) {
		classad_insert_string(ad, "ContainerImageSource",
				      image[0] == 'd' ? "docker" : "oras");
		goto out;
	}
	/* the image goes with the input files, and the job names it by its
	 * base name */
	if (inputs->len)
		classad_buf_add(inputs, ",", 1);
	classad_buf_add(inputs, image, strlen(image));
	*kb += sub_file_kb(c, iwd, image);
	size_t n = strlen(image);
	char *path = ks_xstrdup(image);
	if (n > 1 && path[n - 1] == '/')
		path[n - 1] = '\0';
	const char *slash = strrchr(path, '/');
	classad_insert_string(ad, "ContainerImage", slash ? slash + 1 : path);
	classad_insert_string(ad, "ContainerImageFullPath", image);
	char *colon = strchr(path, ':');
	if (colon)
		*colon = '\0';
	classad_insert_string(ad, "ContainerImageSource",
			      colon ? path : "cedar");
	free(path);
out:
	free(image);
	return 0;
}

/* ---- the parallel universe ------------------------------------------- */

int sub_set_parallel(const struct sub_job_ctx *c, classad *ad, int universe,
		     struct ks_err *err)
{
	bool want = false;
	char *v = sub_param(c, "WantParallelScheduling", NULL);
	if (v && sub_value_bool(v, &want) && want)
		classad_insert_bool(ad, "WantParallelScheduling", true);
	free(v);
	if (universe == 11 || want) {
		v = sub_param(c, "machine_count", "MachineCount");
		if (!v)
			v = sub_param(c, "node_count", "NodeCount");
		if (!v)
			return ks_err_set(err, KS_EINVAL, 0, 0, 0,
					  "No machine_count specified!");
		int n = atoi(v);
		free(v);
		classad_insert_int(ad, "MinHosts", n);
		classad_insert_int(ad, "MaxHosts", n);
		/* one cpu a node, whatever JOB_DEFAULT_REQUESTCPUS says;
		 * request_cpus still counts */
		v = sub_param(c, "request_cpus", "RequestCpus");
		if (!v)
			classad_insert_int(ad, "RequestCpus", 1);
		free(v);
	}
	if (universe == 11) {
		classad_insert_bool(ad, "WantIOProxy", true);
		classad_insert_bool(ad, "JobRequiresSandbox", true);
	}
	return 0;
}

/* ---- Requirements ---------------------------------------------------- */

/* Whether attr is a literal number at most max (no clause needed). */
static bool literal_at_most(const classad *ad, const char *attr, double max)
{
	const classad_expr *e = classad_lookup(ad, attr);
	classad_value lv = CLASSAD_VALUE_INIT;
	bool small = false;
	if (e && classad_expr_is_literal(e, &lv)) {
		if (lv.type == CLASSAD_INTEGER)
			small = (double)lv.u.i <= max;
		else if (lv.type == CLASSAD_REAL)
			small = lv.u.r <= max;
	}
	classad_value_clear(&lv);
	return small;
}

/* A set of names, ignoring case: an ad's attributes are one. */
static void note_name(const char *name, void *set)
{
	classad_insert_bool(set, name, true);
}

static bool has(const classad *set, const char *name)
{
	return classad_lookup(set, name) != NULL;
}

/* The machine attributes the user's expression reads, as HTCondor finds
 * them: TARGET.x, and plain names the job side does not define -- which
 * there is an ad holding only RequestMemory, VM_CkptMac and Requirements,
 * so Disk or Cpus written bare count as the machine's.  *circular: the
 * expression reads Requirements, bare, as MY. or as TARGET. */
static classad *machine_refs(const char *user, bool *circular)
{
	classad *refs = classad_new();
	*circular = false;
	struct ks_err e;
	classad_expr *x = user ? classad_parse_expr(user, strlen(user), &e)
			       : NULL;
	if (!x)
		return refs; /* HTCondor only warns; put_expr() decides */
	classad *job = classad_new();
	classad_insert_int(job, "RequestMemory", 0);
	classad_insert_string(job, "VM_CkptMac", "");
	classad_insert_bool(job, "Requirements", true);
	classad_expr_each_target_ref(job, x, note_name, refs);
	classad *mine = classad_new();
	classad_expr_each_ref(x, note_name, mine);
	*circular = has(refs, "Requirements") || has(mine, "Requirements");
	classad_free(mine);
	classad_free(job);
	classad_expr_free(x);
	return refs;
}

/* The Arch clause, and the OpSys one or the docker or container job's. */
static void add_platform(const classad *ad, const classad *refs,
			 int universe, int topping, struct classad_buf *b)
{
	if (universe == 13) {
		/* a virtual machine of the job's type, on the same
		 * architecture */
		if (!has(refs, "Arch")) {
			if (b->len)
				classad_buf_puts(b, " && ");
			classad_buf_puts(b, "(TARGET.Arch == \"X86_64\")");
		}
		if (!has(refs, "HasVM"))
			classad_buf_puts(b, "&& (TARGET.HasVM =?= true)");
		if (!has(refs, "VM_Type"))
			classad_buf_puts(b, " && (TARGET.VM_Type == MY.JobVMType)");
		if (!has(refs, "VM_AvailNum"))
			classad_buf_puts(b, " && (TARGET.VM_AvailNum > 0)");
		bool ckpt = false;
		if (classad_eval_bool(ad, "JobVMCheckpoint", NULL, &ckpt) && ckpt)
			classad_buf_puts(b, " && ((MY.VM_CkptMac =?= UNDEFINED) || "
			       "(TARGET.VM_All_Guest_Macs =?= UNDEFINED) || "
			       "(stringListIMember(MY.VM_CkptMac, "
			       "TARGET.VM_All_Guest_Macs, \",\") == FALSE))");
		return;
	}
	if (universe == 10) {
		/* a java job runs wherever there is a java */
		if (b->len)
			classad_buf_puts(b, " && ");
		classad_buf_puts(b, "TARGET.HasJava");
		return;
	}
	if (!has(refs, "Arch")) {
		if (b->len)
			classad_buf_puts(b, " && ");
		classad_buf_puts(b, "(TARGET.Arch == \"X86_64\")");
	}
	if (topping == SUB_DOCKER) {
		if (b->len)
			classad_buf_puts(b, " && ");
		classad_buf_puts(b, "TARGET.HasDocker");
		char *net = NULL;
		/* every docker supports these three without saying so */
		if (classad_eval_string(ad, "DockerNetworkType", NULL, &net) &&
		    *net && strcmp(net, "host") && strcmp(net, "none") &&
		    strcmp(net, "nat"))
			classad_buf_puts(b, "&& StringListMember(My.DockerNetworkType, "
			       "TARGET.DockerNetworks)");
		free(net);
	} else if (topping == SUB_CONTAINER) {
		if (b->len)
			classad_buf_puts(b, " && ");
		classad_buf_puts(b, "TARGET.HasContainer");
		char *image = NULL;
		if (classad_lookup(ad, "DockerImage")) {
			classad_buf_puts(b, "&& TARGET.HasDockerURL");
		} else if (classad_eval_string(ad, "ContainerImage", NULL,
					       &image)) {
			static const char *const kind[] = {
				"&& TARGET.HasDockerURL", "&& TARGET.HasSIF",
				"&& TARGET.HasSandboxImage"};
			classad_buf_puts(b, kind[image_kind_of(image)]);
		}
		free(image);
	} else {
		static const char *const opsys[] = {
			"OpSys",	 "OpSysAndVer", "OpSysLongName",
			"OpSysShortName", "OpSysName",	 "OpSysLegacy"};
		for (size_t i = 0; i < sizeof(opsys) / sizeof(*opsys); i++)
			if (has(refs, opsys[i]))
				return;
		classad_buf_puts(b, " && (TARGET.OpSys == \"LINUX\")");
	}
}

/* The Disk clause.  A user's expression that reads Disk itself still gets
 * the plain request check, without the vanilla universe's allowance for
 * starters (25.12 on) that shrink RequestDisk by the common files. */
static void add_disk(const classad *ad, const classad *refs, int universe,
		     struct classad_buf *b)
{
	bool request = classad_lookup(ad, "RequestDisk") != NULL;
	if (has(refs, "Disk")) {
		if (universe != 13 && request)
			classad_buf_puts(b, " && (TARGET.Disk >= RequestDisk)");
	} else if (!request) {
		classad_buf_puts(b, universe == 13 ? " && (TARGET.TotalDisk >= DiskUsage)"
				      : " && (TARGET.Disk >= DiskUsage)");
	} else if (!literal_at_most(ad, "RequestDisk", 0)) {
		classad_buf_puts(b, universe == 5 ? " && (versionGE(split(TARGET.CondorVersion)"
				       "[1], \"25.12.0\") || (TARGET.Disk >= "
				       "RequestDisk))"
				     : " && (TARGET.Disk >= RequestDisk)");
	}
}

/* A virtual machine's memory (the machine's whole memory too, but for
 * xen), hardware virtualization and networking. */
static void add_vm_memory(const classad *ad, const classad *refs,
			  struct classad_buf *b)
{
	char *type = NULL;
	classad_eval_string(ad, "JobVMType", NULL, &type);
	if (!type || strcasecmp(type, "xen"))
		classad_buf_puts(b, " && (TARGET.TotalMemory >= MY.JobVMMemory)");
	free(type);
	if (!has(refs, "VM_Memory"))
		classad_buf_puts(b, " && (TARGET.VM_Memory >= MY.JobVMMemory)");
	bool on = false;
	if (classad_eval_bool(ad, "JobVMHardwareVT", NULL, &on) && on &&
	    !has(refs, "VM_HardwareVT"))
		classad_buf_puts(b, " && TARGET.VM_HardwareVT");
	on = false;
	if (classad_eval_bool(ad, "JobVMNetworking", NULL, &on) && on) {
		if (!has(refs, "VM_Networking"))
			classad_buf_puts(b, " && TARGET.VM_Networking");
		if (classad_lookup(ad, "JobVMNetworkingType"))
			classad_buf_puts(b, " && stringListIMember(JobVMNetworkingType,"
			       "TARGET.VM_Networking_Types,\",\")");
	}
}

static int by_name(const void *a, const void *b)
{
	return strcasecmp(*(char *const *)a, *(char *const *)b);
}

/* One custom resource's clause: a number (or undefined) above zero must be
 * that many of the machine's <tag> -- or of its Available<tag> that
 * Require<tag> accepts --, a string a pattern the machine's <tag>
 * matches. */
static void add_custom(const classad *ad, const char *attr,
		       struct classad_buf *b)
{
	const char *tag = attr + 7;
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, attr, NULL, &v);
	size_t len = 0;
	if (v.type == CLASSAD_UNDEFINED ||
	    (v.type == CLASSAD_INTEGER && v.u.i > 0) ||
	    (v.type == CLASSAD_REAL && v.u.r > 0)) {
		char require[300];
		snprintf(require, sizeof(require), "Require%s", tag);
		if (classad_lookup(ad, require))
			classad_buf_printf(b, " && (countMatches(MY.%s,"
					      "TARGET.Available%s) >= %s)",
					   require, tag, attr);
		else
			classad_buf_printf(b, " && (TARGET.%s >= %s)", tag,
					   attr);
	} else if (v.type == CLASSAD_STRING &&
		   (classad_value_str(&v, &len), len > 0)) {
		classad_buf_printf(b, " && regexp(%s, TARGET.%s)", attr, tag);
	}
	classad_value_clear(&v);
}

/* The clauses of the Request<tag> attributes other than Cpus, Disk and
 * Memory, in the order of HTCondor's set of their names (case ignored);
 * only RequestGPUs unless custom.  A tag the user's expression reads is
 * the user's business. */
static void add_customs(const classad *ad, const classad *refs, bool custom,
			struct classad_buf *b)
{
	size_t pos = 0, n = 0, cap = 0;
	const char *name;
	const classad_expr *e;
	const char **names = NULL;
	while (classad_next(ad, &pos, &name, &e)) {
		/* a tag has two characters or more, and no leading '_' */
		if (strlen(name) < 9 || strncasecmp(name, "Request", 7) ||
		    name[7] == '_' || !strcasecmp(name, "RequestCpus") ||
		    !strcasecmp(name, "RequestDisk") ||
		    !strcasecmp(name, "RequestMemory") ||
		    (!custom && strcasecmp(name, "RequestGPUs")))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			names = ks_xrealloc(names, cap * sizeof(*names));
		}
		names[n++] = name;
	}
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++)
		if (!has(refs, names[i] + 7))
			add_custom(ad, names[i], b);
	free(names);
}

/* The file system or file transfer clause of a job that may use either;
 * the parts the user's expression already checks are left out. */
static void add_transfer_clause(const classad *ad, const classad *refs,
				struct classad_buf *b)
{
	static const char fs[] =
		"(TARGET.FileSystemDomain == MY.FileSystemDomain)";
	bool checks_fs = has(refs, "FileSystemDomain");
	char *s = NULL;
	classad_eval_string(ad, "ShouldTransferFiles", NULL, &s);
	bool no = s && !strcasecmp(s, "NO"), yes = s && !strcasecmp(s, "YES");
	free(s);
	if (no) {
		if (!checks_fs) {
			classad_buf_puts(b, " && ");
			classad_buf_puts(b, fs);
		}
		return;
	}
	if (has(refs, "HasFileTransfer") || has(refs, "HasJobTransferPlugins"))
		return;
	/* IF_NEEDED: the same file system, or else file transfer */
	bool either = !yes && !checks_fs;
	if (either) {
		classad_buf_puts(b, " && (");
		classad_buf_puts(b, fs);
		classad_buf_puts(b, " || (");
	} else {
		classad_buf_puts(b, " && (");
	}
	s = NULL;
	bool plugins = classad_eval_string(ad, "TransferPlugins", NULL, &s) &&
		       *s;
	free(s);
	classad_buf_puts(b, plugins ? "TARGET.HasJobTransferPlugins" : "TARGET.HasFileTransfer");
	static const char *const crypt[] = {
		"EncryptInputFiles", "EncryptOutputFiles", "DontEncryptInputFiles",
		"DontEncryptOutputFiles"};
	for (size_t i = 0; i < 4 && !has(refs, "HasPerFileEncryption"); i++)
		if (classad_lookup(ad, crypt[i])) {
			classad_buf_puts(b, " && TARGET.HasPerFileEncryption");
			break;
		}
	/* what execute sides before 8.9.7 cannot do */
	bool newer = classad_lookup(ad, "TransferCheckpoint") != NULL, keep;
	if (classad_lookup(ad, "PreserveRelativePaths") &&
	    classad_eval_bool(ad, "PreserveRelativePaths", NULL, &keep) && keep)
		newer = true;
	s = NULL;
	if (classad_eval_string(ad, "WhenToTransferOutput", NULL, &s) &&
	    !strcasecmp(s, "ON_SUCCESS"))
		newer = true;
	free(s);
	if (newer)
		classad_buf_puts(b, " && versioncmp( split(TARGET.CondorVersion)[1], "
		       "\"8.9.7\" ) >= 0");
	classad_buf_puts(b, either ? "))" : ")");
}

int sub_requirements(const classad *ad, const char *user, int universe,
		     int topping, bool custom, char **out, struct ks_err *err)
{
	*out = NULL;
	struct classad_buf b = {0};
	if (user)
		classad_buf_puts(&b, user);
	bool circular;
	classad *refs = machine_refs(b.data, &circular);
	if (circular) {
		int rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				    "Requirements = %s\nIs Circular. Did you "
				    "intend to use $(Requirements) ?",
				    b.data);
		classad_free(refs);
		free(b.data);
		return rc;
	}
	add_platform(ad, refs, universe, topping, &b);
	add_disk(ad, refs, universe, &b);
	if (universe == 13)
		add_vm_memory(ad, refs, &b);
	else if (!literal_at_most(ad, "RequestMemory", 1))
		classad_buf_puts(&b, " && (TARGET.Memory >= RequestMemory)");
	if (universe != 9 && !has(refs, "Cpus") &&
	    classad_lookup(ad, "RequestCpus") &&
	    !literal_at_most(ad, "RequestCpus", 1))
		classad_buf_puts(&b, " && (TARGET.Cpus >= RequestCpus)");
	add_customs(ad, refs, custom, &b);
	/* a tool daemon, and an encrypted scratch directory, need a machine
	 * that offers them */
	if (!has(refs, "HasTDP") && classad_lookup(ad, "ToolDaemonCmd"))
		classad_buf_puts(&b, " && TARGET.HasTDP");
	bool encrypt = false;
	if (!has(refs, "EncryptExecuteDirectory") &&
	    classad_eval_bool(ad, "EncryptExecuteDirectory", NULL, &encrypt) &&
	    encrypt)
		classad_buf_puts(&b, " && TARGET.HasEncryptExecuteDirectory");
	/* the universes whose jobs may use a shared file system or file
	 * transfer */
	if (universe == 5 || universe == 8 || universe == 10 ||
	    universe == 11 || universe == 13)
		add_transfer_clause(ad, refs, &b);
	classad_free(refs);
	*out = b.data;
	return 0;
}

/* ---- RequireGPUs ----------------------------------------------------- */

int sub_gpus_require(const struct sub_job_ctx *c, classad *ad,
		     struct ks_err *err)
{
	if (!classad_lookup(ad, "RequestGPUs"))
		return 0;
	/* the GPU properties require_gpus already checks (bare or MY.) */
	const classad_expr *req = classad_lookup(ad, "RequireGPUs");
	classad *props = classad_new();
	classad_expr_each_ref(req, note_name, props);
	static const struct {
		const char *attr, *prop, *clause;
	} limits[] = {
		{"GPUsMinCapability", "Capability",
		 "Capability >= GPUsMinCapability"},
		{"GPUsMaxCapability", "Capability",
		 "Capability <= GPUsMaxCapability"},
		{"GPUsMinMemory", "GlobalMemoryMb",
		 "GlobalMemoryMb >= GPUsMinMemory"},
		{"GPUsMinRuntime", "MaxSupportedVersion",
		 "MaxSupportedVersion >= GPUsMinRuntime"}};
	struct classad_buf b = {0};
	for (size_t i = 0; i < sizeof(limits) / sizeof(*limits); i++) {
		if (!classad_lookup(ad, limits[i].attr) ||
		    has(props, limits[i].prop))
			continue;
		if (b.len)
			classad_buf_puts(&b, " && ");
		classad_buf_puts(&b, limits[i].clause);
	}
	classad_free(props);
	if (!b.len)
		return 0;
	char *text;
	if (req) {
		char *old = classad_expr_unparse(req, false);
		struct classad_buf all = {0};
		classad_buf_printf(&all, sub_top_level_op(old, true) ? "(%s) && %s"
							      : "%s && %s",
				   old, b.data);
		free(old);
		free(b.data);
		text = all.data;
	} else {
		text = b.data;
	}
	/* (the user's part parsed alone; joined, it may still nest too
	 * deep) */
	int rc = sub_put_expr(c, ad, "RequireGPUs", text, "require_gpus", err);
	free(text);
	return rc;
}
