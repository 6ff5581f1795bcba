/*
 * templates.c: the templates of "use CATEGORY : Name" (ROLE, POLICY,
 * FEATURE, SECURITY) with HTCondor 25's definitions, taken over from its
 * parameter table (src/condor_utils/param_info.in) so that a pool set up
 * by template reads the same in both.  The descriptions are kestrel's own.
 *
 * A body holds the template's lines without the comment and blank lines
 * and without leading blanks: HTCondor's reader drops those as it reads
 * a template, even inside @= blocks, so the values come out the same.
 * Ordered like HTCondor's tables, by category and then name, ignoring
 * case, which is the order a listing of templates shows.
 */
#include <string.h>

#include "templates.h"
#include "ks_name.h"

const struct ks_template ks_templates[] = {
	{"FEATURE", "ADSTASH",
	 "ADSTASH_SCHEDD_HISTORY=True\n"
	 "DAEMON_LIST=$(DAEMON_LIST) ADSTASH",
	 "runs condor_adstash to copy schedd history into a local Elasticsearch"},
	{"FEATURE", "AssignAccountingGroup",
	 "if ! $(1?)\n"
	 "error : use FEATURE : AssignAccountingGroup requires a map_file argument\n"
	 "endif\n"
	 "use FEATURE : ScheddUsermapFile(AssignAccountingGroup, $(1))\n"
	 "JOB_TRANSFORM_NAMES = $(JOB_TRANSFORM_NAMES) AssignAccountingGroup\n"
	 "JOB_TRANSFORM_AssignAccountingGroup @=end\n"
	 "COPY Owner = AcctGroupUser\n"
	 "COPY AcctGroup = RequestedAcctGroup\n"
	 "EVALSET AcctGroup = usermap(\"AssignAccountingGroup\",AcctGroupUser,AcctGroup)\n"
	 "EVALSET AccountingGroup = join(\".\",AcctGroup,AcctGroupUser)\n"
	 "@end\n"
	 "IMMUTABLE_JOB_ATTRS = $(IMMUTABLE_JOB_ATTRS) AcctGroup AcctGroupUser AccountingGroup\n"
	 "if $(2:True)\n"
	 "SUBMIT_REQUIREMENT_NAMES = $(SUBMIT_REQUIREMENT_NAMES) CheckRequestedGroup\n"
	 "SUBMIT_REQUIREMENT_CheckRequestedGroup = RequestedAcctGroup is undefined || RequestedAcctGroup == AcctGroup\n"
	 "SUBMIT_REQUIREMENT_CheckRequestedGroup_REASON = strcat(\"Permission denied setting accounting_group to \", RequestedAcctGroup)\n"
	 "endif\n"
	 "SUBMIT_REQUIREMENT_NAMES = $(SUBMIT_REQUIREMENT_NAMES) AssignAccountingGroup\n"
	 "SUBMIT_REQUIREMENT_AssignAccountingGroup = AcctGroup isnt undefined && AccountingGroup isnt undefined\n"
	 "SUBMIT_REQUIREMENT_AssignAccountingGroup_REASON = strcat(\"Submit requirement AssignAccountingGroup not met - Could not map '\", Owner, \"' to an accounting group \", RequestedAcctGroup)",
	 "has the schedd set each job's accounting group from a map of owners; args: map file"},
	{"FEATURE", "AssignProjectName",
	 "if ! $(1?)\n"
	 "error : use FEATURE : AssignProjectName requires a map_name argument\n"
	 "endif\n"
	 "use FEATURE : SetJobAttrFromUsermap(ProjectName, Owner, $(1+))",
	 "has the schedd set each job's ProjectName from a map of owners; args: map name, file"},
	{"FEATURE", "ChildCollector",
	 "COLLECTOR$(1)=$(COLLECTOR)\n"
	 "if $(2?)\n"
	 "COLLECTOR$(1)_ARGS= -p $(2)\n"
	 "else\n"
	 "COLLECTOR$(1)_ARGS= -sock collector$(1)\n"
	 "endif\n"
	 "COLLECTOR$(1).COLLECTOR_NAME=Collector$(1)\n"
	 "COLLECTOR$(1).CONDOR_VIEW_HOST=$(TOP_COLLECTOR_HOST)\n"
	 "COLLECTOR$(1).CCB_RECONNECT_FILE=$(SPOOL)/Collector$(1).ccb_reconnect\n"
	 "DAEMON_LIST=$(DAEMON_LIST) COLLECTOR$(1)\n"
	 "TOP_COLLECTOR_HOST=$(COLLECTOR_HOST)",
	 "runs one more collector that forwards to the main one; args: number, port"},
	{"FEATURE", "CommonCloudAttributesAWS",
	 "use FEATURE : StartdCronOneShot(cloud, $(LIBEXEC)/common-cloud-attributes-aws.py, $(0))\n"
	 "STARTD_CRON_cloud_PREFIX = Cloud",
	 "publishes the AWS instance's attributes in the slot ads"},
	{"FEATURE", "CommonCloudAttributesGoogle",
	 "use FEATURE : StartdCronOneShot(cloud, $(LIBEXEC)/common-cloud-attributes-google.py, $(0))\n"
	 "STARTD_CRON_cloud_PREFIX = Cloud",
	 "publishes the Google Cloud instance's attributes in the slot ads"},
	{"FEATURE", "ContinuousCronHook",
	 "if ! $(3?)\n"
	 "error : use FEATURE : ContinuousCronHook requires at least 3 arguments: STARTD_CRON | SCHEDD_CRON, tag, hook_exe [,hook_args]\n"
	 "endif\n"
	 "$(1)_JOBLIST=$($(1)_JOBLIST) $(2)\n"
	 "$(1)_$(2)_MODE=WaitForExit\n"
	 "$(1)_$(2)_PERIOD=0\n"
	 "$(1)_$(2)_EXECUTABLE=$(3)\n"
	 "if $(4?)\n"
	 "$(1)_$(2)_ARGS=$(4)\n"
	 "endif",
	 "keeps a startd or schedd cron script running; args: cron, tag, program"},
	{"FEATURE", "DefaultCheckpointDestination",
	 "if ! defined DEFAULT_CHECKPOINT_DESTINATION\n"
	 "if defined DEFAULT_CHECKPOINT_DESTINATION_PREFIX\n"
	 "DEFAULT_CHECKPOINT_DESTINATION = \"$(DEFAULT_CHECKPOINT_DESTINATION_PREFIX)/$(MY.Owner)\"\n"
	 "else\n"
	 "warning: You must set DEFAULT_CHECKPOINT_DESTINATION_PREFIX or DEFAULT_CHECKPOINT_DESTINATION to use feature:DefaultCheckpointDestination.\n"
	 "endif\n"
	 "endif\n"
	 "if defined DEFAULT_CHECKPOINT_DESTINATION\n"
	 "EXTENDED_SUBMIT_COMMANDS @=end\n"
	 "checkpoint_storage = \"'default' or 'spool' or a checkpoint_destination\"\n"
	 "$(EXTENDED_SUBMIT_COMMANDS)\n"
	 "@end\n"
	 "JOB_TRANSFORM_CheckpointStorage @=end\n"
	 "REQUIREMENTS (MY.CheckpointDestination =?= undefined) && (MY.SuccessCheckpointExitCode =!= undefined)\n"
	 "ShouldSetCheckpointDestination = TRUE\n"
	 "SetCheckpointDestination = $(DEFAULT_CHECKPOINT_DESTINATION)\n"
	 "if defined MY.checkpoint_storage\n"
	 "EVALMACRO IsSpool (checkpoint_storage == \"spool\")\n"
	 "EVALMACRO IsDefault (checkpoint_storage == \"default\")\n"
	 "if $(IsSpool)\n"
	 "ShouldSetCheckpointDestination = FALSE\n"
	 "elif ! $(IsDefault)\n"
	 "SetCheckpointDestination = checkpoint_storage\n"
	 "endif\n"
	 "endif\n"
	 "if $(ShouldSetCheckpointDestination)\n"
	 "EVALSET CheckpointDestination $(SetCheckpointDestination)\n"
	 "endif\n"
	 "@end\n"
	 "JOB_TRANSFORM_NAMES = CheckpointStorage $(JOB_TRANSFORM_NAMES)\n"
	 "endif",
	 "gives checkpointing jobs a default destination other than the spool"},
	{"FEATURE", "GANGLIA",
	 "DAEMON_LIST=$(DAEMON_LIST) GANGLIAD",
	 "adds condor_gangliad to DAEMON_LIST, to report to Ganglia"},
	{"FEATURE", "GPUs",
	 "MACHINE_RESOURCE_INVENTORY_GPUs=$(LIBEXEC)/condor_gpu_discovery $(1) -properties $(GPU_DISCOVERY_EXTRA)\n"
	 "ENVIRONMENT_FOR_AssignedGPUs=GPU_DEVICE_ORDINAL=/(CUDA|OCL)//  CUDA_VISIBLE_DEVICES=/CUDA//\n"
	 "ENVIRONMENT_VALUE_FOR_UnAssignedGPUs=10000\n"
	 "use feature : GPUsMonitor",
	 "finds the machine's GPUs and offers them to jobs as a custom resource"},
	{"FEATURE", "GPUsMonitor",
	 "use feature : Monitor( GPUs, WaitForExit, 300, $(GPU_MONITOR), SUM:GPUs, PEAK:GPUsMemory )\n"
	 "STARTD_CRON_GPUs_MONITOR_CONDITION = TotalGPUs > 0 && OpSys =!= \"WINDOWS\"\n"
	 "STARTD_JOB_ATTRS = $(STARTD_JOB_ATTRS) GPUsUsage GPUsMemoryUsage",
	 "measures each job's GPU use and memory through a startd cron job"},
	{"FEATURE", "HPC_ANNEX",
	 "HPC_ANNEX_ENABLED = true\n"
	 "ispersonal = \"127.0.0.1:0\"==\"$(COLLECTOR_HOST)\"\n"
	 "if $INT(ispersonal)\n"
	 "COLLECTOR_HOST = $(FULL_HOSTNAME):$(COLLECTOR_PORT)\n"
	 "endif\n"
	 "ispersonal = \"$(FULL_HOSTNAME):0\"==\"$(COLLECTOR_HOST)\"\n"
	 "if $INT(ispersonal)\n"
	 "COLLECTOR_HOST = $(FULL_HOSTNAME):$(COLLECTOR_PORT)\n"
	 "endif\n"
	 "AP_COLLECTOR = $(COLLECTOR)\n"
	 "AP_COLLECTOR.COLLECTOR_LOG = $(LOG)/AP_Collector.log\n"
	 "AP_COLLECTOR.CCB_RECONNECT_FILE = $(SPOOL)/AP_Collector.ccb_reconnect\n"
	 "DAEMON_LIST = $(DAEMON_LIST) AP_COLLECTOR\n"
	 "AP_COLLECTOR_ARGS = -f -local-name AP_COLLECTOR -sock ap_collector\n"
	 "ANNEX_COLLECTOR = $(TCP_FORWARDING_HOST:$(FULL_HOSTNAME)):$(SHARED_PORT_PORT)?sock=ap_collector\n"
	 "AP_COLLECTOR.ALLOW_ADVERTISE_STARTD = $(ALLOW_ADVERTISE_STARTD) $(ALLOW_WRITE)\n"
	 "AP_COLLECTOR.ALLOW_ADVERTISE_MASTER = $(ALLOW_ADVERTISE_MASTER) $(ALLOW_WRITE)\n"
	 "if defined COLLECTOR_HOST\n"
	 "SCHEDD.COLLECTOR_HOST = $(COLLECTOR_HOST) $(ANNEX_COLLECTOR)\n"
	 "else\n"
	 "SCHEDD.COLLECTOR_HOST = $(ANNEX_COLLECTOR)\n"
	 "endif\n"
	 "ANNEX_TOKEN_KEY_NAME = $(SEC_TOKEN_AP_SIGNING_KEY_NAME)\n"
	 "ANNEX_TOKEN_DOMAIN = $(UID_DOMAIN)\n"
	 "JOB_TRANSFORM_NAMES = $(JOB_TRANSFORM_NAMES) AssignAnnex\n"
	 "JOB_TRANSFORM_AssignAnnex @=end\n"
	 "REQUIREMENTS TargetAnnexName =!= undefined\n"
	 "my_identity = \"$(MY.Owner)@$(ANNEX_TOKEN_DOMAIN)\"\n"
	 "addl_reqs = ifThenElse(TARGET.AuthenticatedIdentity is undefined, true, $(my_identity) == TARGET.AuthenticatedIdentity) && (MY.TargetAnnexName == TARGET.AnnexName)\n"
	 "if defined MY.JobMachineAttrs\n"
	 "SET JobMachineAttrs \"$(MY.JobMachineAttrs),AnnexName\"\n"
	 "else\n"
	 "SET JobMachineAttrs \"AnnexName\"\n"
	 "endif\n"
	 "if defined MY.Requirements\n"
	 "SET Requirements $(addl_reqs) && ($(MY.Requirements))\n"
	 "else\n"
	 "SET Requirements $(addl_reqs)\n"
	 "endif\n"
	 "@end\n"
	 "if $(ANNEX_JOBS_EXCLUSIVELY:FALSE)\n"
	 "JOB_TRANSFORM_NAMES = $(JOB_TRANSFORM_NAMES) AnnexJobsExclusively\n"
	 "JOB_TRANSFORM_AnnexJobsExclusively @=end\n"
	 "REQUIREMENTS TargetAnnexName =?= undefined\n"
	 "addl_reqs = ifThenElse(TARGET.AuthenticatedIdentity is undefined, true, regexp(\"^condor(_pool)?@.*$\", TARGET.AuthenticatedIdentity))\n"
	 "if defined MY.Requirements\n"
	 "SET Requirements $(addl_reqs) && ($(MY.Requirements))\n"
	 "else\n"
	 "SET Requirements $(addl_reqs)\n"
	 "endif\n"
	 "@end\n"
	 "endif",
	 "lets this access point run jobs on HPC annexes through a collector of its own"},
	{"FEATURE", "JobsHaveInstanceIDs",
	 "SYSTEM_JOB_MACHINE_ATTRS = $(SYSTEM_JOB_MACHINE_ATTRS) CloudInstanceID",
	 "records the cloud instance id of the machine in each job that runs there"},
	{"FEATURE", "KRB",
	 "SEC_CREDENTIAL_DIRECTORY_KRB=/var/lib/condor/krb_credentials\n"
	 "DAEMON_LIST=$(DAEMON_LIST) CREDMON_KRB\n"
	 "SEC_CREDENTIAL_PRODUCER=$(LIBEXEC)/cred_producer_krb\n"
	 "SEC_CREDENTIAL_MONITOR_KRB_LOG=$(LOG)/CredMonKrbLog\n"
	 "AUTO_INCLUDE_CREDD_IN_DAEMON_LIST=True\n"
	 "USE_KEYRING_SESSIONS=True",
	 "runs the Kerberos credential monitor so jobs get Kerberos credentials and AFS access"},
	{"FEATURE", "LIBRARIAN",
	 "DAEMON_LIST=$(DAEMON_LIST) LIBRARIAN\n"
	 "USING_LIBRARIAN=True\n"
	 "if $(1?)\n"
	 "LIBRARIAN_MAX_DATABASE_SIZE=$(1)\n"
	 "endif\n"
	 "if $(2?)\n"
	 "LIBRARIAN_DATABASE=$(2)\n"
	 "endif",
	 "runs the librarian, which indexes job history; args: database size, file"},
	{"FEATURE", "Monitor",
	 "if ! $(5?)\n"
	 "error: use feature : monitor requires five or more arguments\n"
	 "endif\n"
	 "STARTD_CRON_JOBLIST = $(STARTD_CRON_JOBLIST) $(1)_MONITOR\n"
	 "STARTD_CRON_$(1)_MONITOR_MODE = $(2)\n"
	 "STARTD_CRON_$(1)_MONITOR_PERIOD = $(3)\n"
	 "STARTD_CRON_$(1)_MONITOR_EXECUTABLE = $(4)\n"
	 "STARTD_CRON_$(1)_MONITOR_METRICS = $(5+)",
	 "startd cron job measuring a custom resource; args: name, mode, period, program, metrics"},
	{"FEATURE", "OAUTH",
	 "SEC_CREDENTIAL_DIRECTORY_OAUTH=/var/lib/condor/oauth_credentials\n"
	 "CREDMON_OAUTH_LOG=$(LOG)/CredMonOAuthLog\n"
	 "DAEMON_LIST=$(DAEMON_LIST) CREDMON_OAUTH\n"
	 "AUTO_INCLUDE_CREDD_IN_DAEMON_LIST=True\n"
	 "TRUST_CREDENTIAL_DIRECTORY=True",
	 "runs the OAuth credential monitor so jobs can get OAuth tokens"},
	{"FEATURE", "OneShotCronHook",
	 "if ! $(3?)\n"
	 "error : use FEATURE : OneShotCronHook requires at least 3 arguments: STARTD_CRON | SCHEDD_CRON, tag, hook_exe [,hook_args]\n"
	 "endif\n"
	 "$(1)_JOBLIST=$($(1)_JOBLIST) $(2)\n"
	 "$(1)_$(2)_MODE=OneShot\n"
	 "$(1)_$(2)_KILL=true\n"
	 "$(1)_$(2)_RECONFIG_RERUN=true\n"
	 "$(1)_$(2)_EXECUTABLE=$(3)\n"
	 "if $(4?)\n"
	 "$(1)_$(2)_ARGS=$(4)\n"
	 "endif",
	 "runs a startd or schedd cron script once at start-up; args: cron, tag, program"},
	{"FEATURE", "PartitionableSlot",
	 "NUM_SLOTS_TYPE_$(1:1)=1\n"
	 "SLOT_TYPE_$(1:1)_PARTITIONABLE=true\n"
	 "SLOT_TYPE_$(1:1)=$(2+:100%)",
	 "makes one partitionable slot of a slot type; args: type number, share"},
	{"FEATURE", "PelicanCache",
	 "PELICANCACHE=/usr/bin/pelican\n"
	 "DAEMON_LIST=$(DAEMON_LIST) PELICANCACHE\n"
	 "PELICANCACHE_LOG=$(LOG)/PelicanCacheLog\n"
	 "PELICANCACHE_SIZE=$(1:256GB)\n"
	 "PELICANCACHE_RUNLOCATION=$(2:$(LOCAL_DIR)/localcache)\n"
	 "PELICANCACHE_FEDERATION=$(3:osg-htc.org)\n"
	 "PELICANCACHE_HIGHWATERMARKPERCENTAGE=95\n"
	 "PELICANCACHE_LOWWATERMARKPERCENTAGE=85\n"
	 "PELICANCACHE_ARGS=serve -d --module localcache -L $(PELICANCACHE_LOG) -f $(PELICANCACHE_FEDERATION)\n"
	 "PELICANCACHE_ENVIRONMENT @=end\n"
	 "PELICAN_SERVER_ENABLEUI=false\n"
	 "PELICAN_LOCALCACHE_SIZE=$(PELICANCACHE_SIZE)\n"
	 "PELICAN_LOCALCACHE_RUNLOCATION=$(PELICANCACHE_RUNLOCATION)\n"
	 "PELICAN_LOCALCACHE_HIGHWATERMARKPERCENTAGE=$(PELICANCACHE_HIGHWATERMARKPERCENTAGE)\n"
	 "PELICAN_LOCALCACHE_LOWWATERMARKPERCENTAGE=$(PELICANCACHE_LOWWATERMARKPERCENTAGE)\n"
	 "@end\n"
	 "STARTD_ENVIRONMENT=;NEAREST_CACHE=unix:/$(PELICANCACHE_RUNLOCATION)/cache.sock;$(STARTD_ENVIRONMENT)",
	 "runs a local Pelican cache for jobs; args: size, directory, federation"},
	{"FEATURE", "PelicanRetryPolicy",
	 "PelicanRetry_MaxRetries = 4\n"
	 "PelicanRetry_MinimumDelay = 300\n"
	 "PelicanRetry_RandomDelay = 300\n"
	 "pelican_error_subcode_retriable = 2816\n"
	 "pelican_error_subcode_stopped = 1280\n"
	 "PelicanRetryCondition = ((VacateReasonCode == 12 || VacateReasonCode == 13) && ((VacateReasonSubCode == $(pelican_error_subcode_retriable)) || (VacateReasonSubCode == $(pelican_error_subcode_stopped)))) ?: false\n"
	 "JOB_TRANSFORM_NAMES = $(JOB_TRANSFORM_NAMES) PelicanRetry\n"
	 "JOB_TRANSFORM_PelicanRetry @=jt\n"
	 "REQUIREMENTS (stringListIMember(\"pelican\",WantTransferPluginMethods) || stringListIMember(\"osdf\",WantTransferPluginMethods) || stringListIMember(\"stash\",WantTransferPluginMethods)) && isUndefined(PelicanRetryEnabled)\n"
	 "EVALMACRO retry_delay = $(PelicanRetry_MinimumDelay) + random($(PelicanRetry_RandomDelay))\n"
	 "SET PelicanRetryEnabled true\n"
	 "SET PelicanRetryDelay $(retry_delay)\n"
	 "@jt\n"
	 "SYSTEM_ON_VACATE_COOL_DOWN = ((PelicanRetryEnabled?:false) && $(PelicanRetryCondition) && ((NumJobCoolDowns?:0) < $(PelicanRetry_MaxRetries)) ? PelicanRetryDelay : ($(SYSTEM_ON_VACATE_COOL_DOWN:0)))",
	 "sends jobs whose Pelican transfers fail for passing reasons to cool down, then retries"},
	{"FEATURE", "PeriodicCronHook",
	 "if ! $(4?)\n"
	 "error : use FEATURE : PeriodicCronHook requires at least 4 arguments: STARTD_CRON | SCHEDD_CRON, tag, period, hook_exe [,hook_args]\n"
	 "endif\n"
	 "$(1)_JOBLIST=$($(1)_JOBLIST) $(2)\n"
	 "$(1)_$(2)_MODE=Periodic\n"
	 "$(1)_$(2)_PERIOD=$(3)\n"
	 "$(1)_$(2)_EXECUTABLE=$(4)\n"
	 "if $(5?)\n"
	 "$(1)_$(2)_ARGS=$(5)\n"
	 "endif",
	 "runs a startd or schedd cron script every period; args: cron, tag, period, program"},
	{"FEATURE", "POLICY_EXPR_FRAGMENTS",
	 "PolicyExprFragments=1\n"
	 "KeyboardBusy=(KeyboardIdle < $(MINUTE))\n"
	 "ConsoleBusy=(ConsoleIdle  < $(MINUTE))\n"
	 "KeyboardNotBusy=($(KeyboardBusy) == False)\n"
	 "JustCPU=($(CPUBusy) && ($(KeyboardBusy) == False))\n"
	 "MachineBusy=($(CPUBusy) || $(KeyboardBusy))\n"
	 "NonCondorLoadAvg=(LoadAvg - CondorLoadAvg)\n"
	 "CpuIdle=($(NonCondorLoadAvg) <= $(BackgroundLoad))\n"
	 "CpuBusy=($(NonCondorLoadAvg) >= $(HighLoad))\n"
	 "ActivationTimer=ifThenElse(JobStart =!= UNDEFINED, (time() - JobStart), 0)\n"
	 "LastCkpt=(time() - LastPeriodicCheckpoint)",
	 "defines KeyboardBusy, CpuIdle, ActivationTimer and the other pieces desktop policies use"},
	{"FEATURE", "POLICY_HOURS_TO_START",
	 "WorkdayBeginHour=$(1:8)\n"
	 "WorkdayEndHour=$(2:12+5)\n"
	 "WorkdayBeginMinuteStartJobs=($(WorkdayBeginHour))*60 - 29.5\n"
	 "WorkdayBeginMinuteStopJobs=($(WorkdayBeginHour))*60 - 9.5\n"
	 "WorkdayEndMinute=($(WorkdayEndHour))*60 + 0.5\n"
	 "RunJobsHours=ClockMin < $INT(WorkdayBeginMinuteStartJobs) || ClockMin > $INT(WorkdayEndMinute)\n"
	 "NoJobsHours=ClockMin > $INT(WorkdayBeginMinuteStopJobs) && ClockMin < $INT(WorkdayEndMinute)\n"
	 "if $(3?)\n"
	 "WorkweekFirstDay=$(3:1)\n"
	 "WorkweekLastDay=$(4:5)\n"
	 "IsWeekend=ClockDay < $INT(WorkweekFirstDay) || ClockDay > $INT(WorkWeekLastDay)\n"
	 "IsWorkday=ClockDay >= $INT(WorkweekFirstDay) && ClockDay <= $INT(WorkWeekLastDay)\n"
	 "RunJobsHours=$(IsWeekend) || $(RunJobsHours)\n"
	 "NoJobsHours=$(IsWorkday) && $(NoJobsHours)\n"
	 "endif\n"
	 "RunJobsHours=($(RunJobsHours))\n"
	 "NoJobsHours=($(NoJobsHours))",
	 "defines RunJobsHours and NoJobsHours from a workday and workweek; args: begin, end, days"},
	{"FEATURE", "REMOTE_CONFIG",
	 "ENABLE_PERSISTENT_CONFIG=True\n"
	 "PERSISTENT_CONFIG_DIR=$(SPOOL)\n"
	 "use FEATURE : REMOTE_RUNTIME_CONFIG($(0))",
	 "lets administrators change the named knobs remotely, saved across restarts"},
	{"FEATURE", "REMOTE_RUNTIME_CONFIG",
	 "ENABLE_RUNTIME_CONFIG=True\n"
	 "ALLOW_CONFIG=$(ALLOW_ADMINISTRATOR)\n"
	 "if $(0#)\n"
	 "SETTABLE_ATTRS_CONFIG=$(SETTABLE_ATTRS_CONFIG) $(0)\n"
	 "endif",
	 "lets administrators change the named knobs in running daemons"},
	{"FEATURE", "ScheddCronContinuous",
	 "use FEATURE : ContinuousCronHook(SCHEDD_CRON, $(0))",
	 "keeps a schedd cron script running; args: tag, program"},
	{"FEATURE", "ScheddCronOneShot",
	 "use FEATURE : OneShotCronHook(SCHEDD_CRON, $(0))",
	 "runs a schedd cron script once at start-up; args: tag, program"},
	{"FEATURE", "ScheddCronPeriodic",
	 "use FEATURE : PeriodicCronHook(SCHEDD_CRON, $(0))",
	 "runs a schedd cron script every period; args: tag, period, program"},
	{"FEATURE", "ScheddUsermapFile",
	 "if ! $(2?)\n"
	 "error : use FEATURE : ScheddUsermapFile requires 2 arguments: map_name, map_file\n"
	 "endif\n"
	 "SCHEDD_CLASSAD_USER_MAP_NAMES = $(SCHEDD_CLASSAD_USER_MAP_NAMES) $(1)\n"
	 "CLASSAD_USER_MAPFILE_$(1) = $(2)",
	 "declares a user map file that the schedd loads; args: map name, file"},
	{"FEATURE", "SetJobAttrFromUsermap",
	 "if ! $(3?)\n"
	 "error : use FEATURE : SetJobAttrFromUsermap requires at least 3 arguments: dest_attr, src_attr, map_name [,map_file]\n"
	 "endif\n"
	 "if $(4?)\n"
	 "use FEATURE : ScheddUsermapFile($(3), $(4))\n"
	 "endif\n"
	 "JOB_TRANSFORM_NAMES += Set$(1)\n"
	 "JOB_TRANSFORM_Set$(1) = EVALSET $(1) usermap(\"$(3)\",$(2),$(1))\n"
	 "SUBMIT_REQUIREMENT_NAMES += Require$(1)\n"
	 "SUBMIT_REQUIREMENT_Require$(1) = $(1) isnt undefined\n"
	 "SUBMIT_REQUIREMENT_Require$(1)_REASON = strcat(\"Submit requirement Require$(1) not met - Could not map '\", $(2)?:\"undefined\", \"' to a $(1)\")",
	 "has the schedd set a job attribute by mapping another; args: dest, source, map"},
	{"FEATURE", "StartdCronContinuous",
	 "use FEATURE : ContinuousCronHook(STARTD_CRON, $(0))",
	 "keeps a startd cron script running; args: tag, program"},
	{"FEATURE", "StartdCronOneShot",
	 "use FEATURE : OneShotCronHook(STARTD_CRON, $(0))",
	 "runs a startd cron script once at start-up; args: tag, program"},
	{"FEATURE", "StartdCronPeriodic",
	 "use FEATURE : PeriodicCronHook(STARTD_CRON, $(0))",
	 "runs a startd cron script every period; args: tag, period, program"},
	{"FEATURE", "StaticSlots",
	 "NUM_SLOTS_TYPE_$(1:1)=$(2:$(NUM_CPUS))\n"
	 "SLOT_TYPE_$(1:1)_PARTITIONABLE=false\n"
	 "SLOT_TYPE_$(1:1)=$(3+:1/$(NUM_SLOTS_TYPE_$(1:1)))\n"
	 "SLOT_TYPE_$(1:1)=$(3+)",
	 "makes static slots of a slot type; args: type number, count, share"},
	{"FEATURE", "TESTINGMODE_POLICY_VALUES",
	 "TESTINGMODE_WANT_SUSPEND=False\n"
	 "TESTINGMODE_WANT_VACATE=True\n"
	 "TESTINGMODE_START=True\n"
	 "TESTINGMODE_SUSPEND=False\n"
	 "TESTINGMODE_CONTINUE=True\n"
	 "TESTINGMODE_PREEMPT=False\n"
	 "TESTINGMODE_KILL=False\n"
	 "TESTINGMODE_PERIODIC_CHECKPOINT=False\n"
	 "TESTINGMODE_PREEMPTION_REQUIREMENTS=False\n"
	 "TESTINGMODE_PREEMPTION_RANK=0\n"
	 "TESTINGMODE_CLAIM_WORKLIFE=1200",
	 "defines the TESTINGMODE_* policy values of the old example configuration"},
	{"FEATURE", "UWCS_DESKTOP_POLICY_VALUES",
	 "if ! defined PolicyExprFragments\n"
	 "use FEATURE : POLICY_EXPR_FRAGMENTS\n"
	 "endif\n"
	 "STARTD_LATCH_EXPRS = $(STARTD_LATCH_EXPRS) CpuBusy\n"
	 "CpuBusyTimer=IfThenElse(CpuBusyValue is 1, time() - CpuBusyTime, 0)\n"
	 "UWCS_WANT_SUSPEND=( $(SmallJob) || $(KeyboardNotBusy) || $(IsVanilla) ) && ( $(SUSPEND) )\n"
	 "UWCS_WANT_VACATE=( $(ActivationTimer) > 10 * $(MINUTE) || $(IsVanilla) )\n"
	 "UWCS_START=( (KeyboardIdle > $(StartIdleTime)) && ( $(CPUIdle) || (State != \"Unclaimed\" && State != \"Owner\")) )\n"
	 "UWCS_SUSPEND=( $(KeyboardBusy) || ( ($(CpuBusyTimer) > 2 * $(MINUTE)) && $(ActivationTimer) > 90 ) )\n"
	 "UWCS_CONTINUE=( $(CPUIdle) && ($(ActivityTimer) > 10) && (KeyboardIdle > $(ContinueIdleTime)) )\n"
	 "UWCS_PREEMPT=( ((Activity == \"Suspended\") && ($(ActivityTimer) > $(MaxSuspendTime))) || (SUSPEND && (WANT_SUSPEND == False)) )\n"
	 "UWCS_MaxJobRetirementTime=0\n"
	 "UWCS_KILL=false\n"
	 "UWCS_PERIODIC_CHECKPOINT=$(LastCkpt) > (3 * $(HOUR) + $RANDOM_INTEGER(-30,30,1) * $(MINUTE) )\n"
	 "UWCS_NEGOTIATOR_PRE_JOB_RANK=(10000000 * My.Rank) + (1000000 * (RemoteOwner =?= UNDEFINED)) - (100000 * Cpus) - Memory\n"
	 "UWCS_NEGOTIATOR_POST_JOB_RANK=(RemoteOwner =?= UNDEFINED) * (ifthenElse(isUndefined(KFlops), 1000, Kflops) - SlotID - 1.0e10*(Offline=?=True))\n"
	 "UWCS_PREEMPTION_REQUIREMENTS=((SubmitterGroup =?= RemoteGroup) && ($(StateTimer) > (1 * $(HOUR))) && (RemoteUserPrio > TARGET.SubmitterUserPrio * 1.2)) || (MY.NiceUser == True)\n"
	 "UWCS_PREEMPTION_RANK=(RemoteUserPrio * 1000000) - ifThenElse(isUndefined(TotalJobRuntime), 0, TotalJobRuntime)",
	 "defines the UWCS_* policy values of the old example configuration"},
	{"POLICY", "ALWAYS_RUN_JOBS",
	 "WANT_SUSPEND=False\n"
	 "WANT_VACATE=True\n"
	 "SUSPEND=False\n"
	 "CONTINUE=True\n"
	 "PREEMPT=False\n"
	 "START=True\n"
	 "KILL=False\n"
	 "PREEMPTION_REQUIREMENTS=False\n"
	 "NEGOTIATOR_CONSIDER_PREEMPTION=False\n"
	 "MaxJobRetirementTime=2147483647\n"
	 "CLAIM_WORKLIFE=1200",
	 "starts jobs whenever a slot is free and never suspends or preempts them"},
	{"POLICY", "DESKTOP",
	 "if ! defined PolicyExprFragments\n"
	 "use FEATURE : POLICY_EXPR_FRAGMENTS\n"
	 "endif\n"
	 "STARTD_LATCH_EXPRS = $(STARTD_LATCH_EXPRS) CpuBusy\n"
	 "CpuBusyTimer=IfThenElse(CpuBusyValue is 1, time() - CpuBusyTime, 0)\n"
	 "WANT_SUSPEND=($(SmallJob) || $(KeyboardNotBusy) || $(IsVanilla) ) && ( $(SUSPEND))\n"
	 "WANT_VACATE=$(ActivationTimer) > 600 || $(IsVanilla)\n"
	 "SUSPEND=($(KeyboardBusy) || ( ($(CpuBusyTimer) > 120) && $(ActivationTimer) > 90))\n"
	 "CONTINUE=($(CPUIdle) && ($(ActivityTimer) > 10) && (KeyboardIdle > $(ContinueIdleTime)))\n"
	 "PREEMPT=(((Activity == \"Suspended\") && ($(ActivityTimer) > $(MaxSuspendTime))) || (SUSPEND && (WANT_SUSPEND == False)))\n"
	 "START=((KeyboardIdle > $(StartIdleTime)) && ( $(CPUIdle) || (State != \"Unclaimed\" && State != \"Owner\")) )\n"
	 "KILL=False\n"
	 "MaxJobRetirementTime=0\n"
	 "CLAIM_WORKLIFE=\n"
	 "SLOTS_CONNECTED_TO_KEYBOARD=1000000\n"
	 "SLOTS_CONNECTED_TO_CONSOLE=1000000\n"
	 "IS_OWNER=(START =?= False)",
	 "runs jobs on idle desktops, suspending them when the owner returns and evicting later"},
	{"POLICY", "DESKTOP_HOURS",
	 "use FEATURE : POLICY_HOURS_TO_START($(1+))\n"
	 "NonCondorLoadAvg=(LoadAvg - CondorLoadAvg)\n"
	 "CpuBusy=($(NonCondorLoadAvg) >= $(HighLoad))\n"
	 "STARTD_LATCH_EXPRS = $(STARTD_LATCH_EXPRS) CpuBusy\n"
	 "CpuBusyTimer=(CpuBusyValue * (time() - CpuBusyTime))\n"
	 "PREEMPT = $(NoJobsHours)\n"
	 "START = $(RunJobsHours)\n"
	 "WANT_SUSPEND=False\n"
	 "WANT_VACATE=True\n"
	 "SUSPEND=False\n"
	 "CONTINUE=True\n"
	 "KILL=False\n"
	 "MaxJobRetirementTime=0\n"
	 "CLAIM_WORKLIFE=\n"
	 "SLOTS_CONNECTED_TO_KEYBOARD=1000000\n"
	 "SLOTS_CONNECTED_TO_CONSOLE=1000000\n"
	 "IS_OWNER=(START =?= False)",
	 "runs jobs on desktops only outside working hours; args as POLICY_HOURS_TO_START"},
	{"POLICY", "DESKTOP_IDLE",
	 "if $(1?)\n"
	 "use FEATURE : POLICY_HOURS_TO_START($(1+))\n"
	 "endif\n"
	 "NonCondorLoadAvg=(LoadAvg - CondorLoadAvg)\n"
	 "CpuBusy=($(NonCondorLoadAvg) >= $(HighLoad))\n"
	 "CpuIdle=($(NonCondorLoadAvg) <= $(BackgroundLoad))\n"
	 "STARTD_LATCH_EXPRS = $(STARTD_LATCH_EXPRS) CpuBusy\n"
	 "CpuBusyTimer=(CpuBusyValue * (time() - CpuBusyTime))\n"
	 "PreemptKeyboardIdleTime=60\n"
	 "PreemptCpuBusyTime=120\n"
	 "PREEMPT=(KeyboardIdle < $(PreemptKeyboardIdleTime)) || ($(CpuBusyTimer) > $(PreemptCpuBusyTime))\n"
	 "if defined NoJobsHours\n"
	 "PREEMPT = ($(PREEMPT)) && ($(NoJobsHours))\n"
	 "endif\n"
	 "START=(KeyboardIdle > $(StartIdleTime)) && $(CPUIdle)\n"
	 "if defined RunJobsHours\n"
	 "START = ($(START)) || ($(RunJobsHours))\n"
	 "endif\n"
	 "WANT_SUSPEND=False\n"
	 "WANT_VACATE=True\n"
	 "SUSPEND=False\n"
	 "CONTINUE=True\n"
	 "KILL=False\n"
	 "MaxJobRetirementTime=0\n"
	 "CLAIM_WORKLIFE=\n"
	 "SLOTS_CONNECTED_TO_KEYBOARD=1000000\n"
	 "SLOTS_CONNECTED_TO_CONSOLE=1000000\n"
	 "IS_OWNER=(START =?= False)",
	 "for idle desktops: start when idle, evict (never suspend) on return; args: hours"},
	{"POLICY", "HOLD_IF_CPUS_EXCEEDED",
	 "use POLICY : STARTD_PUBLISH_CpusUsage\n"
	 "CPU_EXCEEDED = (CpusUsage > Cpus + 0.8)\n"
	 "HOLD_REASON_CPU_EXCEEDED = CPU usage exceeded request_cpus\n"
	 "use POLICY : WANT_HOLD_IF( CPU_EXCEEDED, $(HOLD_SUBCODE_CPU_EXCEEDED:101), $(HOLD_REASON_CPU_EXCEEDED) )",
	 "puts on hold jobs that keep more cores busy than their slot has"},
	{"POLICY", "HOLD_IF_DISK_EXCEEDED",
	 "DISK_EXCEEDED = (JobUniverse != 13 && DiskUsage =!= UNDEFINED && DiskUsage > Disk)\n"
	 "HOLD_REASON_DISK_EXCEEDED = disk usage exceeded allocated disk\n"
	 "use POLICY : WANT_HOLD_IF( DISK_EXCEEDED, $(HOLD_SUBCODE_DISK_EXCEEDED:104), $(HOLD_REASON_DISK_EXCEEDED) )",
	 "puts on hold jobs whose scratch directory grows beyond their slot's disk"},
	{"POLICY", "HOLD_IF_MEMORY_EXCEEDED",
	 "MEMORY_EXCEEDED = (JobUniverse != 13 && MemoryUsage =!= UNDEFINED && MemoryUsage > Memory)\n"
	 "HOLD_REASON_MEMORY_EXCEEDED = memory usage exceeded request_memory\n"
	 "use POLICY : WANT_HOLD_IF( MEMORY_EXCEEDED, $(HOLD_SUBCODE_MEMORY_EXCEEDED:102), $(HOLD_REASON_MEMORY_EXCEEDED) )",
	 "puts on hold jobs whose memory use grows beyond their slot's memory"},
	{"POLICY", "HOLD_IF_RUNTIME_EXCEEDS",
	 "MAX_JOB_RUNTIME = $(1:24*3600)\n"
	 "HOLD_REASON_RUNTIME_EXCEEDS = runtime exceeded maximum ($(MAX_JOB_RUNTIME) seconds)\n"
	 "HOLD_RUNTIME_EXCEEDS = (JobState == \"Running\") && ((time() - JobCurrentStartDate) > $(MAX_JOB_RUNTIME))\n"
	 "use policy : WANT_HOLD_IF( HOLD_RUNTIME_EXCEEDS, $(HOLD_SUBCODE_RUNTIME_EXCEEDS:103), $(HOLD_REASON_RUNTIME_EXCEEDS) )",
	 "puts on hold jobs running longer than a limit; arg: seconds, 24 hours if none"},
	{"POLICY", "LIMIT_JOB_RUNTIMES",
	 "MAX_JOB_RUNTIME=$(1:24*3600)\n"
	 "MaxJobRetirementTime=$(MAX_JOB_RUNTIME)+120\n"
	 "PREEMPT=(Activity == \"Busy\") && ((time() - EnteredCurrentActivity) > $(MAX_JOB_RUNTIME))",
	 "evicts jobs that have been busy longer than a limit; arg: seconds, 24 hours if none"},
	{"POLICY", "OnlyRegisteredCheckpointDestinations",
	 "TOOL_CLASSAD_USER_MAP_NAMES = $(TOOL_CLASSAD_USER_MAP_NAMES) checkpoint_destination_map\n"
	 "SCHEDD_CLASSAD_USER_MAP_NAMES = $(SCHEDD_CLASSAD_USER_MAP_NAMES) checkpoint_destination_map\n"
	 "CLASSAD_USER_MAPFILE_checkpoint_destination_map = $(CHECKPOINT_DESTINATION_MAPFILE)\n"
	 "CLASSAD_USER_MAP_PREFIX_checkpoint_destination_map = TRUE\n"
	 "JOB_TRANSFORM_NAMES = $(JOB_TRANSFORM_NAMES) ValidateCheckpointDestination\n"
	 "JOB_TRANSFORM_ValidateCheckpointDestination @=end\n"
	 "EVALSET CheckpointDestinationValid = ifthenelse(undefined =?= userMap(\"checkpoint_destination_map\", CheckpointDestination), undefined, True)\n"
	 "@end\n"
	 "IMMUTABLE_JOB_ATTRS = $(IMMUTABLE_JOB_ATTRS) CheckpointDestinationValid\n"
	 "SUBMIT_REQUIREMENT_NAMES = $(SUBMIT_REQUIREMENT_NAMES) RejectInvalidCheckpointDestination\n"
	 "SUBMIT_REQUIREMENT_RejectInvalidCheckpointDestination = CheckpointDestination =?= undefined || CheckpointDestinationValid =?= True\n"
	 "SUBMIT_REQUIREMENT_RejectInvalidCheckpointDestination_REASON = \"You specified a checkpoint_destination this AP does not know how to clean up.  You may need to add a trailing / to the URL.\"",
	 "at submission, rejects a checkpoint_destination absent from the destination map"},
	{"POLICY", "PREEMPT_IF",
	 "if !$(1?)\n"
	 "error : use POLICY : PREEMPT_IF requires an argument. It should be the name of a config variable that has the trigger expression.\n"
	 "endif\n"
	 "if defined PREEMPT\n"
	 "PREEMPT = $($(1)) || $(PREEMPT)\n"
	 "else\n"
	 "PREEMPT = $($(1))\n"
	 "endif\n"
	 "MAXJOBRETIREMENTTIME = ifthenelse($($(1)),-1,$(MAXJOBRETIREMENTTIME:0))\n"
	 "if defined WANT_SUSPEND\n"
	 "WANT_SUSPEND = $($(1)) =!= true && $(WANT_SUSPEND)\n"
	 "else\n"
	 "WANT_SUSPEND = $($(1)) =!= true\n"
	 "endif",
	 "adds a condition, named by its knob, to PREEMPT and skips retirement when it holds"},
	{"POLICY", "PREEMPT_IF_CPUS_EXCEEDED",
	 "use POLICY : STARTD_PUBLISH_CpusUsage\n"
	 "CPU_EXCEEDED = (CpusUsage > Cpus + 0.8)\n"
	 "use POLICY : PREEMPT_IF(CPU_EXCEEDED)",
	 "preempts jobs that keep more cores busy than their slot has"},
	{"POLICY", "PREEMPT_IF_DISK_EXCEEDED",
	 "DISK_EXCEEDED = (JobUniverse != 13 && DiskUsage =!= UNDEFINED && DiskUsage > Disk)\n"
	 "use POLICY : PREEMPT_IF(DISK_EXCEEDED)",
	 "preempts jobs whose scratch directory grows beyond their slot's disk"},
	{"POLICY", "PREEMPT_IF_MEMORY_EXCEEDED",
	 "MEMORY_EXCEEDED = (JobUniverse != 13 && MemoryUsage =!= UNDEFINED && MemoryUsage > Memory)\n"
	 "use POLICY : PREEMPT_IF(MEMORY_EXCEEDED)",
	 "preempts jobs whose memory use grows beyond their slot's memory"},
	{"POLICY", "PREEMPT_IF_RUNTIME_EXCEEDS",
	 "MAX_JOB_RUNTIME = $(1:24*3600)\n"
	 "PREEMPT_RUNTIME_EXCEEDS = (JobState == \"Running\") && ((time() - JobCurrentStartDate) > $(MAX_JOB_RUNTIME))\n"
	 "use policy : PREEMPT_IF( PREEMPT_RUNTIME_EXCEEDS )",
	 "preempts jobs running longer than a limit; arg: seconds, 24 hours if none"},
	{"POLICY", "STARTD_PUBLISH_CpusUsage",
	 "CpusUsage = ifthenelse(TotalLoadAvg > 0.0 && Activity!=\"Idle\", CondorLoadAvg/TotalLoadAvg*MIN({TotalLoadAvg, $(DETECTED_CORES)}), 0)\n"
	 "STARTD_ATTRS = $(STARTD_ATTRS) CpusUsage",
	 "makes the startd publish CpusUsage, the number of cores the job keeps busy"},
	{"POLICY", "UWCS_DESKTOP",
	 "use FEATURE : UWCS_DESKTOP_POLICY_VALUES\n"
	 "WANT_SUSPEND=$(UWCS_WANT_SUSPEND)\n"
	 "WANT_VACATE=$(UWCS_WANT_VACATE)\n"
	 "SUSPEND=$(UWCS_SUSPEND)\n"
	 "CONTINUE=$(UWCS_CONTINUE)\n"
	 "PREEMPT=$(UWCS_PREEMPT)\n"
	 "START=$(UWCS_START)\n"
	 "KILL=$(UWCS_KILL)\n"
	 "PERIODIC_CHECKPOINT=$(UWCS_PERIODIC_CHECKPOINT)\n"
	 "PREEMPTION_REQUIREMENTS=$(UWCS_PREEMPTION_REQUIREMENTS)\n"
	 "PREEMPTION_RANK=$(UWCS_PREEMPTION_RANK)\n"
	 "NEGOTIATOR_PRE_JOB_RANK=$(UWCS_NEGOTIATOR_PRE_JOB_RANK)\n"
	 "NEGOTIATOR_POST_JOB_RANK=$(UWCS_NEGOTIATOR_POST_JOB_RANK)\n"
	 "MaxJobRetirementTime=$(UWCS_MaxJobRetirementTime)\n"
	 "CLAIM_WORKLIFE=$(UWCS_CLAIM_WORKLIFE)\n"
	 "SLOTS_CONNECTED_TO_KEYBOARD=1024*1024\n"
	 "IS_OWNER=(START =?= False)",
	 "the old UW CS desktop policy: run when the owner is away, suspend then evict on return"},
	{"POLICY", "WANT_HOLD_IF",
	 "use POLICY : PREEMPT_IF($(1))\n"
	 "if ! $(3?)\n"
	 "error : use POLICY : WANT_HOLD_IF requires 3 arguments: policy_variable, subcode, reason_text\n"
	 "endif\n"
	 "if defined WANT_HOLD\n"
	 "WANT_HOLD = (JobUniverse != 1 && $($(1))) || $(WANT_HOLD)\n"
	 "else\n"
	 "WANT_HOLD = (JobUniverse != 1 && $($(1)))\n"
	 "endif\n"
	 "WANT_HOLD_SUBCODE = ifThenElse($($(1)), $(2) , $(WANT_HOLD_SUBCODE:UNDEFINED))\n"
	 "WANT_HOLD_REASON = ifThenElse($($(1)), \"$(3+)\", $(WANT_HOLD_REASON:UNDEFINED))",
	 "preempts and holds jobs when a knob's condition holds; args: knob, subcode, reason"},
	{"ROLE", "CentralManager",
	 "DAEMON_LIST=$(DAEMON_LIST) COLLECTOR NEGOTIATOR",
	 "adds the collector and the negotiator to DAEMON_LIST"},
	{"ROLE", "Execute",
	 "DAEMON_LIST=$(DAEMON_LIST) STARTD",
	 "adds the startd to DAEMON_LIST, so the machine runs jobs"},
	{"ROLE", "get_htcondor_central_manager",
	 "use security:get_htcondor_idtokens\n"
	 "use role:CentralManager",
	 "central manager as the get_htcondor installer sets it up"},
	{"ROLE", "get_htcondor_execute",
	 "use security:get_htcondor_idtokens\n"
	 "use role:execute",
	 "execute machine as the get_htcondor installer sets it up"},
	{"ROLE", "get_htcondor_submit",
	 "use security:get_htcondor_idtokens\n"
	 "use role:submit",
	 "submit machine as the get_htcondor installer sets it up"},
	{"ROLE", "Personal",
	 "CONDOR_HOST=127.0.0.1\n"
	 "COLLECTOR_HOST=$(CONDOR_HOST):0\n"
	 "DAEMON_LIST=MASTER COLLECTOR NEGOTIATOR STARTD SCHEDD\n"
	 "RunBenchmarks=0",
	 "a whole pool on one machine, with the collector on the loopback address"},
	{"ROLE", "Submit",
	 "DAEMON_LIST=$(DAEMON_LIST) SCHEDD",
	 "adds the schedd to DAEMON_LIST, so the machine accepts jobs"},
	{"SECURITY", "FIPS",
	 "FIPS = True\n"
	 "use security:strong\n"
	 "SEC_DEFAULT_CRYPTO_METHODS = AES,3DES",
	 "strong security limited to FIPS-approved encryption methods"},
	{"SECURITY", "get_htcondor_idtokens",
	 "use security:recommended\n"
	 "SEC_READ_AUTHENTICATION_METHODS = $(SEC_DEFAULT_AUTHENTICATION_METHODS),ANONYMOUS\n"
	 "SEC_CLIENT_AUTHENTICATION_METHODS = $(SEC_DEFAULT_AUTHENTICATION_METHODS),ANONYMOUS\n"
	 "TRUST_DOMAIN = $(CONDOR_HOST)",
	 "the token security settings that the get_htcondor installer writes"},
	{"SECURITY", "HOST_BASED",
	 "ALLOW_ADMINISTRATOR=$(CONDOR_HOST)\n"
	 "ALLOW_READ=*\n"
	 "ALLOW_WRITE=$(FULL_HOSTNAME) $(IPV4_ADDRESS) $(IPV6_ADDRESS)\n"
	 "ALLOW_DAEMON=$(FULL_HOSTNAME) $(IPV4_ADDRESS) $(IPV6_ADDRESS)\n"
	 "ALLOW_NEGOTIATOR=$(CONDOR_HOST)\n"
	 "ALLOW_NEGOTIATOR_SCHEDD=$(ALLOW_NEGOTIATOR) $(FLOCK_NEGOTIATOR_HOSTS)\n"
	 "ALLOW_WRITE_COLLECTOR=$(ALLOW_WRITE) $(FLOCK_FROM)\n"
	 "ALLOW_WRITE_STARTD=$(ALLOW_WRITE) $(FLOCK_FROM)\n"
	 "ALLOW_READ_COLLECTOR=$(ALLOW_READ) $(FLOCK_FROM)\n"
	 "ALLOW_READ_STARTD=$(ALLOW_READ) $(FLOCK_FROM)\n"
	 "LEGACY_ALLOW_SEMANTICS = TRUE",
	 "grants access by host name and address, the way pools before 9.0 did"},
	{"SECURITY", "recommended",
	 "use security:recommended_v24_0($(1+))",
	 "the security settings recommended for this version (those of 24.0)"},
	{"SECURITY", "recommended_v24_0",
	 "SECURITY_MODEL = 24.0\n"
	 "use security:strong\n"
	 "SEC_READ_AUTHENTICATION = OPTIONAL\n"
	 "SEC_CLIENT_AUTHENTICATION = OPTIONAL\n"
	 "ALLOW_ADMINISTRATOR = $(1:condor)@* condor@password $(2:root@*) $(3+)\n"
	 "ALLOW_DAEMON = $(1:condor)@*  condor@password\n"
	 "ALLOW_NEGOTIATOR = $(1:condor)@* condor@password\n"
	 "ALLOW_WRITE = *\n"
	 "ALLOW_READ = *",
	 "the security settings new in 24.0: strong security, client authentication optional"},
	{"SECURITY", "recommended_v9_0",
	 "SECURITY_MODEL = 9.0\n"
	 "use security:strong\n"
	 "SEC_READ_AUTHENTICATION = OPTIONAL\n"
	 "SEC_READ_ENCRYPTION = OPTIONAL\n"
	 "SEC_READ_INTEGRITY = OPTIONAL\n"
	 "ALLOW_ADMINISTRATOR = $(1:condor)@* condor_pool@* $(2:root@*) $(3+)\n"
	 "ALLOW_DAEMON = $(1:condor)@*  condor_pool@*\n"
	 "ALLOW_NEGOTIATOR = $(1:condor)@* condor_pool@*\n"
	 "ALLOW_WRITE = *\n"
	 "ALLOW_READ = *",
	 "the security settings new in 9.0: strong security, daemons known by identity"},
	{"SECURITY", "STRONG",
	 "SEC_DEFAULT_ENCRYPTION=required\n"
	 "SEC_DEFAULT_INTEGRITY=required\n"
	 "SEC_DEFAULT_AUTHENTICATION=required",
	 "requires authentication, integrity checks and encryption on every connection"},
	{"SECURITY", "USER_BASED",
	 "if $(CondorIsAdmin)\n"
	 "authuser=condor\n"
	 "else\n"
	 "authuser=$(USERNAME)\n"
	 "endif\n"
	 "use security:recommended($(authuser))\n"
	 "if ! $(CondorIsAdmin)\n"
	 "ALLOW_WRITE = $(authuser)@$(UID_DOMAIN)\n"
	 "endif",
	 "grants access by authenticated user; an install without root lets only its user write"},
	{"SECURITY", "WITH_AUTHENTICATION",
	 "SEC_DEFAULT_AUTHENTICATION=required\n"
	 "SEC_DEFAULT_INTEGRITY=required",
	 "makes every connection authenticate and check message integrity"},
};

const size_t ks_templates_count =
	sizeof(ks_templates) / sizeof(ks_templates[0]);


const struct ks_template *ks_template_find(const char *category,
					   const char *name)
{
	for (size_t i = 0; i < ks_templates_count; i++)
		if (!ks_name_cmp(category, strlen(category),
				 ks_templates[i].category) &&
		    !ks_name_cmp(name, strlen(name), ks_templates[i].name))
			return &ks_templates[i];
	return NULL;
}
