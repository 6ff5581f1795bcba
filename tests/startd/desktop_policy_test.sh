#!/usr/bin/env bash
# desktop_policy_test.sh BUILD: a startd with `use POLICY : Desktop` acts
# on a busy CPU as the template says.  The machine's figures (LoadAvg,
# KeyboardIdle, ConsoleIdle) are set with condor_update_machine_ad, whose
# attributes stand in for the startd's own, as a desktop's owner would
# make them.
# 1. An idle slot whose CPU becomes busy goes to Owner (START's CpuIdle,
#    IS_OWNER), and back to Unclaimed when it is idle again; the CpuBusy
#    latch (STARTD_LATCH_EXPRS) is published as CpuBusyValue and
#    CpuBusyTime.
# 2. A running job whose CPU stays busy is suspended once CpuBusyTimer
#    (time() - CpuBusyTime while CpuBusyValue is 1) passes 120 seconds and
#    the job has run 90 (SUSPEND), and continued when the CPU is idle
#    again (CONTINUE).  This part takes two minutes: the template's times.
set -u
B=$1
. "$(dirname "$0")/../daemon/lib.sh"
. "$(dirname "$0")/lib_startd.sh"
pool_dir ksdesktop
ST=$B/tools/condor_status/condor_status
CL=$B/tests/startd/ks_claim
UMA=$B/tools/condor_update_machine_ad/condor_update_machine_ad

# machine LOAD: the machine's load average is LOAD, its owner long away
machine() {
	printf 'LoadAvg = %s\nKeyboardIdle = 100000\nConsoleIdle = 100000\n' "$1" | "$UMA" ||
		fail "condor_update_machine_ad LoadAvg = $1"
}
state_is() { [ "$("$ST" -af State Activity)" = "$1" ]; }

startd_config <<'CFG'
use FEATURE : StaticSlots
NUM_CPUS = 1
RUNBENCHMARKS = false
use POLICY : Desktop
CFG
start_master
wait_for 20 sh -c "'$ST' -af Name | grep -q slot1" || fail "no slot ad"

# 1. idle, busy, idle again
machine 0
wait_for 10 state_is "Unclaimed Idle" || fail "idle machine: $("$ST" -af State Activity LoadAvg KeyboardIdle)"
[ "$("$ST" -af CpuBusyValue CpuIsBusy)" = "0 false" ] || fail "idle CPU: $("$ST" -af CpuBusyValue CpuIsBusy CpuBusyTime)"
machine 5
wait_for 10 state_is "Owner Idle" || fail "busy CPU, idle slot: $("$ST" -af State Activity LoadAvg)"
grep -q "slot1: transition 2 Unclaimed/Idle -> Owner/Idle: IS_OWNER became true" "$T/log/StartLog" || fail "transition 2 not logged"
busy_latched() { [ "$("$ST" -af CpuBusyValue CpuIsBusy)" = "1 true" ]; }
wait_for 10 busy_latched || fail "busy CPU: $("$ST" -af CpuBusyValue CpuIsBusy)"
t=$("$ST" -af CpuBusyTime)
now=$(date +%s)
[ "$t" -le "$now" ] && [ "$t" -ge $((now - 30)) ] || fail "CpuBusyTime $t is not when the CPU became busy ($now)"
machine 0
wait_for 10 state_is "Unclaimed Idle" || fail "idle again: $("$ST" -af State Activity LoadAvg)"
echo "ok: a busy CPU sends an idle desktop slot to Owner, and back"

# 2. a job on a CPU that stays busy
mkdir -p "$T/iwd"
chmod 755 "$T"
chmod 777 "$T/iwd"
cat > "$T/sleep.ad" <<AD
Owner = "nobody"
ClusterId = 7
ProcId = 0
JobUniverse = 5
Cmd = "/bin/sh"
Arguments = "-c 'sleep 600'"
Iwd = "$T/iwd"
ShouldTransferFiles = "NO"
AD
start_job slot1 "$T/sleep.ad" desk
wait_for 10 state_is "Claimed Busy" || fail "job: $("$ST" -af State Activity)"
machine 5
wait_for 10 busy_latched || fail "busy CPU under a job: $("$ST" -af CpuBusyValue CpuIsBusy)"
BUSY_SINCE=$("$ST" -af CpuBusyTime)
wait_for 200 state_is "Claimed Suspended" || fail "job not suspended: $("$ST" -af State Activity CpuBusyValue CpuBusyTime JobStart)"
grep -q "slot1: transition .* Claimed/Busy -> Claimed/Suspended: SUSPEND became true" "$T/log/StartLog" || fail "suspension not logged"
at=$("$ST" -af EnteredCurrentActivity)
[ $((at - BUSY_SINCE)) -gt 120 ] || fail "suspended $((at - BUSY_SINCE)) s after the CPU became busy, not after 120"
wait_for 10 sh -c "[ \"\$(awk '{print \$3}' /proc/$JP/stat)\" = T ]" || fail "the job is not stopped: $(cat /proc/$JP/stat)"
machine 0
wait_for 60 state_is "Claimed Busy" || fail "job not continued: $("$ST" -af State Activity)"
grep -q "slot1: transition .* Claimed/Suspended -> Claimed/Busy: CONTINUE became true" "$T/log/StartLog" || fail "continuation not logged"
kill -0 "$JP" || fail "the continued job is gone"
"$CL" "$(addr)" RELEASE_CLAIM "$ID" >/dev/null || fail "release"
wait_for 20 state_is "Unclaimed Idle" || fail "after release: $("$ST" -af State Activity)"
echo "ok: a job on a desktop whose CPU stays busy is suspended after 120 s, and continued"
