/*
 * Unit tests of the job event log writer (common/userlog).
 *
 * The expected texts were derived by hand from HTCondor's event writers
 * (condor_event.cpp: formatHeader and each event's formatBody), not from
 * our code.  A small reader written here, after the rules of HTCondor's
 * readers (header, "..." terminator, and the fixed patterns its events
 * scan their bodies with), reads back what we write.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tmp_dir.h"
#include "classad.h"
#include "ks_userlog.h"

/* 2026-11-23 10:11:12 UTC */
static int64_t when(void)
{
	struct tm tm = {0};
	tm.tm_year = 2026 - 1900;
	tm.tm_mon = 10;
	tm.tm_mday = 23;
	tm.tm_hour = 10;
	tm.tm_min = 11;
	tm.tm_sec = 12;
	return (int64_t)timegm(&tm);
}

static void use_tz(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

static int group_setup(void **state)
{
	(void)state;
	use_tz("UTC");
	return 0;
}

static void ev_init(struct ks_userlog_event *ev, enum ks_userlog_type t,
		    int cluster, int proc)
{
	ks_userlog_event_init(ev, t, cluster, proc);
	ev->time = when();
	ev->usec = 0;
}

static char *fmt(const struct ks_userlog_event *ev, unsigned opts)
{
	char *out = NULL;
	size_t len = 0;
	struct ks_err err = {0};
	int rc = ks_userlog_format(ev, opts, &out, &len, &err);
	if (rc != 0)
		fail_msg("format failed: %s", err.msg);
	assert_int_equal(len, strlen(out));
	/* (a copy: gcc -O3 otherwise takes what the caller finds in the
	 * text for a pointer to out itself, and warns of it dangling) */
	char *copy = strdup(out);
	free(out);
	return copy;
}

static void expect(const struct ks_userlog_event *ev, unsigned opts,
		   const char *want)
{
	char *got = fmt(ev, opts);
	assert_string_equal(got, want);
	free(got);
}

static classad *ad_old(const char *text)
{
	struct ks_err err = {0};
	classad *ad = classad_parse(text, strlen(text), CLASSAD_FMT_OLD, NULL,
				    &err);
	if (!ad)
		fail_msg("bad ad: %s", err.msg);
	return ad;
}

#define SCHEDD "<127.0.0.1:9618?addrs=127.0.0.1-9618&alias=ap&noUDP>"
#define STARTD "<10.0.0.5:9618?addrs=10.0.0.5-9618>"
#define CPU0 "Usr 0 00:00:00, Sys 0 00:00:00"

/* ---- headers and dates ------------------------------------------------- */

static void test_header_iso(void **state)
{
	(void)state;
	struct ks_userlog_event ev;
	ev_init(&ev, KS_USERLOG_SUBMIT, 12, 0);
	ev.submit_host = SCHEDD;
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       "000 (012.000.000) 2026-11-23 10:11:12 Job submitted from "
	       "host: " SCHEDD "\n...\n");
	ev.cluster = 12345;
	ev.proc = 7;
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       "000 (12345.007.000) 2026-11-23 10:11:12 Job submitted from "
	       "host: " SCHEDD "\n...\n");
}

static void test_header_dates(void **state)
{
	(void)state;
	struct ks_userlog_event ev;
	ev_init(&ev, KS_USERLOG_UNSUSPENDED, 1, 2);
	ev.usec = 345678;
	expect(&ev, 0,
	       "011 (001.002.000) 11/23 10:11:12 Job was unsuspended.\n...\n");
	expect(&ev, KS_USERLOG_ISO_DATE | KS_USERLOG_UTC,
	       "011 (001.002.000) 2026-11-23 10:11:12Z Job was "
	       "unsuspended.\n...\n");
	expect(&ev, KS_USERLOG_ISO_DATE | KS_USERLOG_SUB_SECOND,
	       "011 (001.002.000) 2026-11-23 10:11:12.345 Job was "
	       "unsuspended.\n...\n");
	expect(&ev, KS_USERLOG_SUB_SECOND | KS_USERLOG_UTC,
	       "011 (001.002.000) 11/23 10:11:12.345Z Job was "
	       "unsuspended.\n...\n");
	/* Local time by default: two hours east of UTC. */
	use_tz("XXX-2");
	expect(&ev, KS_USERLOG_ISO_DATE,
	       "011 (001.002.000) 2026-11-23 12:11:12 Job was "
	       "unsuspended.\n...\n");
	expect(&ev, KS_USERLOG_ISO_DATE | KS_USERLOG_UTC,
	       "011 (001.002.000) 2026-11-23 10:11:12Z Job was "
	       "unsuspended.\n...\n");
	use_tz("UTC");
}

static void test_parse_opts(void **state)
{
	(void)state;
	unsigned o;
	struct ks_err err = {0};
	assert_int_equal(ks_userlog_parse_opts(NULL, KS_USERLOG_DEFAULT_OPTS,
					       &o, &err),
			 0);
	assert_int_equal(o, KS_USERLOG_ISO_DATE);
	assert_int_equal(ks_userlog_parse_opts("utc, sub_second", 0, &o, &err),
			 0);
	assert_int_equal(o, KS_USERLOG_UTC | KS_USERLOG_SUB_SECOND);
	assert_int_equal(ks_userlog_parse_opts("LEGACY", KS_USERLOG_ISO_DATE |
							   KS_USERLOG_UTC,
					       &o, &err),
			 0);
	assert_int_equal(o, 0);
	assert_int_equal(ks_userlog_parse_opts("!legacy UTC", 0, &o, &err), 0);
	assert_int_equal(o, KS_USERLOG_ISO_DATE | KS_USERLOG_UTC);
	assert_int_equal(ks_userlog_parse_opts("!ISO_DATE", KS_USERLOG_ISO_DATE,
					       &o, &err),
			 0);
	assert_int_equal(o, 0);
	assert_int_equal(ks_userlog_parse_opts("bogus", 0, &o, &err), 0);
	assert_int_equal(o, 0);
	assert_int_equal(ks_userlog_parse_opts("JSON, ISO_DATE", 0, &o, &err),
			 KS_EINVAL);
	assert_int_equal(o, KS_USERLOG_ISO_DATE);
	assert_non_null(strstr(err.msg, "JSON"));
}

