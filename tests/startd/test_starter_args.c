/* test_starter_args.c: the starter's argument and environment syntaxes
 * (common/jobad/ks_jobad.h), with the HTCondor manual's examples and the
 * errors, signal names for KillSig, and the job ad checks (ks_jobad.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ks_jobad.h"

/* Parses raw (new syntax) and checks it gives exactly the n strings. */
static void expect_v2(const char *raw, size_t n, ...)
{
	struct ks_jobad_strv v = {0};
	struct ks_err err;
	if (ks_jobad_args_parse_v2(raw, &v, &err))
		fail_msg("parse of [%s] failed: %s", raw, err.msg);
	assert_int_equal(v.n, n);
	va_list ap;
	va_start(ap, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(v.v[i], va_arg(ap, const char *));
	va_end(ap);
	if (n)
		assert_null(v.v[n]);
	ks_jobad_strv_free(&v);
}

static void test_v2_simple(void **state)
{
	(void)state;
	expect_v2("3 simple arguments", 3, "3", "simple", "arguments");
	expect_v2("", 0);
	expect_v2(" \t\n\r ", 0);
	expect_v2("  lead  trail  ", 2, "lead", "trail");
	expect_v2("a\tb\nc\rd", 4, "a", "b", "c", "d");
	/* Double quotes mean nothing in the raw form. */
	expect_v2("say \"hi\"", 2, "say", "\"hi\"");
}

static void test_v2_quotes(void **state)
{
	(void)state;
	expect_v2("'one arg'", 1, "one arg");
	expect_v2("''", 1, "");
	expect_v2("a '' b", 3, "a", "", "b");
	/* Outside quotes, '' opens and closes an empty quoted section. */
	expect_v2("it''s", 1, "its");
	expect_v2("'it''s'", 1, "it's");
	expect_v2("a'b c'd", 1, "ab cd");
	expect_v2("'a''''b'", 1, "a''b");
	expect_v2("'\t\n'", 1, "\t\n");
}

/* The manual's example: in the submit file
 *   arguments = "one ""two"" 'spacey ''quoted'' argument'"
 * which the ad holds without the outer quotes and with "" as ". */
static void test_v2_manual_example(void **state)
{
	(void)state;
	const char *submit =
		"\"one \"\"two\"\" 'spacey ''quoted'' argument'\"";
	assert_true(ks_jobad_args_is_v2_quoted(submit));
	char *raw;
	assert_int_equal(ks_jobad_args_unquote_v2(submit, &raw, NULL), 0);
	assert_string_equal(raw, "one \"two\" 'spacey ''quoted'' argument'");
	expect_v2(raw, 3, "one", "\"two\"", "spacey 'quoted' argument");
	free(raw);

	assert_int_equal(ks_jobad_args_unquote_v2("  \"3 simple arguments\"  ",
						  &raw, NULL), 0);
	expect_v2(raw, 3, "3", "simple", "arguments");
	free(raw);
}

static void test_v2_errors(void **state)
{
	(void)state;
	struct ks_jobad_strv v = {0};
	struct ks_err err;
	assert_int_equal(ks_jobad_args_parse_v2("a 'b c", &v, &err), KS_EPARSE);
	assert_non_null(strstr(err.msg, "unbalanced single quote"));
	assert_non_null(strstr(err.msg, "offset 2"));
	assert_int_equal(v.n, 1); /* what came before is kept */
	assert_string_equal(v.v[0], "a");
	ks_jobad_strv_free(&v);
	assert_int_equal(ks_jobad_args_parse_v2("'it''s", &v, NULL), KS_EPARSE);
	ks_jobad_strv_free(&v);

	char *raw = (char *)1;
	assert_int_equal(ks_jobad_args_unquote_v2("\"no end", &raw, &err),
			 KS_EPARSE);
	assert_null(raw);
	assert_non_null(strstr(err.msg, "no closing double quote"));
	assert_int_equal(ks_jobad_args_unquote_v2("\"a\" b", &raw,
						  &err), KS_EPARSE);
	assert_non_null(strstr(err.msg, "after the closing double quote"));
	assert_int_equal(ks_jobad_args_unquote_v2("a", &raw, &err), KS_EPARSE);
	assert_false(ks_jobad_args_is_v2_quoted("a \"b\""));
	assert_false(ks_jobad_args_is_v2_quoted(NULL));
}

static void test_v1(void **state)
{
	(void)state;
	struct ks_jobad_strv v = {0};
	ks_jobad_args_parse_v1("  a  b\tc\n", &v);
	assert_int_equal(v.n, 3);
	assert_string_equal(v.v[2], "c");
	ks_jobad_strv_free(&v);
	/* The old syntax has no quoting at all. */
	ks_jobad_args_parse_v1("'a b' \"c d\"", &v);
	assert_int_equal(v.n, 4);
	assert_string_equal(v.v[0], "'a");
	assert_string_equal(v.v[3], "d\"");
	ks_jobad_strv_free(&v);
	ks_jobad_args_parse_v1(NULL, &v);
	ks_jobad_args_parse_v1("", &v);
	assert_int_equal(v.n, 0);
}

static void test_join_round_trip(void **state)
{
	(void)state;
	const char *raws[] = {"a b c", "'a b' '' 'it''s' x'y'",
			      "'tab\there' plain", "''''"};
	for (size_t i = 0; i < sizeof(raws) / sizeof(raws[0]); i++) {
		struct ks_jobad_strv a = {0}, b = {0};
		assert_int_equal(ks_jobad_args_parse_v2(raws[i], &a, NULL), 0);
		char *joined = ks_jobad_args_join_v2(&a, 0);
		assert_int_equal(ks_jobad_args_parse_v2(joined, &b, NULL), 0);
		assert_int_equal(a.n, b.n);
		for (size_t k = 0; k < a.n; k++)
			assert_string_equal(a.v[k], b.v[k]);
		free(joined);
		ks_jobad_strv_free(&a);
		ks_jobad_strv_free(&b);
	}
	struct ks_jobad_strv a = {0};
	ks_jobad_strv_add(&a, "/bin/echo", 9);
	ks_jobad_strv_add(&a, "x y", 3);
	ks_jobad_strv_add(&a, "", 0);
	ks_jobad_strv_add(&a, "it's", 4);
	ks_jobad_strv_add(&a, "a  b", 4);
	/* HTCondor's canonical form: only what needs it is quoted */
	char *j = ks_jobad_args_join_v2(&a, 1);
	assert_string_equal(j, "x' 'y '' it''''s a'  'b");
	free(j);
	ks_jobad_strv_free(&a);
}

/* ---- environments ---- */

static void test_env_v2_manual_example(void **state)
{
	(void)state;
	/* environment = "one=1 two=""2"" three='spacey ''quoted'' value'" */
	char *raw;
	assert_int_equal(ks_jobad_args_unquote_v2("\"one=1 two=\"\"2\"\" three='spacey ''quoted'' value'\"",
						  &raw, NULL), 0);
	struct ks_jobad_env env = {0};
	assert_int_equal(ks_jobad_env_merge_v2(&env, raw, NULL), 0);
	free(raw);
	assert_int_equal(env.kv.n, 3);
	assert_string_equal(ks_jobad_env_get(&env, "one"), "1");
	assert_string_equal(ks_jobad_env_get(&env, "two"), "\"2\"");
	assert_string_equal(ks_jobad_env_get(&env, "three"),
			    "spacey 'quoted' value");
	assert_string_equal(env.kv.v[2], "three=spacey 'quoted' value");
	assert_null(env.kv.v[3]);
	ks_jobad_env_free(&env);
}

static void test_env_v2_entries(void **state)
{
	(void)state;
	struct ks_jobad_env env = {0};
	struct ks_err err;
	assert_int_equal(ks_jobad_env_merge_v2(&env, "A=1 B= C=x=y A=2",
					       &err), 0);
	assert_int_equal(env.kv.n, 3);
	assert_string_equal(ks_jobad_env_get(&env, "A"), "2"); /* later wins */
	assert_string_equal(ks_jobad_env_get(&env, "B"), "");
	assert_string_equal(ks_jobad_env_get(&env, "C"), "x=y");
	assert_null(ks_jobad_env_get(&env, "D"));
	assert_null(ks_jobad_env_get(&env,
				     "")); /* no name matches the empty one */
	/* An unexpanded $$() macro stays as it is. */
	assert_int_equal(ks_jobad_env_merge_v2(&env, "$$(OpSys)", &err), 0);
	assert_string_equal(env.kv.v[3], "$$(OpSys)");
	assert_null(ks_jobad_env_get(&env, "$$(OpSys)"));

	assert_int_equal(ks_jobad_env_merge_v2(&env, "E=5 NOVALUE F=6", &err),
			 KS_EPARSE);
	assert_non_null(strstr(err.msg, "'NOVALUE' has no '='"));
	assert_string_equal(ks_jobad_env_get(&env, "E"), "5");
	assert_null(ks_jobad_env_get(&env, "F"));
	assert_int_equal(ks_jobad_env_merge_v2(&env, "=x", &err), KS_EPARSE);
	assert_non_null(strstr(err.msg, "names no variable"));
	assert_int_equal(ks_jobad_env_merge_v2(&env, "G='open",
					       &err), KS_EPARSE);
	assert_non_null(strstr(err.msg, "unbalanced"));
	ks_jobad_env_free(&env);
}

static void test_env_v1(void **state)
{
	(void)state;
	struct ks_jobad_env env = {0};
	struct ks_err err;
	assert_int_equal(ks_jobad_env_merge_v1(&env,
					       "one=1;two=2;three=spacey value",
					       0, &err), 0);
	assert_int_equal(env.kv.n, 3);
	assert_string_equal(ks_jobad_env_get(&env, "three"), "spacey value");
	ks_jobad_env_free(&env);

	/* Entries lose leading whitespace; newlines separate too; empty
	 * entries are nothing. */
	assert_int_equal(ks_jobad_env_merge_v1(&env, ";; A=1 ;\n\tB='x'\n;;", 0,
					       &err), 0);
	assert_int_equal(env.kv.n, 2);
	assert_string_equal(ks_jobad_env_get(&env, "A"), "1 ");
	assert_string_equal(ks_jobad_env_get(&env, "B"), "'x'");
	ks_jobad_env_free(&env);

	/* A text may name its own delimiter by starting with it. */
	assert_int_equal(ks_jobad_env_merge_v1(&env, "|A=1|B=x;y", 0, &err), 0);
	assert_string_equal(ks_jobad_env_get(&env, "A"), "1");
	assert_string_equal(ks_jobad_env_get(&env, "B"), "x;y");
	ks_jobad_env_free(&env);
	/* ... or the ad's EnvDelim names it. */
	assert_int_equal(ks_jobad_env_merge_v1(&env, "A=1|B=x;y", '|',
					       &err), 0);
	assert_string_equal(ks_jobad_env_get(&env, "B"), "x;y");
	ks_jobad_env_free(&env);

	assert_int_equal(ks_jobad_env_merge_v1(&env, "A=1;B", 0,
					       &err), KS_EPARSE);
	assert_non_null(strstr(err.msg, "'B' has no '='"));
	assert_int_equal(ks_jobad_env_merge_v1(&env, "", 0, &err), 0);
	assert_int_equal(ks_jobad_env_merge_v1(&env, NULL, 0, &err), 0);
	ks_jobad_env_free(&env);
}

static void test_env_either(void **state)
{
	(void)state;
	struct ks_jobad_env env = {0};
	assert_int_equal(ks_jobad_env_merge_v1_or_v2_quoted(&env,
			"\"A=1 B='x y'\"", NULL), 0);
	assert_string_equal(ks_jobad_env_get(&env, "B"), "x y");
	assert_int_equal(ks_jobad_env_merge_v1_or_v2_quoted(&env, "C=1;D=x y",
			NULL), 0);
	assert_string_equal(ks_jobad_env_get(&env, "D"), "x y");
	assert_int_equal(ks_jobad_env_merge_v1_or_v2_quoted(&env, NULL,
			NULL), 0);
	assert_int_equal(ks_jobad_env_merge_v1_or_v2_quoted(&env, "\"A=1",
			NULL),
			 KS_EPARSE);
	assert_int_equal(env.kv.n, 4);
	ks_jobad_env_free(&env);
}

static void test_env_set_and_replace(void **state)
{
	(void)state;
	struct ks_jobad_env env = {0};
	assert_int_equal(ks_jobad_env_set(&env, "", "x"), KS_EINVAL);
	assert_int_equal(ks_jobad_env_set(&env, "A=B", "x"), KS_EINVAL);
	assert_int_equal(ks_jobad_env_set(&env, "AB", "1"), 0);
	assert_int_equal(ks_jobad_env_set(&env, "A", "2"), 0);
	assert_string_equal(ks_jobad_env_get(&env,
					     "AB"), "1"); /* no prefix mix-up */
	assert_string_equal(ks_jobad_env_get(&env, "A"), "2");
	assert_int_equal(ks_jobad_env_set(&env, "S",
					  "#CoNdOrScRaTcHdIr#/tmp:" "#CoNdOrScRaTcHdIr#"), 0);
	assert_int_equal(ks_jobad_env_set(&env, "#CoNdOrScRaTcHdIr#", "v"), 0);
	ks_jobad_env_replace_in_values(&env, "#CoNdOrScRaTcHdIr#", "/scratch");
	assert_string_equal(ks_jobad_env_get(&env,
					     "S"), "/scratch/tmp:/scratch");
	assert_string_equal(ks_jobad_env_get(&env, "#CoNdOrScRaTcHdIr#"), "v");
	assert_int_equal(env.kv.n, 4);
	ks_jobad_env_free(&env);
	ks_jobad_env_free(NULL);
}

/* ---- KillSig names ---- */

static void test_signal_names(void **state)
{
	(void)state;
	assert_int_equal(ks_jobad_signal_number("SIGTERM"), 15);
	assert_int_equal(ks_jobad_signal_number("sigint"), 2);
	assert_int_equal(ks_jobad_signal_number("KILL"), 9);
	assert_int_equal(ks_jobad_signal_number("Usr1"), 10);
	assert_int_equal(ks_jobad_signal_number("9"), 9);
	assert_int_equal(ks_jobad_signal_number("SIGFOO"), -1);
	assert_int_equal(ks_jobad_signal_number(""), -1);
	assert_int_equal(ks_jobad_signal_number(NULL), -1);
	assert_int_equal(ks_jobad_signal_number("0"), -1);
	assert_int_equal(ks_jobad_signal_number("99999"), -1);
	assert_int_equal(ks_jobad_signal_number("SIG"), -1);
	assert_string_equal(ks_jobad_signal_name(15), "SIGTERM");
	assert_null(ks_jobad_signal_name(0));
}

/* ---- the job ad ---- */

/* Loads an ad given as text; returns ks_jobad_load()'s code. */
static int load(const char *text, struct ks_jobad *job, struct ks_err *err)
{
	char path[] = "/tmp/test_starter_args.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	int rc = ks_jobad_load(path, job, err);
	unlink(path);
	return rc;
}

static void test_job_good(void **state)
{
	(void)state;
	struct ks_jobad job;
	struct ks_err err;
	int rc = load("ClusterId = 7\nProcId = 3\nCmd = \"/bin/echo\"\n"
		      "Arguments = \"a 'b c'\"\nArgs = \"ignored\"\n"
		      "Environment = \"X=1 Y='2 3'\"\nEnv = \"Z=9\"\n"
		      "Iwd = \"/tmp\"\nShouldTransferFiles = \"NO\"\n"
		      "In = \"/dev/null\"\nOut = \"o\"\nErr = \"\"\n"
		      "KillSig = \"SIGINT\"\nOwner = \"alice\"\n"
		      "CumulativeSuspensionTime = 5\nRemoteWallClockTime = 2.5\n",
		      &job, &err);
	if (rc)
		fail_msg("load: %s", err.msg);
	assert_string_equal(job.id, "7.3");
	assert_string_equal(job.cmd, "/bin/echo");
	assert_int_equal(job.args.n, 2);
	assert_string_equal(job.args.v[1], "b c");
	assert_string_equal(ks_jobad_env_get(&job.env, "Y"), "2 3");
	assert_null(ks_jobad_env_get(&job.env,
				     "Z")); /* Environment wins over Env */
	assert_true(job.shared_fs);
	assert_string_equal(job.iwd, "/tmp");
	assert_null(job.in);
	assert_string_equal(job.out, "o");
	assert_null(job.err);
	assert_false(job.append);
	assert_int_equal(job.kill_sig, 2);
	assert_null(job.kill_sig_note);
	assert_string_equal(job.owner, "alice");
	assert_int_equal(job.prev_suspension_time, 5);
	assert_true(job.prev_wall_clock == 2.5);
	ks_jobad_free(&job);
}

static void test_job_old_syntaxes(void **state)
{
	(void)state;
	struct ks_jobad job;
	struct ks_err err;
	assert_int_equal(load("Cmd = strcat(\"/bin/\", \"echo\")\n"
			      "Args = \"a  'b\"\nEnv = \"A=1|B=2;3\"\n"
			      "EnvDelim = \"|\"\nKillSig = 9\n"
			      "EraseOutputAndErrorOnRestart = false\n",
			      &job, &err), 0);
	assert_string_equal(job.cmd, "/bin/echo");
	assert_string_equal(job.id, "?");
	assert_int_equal(job.args.n, 2);
	assert_string_equal(job.args.v[1], "'b");
	assert_string_equal(ks_jobad_env_get(&job.env, "B"), "2;3");
	assert_int_equal(job.kill_sig, 9);
	assert_true(job.append);
	assert_false(job.shared_fs);
	ks_jobad_free(&job);

	assert_int_equal(load("Cmd = \"x\"\nKillSig = \"SIGFOO\"\n", &job, &err),
			 0);
	assert_int_equal(job.kill_sig, 15);
	assert_non_null(strstr(job.kill_sig_note, "SIGFOO"));
	ks_jobad_free(&job);
}

/* Loads text, expects code, and that the message holds want. */
static void expect_bad(const char *text, int code, const char *want)
{
	struct ks_jobad job;
	struct ks_err err;
	ks_err_clear(&err);
	assert_int_equal(load(text, &job, &err), code);
	if (!strstr(err.msg, want))
		fail_msg("for [%s] expected \"%s\" in \"%s\"", text, want,
			 err.msg);
	ks_jobad_free(&job);
}

static void test_job_bad(void **state)
{
	(void)state;
	expect_bad("Cmd = 5\n", KS_EINVAL,
		   "job attribute Cmd = 5 is an integer, not a string");
	expect_bad("Arguments = {\"a\", \"b\"}\nCmd = \"/bin/echo\"\n",
		   KS_EINVAL, "Arguments = { \"a\",\"b\" } is a list");
	expect_bad("Cmd = \"/bin/echo\"\nArguments = \"a 'b\"\n", KS_EINVAL,
		   "job attribute Arguments: unbalanced single quote");
	expect_bad("Cmd = \"/bin/echo\"\nEnvironment = \"A\"\n", KS_EINVAL,
		   "job attribute Environment: environment entry 'A'");
	expect_bad("Cmd = \"/bin/echo\"\nEnv = 3.5\n", KS_EINVAL,
		   "Env = 3.5 is a real number");
	expect_bad("Cmd = \"/bin/echo\"\nIwd = true\n", KS_EINVAL,
		   "Iwd = true is a boolean");
	expect_bad("Cmd = \"/bin/echo\"\nOut = undefined\n", KS_EINVAL,
		   "Out = undefined is undefined");
	expect_bad("Cmd = \"/bin/echo\"\nIn = 1/0\n", KS_EINVAL,
		   "is an error");
	expect_bad("Cmd = \"\"\n", KS_EINVAL, "no Cmd");
	expect_bad("Owner = \"x\"\n", KS_EINVAL, "no Cmd");
	expect_bad("Cmd = \"/bin/echo\"\nShouldTransferFiles = \"NO\"\n",
		   KS_EINVAL, "no Iwd");
	expect_bad("Cmd = \"/bin/echo\"\nShouldTransferFiles = \"NO\"\n"
		   "Iwd = \"rel\"\n", KS_EINVAL, "a relative Iwd");
	expect_bad("Cmd = \"/bin/echo\"\nfoo = (\n", KS_EPARSE,
		   "not a ClassAd in old syntax: line 2");

	struct ks_jobad job;
	struct ks_err err;
	assert_int_equal(ks_jobad_load("/nonexistent/job.ad", &job, &err),
			 KS_EIO);
	assert_non_null(strstr(err.msg, "/nonexistent/job.ad"));
	assert_string_equal(job.id, "?");
	ks_jobad_free(&job);
}

static void assigned(const char *knobs, const char *machine_text,
		     struct ks_jobad_env *env)
{
	ks_config *cfg = ks_config_new("STARTER", NULL);
	struct ks_err err;
	assert_int_equal(ks_config_read_text(cfg, "test", knobs, strlen(knobs),
					     &err), 0);
	classad *m = classad_parse(machine_text, strlen(machine_text),
				   CLASSAD_FMT_OLD, NULL, &err);
	assert_non_null(m);
	memset(env, 0, sizeof(*env));
	ks_jobad_assigned_env(cfg, m, env, NULL);
	classad_free(m);
	ks_config_free(cfg);
}

/* What a job is told about its slot's resources: _CONDOR_Assigned<name>,
 * the variables ENVIRONMENT_FOR_Assigned<name> names (plain, with a
 * pattern and groups, with another delimiter), the unassigned value. */
static void test_assigned_env(void **state)
{
	(void)state;
	struct ks_jobad_env env;
	assigned("ENVIRONMENT_FOR_AssignedGPUs = GPU_DEVICE_ORDINAL=/(CUDA|OCL)// "
		 " CUDA_VISIBLE_DEVICES=/CUDA//\n"
		 "ENVIRONMENT_FOR_AssignedFPGAs = FPGA_IDS=#dev-(\\d+)#n$1#, "
		 "FPGA_ALL\n",
		 "MachineResources = \"Cpus Memory GPUs FPGAs Licenses\"\n"
		 "GPUs = 2\nAssignedGPUs = \"CUDA0,OCL3\"\n"
		 "FPGAs = 2\nAssignedFPGAs = \"dev-7, dev-x\"\n"
		 "Licenses = 1\n",
		 &env);
	assert_string_equal(ks_jobad_env_get(&env, "_CONDOR_AssignedGPUs"),
			    "CUDA0,OCL3");
	assert_string_equal(ks_jobad_env_get(&env,
					     "GPU_DEVICE_ORDINAL"), "0,3");
	assert_string_equal(ks_jobad_env_get(&env,
					     "CUDA_VISIBLE_DEVICES"), "0,OCL3");
	assert_string_equal(ks_jobad_env_get(&env, "FPGA_IDS"), "n7,dev-x");
	assert_string_equal(ks_jobad_env_get(&env, "FPGA_ALL"), "dev-7, dev-x");
	assert_null(ks_jobad_env_get(&env, "_CONDOR_AssignedLicenses"));
	ks_jobad_env_free(&env);

	/* a slot with GPUs on the machine but none given: 10000 by
	 * default; a bare CUDA name keeps digits only */
	assigned("ENVIRONMENT_FOR_AssignedGPUs = CUDA_VISIBLE_DEVICES\n",
		 "MachineResources = \"Cpus GPUs\"\nGPUs = 0\n", &env);
	assert_string_equal(ks_jobad_env_get(&env,
					     "_CONDOR_AssignedGPUs"), "10000");
	assert_string_equal(ks_jobad_env_get(&env,
					     "CUDA_VISIBLE_DEVICES"), "10000");
	ks_jobad_env_free(&env);
	assigned("ENVIRONMENT_FOR_AssignedGPUs = CUDA_VISIBLE_DEVICES\n",
		 "MachineResources = \"GPUs\"\nAssignedGPUs = \"CUDA1,CUDA2\"\n",
		 &env);
	assert_string_equal(ks_jobad_env_get(&env,
					     "CUDA_VISIBLE_DEVICES"), "1,2");
	ks_jobad_env_free(&env);

	/* a broken pattern sets nothing from that knob */
	assigned("ENVIRONMENT_FOR_AssignedGPUs = X=/(unclosed//\nENVIRONMENT_VALUE_FOR_UnAssignedGPUs = none\n",
		 "MachineResources = \"GPUs\"\nAssignedGPUs = \"CUDA1\"\n",
		 &env);
	assert_null(ks_jobad_env_get(&env, "X"));
	assert_string_equal(ks_jobad_env_get(&env,
					     "_CONDOR_AssignedGPUs"), "CUDA1");
	ks_jobad_env_free(&env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_assigned_env),
		cmocka_unit_test(test_v2_simple),
		cmocka_unit_test(test_v2_quotes),
		cmocka_unit_test(test_v2_manual_example),
		cmocka_unit_test(test_v2_errors),
		cmocka_unit_test(test_v1),
		cmocka_unit_test(test_join_round_trip),
		cmocka_unit_test(test_env_v2_manual_example),
		cmocka_unit_test(test_env_v2_entries),
		cmocka_unit_test(test_env_v1),
		cmocka_unit_test(test_env_either),
		cmocka_unit_test(test_env_set_and_replace),
		cmocka_unit_test(test_signal_names),
		cmocka_unit_test(test_job_good),
		cmocka_unit_test(test_job_old_syntaxes),
		cmocka_unit_test(test_job_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
