/* transfer.c: a job's file transfer as HTCondor's condor_submit sets it
 * (submit.h): should_transfer_files and when_to_transfer_output, checked
 * against each other and against the files named; the input and output
 * lists; FileSystemDomain for a job that may run on the submit side's
 * file system; and the sizes the job's disk request is made of. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "ks_mem.h"
#include "ks_text.h"
#include "submit.h"

/* HTCondor's values (and their other spellings). */
enum { STF_NO = 1, STF_YES, STF_IF_NEEDED };
enum { FTO_NONE, FTO_ON_EXIT, FTO_ON_EXIT_OR_EVICT, FTO_ON_SUCCESS };

struct name_num {
	const char *name;
	int num;
};

static int num_of(const char *v, const struct name_num *t, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		if (!strcasecmp(v, t[i].name))
			return t[i].num;
	return -1;
}

static const struct name_num should_names[] = {
	{"YES", STF_YES},	      {"TRUE", STF_YES}, {"ALWAYS", STF_YES},
	{"NO", STF_NO},		      {"FALSE", STF_NO}, {"NEVER", STF_NO},
	{"IF_NEEDED", STF_IF_NEEDED}, {"AUTO", STF_IF_NEEDED}};
static const struct name_num when_names[] = {
	{"ON_EXIT_OR_EVICT", FTO_ON_EXIT_OR_EVICT},
	{"ALWAYS", FTO_ON_EXIT_OR_EVICT},
	{"ON_EXIT", FTO_ON_EXIT},
	{"ONEXIT", FTO_ON_EXIT},
	{"NONE", FTO_NONE},
	{"NULL", FTO_NONE},
	{"ON_SUCCESS", FTO_ON_SUCCESS},
	{"ONSUCCESS", FTO_ON_SUCCESS}};
#define NNAMES(t) (sizeof(t) / sizeof(*(t)))

/* How the job ad spells them (the first name of each). */
static const char *should_str(int n)
{
	return n == STF_NO ? "NO" : n == STF_YES ? "YES" : "IF_NEEDED";
}

static const char *when_str(int n)
{
	return n == FTO_ON_EXIT_OR_EVICT ? "ON_EXIT_OR_EVICT"
	       : n == FTO_ON_SUCCESS	 ? "ON_SUCCESS"
					 : "ON_EXIT";
}

/* ---- sizes ------------------------------------------------------------ */

/* A URL (scheme://...), which is not measured. */
static bool is_url(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return false;
	const char *p = s + 1;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	       (*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '.')
		p++;
	return p[0] == ':' && p[1] == '/' && p[2] == '/' && p[3];
}

/* Bytes of the files under directory path, at most depth levels down
 * (symbolic links are not followed into: a loop would never end), within
 * the submission's budget of entries. */
static long long dir_bytes(const struct sub_job_ctx *c, const char *path,
			   int depth)
{
	DIR *d = depth > 0 ? opendir(path) : NULL;
	if (!d)
		return 0;
	long long sum = 0;
	struct dirent *e;
	while ((e = readdir(d)) && sub_walk_take(c)) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *p = ks_path_in(path, e->d_name);
		struct stat st;
		if (lstat(p, &st) == 0)
			sum += S_ISDIR(st.st_mode) ? dir_bytes(c, p, depth - 1)
						   : (long long)st.st_size;
		free(p);
	}
	closedir(d);
	return sum;
}

long long sub_file_kb(const struct sub_job_ctx *c, const char *iwd,
		      const char *path)
{
	if (!path || !*path || is_url(path))
		return 0;
	char *full = iwd ? ks_path_in(iwd, path) : ks_xstrdup(path);
	struct stat st;
	long long kb = 0;
	if (stat(full, &st) == 0)
		kb = ((S_ISDIR(st.st_mode) ? dir_bytes(c, full, 64)
					   : (long long)st.st_size) +
		      1023) / 1024;
	free(full);
	return kb;
}

/* ---- the input list ---------------------------------------------------- */