/* ---- each event ----------------------------------------------------- */

static void test_submit_notes(void **state)
{
	(void)state;
	struct ks_userlog_event ev;
	ev_init(&ev, KS_USERLOG_SUBMIT, 12, 3);
	ev.submit_host = SCHEDD;
	ev.notes = "DAG Node: A";
	ev.user_notes = "my note";
	ev.warnings = "request_memory is small";
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       "000 (012.003.000) 2026-11-23 10:11:12 Job submitted from "
	       "host: " SCHEDD "\n"
	       "    DAG Node: A\n"
	       "    my note\n"
	       "    WARNING: Committed job submission into the queue with the "
	       "following warning(s): request_memory is small\n"
	       "...\n");

	/* Structured notes replace the plain notes line; attributes in the
	 * order of HTCondor's ads (shorter names first). */
	classad *job = ad_old("JobBatchName = \"batch1\"\n"
			      "DAGNodeName = \"A\"\n"
			      "Owner = \"alice\"\n"
			      "Missing = undefined\n"
			      "SubmitEventNotesAttrs = \"Owner, Missing\"\n");
	classad *notes = ks_userlog_notes_ad(job);
	assert_non_null(notes);
	ev.structured_notes = notes;
	ev.warnings = NULL;
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       "000 (012.003.000) 2026-11-23 10:11:12 Job submitted from "
	       "host: " SCHEDD "\n"
	       "    [ Owner = \"alice\"; DAGNodeName = \"A\"; JobBatchName = "
	       "\"batch1\" ]\n"
	       "    my note\n"
	       "...\n");
	classad_free(notes);
	classad_free(job);

	job = ad_old("Owner = \"alice\"\n");
	assert_null(ks_userlog_notes_ad(job));
	classad_free(job);
}

static void test_execute(void **state)
{
	(void)state;
	struct ks_userlog_event ev;
	ev_init(&ev, KS_USERLOG_EXECUTE, 12, 0);
	ev.execute_host = STARTD;
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       "001 (012.000.000) 2026-11-23 10:11:12 Job executing on host: "
	       STARTD "\n...\n");
	classad *props = ad_old("memory = 1024\n"
				"CondorScratchDir = "
				"\"/var/lib/condor/execute/dir_7\"\n"
				"Cpus = 1\n"
				"Disk = 2048\n");
	ev.slot_name = "slot1_1@exec.example";
	ev.execute_props = props;
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       "001 (012.000.000) 2026-11-23 10:11:12 Job executing on host: "
	       STARTD "\n"
	       "\tSlotName: slot1_1@exec.example\n"
	       "\tCondorScratchDir = \"/var/lib/condor/execute/dir_7\"\n"
	       "\tCpus = 1\n"
	       "\tDisk = 2048\n"
	       "\tmemory = 1024\n"
	       "...\n");
	classad_free(props);
}

/* The job of HTCondor's quick-start guide. */
static const char quick_start_job[] = "RequestCpus = 1\n"
				      "CpusProvisioned = 1\n"
				      "RequestDisk = 100000\n"
				      "DiskUsage = 100000\n"
				      "DiskProvisioned = 2033496\n"
				      "RequestMemory = 98\n"
				      "MemoryUsage = 0\n"
				      "MemoryProvisioned = 2001\n";

static void test_terminated_normal(void **state)
{
	(void)state;
	classad *job = ad_old(quick_start_job);
	classad *usage = ks_userlog_usage_ad(job);
	assert_non_null(usage);
	struct ks_userlog_event ev;
	ev_init(&ev, KS_USERLOG_TERMINATED, 6, 0);
	ev.normal = true;
	ev.return_value = 0;
	ev.run_remote = (struct ks_userlog_cpu){3725, 90061};
	ev.total_remote = (struct ks_userlog_cpu){3725, 90061};
	ev.sent_bytes = ev.total_sent_bytes = 23;
	ev.recvd_bytes = ev.total_recvd_bytes = 113;
	ev.usage = usage;
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       "005 (006.000.000) 2026-11-23 10:11:12 Job terminated.\n"
	       "\t(1) Normal termination (return value 0)\n"
	       "\t\tUsr 0 01:02:05, Sys 1 01:01:01  -  Run Remote Usage\n"
	       "\t\t" CPU0 "  -  Run Local Usage\n"
	       "\t\tUsr 0 01:02:05, Sys 1 01:01:01  -  Total Remote Usage\n"
	       "\t\t" CPU0 "  -  Total Local Usage\n"
	       "\t23  -  Run Bytes Sent By Job\n"
	       "\t113  -  Run Bytes Received By Job\n"
	       "\t23  -  Total Bytes Sent By Job\n"
	       "\t113  -  Total Bytes Received By Job\n"
	       "\tPartitionable Resources :    Usage  Request Allocated \n"
	       "\t   Cpus                 :                 1         1 \n"
	       "\t   Disk (KB)            :   100000   100000   2033496 \n"
	       "\t   Memory (MB)          :        0       98      2001 \n"
	       "...\n");
	classad_free(usage);
	classad_free(job);
}

