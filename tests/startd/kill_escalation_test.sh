#!/usr/bin/env bash
# kill_escalation_test.sh BUILD: a job that ignores its soft kill (it and
# the child it left in a session of its own trap SIGTERM) is hard-killed
# once its vacate time (MachineMaxVacateTime, or its JobMaxVacateTime
# when less) is up, whatever ends it:
# condor_rm, condor_hold, condor_vacate and a preemption (PREEMPT).  When
# its starter does not act on the hard kill either (it is stopped here),
# KILLING_TIMEOUT later the startd kills the starter and every process
# under it.  Each time the job's processes all end, the slot is free
# again, and the job's end reaches the schedd: removed, held, or idle
# again and then run to its end.  As root the jobs belong to a temporary
# account.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path

pool_dir kskillesc
chmod 755 "$T"
job_account kskillesc
J=$T/jobs
mkdir -p "$J" && chown "$A" "$J" && chmod 755 "$J"
# a copy of sleep under $J, so that the jobs' processes are found by path
cp /bin/sleep "$J/ks_sleep"
# job.sh FILE: notes its start and its end in FILE; its first run ignores
# SIGTERM, as does the child it leaves in a session of its own, and waits
# until it is killed; a later run ends at once
cat > "$J/job.sh" <<SH
#!/bin/sh
echo "start \$\$" >> "\$1"
if [ "\$(grep -c '^start' "\$1")" = 1 ]; then
	trap "" TERM
	setsid $J/ks_sleep 300 &
	$J/ks_sleep 300
fi
echo "end \$\$" >> "\$1"
SH
chmod 755 "$J/job.sh"

# one static slot; jobs that ask for it are preempted 2 s into a run
job_pool_config <<CFG
NUM_CPUS = 1
use FEATURE : StaticSlots
# (600 s, HTCondor's default, for jobs that ask for it)
MachineMaxVacateTime = ifThenElse(TARGET.KsLongVacate =?= true, 600, 3)
KILLING_TIMEOUT = 2
PREEMPT = TARGET.KsPreemptTest =?= true && (time() - JobStart) >= 2
CFG

# a job's processes: its shell (whose argument is its runs file) and the
# copies of sleep
no_job_procs() { ! pgrep -f "$J/" >/dev/null; }
first_run() { [ "$(grep -c '^start' "$J/runs.$1" 2>/dev/null)" = 1 ]; }
running() { [ "$(pgrep -f "$J/ks_sleep" | wc -l)" = 2 ]; }
slot_free() { [ "$(condor_status -af State Activity 2>/dev/null)" = "Unclaimed Idle" ]; }
starter_pid() { pgrep -x condor_starter -P "$(pgrep -P "$MASTER_PID" -x condor_startd)"; }
# ev TAG CODE: how many events CODE the job's event log has
ev() { grep -c "^$2 (" "$J/events.$1.log"; }

# submit TAG [LINE]: submits job.sh with an extra submit line, waits for
# its first run to be under way; sets C
submit() {
	as "$A" sh -c "cat > '$J/$1.sub'" <<SUB
executable = $J/job.sh
arguments = $J/runs.$1
initialdir = $J
log = $J/events.$1.log
${2:-}
queue
SUB
	out=$(cd "$J" && as "$A" condor_submit "$1.sub") || fail "$1: condor_submit: $out"
	C=$(cluster_of "$out")
	wait_for 60 first_run "$1" || fail "$1: job $C did not start"
	wait_for 20 running || fail "$1: the job's processes: $(pgrep -af "$J/")"
}

# ended TAG: the job's processes all end, and the slot is free again
ended() {
	wait_for 40 no_job_procs || fail "$1: the job's processes outlived its kill: $(pgrep -af "$J/")"
	wait_for 40 slot_free || fail "$1: the slot is $(condor_status -af State Activity)"
}

start_master
wait_for 20 sh -c 'condor_status -af Name | grep -q slot1' || fail "no slot"
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"

