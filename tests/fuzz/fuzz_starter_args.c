/*
 * fuzz_starter_args.c: a libFuzzer target for the starter's argument and
 * environment syntaxes (common/jobad/ks_jobad.h) and its job ad reader
 * (ks_jobad.h).
 *
 * An input starting with 'j' is a job ad file (the rest of it), read by
 * ks_jobad_load() as the starter reads the one the startd wrote.  The
 * loader only takes a path, so the text goes into an anonymous memory
 * file (memfd) named by /proc/self/fd: nothing is written to disk.
 *
 * Any other input is text for every syntax.  Its first byte is also the
 * ad's EnvDelim for the old environment syntax; the text is all of the
 * input after it.  Checks, each abort()ing on failure:
 *   - Arguments: parse -> ks_jobad_args_join_v2 -> parse gives the same list,
 *     and the join is a fixed point; a failure is KS_EPARSE.
 *   - Args: no word is empty or holds white space; words joined by a
 *     blank parse back the same, and so does their new-syntax join.
 *   - ks_jobad_args_unquote_v2: quoting the result again ("" for ") and
 *     unquoting gives it back; text that is not quoted is refused.
 *   - Environment, Env (';', the EnvDelim byte, or a delimiter the text
 *     starts with) and the quoted-or-bare form: whatever merges has
 *     unique names that ks_jobad_env_get() finds; its entries joined in the new
 *     syntax merge back to the same environment, and, when no entry holds
 *     ';' or a newline or starts with white space, so do they joined by
 *     ';' in the old syntax; ks_jobad_env_replace_in_values() leaves no
 *     occurrence behind and no name changed.
 *   - The startd cron's ARGS and ENV (startd/cron_args.c), which claim
 *     the same syntaxes (and may wrap these very functions, so that the
 *     check is on the wrapping), split text as the starter does: the same
 *     result or both an error.  Text holding "$$" is left out of the ENV
 *     comparison, since the starter keeps $$() entries without '=' and
 *     cron has nothing to set for them.
 *   - ks_jobad_signal_number() and ks_jobad_signal_name() agree.
 * An input starting with 'a' is ENVIRONMENT_FOR_AssignedGPUs (up to the
 * first newline) and the slot's AssignedGPUs (the rest), given to
 * ks_jobad_assigned_env(): every variable it sets has a name without '=' and
 * _CONDOR_AssignedGPUs is the ids as given.
 * An input starting with 'u' is the -account word the startd hands the
 * starter (ks_jobad_user_parse()): accepted or KS_EPARSE; accepted, it never
 * means a change to uid 0, and ks_jobad_user_format() of it parses back to the
 * same account.
 * Nothing may crash, leak or read out of bounds.
 *
 * Linked with replay_main.c it replays a corpus without libFuzzer.
 */
