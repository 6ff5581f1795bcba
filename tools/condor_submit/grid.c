/* grid.c: the grid universe as HTCondor 25's condor_submit reads it:
 * grid_resource (whose first word is the grid type), the batch system's
 * batch_* commands, ARC's arc_*, and the clouds' ec2_*, gce_*, azure_*,
 * cloud_label_* commands.  Every command is taken by any grid type; a
 * few are required by one.  Files are named from the job's Iwd, and are
 * opened to check them only when SUBMIT_SKIP_FILECHECKS is false. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "ks_mem.h"
#include "ks_text.h"
#include "submit.h"

/* What USE_INSTANCE_ROLE names instead of key files: the keys of the
 * machine the gridmanager runs on. */
#define FROM_INSTANCE "FROM INSTANCE"

static bool is_type(const char *type, const char *name)
{
	return type && !strcasecmp(type, name);
}

int sub_grid_type(const struct sub_job_ctx *c, int universe, char **type,
		  struct ks_err *err)
{
	*type = NULL;
	if (universe != 9)
		return 0;
	char *res = sub_param(c, "grid_resource", "GridResource");
	if (!res)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "grid_resource attribute not defined for grid "
				  "universe job");
	/* (only a blank ends the word; slurm is not among them, nor is
	 * any type HTCondor dropped) */
	static const char *const known[] = {
		"blah", "batch",  "pbs",  "sge", "lsf", "nqs",	"naregi",
		"condor", "arc", "ec2", "gce", "azure"};
	*type = ks_xstrndup(res, strcspn(res, " "));
	free(res);
	for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++)
		if (is_type(*type, known[i]))
			return 0;
	int rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
			    "Invalid value '%s' for grid type\nMust be one of: "
			    "condor, batch, arc, ec2, gce, or azure", *type);
	free(*type);
	*type = NULL;
	return rc;
}

bool sub_grid_exe_is_name(const char *type)
{
	return is_type(type, "ec2") || is_type(type, "gce") ||
	       is_type(type, "azure");
}

bool sub_grid_plain_requirements(const struct sub_job_ctx *c,
				 const char *type)
{
	bool gen = sub_knob_bool(c, "SUBMIT_GENERATE_CONDOR_C_REQUIREMENTS",
				 true);
	return !is_type(type, "condor") || !gen;
}

/* A string command (cmd, or the attribute's name) into attr; whether it
 * was given. */
static bool put_string(const struct sub_job_ctx *c, classad *ad,
		       const char *cmd, const char *attr)
{
	char *v = sub_param(c, cmd, attr);
	if (v)
		classad_insert_string(ad, attr, v);
	free(v);
	return v != NULL;
}

/* A command one grid type cannot do without (HTCondor's words differ by
 * type: pre ends before the command's name). */
static int need(classad *ad, const char *type, const char *want,
		const char *attr, const char *pre, const char *cmd,
		struct ks_err *err)
{
	if (!is_type(type, want) || classad_lookup(ad, attr))
		return 0;
	return ks_err_set(err, KS_EINVAL, 0, 0, 0, "%s \"%s\" parameter", pre,
			  cmd);
}

/* How a file command is checked and told of: what the file is in the
 * message ("public key"), lead before each message (azure's carry a
 * second "ERROR: "), whether a directory is refused. */
struct file_kind {
	const char *what;
	const char *lead;
	bool no_dir;
};

/* The file name as attr, from the job's Iwd; with checks, it must open
 * for reading (and not be a directory, as kind says). */
static int put_file(classad *ad, const char *attr, const char *name,
		    bool checks, const struct file_kind *kind,
		    struct ks_err *err)
{
	char *full = sub_job_path(ad, name);
	int rc = 0;
	if (checks) {
		FILE *f = fopen(full, "r");
		struct stat st;
		if (!f)
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"%sFailed to open %s file %s (%s)",
					kind->lead, kind->what, full,
					strerror(errno));
		else if (fclose(f), kind->no_dir && !stat(full, &st) &&
				    S_ISDIR(st.st_mode))
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"%s%s is a directory", kind->lead, full);
	}
	if (!rc)
		classad_insert_string(ad, attr, full);
	free(full);
	return rc;
}

/* A file command cmd (or the attribute's name) of kind, when given. */
static int put_file_cmd(const struct sub_job_ctx *c, classad *ad,
			const char *cmd, const char *attr, bool checks,
			const struct file_kind *kind, struct ks_err *err)
{
	char *v = sub_param(c, cmd, attr);
	int rc = v ? put_file(ad, attr, v, checks, kind, err) : 0;
	free(v);
	return rc;
}