# condor_rm: its soft kill, then its hard kill once the vacate time is up
submit rm
condor_rm "$C" >/dev/null || fail "condor_rm $C"
ended rm
wait_for 30 in_history "$C" 1 || fail "rm: job $C is not in the history"
[ "$(condor_history -af JobStatus -constraint "ClusterId == $C")" = 3 ] || fail "rm: not removed"
[ "$(ev rm 009)" = 1 ] || fail "rm: no abort event"
grep -q "slot1: the job did not end within its vacate time of its soft kill; hard kill" "$T/log/StartLog" ||
	fail "rm: no hard kill after the vacate time"
echo "ok: condor_rm of a job that ignores SIGTERM"

# condor_rm of a job whose JobMaxVacateTime is less than the machine's
# MachineMaxVacateTime: its own time is the one it gets
submit jobvacate "+KsLongVacate = true
job_max_vacate_time = 1"
condor_rm "$C" >/dev/null || fail "condor_rm $C"
ended jobvacate
[ "$(ev jobvacate 009)" = 1 ] || fail "jobvacate: no abort event"
echo "ok: a job's JobMaxVacateTime below the machine's"

# condor_hold, its starter stopped: KILLING_TIMEOUT after the hard kill
# the startd kills the starter and the job's processes
submit hold
SP=$(starter_pid)
kill -STOP "$SP"
condor_hold "$C" >/dev/null || fail "condor_hold $C"
ended hold
[ "$(condor_q -allusers "$C" -af JobStatus)" = 5 ] || fail "hold: not held"
[ "$(ev hold 012)" = 1 ] || fail "hold: no held event"
grep -q "slot1: the starter (pid $SP) did not end within KILLING_TIMEOUT of its hard kill: killed, with the 3 processes of its job" "$T/log/StartLog" ||
	fail "hold: the starter $SP was not killed with its job"
condor_rm "$C" >/dev/null
echo "ok: condor_hold of a job that ignores SIGTERM, under a starter that does not act"

# condor_vacate, its starter stopped: the job is evicted, idle again, and
# runs to its end
submit vacate
SP=$(starter_pid)
kill -STOP "$SP"
condor_vacate >/dev/null || fail "condor_vacate"
wait_for 40 no_job_procs || fail "vacate: the job's processes outlived its kill: $(pgrep -af "$J/")"
grep -q "slot1: the starter (pid $SP) did not end within KILLING_TIMEOUT of its hard kill: killed, with the 3 processes of its job" "$T/log/StartLog" ||
	fail "vacate: the starter $SP was not killed with its job"
wait_for 60 in_history "$C" 1 || fail "vacate: job $C did not run again to its end"
[ "$(grep -c '^end' "$J/runs.vacate")" = 1 ] || fail "vacate: runs: $(cat "$J/runs.vacate")"
[ "$(ev vacate 004)" = 1 ] && [ "$(ev vacate 001)" = 2 ] && [ "$(ev vacate 005)" = 1 ] ||
	fail "vacate: $(ev vacate 004) evicted, $(ev vacate 001) execute, $(ev vacate 005) terminated events"
ended vacate
grep -q "slot1: transition 21 Preempting/Vacating -> Preempting/Killing: the vacate time is up" "$T/log/StartLog" ||
	fail "vacate: no transition 21"
echo "ok: condor_vacate of a job that ignores SIGTERM, under a starter that does not act"

# PREEMPT: retirement (none), its soft kill, the hard kill at the end of
# the vacate time; the job is evicted and runs again to its end
submit preempt "+KsPreemptTest = true"
wait_for 60 in_history "$C" 1 || fail "preempt: job $C did not run again to its end"
[ "$(grep -c '^end' "$J/runs.preempt")" = 1 ] || fail "preempt: runs: $(cat "$J/runs.preempt")"
[ "$(ev preempt 004)" = 1 ] && [ "$(ev preempt 005)" = 1 ] ||
	fail "preempt: $(ev preempt 004) evicted, $(ev preempt 005) terminated events"
ended preempt
[ "$(grep -c "transition 21 Preempting/Vacating -> Preempting/Killing: the vacate time is up" "$T/log/StartLog")" = 2 ] ||
	fail "preempt: no transition 21"
echo "ok: preemption of a job that ignores SIGTERM"