static void test_terminated_fractions(void **state)
{
	(void)state;
	char text[1024];
	snprintf(text, sizeof(text),
		 "%sCpusUsage = 0.25\nActivationExecutionDuration = 42\n"
		 "ActivationDuration = 50\n",
		 quick_start_job);
	classad *job = ad_old(text);
	classad *usage = ks_userlog_usage_ad(job);
	struct ks_userlog_event ev;
	ev_init(&ev, KS_USERLOG_TERMINATED, 6, 0);
	ev.usage = usage;
	/* A fraction widens the Usage column and pads whole numbers so that
	 * they line up with the decimal points. */
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       "005 (006.000.000) 2026-11-23 10:11:12 Job terminated.\n"
	       "\t(1) Normal termination (return value 0)\n"
	       "\t\t" CPU0 "  -  Run Remote Usage\n"
	       "\t\t" CPU0 "  -  Run Local Usage\n"
	       "\t\t" CPU0 "  -  Total Remote Usage\n"
	       "\t\t" CPU0 "  -  Total Local Usage\n"
	       "\t0  -  Run Bytes Sent By Job\n"
	       "\t0  -  Run Bytes Received By Job\n"
	       "\t0  -  Total Bytes Sent By Job\n"
	       "\t0  -  Total Bytes Received By Job\n"
	       "\tPartitionable Resources :     Usage  Request Allocated \n"
	       "\t   Cpus                 :      0.25        1         1 \n"
	       "\t   Disk (KB)            : 100000      100000   2033496 \n"
	       "\t   Memory (MB)          :      0          98      2001 \n"
	       /* 42, its 3 spaces of padding, then empty columns */
	       "\t   TimeExecute (s)      :     42                       \n"
	       "\t   TimeSlotBusy (s)     :     50                       \n"
	       "...\n");
	classad_free(usage);
	classad_free(job);

	/* Other resources, Assigned and GPUs. */
	job = ad_old("ProvisionedResources = \"Cpus GPUs\"\n"
		     "RequestCpus = 2\nCpusProvisioned = 2\n"
		     "RequestGPUs = 1\nGPUsProvisioned = 1\n"
		     "GPUsAverageUsage = 0.5\nGPUsUsage = 0.75\n"
		     "GPUsMemoryUsage = 300\n"
		     "AssignedGPUs = \"GPU-1234\"\n");
	usage = ks_userlog_usage_ad(job);
	ev.usage = usage;
	char *got = fmt(&ev, KS_USERLOG_DEFAULT_OPTS);
	const char *table = strstr(got, "\tPartitionable");
	assert_non_null(table);
	/* The row takes the first spelling met (GPUs, from the Provisioned
	 * value, shortest name first), so HTCondor's "(Average)" label for
	 * "Gpus" does not apply; GpusMemory does get its "(MB)". */
	assert_string_equal(
		table,
		"\tPartitionable Resources :    Usage  Request Allocated "
		"Assigned\n"
		"\t   Cpus                 :                 2         2 \n"
		"\t   GPUs                 :     0.50        1         1 "
		"\"GPU-1234\"\n"
		"\t   GpusMemory (MB)      :   300                       \n"
		"...\n");
	free(got);
	classad_free(usage);
	classad_free(job);
}

static void test_terminated_abnormal(void **state)
{
	(void)state;
	struct ks_userlog_event ev;
	ev_init(&ev, KS_USERLOG_TERMINATED, 6, 1);
	ev.normal = false;
	ev.signal = 11;
	ev.core_file = "/tmp/core.123";
	const char *rest = "\t\t" CPU0 "  -  Run Remote Usage\n"
			   "\t\t" CPU0 "  -  Run Local Usage\n"
			   "\t\t" CPU0 "  -  Total Remote Usage\n"
			   "\t\t" CPU0 "  -  Total Local Usage\n"
			   "\t0  -  Run Bytes Sent By Job\n"
			   "\t0  -  Run Bytes Received By Job\n"
			   "\t0  -  Total Bytes Sent By Job\n"
			   "\t0  -  Total Bytes Received By Job\n"
			   "...\n";
	char want[2048];
	snprintf(want, sizeof(want),
		 "005 (006.001.000) 2026-11-23 10:11:12 Job terminated.\n"
		 "\t(0) Abnormal termination (signal 11)\n"
		 "\t(1) Corefile in: /tmp/core.123\n%s",
		 rest);
	expect(&ev, KS_USERLOG_DEFAULT_OPTS, want);
	ev.core_file = NULL;
	snprintf(want, sizeof(want),
		 "005 (006.001.000) 2026-11-23 10:11:12 Job terminated.\n"
		 "\t(0) Abnormal termination (signal 11)\n"
		 "\t(0) No core file\n%s",
		 rest);
	expect(&ev, KS_USERLOG_DEFAULT_OPTS, want);
}

static void test_evicted(void **state)
{
	(void)state;
	struct ks_userlog_event ev;
	ev_init(&ev, KS_USERLOG_EVICTED, 7, 0);
	ev.run_remote = (struct ks_userlog_cpu){5, 1};
	ev.reason = "The job was preempted";
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       "004 (007.000.000) 2026-11-23 10:11:12 Job was evicted.\n"
	       "\t(0) CPU times\n"
	       "\t\tUsr 0 00:00:05, Sys 0 00:00:01  -  Run Remote Usage\n"
	       "\t\t" CPU0 "  -  Run Local Usage\n"
	       "\t0  -  Run Bytes Sent By Job\n"
	       "\t0  -  Run Bytes Received By Job\n"
	       "\tReason: The job was preempted\n"
	       "...\n");
	ev.code = 21;
	ev.subcode = 102;
	ev.checkpointed = true;
	ev.reason = NULL;
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       "004 (007.000.000) 2026-11-23 10:11:12 Job was evicted. Code 21 "
	       "Subcode 102\n"
	       "\t(1) Job was checkpointed.\n"
	       "\t\tUsr 0 00:00:05, Sys 0 00:00:01  -  Run Remote Usage\n"
	       "\t\t" CPU0 "  -  Run Local Usage\n"
	       "\t0  -  Run Bytes Sent By Job\n"
	       "\t0  -  Run Bytes Received By Job\n"
	       "...\n");
	ev.code = ev.subcode = 0;
	ev.checkpointed = false;
	ev.requeued = true;
	ev.normal = true;
	ev.return_value = 1;
	ev.sent_bytes = 1e6;
	ev.recvd_bytes = 2.5;
	ev.reason = "Requeued by OnExitRemove";
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       "004 (007.000.000) 2026-11-23 10:11:12 Job was evicted.\n"
	       "\t(0) Job terminated and was requeued\n"
	       "\t\tUsr 0 00:00:05, Sys 0 00:00:01  -  Run Remote Usage\n"
	       "\t\t" CPU0 "  -  Run Local Usage\n"
	       "\t1000000  -  Run Bytes Sent By Job\n"
	       "\t2  -  Run Bytes Received By Job\n"
	       "\t(1) Normal termination (return value 1)\n"
	       "\tRequeued by OnExitRemove\n"
	       "...\n");
}