/* The files a job sends, as HTCondor lists them ("a,b"), and how many
 * KiB they hold. */
struct inputs {
	const struct sub_job_ctx *c;
	struct classad_buf list;
	long long kb;
	const char *iwd;
};

static bool listed(const struct inputs *in, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = in->list.data; p && *p;) {
		size_t l = strcspn(p, ",");
		if (l == n && !strncmp(p, name, n))
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

/* name joins the list (once, unless twice is allowed) and its size the
 * total. */
static void add_input(struct inputs *in, const char *name, bool twice)
{
	if (!*name || (!twice && listed(in, name)))
		return;
	if (in->list.len)
		classad_buf_add(&in->list, ",", 1);
	classad_buf_add(&in->list, name, strlen(name));
	in->kb += sub_file_kb(in->c, in->iwd, name);
}

/* Each of the comma-separated names of v (blanks around them trimmed). */
static void add_inputs(struct inputs *in, const char *v)
{
	for (const char *p = v; *p;) {
		p += strspn(p, ", \t");
		size_t l = strcspn(p, ",");
		while (l && (p[l - 1] == ' ' || p[l - 1] == '\t'))
			l--;
		if (l) {
			char *name = ks_xstrndup(p, l);
			add_input(in, name, true);
			free(name);
		}
		p += strcspn(p, ",");
	}
}

/* A java job runs "java": its class (the executable) and jar files go
 * with the input files. */
static void add_java(classad *ad, struct inputs *in)
{
	char *cmd = NULL, *jars = NULL;
	classad_eval_string(ad, "Cmd", NULL, &cmd);
	classad_eval_string(ad, "JarFiles", NULL, &jars);
	if (cmd && strcmp(cmd, "java"))
		add_input(in, cmd, false);
	char *save = NULL;
	for (char *t = jars ? strtok_r(jars, ",", &save) : NULL; t;
	     t = strtok_r(NULL, ",", &save))
		add_input(in, sub_strip_quotes(t), true);
	classad_insert_string(ad, "Cmd", "java");
	classad_insert_bool(ad, "TransferExecutable", false);
	free(cmd);
	free(jars);
}

/* ---- checks ------------------------------------------------------------ */

static int bad_value(struct ks_err *err, const char *v, const char *attr,
		     const char *choices)
{
	return ks_err_set(err, KS_EINVAL, 0, 0, 0,
			  "invalid value (%s) for %s.  Please either specify "
			  "%s and try again.", v, attr, choices);
}

/* Files named for transfer with should_transfer_files = NO. */
static int files_without_transfer(struct ks_err *err, bool in, bool out)
{
	return ks_err_set(err, KS_EINVAL, 0, 0, 0,
			  "you specified files you want Condor to transfer via "
			  "%s%s%s, but you disabled should_transfer_files.",
			  in ? "\"transfer_input_files\"" : "",
			  in && out ? " and " : "",
			  out ? "\"transfer_output_files\"" : "");
}

/* should and when: the values given (new strings; NULL: not given),
 * defaults, and the checks of each against the other and the files.
 * *should_n and *when_n the result. */
static int decide(const struct sub_job_ctx *c, char *should, char *when,
		  bool in_files, bool out_files, int *should_n, int *when_n,
		  struct ks_err *err)
{
	bool default_should = false, default_when = false;
	char *admin = NULL;
	if (!should) {
		/* the pool's default, when it is one of the values */
		admin = sub_knob(c, "SUBMIT_DEFAULT_SHOULD_TRANSFER_FILES");
		if (admin && num_of(admin, should_names, NNAMES(should_names)) <
				     0) {
			free(admin);
			admin = NULL;
		}
		default_should = true;
	}
	const char *sv = should ? should : admin ? admin : "IF_NEEDED";
	int rc = 0;
	int sn = num_of(sv, should_names, NNAMES(should_names));
	if (sn < 0) {
		rc = bad_value(err, sv, "ShouldTransferFiles",
			       "YES, NO, or IF_NEEDED");
		goto out;
	}
	if (sn == STF_NO && (in_files || out_files)) {
		rc = files_without_transfer(err, in_files, out_files);
		goto out;
	}
	const char *wv = when ? when : "ON_EXIT";
	int wn = num_of(wv, when_names, NNAMES(when_names));
	default_when = !when;
	if (wn < 0) {
		rc = bad_value(err, wv, "WhenToTransferOutput",
			       "ON_EXIT, or ON_EXIT_OR_EVICT");
		goto out;
	}
	/* should_transfer_files = NO alone means no output either */
	if (!default_should && default_when && sn == STF_NO) {
		wv = "NEVER";
		wn = FTO_NONE;
	}
	if ((sn == STF_NO) != (wn == FTO_NONE)) {
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"WhenToTransferOutput specified as %s yet "
				"ShouldTransferFiles defined as %s.  Please "
				"remove this contradiction from your submit file "
				"and try again.", wv, sv);
		goto out;
	}
	/* output on eviction needs transfer: the default gives way */
	if (default_should && wn == FTO_ON_EXIT_OR_EVICT && sn == STF_IF_NEEDED)
		sn = STF_YES;
	if (wn == FTO_ON_EXIT_OR_EVICT && sn == STF_IF_NEEDED) {
		/* (HTCondor's words, shortened to what to do) */
		rc = ks_err_set(
			err, KS_EINVAL, 0, 0, 0,
			"\"when_to_transfer_output = ON_EXIT_OR_EVICT\" and "
			"\"should_transfer_files = IF_NEEDED\" are incompatible: "
			"set \"when_to_transfer_output = ON_EXIT\" to keep "
			"IF_NEEDED, or \"should_transfer_files = YES\" to keep "
			"ON_EXIT_OR_EVICT.");
		goto out;
	}
	*should_n = sn;
	*when_n = wn;
out:
	free(admin);
	return rc;
}

