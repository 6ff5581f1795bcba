#!/usr/bin/env bash
# cron_test.sh BUILD: the schedd's daemon ClassAd hooks (SCHEDD_CRON_*,
# seed 001): a job's output, with its PREFIX, is in the Scheduler ad that
# condor_status -schedd shows, without renaming the schedd; condor_reconfig
# applies changed ARGS and a job added to the list, and drops the ads of a
# job taken off it; the schedd's shutdown ends the jobs still running.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/lib_pool.sh"
tools_on_path

pool_dir schedd_cron_test
cat > "$T/hook.sh" <<'SH'
#!/bin/sh
# a value from the arguments, and a Name that must not rename the schedd
echo "Hook = \"$1\""
echo 'Name = "hooked"'
SH
cat > "$T/forever.sh" <<'SH'
#!/bin/sh
# its pid in $1, an ad, then a long nap in the foreground
echo $$ > "$1"
echo 'Forever = true'
echo 'Name = "hooked"'
echo '-'
sleep 300
SH
chmod 755 "$T/hook.sh" "$T/forever.sh"

job_pool_config <<CFG
DAEMON_LIST = MASTER COLLECTOR SCHEDD
SCHEDD_CRON_JOBLIST = hook forever
SCHEDD_CRON_hook_EXECUTABLE = $T/hook.sh
SCHEDD_CRON_hook_ARGS = first
SCHEDD_CRON_hook_PERIOD = 1
SCHEDD_CRON_hook_PREFIX = Ks_
SCHEDD_CRON_forever_EXECUTABLE = $T/forever.sh
SCHEDD_CRON_forever_ARGS = $T/forever.pid
SCHEDD_CRON_forever_MODE = WaitForExit
SCHEDD_CRON_forever_PERIOD = 1
CFG

hook_is() { [ "$(condor_status -schedd -af Ks_Hook 2>/dev/null)" = "$1" ]; }

start_master
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"
wait_for 20 hook_is first || fail "no SCHEDD_CRON output in the schedd ad: $(condor_status -schedd -l)"
[ "$(condor_status -schedd -af Forever)" = true ] || fail "the second job's output is missing"
name=$(condor_status -schedd -af Name)
[ "$name" != hooked ] || fail "a cron job renamed the schedd"
condor_status -schedd -af Ks_Name | grep -qx hooked || fail "the prefixed Name is missing"
# the schedd still answers as itself
condor_q >/dev/null || fail "condor_q after the hook: $(condor_q 2>&1)"
fpid=$(cat "$T/forever.pid")
kill -0 "$fpid" || fail "the forever job is not running"

# reconfig: hook's new ARGS at its next run, a new job, forever dropped
cat >> "$CONDOR_CONFIG" <<CFG
SCHEDD_CRON_JOBLIST = hook later
SCHEDD_CRON_hook_ARGS = second
SCHEDD_CRON_later_EXECUTABLE = $T/hook.sh
SCHEDD_CRON_later_ARGS = later
SCHEDD_CRON_later_MODE = OneShot
SCHEDD_CRON_later_PREFIX = Later_
CFG
"$B/tools/condor_daemonctl/condor_reconfig" >/dev/null || fail "condor_reconfig"
wait_for 20 hook_is second || fail "reconfig: ARGS not applied: $(condor_status -schedd -af Ks_Hook)"
wait_for 20 sh -c '[ "$(condor_status -schedd -af Later_Hook)" = later ]' || fail "reconfig: the new job's output is missing"
wait_for 20 sh -c '[ "$(condor_status -schedd -af Forever)" = undefined ]' || fail "reconfig: the dropped job's output stayed"
wait_for 10 sh -c "! kill -0 $fpid" || fail "reconfig: the dropped job still runs"

# a job running at shutdown ends with the schedd
cat >> "$CONDOR_CONFIG" <<CFG
SCHEDD_CRON_JOBLIST = hook forever
CFG
rm -f "$T/forever.pid"
"$B/tools/condor_daemonctl/condor_reconfig" >/dev/null || fail "condor_reconfig 2"
wait_for 20 sh -c '[ "$(condor_status -schedd -af Forever)" = true ]' || fail "reconfig 2: no forever job"
wait_for 10 test -s "$T/forever.pid" || fail "reconfig 2: the forever job did not start"
fpid=$(cat "$T/forever.pid")
stop_pool
wait_for 10 sh -c "! kill -0 $fpid" || fail "the schedd's shutdown left its cron job running"
echo "PASS: schedd cron"