static void test_small_events(void **state)
{
	(void)state;
	struct ks_userlog_event ev;
#define HDR(n) n " (012.000.000) 2026-11-23 10:11:12 "

	ev_init(&ev, KS_USERLOG_IMAGE_SIZE, 12, 0);
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("006") "Image size of job updated: 0\n"
			  "\t0  -  ResidentSetSize of job (KB)\n...\n");
	ev.image_size_kb = 2500;
	ev.memory_usage_mb = 3;
	ev.rss_kb = 2344;
	ev.pss_kb = 2000;
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("006") "Image size of job updated: 2500\n"
			  "\t3  -  MemoryUsage of job (MB)\n"
			  "\t2344  -  ResidentSetSize of job (KB)\n"
			  "\t2000  -  ProportionalSetSize of job (KB)\n...\n");

	ev_init(&ev, KS_USERLOG_SHADOW_EXCEPTION, 12, 0);
	ev.reason = "Error from slot1@exec: cannot open file";
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("007") "Shadow exception!\n"
			  "\tError from slot1@exec: cannot open file\n"
			  "\t0  -  Run Bytes Sent By Job\n"
			  "\t0  -  Run Bytes Received By Job\n...\n");

	ev_init(&ev, KS_USERLOG_GENERIC, 12, 0);
	ev.info = "hello";
	expect(&ev, KS_USERLOG_DEFAULT_OPTS, HDR("008") "hello\n...\n");

	ev_init(&ev, KS_USERLOG_ABORTED, 12, 0);
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("009") "Job was aborted.\n...\n");
	ev.reason = "via condor_rm (by user alice)";
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("009") "Job was aborted.\n"
			  "\tvia condor_rm (by user alice)\n...\n");

	ev_init(&ev, KS_USERLOG_SUSPENDED, 12, 0);
	ev.num_pids = 1;
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("010") "Job was suspended.\n"
			  "\tNumber of processes actually suspended: 1\n...\n");

	ev_init(&ev, KS_USERLOG_HELD, 12, 0);
	ev.code = 1;
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("012") "Job was held.\n\tReason unspecified\n"
			  "\tCode 1 Subcode 0\n...\n");
	ev.reason = "via condor_hold (by user alice)";
	ev.code = 13;
	ev.subcode = 2;
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("012") "Job was held.\n\tvia condor_hold (by user alice)\n"
			  "\tCode 13 Subcode 2\n...\n");

	ev_init(&ev, KS_USERLOG_RELEASED, 12, 0);
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("013") "Job was released.\n...\n");
	ev.reason = "via condor_release (by user alice)";
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("013") "Job was released.\n"
			  "\tvia condor_release (by user alice)\n...\n");

	ev_init(&ev, KS_USERLOG_DISCONNECTED, 12, 0);
	ev.reason = "Socket between submit and execute hosts closed "
		    "unexpectedly";
	ev.startd_name = "slot1_1@exec";
	ev.startd_addr = STARTD;
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("022") "Job disconnected, attempting to reconnect\n"
			  "    Socket between submit and execute hosts closed "
			  "unexpectedly\n"
			  "    Trying to reconnect to slot1_1@exec " STARTD
			  "\n...\n");

	ev_init(&ev, KS_USERLOG_RECONNECTED, 12, 0);
	ev.startd_name = "slot1_1@exec";
	ev.startd_addr = STARTD;
	ev.starter_addr = "<10.0.0.5:40000>";
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("023") "Job reconnected to slot1_1@exec\n"
			  "    startd address: " STARTD "\n"
			  "    starter address: <10.0.0.5:40000>\n...\n");

	ev_init(&ev, KS_USERLOG_RECONNECT_FAILED, 12, 0);
	ev.startd_name = "slot1_1@exec";
	ev.reason = "Job lease expired";
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("024") "Job reconnection failed\n"
			  "    Job lease expired\n"
			  "    Can not reconnect to slot1_1@exec, rescheduling "
			  "job\n...\n");

	ev_init(&ev, KS_USERLOG_ATTRIBUTE_UPDATE, 12, 0);
	ev.attr_name = "JobStatus";
	ev.attr_value = "2";
	ev.attr_old_value = "1";
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("033") "Changing job attribute JobStatus from 1 to 2\n...\n");
	ev.attr_old_value = NULL;
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("033") "Setting job attribute JobStatus to 2\n...\n");

	ev_init(&ev, KS_USERLOG_CLUSTER_SUBMIT, 12, -1);
	ev.proc = 0;
	ev.submit_host = SCHEDD;
	ev.notes = "n";
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("035") "Cluster submitted from host: " SCHEDD
			  "\n    n\n...\n");

	ev_init(&ev, KS_USERLOG_CLUSTER_REMOVE, 12, 0);
	ev.next_proc_id = 10;
	ev.next_row = 10;
	ev.completion = KS_USERLOG_CLUSTER_COMPLETE;
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("036") "Cluster removed\n"
			  "\tMaterialized 10 jobs from 10 items.\tComplete\n"
			  "...\n");
	ev.completion = KS_USERLOG_CLUSTER_ERROR;
	ev.notes = "bad item data";
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("036") "Cluster removed\n"
			  "\tMaterialized 10 jobs from 10 items.\tError -1\n"
			  "\tbad item data\n...\n");

	ev_init(&ev, KS_USERLOG_FILE_TRANSFER, 12, 0);
	ev.xfer = KS_USERLOG_XFER_IN_STARTED;
	ev.xfer_host = STARTD;
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("040") "Started transferring input files\n"
			  "\tTransferring to host: " STARTD "\n...\n");
	ev.xfer = KS_USERLOG_XFER_OUT_QUEUED;
	ev.xfer_host = NULL;
	ev.queueing_delay = 3;
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       HDR("040") "Entered queue to transfer output files\n"
			  "\tSeconds spent in queue: 3\n...\n");