/* An EC2 key (cmd, else file_cmd): a file, or FROM INSTANCE for both. */
static int put_key(classad *ad, char *v, const char *attr, bool checks,
		   const char *what, struct ks_err *err)
{
	if (!strcasecmp(v, FROM_INSTANCE)) {
		classad_insert_string(ad, "EC2AccessKeyId", FROM_INSTANCE);
		classad_insert_string(ad, "EC2SecretAccessKey", FROM_INSTANCE);
		return 0;
	}
	const struct file_kind kind = {what, "", true};
	return put_file(ad, attr, v, checks, &kind, err);
}

/* ---- names and values by prefix -------------------------------------- */

/* The words of a names command, in order (a list separated by commas or
 * blanks), into a NULL-terminated array; *n counts them. */
static char **split_names(const char *v, size_t *n)
{
	size_t cap = 8, pos = 0, len;
	char **names = ks_xmalloc(cap * sizeof(*names));
	*n = 0;
	for (const char *p; (p = ks_list_next(v, &pos, &len));) {
		if (*n + 2 > cap)
			names = ks_xrealloc(names, (cap *= 2) * sizeof(*names));
		names[(*n)++] = ks_xstrndup(p, len);
	}
	names[*n] = NULL;
	return names;
}

static void free_names(char **names)
{
	for (char **p = names; p && *p; p++)
		free(*p);
	free(names);
}

/* Whether name is among names (letter case aside); with dots_as, a '.'
 * of an entry counts as that character. */
static bool has_name(char *const *names, const char *name, char dots_as)
{
	for (; *names; names++) {
		const char *a = *names, *b = name;
		for (; *a && *b; a++, b++) {
			int x = *a == '.' && dots_as ? dots_as : *a;
			if (tolower(x) != tolower((unsigned char)*b))
				break;
		}
		if (!*a && !*b)
			return true;
	}
	return false;
}

static char **add_name(char **names, size_t *n, const char *name)
{
	names = ks_xrealloc(names, (*n + 2) * sizeof(*names));
	names[(*n)++] = ks_xstrdup(name);
	names[*n] = NULL;
	return names;
}

struct command {
	const char *name, *raw;
};

static int by_command_name(const void *a, const void *b)
{
	return strcasecmp(((const struct command *)a)->name,
			  ((const struct command *)b)->name);
}

/* Calls fn for each command of the description (before the job's queue
 * statement) once, with its name as first written and its latest value
 * as written (unexpanded), in the order of the names, letter case aside:
 * HTCondor walks its table of commands, which it sorts so at the queue
 * statement. */
static void each_command(const struct sub_job_ctx *c,
			 void (*fn)(void *arg, const char *name,
				    const char *raw),
			 void *arg)
{
	const struct sub_file *f = c->file;
	size_t n = c->queue->nvars_set, m = 0;
	struct command *all = ks_xmalloc((n + 1) * sizeof(*all));
	for (size_t i = 0; i < n; i++) {
		if (f->vars[i].attr)
			continue;
		size_t j = 0;
		while (j < m && strcasecmp(all[j].name, f->vars[i].name))
			j++;
		if (j == m)
			all[m++].name = f->vars[i].name;
		all[j].raw = f->vars[i].value;
	}
	qsort(all, m, sizeof(*all), by_command_name);
	for (size_t i = 0; i < m; i++)
		fn(arg, all[i].name, all[i].raw);
	free(all);
}

/* The tags or labels: each <cmd_prefix><name> (or <attr_prefix><name>)
 * becomes <attr_prefix><name>, and the names (those of the names
 * command first, letter case as written) go to names_attr. */
struct pairs {
	const char *names_cmd, *names_attr, *cmd_prefix, *attr_prefix;
	char **names;
	size_t n;
};

static void note_pair(void *arg, const char *key, const char *raw)
{
	struct pairs *p = arg;
	size_t lc = strlen(p->cmd_prefix), la = strlen(p->attr_prefix);
	const char *name = !strncasecmp(key, p->cmd_prefix, lc) && key[lc]
				   ? key + lc
			   : !strncasecmp(key, p->attr_prefix, la) && key[la]
				   ? key + la
				   : NULL;
	(void)raw;
	if (name && strncasecmp(name, "Names", 5) &&
	    !has_name(p->names, name, 0))
		p->names = add_name(p->names, &p->n, name);
}