#define _GNU_SOURCE /* memfd_create() */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cron_int.h"
#include "ks_jobad.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void print_c_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 32 || c >= 127)
			fprintf(f, "\\%03o", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void fail(const char *what, const char *text, const char *a,
		 const char *b)
{
	fprintf(stderr, "\n==== fuzz_starter_args: CHECK FAILED: %s\n", what);
	const char *label[] = {"text:   ", "first:  ", "second: "};
	const char *s[] = {text, a, b};
	for (int i = 0; i < 3; i++) {
		if (!s[i])
			continue;
		fputs(label[i], stderr);
		print_c_string(stderr, s[i]);
		fputc('\n', stderr);
	}
	abort();
}

/* ---- vectors ------------------------------------------------------------- */

static bool same_strv(const struct ks_jobad_strv *a, size_t from,
		      const struct ks_jobad_strv *b)
{
	if (a->n - from != b->n)
		return false;
	for (size_t i = 0; i < b->n; i++)
		if (strcmp(a->v[from + i], b->v[i]) != 0)
			return false;
	return true;
}

/* The first place two vectors differ, for the report. */
static void fail_strv(const char *what, const char *text,
		      const struct ks_jobad_strv *a, size_t from,
		      char *const *b, size_t nb)
{
	size_t na = a->n - from, i = 0;
	while (i < na && i < nb && !strcmp(a->v[from + i], b[i]))
		i++;
	char ca[48], cb[48];
	snprintf(ca, sizeof(ca), "(%zu words; word %zu below)", na, i);
	snprintf(cb, sizeof(cb), "(%zu words)", nb);
	fprintf(stderr, "%s %s\n", ca, cb);
	fail(what, text, i < na ? a->v[from + i] : "(none)",
	     i < nb ? b[i] : "(none)");
}

/* a[from..] joined in the new syntax parses back the same; the join is a
 * fixed point. */
static void check_join_v2(const char *text, const struct ks_jobad_strv *a,
			  size_t from)
{
	char *joined = ks_jobad_args_join_v2(a, from);
	struct ks_jobad_strv b = {0};
	struct ks_err err;
	if (ks_jobad_args_parse_v2(joined, &b, &err) != 0)
		fail("the new-syntax join does not parse", text, joined,
		     err.msg);
	if (!same_strv(a, from, &b))
		fail_strv("parse -> join -> parse changed the arguments",
			  joined, a, from, b.v, b.n);
	char *again = ks_jobad_args_join_v2(&b, 0);
	if (strcmp(joined, again) != 0)
		fail("the new-syntax join is not a fixed point", text, joined,
		     again);
	free(again);
	ks_jobad_strv_free(&b);
	free(joined);
}

/* ---- arguments ----------------------------------------------------------- */

static void fuzz_args_v2(const char *text)
{
	struct ks_jobad_strv a = {0};
	struct ks_err err;
	int rc = ks_jobad_args_parse_v2(text, &a, &err);
	if (rc != 0 && rc != KS_EPARSE)
		fail("Arguments failed with a code other than KS_EPARSE", text,
		     err.msg, NULL);
	if (rc == 0) {
		check_join_v2(text, &a, 0);
		if (a.n > 1)
			check_join_v2(text, &a, 1); /* without argv[0] */
	}
	ks_jobad_strv_free(&a);
}

static bool arg_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void fuzz_args_v1(const char *text)
{
	struct ks_jobad_strv a = {0};
	ks_jobad_args_parse_v1(text, &a);
	size_t len = 1;
	for (size_t i = 0; i < a.n; i++) {
		if (!a.v[i][0])
			fail("Args gave an empty word", text, NULL, NULL);
		for (const char *p = a.v[i]; *p; p++)
			if (arg_space(*p))
				fail("an Args word holds white space", text,
				     a.v[i], NULL);
		len += strlen(a.v[i]) + 1;
	}
	char *joined = malloc(len);
	joined[0] = '\0';
	for (size_t i = 0; i < a.n; i++) {
		if (i)
			strcat(joined, " ");
		strcat(joined, a.v[i]);
	}
	struct ks_jobad_strv b = {0};
	ks_jobad_args_parse_v1(joined, &b);
	if (!same_strv(&a, 0, &b))
		fail_strv("Args -> join -> Args changed the words", text, &a,
			  0, b.v, b.n);
	ks_jobad_strv_free(&b);
	free(joined);
	check_join_v2(text, &a, 0);
	ks_jobad_strv_free(&a);
}

static void fuzz_unquote(const char *text)
{
	char *raw = NULL;
	struct ks_err err;
	int rc = ks_jobad_args_unquote_v2(text, &raw, &err);
	if (!ks_jobad_args_is_v2_quoted(text)) {
		if (rc != KS_EPARSE || raw)
			fail("unquoting text without a double quote did not "
			     "fail",
			     text, raw, NULL);
		return;
	}
	if (rc != 0) {
		if (rc != KS_EPARSE || raw)
			fail("unquoting failed badly", text, err.msg, NULL);
		return;
	}
	size_t n = strlen(raw), k = 0;
	char *q = malloc(2 * n + 3);
	q[k++] = '"';
	for (size_t i = 0; i < n; i++) {
		if (raw[i] == '"')
			q[k++] = '"';
		q[k++] = raw[i];
	}
	q[k++] = '"';
	q[k] = '\0';
	char *back = NULL;
	if (ks_jobad_args_unquote_v2(q, &back, &err) != 0)
		fail("quoting again does not unquote", text, q, err.msg);
	if (strcmp(back, raw) != 0)
		fail("unquote -> quote -> unquote changed the text", text, raw,
		     back);
	free(back);
	free(q);
	free(raw);
}

/* ---- environments -------------------------------------------------------- */

/* The name of entry e: up to its '=', or all of a bare ("$$") entry.  A
 * new string. */
static char *entry_name(const char *e)
{
	const char *eq = strchr(e, '=');
	return strndup(e, eq ? (size_t)(eq - e) : strlen(e));
}

static void fail_env(const char *what, const char *text,
		     const struct ks_jobad_env *a, const struct ks_jobad_env *b)
{
	fail_strv(what, text, &a->kv, 0, b->kv.v, b->kv.n);
}

/* env was merged from text without an error. */
static void check_env(const char *text, const struct ks_jobad_env *env)
{
	for (size_t i = 0; i < env->kv.n; i++) {
		const char *e = env->kv.v[i];
		char *name = entry_name(e);
		if (!*name)
			fail("an environment entry has no name", text, e, NULL);
		for (size_t k = 0; k < i; k++) {
			char *other = entry_name(env->kv.v[k]);
			if (!strcmp(other, name))
				fail("an environment name is set twice", text,
				     env->kv.v[k], e);
			free(other);
		}
		const char *eq = strchr(e, '=');
		const char *v = ks_jobad_env_get(env, name);
		if (eq ? v != eq + 1 : v != NULL)
			fail("ks_jobad_env_get does not find an entry", text, e,
			     v ? v : "(null)");
		free(name);
	}

	/* new syntax */
	char *joined = ks_jobad_args_join_v2(&env->kv, 0);
	struct ks_jobad_env back = {0};
	struct ks_err err;
	if (ks_jobad_env_merge_v2(&back, joined, &err) != 0)
		fail("the environment joined in the new syntax does not merge",
		     text, joined, err.msg);
	if (!same_strv(&env->kv, 0, &back.kv))
		fail_env("environment -> new syntax -> merge changed it",
			 joined, env, &back);
	free(joined);

	/* old syntax, where the entries allow it; the leading ';' names the
	 * delimiter, so that an entry starting with another one is safe */
	bool v1_ok = true;
	size_t len = 2;
	for (size_t i = 0; i < env->kv.n && v1_ok; i++) {
		const char *e = env->kv.v[i];
		v1_ok = !strpbrk(e, ";\n") && !arg_space(e[0]);
		len += strlen(e) + 1;
	}
	if (v1_ok) {
		char *v1 = malloc(len);
		strcpy(v1, ";");
		for (size_t i = 0; i < env->kv.n; i++) {
			if (i)
				strcat(v1, ";");
			strcat(v1, env->kv.v[i]);
		}
		struct ks_jobad_env back1 = {0};
		if (ks_jobad_env_merge_v1(&back1, v1, 0, &err) != 0)
			fail("the environment joined in the old syntax does "
			     "not merge",
			     text, v1, err.msg);
		if (!same_strv(&env->kv, 0, &back1.kv))
			fail_env("environment -> old syntax -> merge changed "
				 "it",
				 v1, env, &back1);
		ks_jobad_env_free(&back1);
		free(v1);
	}

	/* the starter's scratch-directory substitution, on the copy */
	static const char from[] = "#CoNdOrScRaTcHdIr#";
	size_t n = back.kv.n;
	ks_jobad_env_replace_in_values(&back, from, "/scratch");
	if (back.kv.n != n)
		fail("replacing in values changed the entry count", text, NULL,
		     NULL);
	for (size_t i = 0; i < n; i++) {
		const char *a = env->kv.v[i], *b = back.kv.v[i];
		const char *ea = strchr(a, '='), *eb = strchr(b, '=');
		size_t la = ea ? (size_t)(ea - a) : strlen(a);
		size_t lb = eb ? (size_t)(eb - b) : strlen(b);
		if (!ea != !eb || la != lb || strncmp(a, b, la) != 0)
			fail("replacing in values changed a name", text, a, b);
		if (eb && strstr(eb + 1, from))
			fail("replacing in values left an occurrence", text, a,
			     b);
	}
	ks_jobad_env_free(&back);
}

static void fuzz_env(const char *text, char delim)
{
	struct ks_err err;
	struct ks_jobad_env env = {0};
	int rc = ks_jobad_env_merge_v2(&env, text, &err);
	if (rc == 0)
		check_env(text, &env);
	else if (rc != KS_EPARSE)
		fail("Environment failed with a code other than KS_EPARSE",
		     text, err.msg, NULL);
	ks_jobad_env_free(&env);

	char delims[2] = {0, delim};
	for (int i = 0; i < 2; i++) {
		rc = ks_jobad_env_merge_v1(&env, text, delims[i], &err);
		if (rc == 0)
			check_env(text, &env);
		else if (rc != KS_EPARSE)
			fail("Env failed with a code other than KS_EPARSE",
			     text, err.msg, NULL);
		ks_jobad_env_free(&env);
	}

	rc = ks_jobad_env_merge_v1_or_v2_quoted(&env, text, &err);
	if (rc == 0)
		check_env(text, &env);
	ks_jobad_env_free(&env);
}

/* ---- the startd cron's copy of the syntaxes ------------------------------ */

static void compare_cron(const char *text)
{
	char cerr[200] = "";
	char **cv = NULL;
	int crc = sd_cron_split_args(text, &cv, cerr, sizeof(cerr));
	struct ks_jobad_strv a = {0};
	int rc = 0;
	if (ks_jobad_args_is_v2_quoted(text)) {
		char *raw = NULL;
		rc = ks_jobad_args_unquote_v2(text, &raw, NULL);
		if (!rc)
			rc = ks_jobad_args_parse_v2(raw, &a, NULL);
		free(raw);
	} else {
		ks_jobad_args_parse_v1(text, &a);
	}
	if (!crc != !rc)
		fail(crc ? "cron ARGS refuses what the starter takes"
			 : "cron ARGS takes what the starter refuses",
		     text, cerr, NULL);
	if (!rc && (sd_cron_vec_len(cv) != a.n ||
		    !same_strv(&a, 0, &(struct ks_jobad_strv){cv, a.n, a.n})))
		fail_strv("cron ARGS and the starter split differently", text,
			  &a, 0, cv, sd_cron_vec_len(cv));
	sd_cron_vec_free(cv);
	ks_jobad_strv_free(&a);

	if (strstr(text, "$$"))
		return;
	char **ce = NULL;
	crc = sd_cron_split_env(text, &ce, cerr, sizeof(cerr));
	struct ks_jobad_env env = {0};
	rc = ks_jobad_env_merge_v1_or_v2_quoted(&env, text, NULL);
	if (!crc != !rc)
		fail(crc ? "cron ENV refuses what the starter takes"
			 : "cron ENV takes what the starter refuses",
		     text, cerr, NULL);
	if (!rc && (sd_cron_vec_len(ce) != env.kv.n ||
		    !same_strv(&env.kv, 0,
			       &(struct ks_jobad_strv){ce, env.kv.n, env.kv.n})))
		fail_strv("cron ENV and the starter merge differently", text,
			  &env.kv, 0, ce, sd_cron_vec_len(ce));
	sd_cron_vec_free(ce);
	ks_jobad_env_free(&env);
}

/* ---- signals ------------------------------------------------------------- */

static void fuzz_signal(const char *text)
{
	int sig = ks_jobad_signal_number(text);
	if (sig == -1)
		return;
	if (sig < 1)
		fail("ks_jobad_signal_number gave a number below 1", text, NULL,
		     NULL);
	const char *name = ks_jobad_signal_name(sig);
	if (name && ks_jobad_signal_number(name) != sig)
		fail("a signal's name names another signal", text, name, NULL);
}

/* ---- the job ad ---------------------------------------------------------- */

static void fuzz_job(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz_job_ad", MFD_CLOEXEC);
	if (fd < 0)
		return;
	size_t off = 0;
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct ks_jobad job;
	struct ks_err err;
	ks_err_clear(&err);
	int rc = off == size ? ks_jobad_load(path, &job, &err) : KS_EIO;
	close(fd);
	if (off != size)
		return;
	if (rc == KS_EIO && job.ad == NULL) {
		/* /proc not mounted: nothing was read */
		ks_jobad_free(&job);
		return;
	}
	if (rc != 0 && rc != KS_EPARSE && rc != KS_EINVAL)
		fail("ks_jobad_load failed with an unexpected code", err.msg,
		     NULL, NULL);
	if (!job.id)
		fail("a loaded job has no id", NULL, NULL, NULL);
	if (rc == 0) {
		if (!job.cmd || !*job.cmd)
			fail("a loaded job has no Cmd", job.id, NULL, NULL);
		if (job.shared_fs && (!job.iwd || job.iwd[0] != '/'))
			fail("a shared-filesystem job without an absolute Iwd",
			     job.id, job.iwd, NULL);
		if (job.kill_sig < 1)
			fail("a loaded job's KillSig is no signal", job.id,
			     NULL, NULL);
		check_join_v2("(job Arguments)", &job.args, 0);
		check_env("(job Environment)", &job.env);
	}
	ks_jobad_free(&job);
}

/* ---- entry point --------------------------------------------------------- */

static void fuzz_assigned(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	char *nl = strchr(text, '\n');
	const char *ids = "";
	if (nl) {
		*nl = '\0';
		ids = nl + 1;
	}
	ks_config *cfg = ks_config_new("STARTER", NULL);
	if (ks_config_set(cfg, "ENVIRONMENT_FOR_AssignedGPUs", text, NULL) !=
	    0) {
		ks_config_free(cfg);
		free(text);
		return;
	}
	classad *m = classad_new();
	classad_insert_string(m, "MachineResources", "Cpus GPUs");
	classad_insert_int(m, "GPUs", 1);
	classad_insert_string(m, "AssignedGPUs", ids);
	struct ks_jobad_env env;
	memset(&env, 0, sizeof(env));
	ks_jobad_assigned_env(cfg, m, &env, NULL);
	const char *got = ks_jobad_env_get(&env, "_CONDOR_AssignedGPUs");
	if (!got || strcmp(got, ids) != 0)
		fail("_CONDOR_AssignedGPUs is not the ids", ids, got, NULL);
	for (size_t i = 0; i < env.kv.n; i++) {
		const char *eq = strchr(env.kv.v[i], '=');
		if (!eq || eq == env.kv.v[i])
			fail("an entry without a name", env.kv.v[i], NULL, NULL);
	}
	ks_jobad_env_free(&env);
	classad_free(m);
	ks_config_free(cfg);
	free(text);
}

static void fuzz_account(const uint8_t *data, size_t size)
{
	char *spec = malloc(size + 1);
	memcpy(spec, data, size);
	spec[size] = '\0';
	struct ks_jobad_user u, v;
	struct ks_err err;
	if (ks_jobad_user_parse(spec, "owner", &u, &err)) {
		if (err.code != KS_EPARSE)
			fail("a refused account is not KS_EPARSE", spec, err.msg,
			     NULL);
		free(spec);
		return;
	}
	if (u.switch_to && u.uid == 0)
		fail("an account changes to root", spec, NULL, NULL);
	char *again = ks_jobad_user_format(&u);
	if (ks_jobad_user_parse(again, "owner", &v, &err))
		fail("ks_jobad_user_format() does not parse back", spec, again,
		     err.msg);
	if (v.uid != u.uid || v.gid != u.gid || v.ngroups != u.ngroups ||
	    v.switch_to != u.switch_to || strcmp(v.name, u.name) ||
	    strcmp(v.home, u.home) ||
	    (u.ngroups && memcmp(v.groups, u.groups,
				 sizeof(gid_t) * (size_t)u.ngroups)))
		fail("the account changed through ks_jobad_user_format()", spec,
		     again, NULL);
	free(again);
	ks_jobad_user_free(&u);
	ks_jobad_user_free(&v);
	free(spec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 64 * 1024)
		return 0;
	if (data[0] == 'j') {
		fuzz_job(data + 1, size - 1);
		return 0;
	}
	if (data[0] == 'a') {
		fuzz_assigned(data + 1, size - 1);
		return 0;
	}
	if (data[0] == 'u') {
		fuzz_account(data + 1, size - 1);
		return 0;
	}
	/* The text stops at its first NUL, as a C string from an ad does. */
	char *text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	fuzz_args_v2(text);
	fuzz_args_v1(text);
	fuzz_unquote(text);
	fuzz_env(text, (char)data[0]);
	compare_cron(text);
	fuzz_signal(text);
	free(text);
	return 0;
}