#undef HDR
}

static void test_job_ad_info(void **state)
{
	(void)state;
	struct ks_userlog_event held;
	ev_init(&held, KS_USERLOG_HELD, 12, 0);
	held.reason = "via condor_hold";
	held.code = 1;
	classad *job = ad_old("Owner = \"alice\"\n"
			      "QDate = 1790000000\n"
			      "ClaimId = \"secret\"\n"
			      "Args = undefined\n"
			      "JobAdInformationAttrs = \"Owner QDate ClaimId "
			      "Args\"\n");
	classad *info = ks_userlog_info_ad(&held, job,
					   "Owner QDate ClaimId Args", false);
	struct ks_userlog_event ev;
	ev_init(&ev, KS_USERLOG_JOB_AD_INFO, 12, 0);
	ev.info_ad = info;
	/* Sorted byte-wise, private attributes (ClaimId) left out, MyType
	 * that of the triggering event. */
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       "028 (012.000.000) 2026-11-23 10:11:12 Job ad information "
	       "event triggered.\n"
	       "Cluster = 12\n"
	       "EventTime = \"2026-11-23T10:11:12\"\n"
	       "EventTypeNumber = 28\n"
	       "HoldReason = \"via condor_hold\"\n"
	       "HoldReasonCode = 1\n"
	       "HoldReasonSubCode = 0\n"
	       "MyType = \"JobHeldEvent\"\n"
	       "Owner = \"alice\"\n"
	       "Proc = 0\n"
	       "QDate = 1790000000\n"
	       "Subproc = 0\n"
	       "TriggerEventTypeName = \"ULOG_JOB_HELD\"\n"
	       "TriggerEventTypeNumber = 12\n"
	       "...\n");
	classad_free(info);
	classad_free(job);

	/* The event ad's names, as HTCondor's toClassAd() gives them. */
	struct ks_userlog_event t;
	ev_init(&t, KS_USERLOG_TERMINATED, 3, 1);
	t.usec = 500000;
	t.run_remote = (struct ks_userlog_cpu){61, 0};
	classad *ad = ks_userlog_event_ad(&t, true);
	char *s = NULL;
	assert_true(classad_eval_string(ad, "RunRemoteUsage", NULL, &s));
	assert_string_equal(s, "Usr 0 00:01:01, Sys 0 00:00:00");
	free(s);
	assert_true(classad_eval_string(ad, "EventTime", NULL, &s));
	assert_string_equal(s, "2026-11-23T10:11:12.500Z");
	free(s);
	assert_true(classad_eval_string(ad, "MyType", NULL, &s));
	assert_string_equal(s, "JobTerminatedEvent");
	free(s);
	int64_t i;
	assert_true(classad_eval_int(ad, "ReturnValue", NULL, &i));
	assert_int_equal(i, 0);
	assert_false(classad_eval_int(ad, "TerminatedBySignal", NULL, &i));
	classad_free(ad);
}

static void test_text_is_kept_on_one_line(void **state)
{
	(void)state;
	struct ks_userlog_event ev;
	ev_init(&ev, KS_USERLOG_HELD, 1, 0);
	ev.reason = "line one\r\n...\nline three";
	expect(&ev, KS_USERLOG_DEFAULT_OPTS,
	       "012 (001.000.000) 2026-11-23 10:11:12 Job was held.\n"
	       "\tline one |...|line three\n"
	       "\tCode 0 Subcode 0\n...\n");
	/* Notes are cut where HTCondor cuts them. */
	char *big = malloc(10000);
	memset(big, 'x', 9999);
	big[9999] = '\0';
	ev_init(&ev, KS_USERLOG_SUBMIT, 1, 0);
	ev.notes = big;
	char *got = fmt(&ev, KS_USERLOG_DEFAULT_OPTS);
	char *line = strstr(got, "\n    x");
	assert_non_null(line);
	assert_int_equal(strcspn(line + 5, "\n"), 8191);
	free(got);
	free(big);
}

static void test_bad_events(void **state)
{
	(void)state;
	struct ks_userlog_event ev;
	struct ks_err err = {0};
	char *out = (char *)"x";
	ev_init(&ev, (enum ks_userlog_type)3, 1, 0);
	assert_int_equal(ks_userlog_format(&ev, 0, &out, NULL, &err),
			 KS_EINVAL);
	assert_null(out);
	assert_non_null(strstr(err.msg, "unknown job event type 3"));

	ev_init(&ev, KS_USERLOG_DISCONNECTED, 1, 0);
	ev.reason = "x";
	assert_int_equal(ks_userlog_format(&ev, 0, &out, NULL, &err),
			 KS_EINVAL);
	assert_non_null(strstr(err.msg, "startd"));

	ev_init(&ev, KS_USERLOG_JOB_AD_INFO, 1, 0);
	assert_int_equal(ks_userlog_format(&ev, 0, &out, NULL, &err),
			 KS_EINVAL);
	classad *only_private = ad_old("ClaimId = \"x\"\n");
	ev.info_ad = only_private;
	assert_int_equal(ks_userlog_format(&ev, 0, &out, NULL, &err),
			 KS_EINVAL);
	classad_free(only_private);

	ev_init(&ev, KS_USERLOG_FILE_TRANSFER, 1, 0);
	assert_int_equal(ks_userlog_format(&ev, 0, &out, NULL, &err),
			 KS_EINVAL);
}

/* ---- an independent reader, after HTCondor's ------------------------ */

struct read_event {
	int type, cluster, proc, subproc;
	int64_t time;
	char **lines; /* body lines without "\n"; [0] is the header's rest */
	size_t nlines;
};