static int put_pairs(const struct sub_job_ctx *c, classad *ad,
		     struct pairs *p, bool ec2, struct ks_err *err)
{
	char *v = sub_param(c, p->names_cmd, p->names_attr);
	p->names = split_names(v, &p->n);
	free(v);
	each_command(c, note_pair, p);
	struct classad_buf joined = {0};
	for (size_t i = 0; i < p->n; i++) {
		size_t len = strlen(p->names[i]) + 64;
		char *cmd = ks_xmalloc(len), *attr = ks_xmalloc(len);
		snprintf(cmd, len, "%s%s", p->cmd_prefix, p->names[i]);
		snprintf(attr, len, "%s%s", p->attr_prefix, p->names[i]);
		put_string(c, ad, cmd, attr);
		free(cmd);
		free(attr);
		classad_buf_printf(&joined, "%s%s", i ? "," : "", p->names[i]);
	}
	int rc = 0;
	/* an EC2 instance is named for the job's executable (as the AWS
	 * console shows it), unless a Name tag is given or WantNameTag is
	 * false */
	bool want = true;
	if (ec2 && !has_name(p->names, "Name", 0) &&
	    !(rc = sub_param_bool(c, "WantNameTag", NULL, true, &want, err)) &&
	    want) {
		char *cmd = NULL;
		if (classad_eval_string(ad, "Cmd", NULL, &cmd)) {
			char attr[64];
			snprintf(attr, sizeof(attr), "%sName", p->attr_prefix);
			classad_insert_string(ad, attr, cmd);
		}
		free(cmd);
	}
	if (!rc && p->n)
		classad_insert_string(ad, p->names_attr, joined.data);
	free(joined.data);
	free_names(p->names);
	return rc;
}

/* EC2's other RunInstances parameters: each ec2_parameter_<name> as
 * EC2Param_<name>, its value as written, and the names (those of
 * ec2_parameter_names first, where a '.' stands for a '_') in
 * EC2ParamNames. */
struct params {
	classad *ad;
	char **names;
	size_t n;
};

static void note_param(void *arg, const char *key, const char *raw)
{
	static const char prefix[] = "ec2_parameter_";
	struct params *p = arg;
	if (strncasecmp(key, prefix, sizeof(prefix) - 1) ||
	    !strcasecmp(key, "ec2_parameter_names"))
		return;
	const char *name = key + sizeof(prefix) - 1;
	size_t len = strlen(name) + 16;
	char *attr = ks_xmalloc(len);
	snprintf(attr, len, "EC2Param_%s", name);
	classad_insert_string(p->ad, attr, raw);
	free(attr);
	if (!has_name(p->names, name, '_'))
		p->names = add_name(p->names, &p->n, name);
}

static void put_params(const struct sub_job_ctx *c, classad *ad)
{
	char *v = sub_param(c, "ec2_parameter_names", "EC2ParamNames");
	struct params p = {ad, NULL, 0};
	p.names = split_names(v, &p.n);
	free(v);
	each_command(c, note_param, &p);
	struct classad_buf joined = {0};
	for (size_t i = 0; i < p.n; i++)
		classad_buf_printf(&joined, "%s%s", i ? ", " : "", p.names[i]);
	if (p.n)
		classad_insert_string(ad, "EC2ParamNames", joined.data);
	free(joined.data);
	free_names(p.names);
}

/* ---- the commands, in HTCondor's order ------------------------------- */

static int set_batch_and_arc(const struct sub_job_ctx *c, classad *ad,
			     struct ks_err *err)
{
	static const char *const strings[][2] = {
		{"arc_rte", "ArcRte"},
		{"arc_resources", "ArcResources"},
		{"arc_application", "ArcApplication"},
		{"arc_data_staging", "ArcDataStaging"},
		{"batch_extra_submit_args", "BatchExtraSubmitArgs"},
		{"batch_project", "BatchProject"},
		{"batch_queue", "BatchQueue"}};
	for (size_t i = 0; i < sizeof(strings) / sizeof(*strings); i++)
		put_string(c, ad, strings[i][0], strings[i][1]);
	char *v = sub_param(c, "batch_runtime", "BatchRuntime");
	int rc = v ? sub_put_expr(c, ad, "BatchRuntime", v, "batch_runtime",
				  err)
		   : 0;
	free(v);
	return rc;
}