/* transfer_output_remaps: "name = path; ...", quoted or not (HTCondor 25
 * takes either), kept as a string. */
static void put_remaps(const struct sub_job_ctx *c, classad *ad)
{
	char *v = sub_param(c, "transfer_output_remaps", "TransferOutputRemaps");
	if (v)
		classad_insert_string(ad, "TransferOutputRemaps",
				      sub_strip_quotes(v));
	free(v);
}

/* A list command that counts as given even when empty (an empty
 * transfer_output_files asks for no output at all). */
static char *list_param(const struct sub_job_ctx *c, const char *key,
			const char *alt, bool *given)
{
	const char *src;
	char *v = sub_param(c, key, alt);
	*given = v || sub_where(c, key, alt, &src) > 0;
	if (!v && *given)
		v = ks_xstrdup("");
	return v;
}

int sub_set_transfer(const struct sub_job_ctx *c, classad *ad, int universe,
		     int topping, struct ks_err *err)
{
	char *iwd = NULL;
	classad_eval_string(ad, "Iwd", NULL, &iwd);
	struct inputs in = {.c = c, .iwd = iwd ? iwd : c->iwd};
	bool in_given = false, out_given = false;
	char *should = sub_param(c, "should_transfer_files",
				 "ShouldTransferFiles");
	char *when = sub_param(c, "when_to_transfer_output",
			       "WhenToTransferOutput");
	char *outputs = list_param(c, "transfer_output_files",
				   "TransferOutputFiles", &out_given);
	char *v = sub_param(c, "transfer_input_files", "TransferInputFiles");
	int rc = 0;
	if (v)
		add_inputs(&in, sub_strip_quotes(v));
	free(v);
	in_given = in.list.len > 0;
	if ((v = sub_param(c, "transfer_common_input", "CommonInputFiles")))
		sub_put_list(ad, "CommonInputFiles", sub_strip_quotes(v));
	free(v);
	if (topping == SUB_CONTAINER) {
		size_t before = in.list.len;
		if ((rc = sub_set_container_transfer(c, ad, &in.list, &in.kb,
						     in.iwd, err)))
			goto out;
		in_given |= in.list.len > before;
	}
	/* the job's standard input goes too, unless it says not */
	bool stdin_too = true;
	classad_eval_bool(ad, "TransferIn", NULL, &stdin_too);
	char *stdin_file = NULL;
	if (stdin_too && classad_eval_string(ad, "In", NULL, &stdin_file))
		in.kb += sub_file_kb(c, in.iwd, stdin_file);
	free(stdin_file);

	int sn = STF_IF_NEEDED, wn = FTO_ON_EXIT;
	if ((universe == 13 && (rc = sub_vm_transfer(c, &should, &when, err))) ||
	    (rc = decide(c, should, when, in_given, out_given, &sn, &wn, err)))
		goto out;
	classad_insert_string(ad, "ShouldTransferFiles", should_str(sn));
	if (sn != STF_NO)
		classad_insert_string(ad, "WhenToTransferOutput", when_str(wn));
	/* what matchmaking needs of a job that may use the shared file
	 * system: the submit side's file system domain */
	if (sn != STF_YES && !classad_lookup(ad, "FileSystemDomain")) {
		char *d = sub_knob(c, "FILESYSTEM_DOMAIN");
		if (d)
			classad_insert_string(ad, "FileSystemDomain", d);
		free(d);
	}
	bool java = false;
	if (sn != STF_NO) {
		/* the tool daemon's program and input travel with the job
		 * (listed only beside files of the user's) */
		static const char *const tdp[] = {"ToolDaemonCmd",
						  "ToolDaemonInput"};
		for (size_t i = 0; i < 2; i++) {
			char *f = NULL;
			if (classad_eval_string(ad, tdp[i], NULL, &f))
				add_input(&in, f, false);
			free(f);
		}
		if (universe == 10) {
			add_java(ad, &in);
			java = true;
		}
	}
	if ((v = sub_param(c, "disk_usage", "DiskUsage"))) {
		long long kb = 0;
		if (!sub_size_value(v, 1024, NULL, &kb, NULL, NULL) || kb < 1)
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"'%s' is not valid for disk_usage. It must "
					"be >= 1", v);
		else
			classad_insert_int(ad, "DiskUsage", kb);
		free(v);
		if (rc)
			goto out;
	} else {
		/* what the job brings: its executable and its inputs */
		int64_t exe = 0;
		classad_eval_int(ad, "ExecutableSize", NULL, &exe);
		classad_insert_int(ad, "TransferInputSizeMB",
				   (exe + in.kb + 1023) / 1024);
		classad_insert_int(ad, "DiskUsage", exe + in.kb);
	}
	if (sn != STF_NO) {
		/* (a java job's class and jars are sent even with no other
		 * input file) */
		if ((in_given || java) && in.list.len)
			classad_insert_string(ad, "TransferInput",
					      in.list.data);
		if ((v = sub_param(c, "public_input_files",
				   "PublicInputFiles")))
			sub_put_list(ad, "PublicInputFiles", v);
		free(v);
		if (out_given)
			sub_put_list(ad, "TransferOutput", outputs);
	} else if (universe != 9 && universe != 10 && universe != 13) {
		/* an executable to send, and nothing sent: only when the user
		 * asked for it in so many words */
		bool send = false;
		if ((rc = sub_param_bool(c, "transfer_executable",
					 "TransferExecutable", false, &send,
					 err)))
			goto out;
		if (send) {
			rc = ks_err_set(
				err, KS_EINVAL, 0, 0, 0,
				"You explicitly requested that the executable be "
				"transfered, but should_transfer_files = NO turns "
				"file transfer off: leave transfer_executable "
				"out, or set should_transfer_files to YES or "
				"IF_NEEDED.");
			goto out;
		}
	}
	put_remaps(c, ad);
out:
	free(should);
	free(when);
	free(outputs);
	free(in.list.data);
	free(iwd);
	return rc;
}