static void free_events(struct read_event *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < v[i].nlines; j++)
			free(v[i].lines[j]);
		free(v[i].lines);
	}
	free(v);
}

/* ULogEvent::readHeader: "NNN (c.p.s) " then an ISO "YYYY-MM-DD
 * HH:MM:SS[.mmm][Z]" or legacy "MM/DD HH:MM:SS" date, then a space. */
static const char *read_header(const char *line, struct read_event *e)
{
	if (strlen(line) < 4 || line[3] != ' ')
		return NULL;
	for (int i = 0; i < 3; i++)
		if (line[i] < '0' || line[i] > '9')
			return NULL;
	e->type = atoi(line);
	const char *p = line + 3;
	if (p[0] != ' ' || p[1] != '(')
		return NULL;
	char *end;
	e->cluster = (int)strtol(p + 2, &end, 10);
	if (*end != '.')
		return NULL;
	e->proc = (int)strtol(end + 1, &end, 10);
	if (*end != '.')
		return NULL;
	e->subproc = (int)strtol(end + 1, &end, 10);
	if (end[0] != ')' || end[1] != ' ')
		return NULL;
	p = end + 2;
	struct tm tm = {0};
	int used = 0;
	if (p[2] == '/') {
		if (sscanf(p, "%2d/%2d %2d:%2d:%2d%n", &tm.tm_mon, &tm.tm_mday,
			   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &used) != 5)
			return NULL;
		tm.tm_year = 2026;
	} else if (sscanf(p, "%4d-%2d-%2d %2d:%2d:%2d%n", &tm.tm_year,
			  &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
			  &tm.tm_sec, &used) != 6) {
		return NULL;
	}
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	const char *rest = p + used;
	if (*rest == '.')
		rest += 4;
	if (*rest == 'Z')
		rest++;
	if (*rest != ' ')
		return NULL;
	e->time = (int64_t)timegm(&tm);
	return rest + 1;
}

/* Splits a log into events: a header line, body lines, and "..." alone
 * on a line to end each. */
static struct read_event *read_log(const char *text, size_t *n)
{
	struct read_event *v = NULL;
	*n = 0;
	const char *p = text;
	struct read_event *cur = NULL;
	while (*p) {
		const char *nl = strchr(p, '\n');
		assert_non_null(nl); /* every line is complete */
		char *line = strndup(p, (size_t)(nl - p));
		p = nl + 1;
		if (!cur) {
			v = realloc(v, (*n + 1) * sizeof(*v));
			cur = &v[(*n)++];
			memset(cur, 0, sizeof(*cur));
			const char *rest = read_header(line, cur);
			if (!rest)
				fail_msg("bad header line '%s'", line);
			char *r = strdup(rest);
			free(line);
			line = r;
		} else if (strcmp(line, "...") == 0) {
			free(line);
			cur = NULL;
			continue;
		}
		cur->lines = realloc(cur->lines,
				     (cur->nlines + 1) * sizeof(char *));
		cur->lines[cur->nlines++] = line;
	}
	assert_null(cur); /* the last event was ended */
	return v;
}

/* TerminatedEvent::readEventBody's patterns, applied to our 005. */
static void check_terminated(const struct read_event *e, int want_ret,
			     double want_sent, const char *want_mem_row)
{
	int normal, ret, d1, h1, m1, s1, d2, h2, m2, s2;
	char buf[128];
	assert_string_equal(e->lines[0], "Job terminated.");
	assert_int_equal(sscanf(e->lines[1], "\t(%d) %127[^\r\n]", &normal,
				buf),
			 2);
	assert_int_equal(normal, 1);
	assert_int_equal(sscanf(buf, "Normal termination (return value %d)",
				&ret),
			 1);
	assert_int_equal(ret, want_ret);
	for (int i = 2; i < 6; i++)
		assert_int_equal(sscanf(e->lines[i],
					"\tUsr %d %d:%d:%d, Sys %d %d:%d:%d",
					&d1, &h1, &m1, &s1, &d2, &h2, &m2, &s2),
				 8);
	float val;
	char srun[6], sdir[9], sjob[22];
	assert_int_equal(sscanf(e->lines[6], "\t%f  -  %5s Bytes %8s By %21s",
				&val, srun, sdir, sjob),
			 4);
	assert_string_equal(srun, "Run");
	assert_string_equal(sdir, "Sent");
	assert_string_equal(sjob, "Job");
	assert_true(val == (float)want_sent);
	/* UsageLineParser: column edges from the banner's words. */
	size_t i = 10;
	assert_true(strncmp(e->lines[i], "\tPartitionable ", 15) == 0);
	const char *tbl = strchr(e->lines[i], ':') + 1;
	const char *q = tbl;
	while (*q == ' ')
		q++;
	while (*q && *q != ' ')
		q++;
	int ix_use = (int)(q - tbl) + 1;
	while (*q == ' ')
		q++;
	while (*q && *q != ' ')
		q++;
	int ix_req = (int)(q - tbl) + 1;
	int ix_alloc = (int)(strstr(q, "Allocated") - tbl) + 9;
	for (i = 11; i < e->nlines; i++) {
		const char *row = e->lines[i];
		if (!strstr(row, "Memory"))
			continue;
		const char *t = strchr(row, ':') + 1;
		char use[64], req[64], alloc[64];
		snprintf(use, sizeof(use), "%.*s", ix_use, t);
		snprintf(req, sizeof(req), "%.*s", ix_req - ix_use, t + ix_use);
		snprintf(alloc, sizeof(alloc), "%.*s", ix_alloc - ix_req,
			 t + ix_req);
		char got[200];
		snprintf(got, sizeof(got), "%d|%d|%d", atoi(use), atoi(req),
			 atoi(alloc));
		assert_string_equal(got, want_mem_row);
		return;
	}
	fail_msg("no Memory row");
}