static int set_ec2(const struct sub_job_ctx *c, classad *ad,
		   const char *type, bool checks, struct ks_err *err)
{
	int rc = 0;
	char *v = sub_param(c, "ec2_access_key_id", "EC2AccessKeyId");
	if (!v)
		v = sub_param(c, "aws_access_key_id_file", "EC2AccessKeyId");
	if (v)
		rc = put_key(ad, v, "EC2AccessKeyId", checks, "public key", err);
	free(v);
	if (rc)
		return rc;
	v = sub_param(c, "ec2_secret_access_key", "EC2SecretAccessKey");
	if (!v)
		v = sub_param(c, "aws_secret_access_key_file",
			      "EC2SecretAccessKey");
	if (v)
		rc = put_key(ad, v, "EC2SecretAccessKey", checks, "private key",
			     err);
	free(v);
	if (rc)
		return rc;
	static const char *const keys[][3] = {
		{"EC2AccessKeyId", "ec2_access_key_id", "aws_access_key_id_file"},
		{"EC2SecretAccessKey", "ec2_secret_access_key",
		 "aws_secret_access_key_file"}};
	for (size_t i = 0; i < 2; i++)
		if (is_type(type, "ec2") && !classad_lookup(ad, keys[i][0]))
			return ks_err_set(err, KS_EINVAL, 0, 0, 0,
					  "EC2 jobs require a '%s' or '%s' "
					  "parameter", keys[i][1], keys[i][2]);
	if (!put_string(c, ad, "ec2_keypair", "EC2KeyPair"))
		put_string(c, ad, "ec2_keyp_air", "EC2KeyPair");
	v = sub_param(c, "ec2_keypair_file", "EC2KeyPairFile");
	if (!v)
		v = sub_param(c, "ec2_key_pair_file", "EC2KeyPairFile");
	if (v && classad_lookup(ad, "EC2KeyPair"))
		fprintf(stderr, "\nWARNING: EC2 job(s) contain both ec2_keypair "
				"&& ec2_keypair_file, ignoring "
				"ec2_keypair_file\n");
	else if (v)
		put_file(ad, "EC2KeyPairFile", v, false, NULL, err);
	free(v);
	put_string(c, ad, "ec2_security_groups", "EC2SecurityGroups");
	put_string(c, ad, "ec2_security_ids", "EC2SecurityIDs");
	put_string(c, ad, "ec2_ami_id", "EC2AmiID");
	if ((rc = need(ad, type, "ec2", "EC2AmiID", "EC2 jobs require a",
		       "ec2_ami_id", err)))
		return rc;
	static const char *const strings[][2] = {
		{"ec2_instance_type", "EC2InstanceType"},
		{"ec2_vpc_subnet", "EC2VpcSubnet"},
		{"ec2_vpc_ip", "EC2VpcIp"},
		{"ec2_elastic_ip", "EC2ElasticIp"},
		{"ec2_availability_zone", "EC2AvailabilityZone"}};
	for (size_t i = 0; i < sizeof(strings) / sizeof(*strings); i++)
		put_string(c, ad, strings[i][0], strings[i][1]);
	if ((v = sub_param(c, "ec2_ebs_volumes",
			   "EC2ElasticBlockStorageVolumes"))) {
		if (!sub_colon_list_ok(v, 2, 2))
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"'ec2_ebs_volumes' has incorrect format.\n"
					"The format shoud be like "
					"\"<instance_id>:<devicename>\"\ne.g.> For "
					"single volume: ec2_ebs_volumes = "
					"vol-35bcc15e:hda1\n      For multiple "
					"disks: ec2_ebs_volumes = vol-35bcc15e:hda1,"
					"vol-35bcc16f:hda2");
		else if (!classad_lookup(ad, "EC2AvailabilityZone"))
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"'ec2_ebs_volumes' requires "
					"'ec2_availability_zone'");
		else
			classad_insert_string(ad, "EC2ElasticBlockStorageVolumes",
					      v);
		free(v);
		if (rc)
			return rc;
	}
	put_string(c, ad, "ec2_spot_price", "EC2SpotPrice");
	put_string(c, ad, "ec2_block_device_mapping", "EC2BlockDeviceMapping");
	put_string(c, ad, "ec2_user_data", "EC2UserData");
	static const struct file_kind data = {"user data", "", false};
	if ((rc = put_file_cmd(c, ad, "ec2_user_data_file", "EC2UserDataFile",
			       checks, &data, err)))
		return rc;
	put_string(c, ad, "ec2_iam_profile_arn", "EC2IamProfileArn");
	/* (HTCondor 25 keeps the name only when an ARN is given too, and
	 * warns of both when it is not) */
	if ((v = sub_param(c, "ec2_iam_profile_name", "EC2IamProfileName"))) {
		if (!classad_lookup(ad, "EC2IamProfileArn"))
			fprintf(stderr, "\nWARNING: EC2 job(s) contain both "
					"ec2_iam_profile_arn and "
					"ec2_iam_profile_name; ignoring "
					"ec2_iam_profile_name.\n");
		else
			classad_insert_string(ad, "EC2IamProfileName", v);
		free(v);
	}
	put_params(c, ad);
	struct pairs tags = {"ec2_tag_names", "EC2TagNames", "ec2_tag_",
			     "EC2Tag", NULL, 0};
	struct pairs labels = {"cloud_label_names", "CloudLabelNames",
			       "cloud_label_", "CloudLabel", NULL, 0};
	if ((rc = put_pairs(c, ad, &tags, is_type(type, "ec2"), err)))
		return rc;
	return put_pairs(c, ad, &labels, false, err);
}

static int set_gce(const struct sub_job_ctx *c, classad *ad,
		   const char *type, bool checks, struct ks_err *err)
{
	static const struct file_kind auth = {"auth", "", true};
	static const struct file_kind meta = {"metadata", "", false};
	static const struct file_kind json = {"json", "", false};
	int rc;
	if ((rc = put_file_cmd(c, ad, "gce_auth_file", "GceAuthFile", checks,
			       &auth, err)))
		return rc;
	put_string(c, ad, "gce_account", "GceAccount");
	put_string(c, ad, "gce_image", "GceImage");
	put_string(c, ad, "gce_machine_type", "GceMachineType");
	if ((rc = need(ad, type, "gce", "GceImage", "GCE jobs require a",
		       "gce_image", err)) ||
	    (rc = need(ad, type, "gce", "GceMachineType", "GCE jobs require a",
		       "gce_machine_type", err)))
		return rc;
	char *v = sub_param(c, "gce_metadata", "GceMetadata");
	if (v)
		sub_put_list(ad, "GceMetadata", v);
	free(v);
	if ((rc = put_file_cmd(c, ad, "gce_metadata_file", "GceMetadataFile",
			       checks, &meta, err)))
		return rc;
	if ((v = sub_param(c, "gce_preemptible", "GcePreemptible"))) {
		bool b;
		if (!(rc = sub_param_bool(c, "gce_preemptible", "GcePreemptible",
					  false, &b, err)))
			classad_insert_bool(ad, "GcePreemptible", b);
		free(v);
		if (rc)
			return rc;
	}
	return put_file_cmd(c, ad, "gce_json_file", "GceJsonFile", checks,
			    &json, err);
}

static int set_azure(const struct sub_job_ctx *c, classad *ad,
		     const char *type, bool checks, struct ks_err *err)
{
	static const struct file_kind auth = {"auth", "\nERROR: ", true};
	int rc = put_file_cmd(c, ad, "azure_auth_file", "AzureAuthFile",
			      checks, &auth, err);
	static const char *const required[][2] = {
		{"azure_image", "AzureImage"},
		{"azure_location", "AzureLocation"},
		{"azure_size", "AzureSize"},
		{"azure_admin_username", "AzureAdminUsername"},
		{"azure_admin_key", "AzureAdminKey"}};
	for (size_t i = 0; !rc && i < sizeof(required) / sizeof(*required);
	     i++) {
		put_string(c, ad, required[i][0], required[i][1]);
		rc = need(ad, type, "azure", required[i][1],
			  "\nERROR: Azure jobs require an", required[i][0], err);
	}
	return rc;
}

int sub_set_grid(const struct sub_job_ctx *c, classad *ad, const char *type,
		 struct ks_err *err)
{
	char *res = sub_param(c, "grid_resource", "GridResource");
	classad_insert_string(ad, "GridResource", res ? res : "");
	bool bare_ec2 = res && !strcasecmp(res, "ec2");
	free(res);
	if (bare_ec2)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "EC2 grid jobs require a service URL");
	bool skip = sub_knob_bool(c, "SUBMIT_SKIP_FILECHECKS", true);
	int rc;
	if ((rc = set_batch_and_arc(c, ad, err)) ||
	    (rc = set_ec2(c, ad, type, !skip, err)) ||
	    (rc = set_gce(c, ad, type, !skip, err)))
		return rc;
	return set_azure(c, ad, type, !skip, err);
}