static void test_round_trip(void **state)
{
	(void)state;
	classad *job = ad_old(quick_start_job);
	classad *usage = ks_userlog_usage_ad(job);
	struct ks_userlog_event evs[6];
	ev_init(&evs[0], KS_USERLOG_SUBMIT, 42, 0);
	evs[0].submit_host = SCHEDD;
	evs[0].notes = "DAG Node: A";
	ev_init(&evs[1], KS_USERLOG_EXECUTE, 42, 0);
	evs[1].execute_host = STARTD;
	evs[1].slot_name = "slot1_1@exec";
	ev_init(&evs[2], KS_USERLOG_IMAGE_SIZE, 42, 0);
	evs[2].image_size_kb = 100000;
	ev_init(&evs[3], KS_USERLOG_HELD, 42, 0);
	evs[3].reason = "multi\nline";
	evs[3].code = 21;
	evs[3].subcode = 7;
	ev_init(&evs[4], KS_USERLOG_EVICTED, 42, 0);
	evs[4].requeued = true;
	evs[4].normal = false;
	evs[4].signal = 9;
	evs[4].reason = "killed";
	evs[4].usage = usage;
	ev_init(&evs[5], KS_USERLOG_TERMINATED, 42, 0);
	evs[5].return_value = 3;
	evs[5].sent_bytes = 23;
	evs[5].usage = usage;

	unsigned optsets[] = {KS_USERLOG_ISO_DATE, 0,
			      KS_USERLOG_ISO_DATE | KS_USERLOG_UTC |
				      KS_USERLOG_SUB_SECOND};
	for (size_t o = 0; o < 3; o++) {
		char *all = NULL;
		size_t total = 0;
		for (size_t i = 0; i < 6; i++) {
			char *t = fmt(&evs[i], optsets[o]);
			size_t n = strlen(t);
			all = realloc(all, total + n + 1);
			memcpy(all + total, t, n + 1);
			total += n;
			free(t);
		}
		size_t n;
		struct read_event *r = read_log(all, &n);
		assert_int_equal(n, 6);
		for (size_t i = 0; i < 6; i++) {
			assert_int_equal(r[i].type, (int)evs[i].type);
			assert_int_equal(r[i].cluster, 42);
			assert_int_equal(r[i].proc, 0);
			assert_int_equal(r[i].subproc, 0);
			assert_int_equal(r[i].time, when());
		}
		/* SubmitEvent: read_line_value("Job submitted from host: ") */
		assert_string_equal(r[0].lines[0],
				    "Job submitted from host: " SCHEDD);
		assert_string_equal(r[0].lines[1], "    DAG Node: A");
		/* ExecuteEvent: "\tSlotName:" then trimmed. */
		assert_true(strncmp(r[1].lines[1], "\tSlotName:", 10) == 0);
		/* JobImageSizeEvent */
		long long size;
		assert_int_equal(sscanf(r[2].lines[0],
					"Image size of job updated: %lld",
					&size),
				 1);
		assert_int_equal(size, 100000);
		/* JobHeldEvent */
		int code, sub;
		assert_string_equal(r[3].lines[0], "Job was held.");
		assert_string_equal(r[3].lines[1], "\tmulti|line");
		assert_int_equal(sscanf(r[3].lines[2], "\tCode %d Subcode %d",
					&code, &sub),
				 2);
		assert_int_equal(code, 21);
		assert_int_equal(sub, 7);
		/* JobEvictedEvent */
		int ckpt, sig;
		char buf[128];
		assert_true(strncmp(r[4].lines[0], "Job was evicted.", 16) ==
			    0);
		assert_int_equal(sscanf(r[4].lines[1], "\t(%d) %127[a-zA-z ]",
					&ckpt, buf),
				 2);
		assert_true(strncmp(buf, "Job terminated and was requeued",
				    31) == 0);
		assert_int_equal(sscanf(r[4].lines[6], "\t(%d) %127[^\r\n]",
					&ckpt, buf),
				 2);
		assert_int_equal(sscanf(buf, "Abnormal termination (signal %d)",
					&sig),
				 1);
		assert_int_equal(sig, 9);
		assert_string_equal(r[4].lines[7], "\t(0) No core file");
		assert_string_equal(r[4].lines[8], "\tkilled");
		assert_true(strncmp(r[4].lines[9], "\tPartitionable Resources",
				    24) == 0);
		check_terminated(&r[5], 3, 23, "0|98|2001");
		free_events(r, n);
		free(all);
	}
	classad_free(usage);
	classad_free(job);
}

/* ---- files ---------------------------------------------------------- */

struct fixture {
	char dir[256];
};

static int setup_dir(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	if (!fx || tmp_dir_make("ksulog", fx->dir, sizeof(fx->dir))) {
		free(fx);
		return -1;
	}
	*state = fx;
	return 0;
}

static int teardown_dir(void **state)
{
	struct fixture *fx = *state;
	tmp_dir_remove(fx->dir);
	free(fx);
	return 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (len + n + 1 > cap) {
			cap = (len + n + 1) * 2;
			buf = realloc(buf, cap);
		}
		memcpy(buf + len, chunk, n);
		len += n;
	}
	fclose(f);
	if (!buf)
		buf = calloc(1, 1);
	buf[len] = '\0';
	return buf;
}

static void test_append(void **state)
{
	struct fixture *fx = *state;
	char path[512];
	snprintf(path, sizeof(path), "%s/sub/dir/job.log", fx->dir);
	mode_t old = umask(022);
	struct ks_userlog_event ev;
	struct ks_err err = {0};
	ev_init(&ev, KS_USERLOG_SUBMIT, 5, 0);
	ev.submit_host = SCHEDD;
	assert_int_equal(ks_userlog_append(path, &ev, KS_USERLOG_DEFAULT_OPTS,
					   &err),
			 0);
	ev_init(&ev, KS_USERLOG_ABORTED, 5, 0);
	assert_int_equal(ks_userlog_append(path, &ev,
					   KS_USERLOG_DEFAULT_OPTS |
						   KS_USERLOG_FSYNC,
					   &err),
			 0);
	umask(old);
	char *got = slurp(path);
	assert_string_equal(got, "000 (005.000.000) 2026-11-23 10:11:12 Job "
				 "submitted from host: " SCHEDD "\n...\n"
				 "009 (005.000.000) 2026-11-23 10:11:12 Job "
				 "was aborted.\n...\n");
	free(got);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644); /* 0664 less the umask */

	assert_int_equal(ks_userlog_append("/dev/null", &ev, 0, &err), 0);

	/* A directory where the file should be: an error, not a crash. */
	snprintf(path, sizeof(path), "%s/sub", fx->dir);
	assert_int_equal(ks_userlog_append(path, &ev, 0, &err), KS_EIO);
	assert_non_null(strstr(err.msg, path));
	/* A bad event writes nothing. */
	ev.type = (enum ks_userlog_type)99;
	snprintf(path, sizeof(path), "%s/bad.log", fx->dir);
	assert_int_equal(ks_userlog_append(path, &ev, 0, &err), KS_EINVAL);
	assert_int_equal(access(path, F_OK), -1);
}

/* Writers in several processes at once: every event lands whole. */
static void test_concurrent_writers(void **state)
{
	struct fixture *fx = *state;
	char path[512];
	snprintf(path, sizeof(path), "%s/shared.log", fx->dir);
	enum { WRITERS = 6, EACH = 150 };
	char reason[3000];
	memset(reason, 'r', sizeof(reason) - 1);
	reason[sizeof(reason) - 1] = '\0';
	for (int w = 0; w < WRITERS; w++) {
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			for (int i = 0; i < EACH; i++) {
				struct ks_userlog_event ev;
				ks_userlog_event_init(&ev, KS_USERLOG_HELD, w,
						      i);
				ev.reason = reason;
				if (ks_userlog_append(path, &ev,
						      KS_USERLOG_DEFAULT_OPTS,
						      NULL) != 0)
					_exit(1);
			}
			_exit(0);
		}
	}
	for (int w = 0; w < WRITERS; w++) {
		int status;
		assert_true(wait(&status) > 0);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	char *text = slurp(path);
	size_t n;
	struct read_event *r = read_log(text, &n);
	assert_int_equal(n, WRITERS * EACH);
	int seen[WRITERS] = {0};
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(r[i].type, 12);
		assert_int_equal(r[i].nlines, 3);
		assert_int_equal(strlen(r[i].lines[1]), 1 + strlen(reason));
		/* Each writer's events stay in its own order. */
		assert_int_equal(r[i].proc, seen[r[i].cluster]++);
	}
	free_events(r, n);
	free(text);
}

static void test_global_log(void **state)
{
	struct fixture *fx = *state;
	char path[512], old[600];
	snprintf(path, sizeof(path), "%s/EventLog", fx->dir);
	snprintf(old, sizeof(old), "%s.old", path);
	struct ks_userlog_global g = {
		.path = path,
		.creator_name = "schedd@ap",
		.opts = KS_USERLOG_GLOBAL_DEFAULT_OPTS,
		.max_size = 1000,
		.max_rotations = 1,
	};
	struct ks_userlog_event ev;
	struct ks_err err = {0};
	ev_init(&ev, KS_USERLOG_SUBMIT, 1, 0);
	ev.submit_host = SCHEDD;
	assert_int_equal(ks_userlog_append_global(&g, &ev, &err), 0);
	assert_int_equal(ks_userlog_append_global(&g, &ev, &err), 0);
	char *text = slurp(path);
	size_t n;
	struct read_event *r = read_log(text, &n);
	assert_int_equal(n, 3);
	assert_int_equal(r[0].type, 8);
	assert_int_equal(r[0].cluster, -1);
	assert_true(strstr(text, "008 (-01.-01.-01) ") == text);
	/* Legacy date by default in the global log. */
	assert_true(strstr(text, "000 (001.000.000) 11/23 10:11:12 Job") !=
		    NULL);
	const char *info = r[0].lines[0];
	assert_int_equal(strlen(info), 256);
	assert_true(strncmp(info, "Global JobLog: ctime=", 21) == 0);
	assert_non_null(strstr(info, " id=schedd@ap."));
	assert_non_null(strstr(info, " sequence=1 size=0 events=0 offset=0 "
				     "event_off=0 max_rotation=1 "
				     "creator_name=<schedd@ap>"));
	free_events(r, n);
	size_t first_size = strlen(text);
	free(text);

	/* Past max_size: rotated to EventLog.old, a new header follows. */
	for (int i = 0; i < 20; i++)
		assert_int_equal(ks_userlog_append_global(&g, &ev, &err), 0);
	text = slurp(old);
	assert_non_null(text);
	assert_true(strlen(text) > 1000);
	assert_true(strlen(text) > first_size);
	size_t old_size = strlen(text);
	free(text);
	text = slurp(path);
	r = read_log(text, &n);
	assert_int_equal(r[0].type, 8);
	char want[128];
	snprintf(want, sizeof(want), " sequence=2 size=0 events=0 offset=%zu ",
		 old_size);
	assert_non_null(strstr(r[0].lines[0], want));
	assert_true(n >= 2);
	free_events(r, n);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_iso),
		cmocka_unit_test(test_header_dates),
		cmocka_unit_test(test_parse_opts),
		cmocka_unit_test(test_submit_notes),
		cmocka_unit_test(test_execute),
		cmocka_unit_test(test_terminated_normal),
		cmocka_unit_test(test_terminated_fractions),
		cmocka_unit_test(test_terminated_abnormal),
		cmocka_unit_test(test_evicted),
		cmocka_unit_test(test_small_events),
		cmocka_unit_test(test_job_ad_info),
		cmocka_unit_test(test_text_is_kept_on_one_line),
		cmocka_unit_test(test_bad_events),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test_setup_teardown(test_append, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_concurrent_writers,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_global_log, setup_dir,
						teardown_dir),
	};
	return cmocka_run_group_tests(tests, group_setup, NULL);
}
