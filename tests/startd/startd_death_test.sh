#!/usr/bin/env bash
# startd_death_test.sh BUILD: a startd killed with SIGKILL while jobs run
# leaves no job running.  Each starter ends its job's processes (a child
# in a session of its own among them) and itself, and writes its result
# (killed); a starter that cannot (stopped) is ended, with its job, by
# the startd the master starts next, which also empties EXECUTE
# (sandboxes, staging directories) but for the jobs' ends, which it
# keeps for their claimers (the stopped starter's, which wrote no
# result, as lost), and removes the claim id files of slots it does not
# have, all before its first ad reaches the collector.  The schedd
# reconnects through the new startd and learns of each killed job's
# eviction (and that the stopped one's job was lost), then runs each job
# again: each runs to its end exactly once, as the jobs' own records and
# their event logs show, and nothing of the ends is left.
# As root the jobs belong to a temporary account.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path

pool_dir ksstartddeath
chmod 755 "$T"
job_account ksstartddeath
J=$T/jobs
mkdir -p "$J" && chown "$A" "$J" && chmod 755 "$J"
# a copy of sleep under $J, so that the jobs' processes are found by path
cp /bin/sleep "$J/ks_sleep"
# job.sh FILE: notes its start and its end in FILE; its first run waits,
# with a child in a session of its own, until it is killed; a later run
# ends at once
cat > "$J/job.sh" <<SH
#!/bin/sh
echo "start \$\$" >> "\$1"
if [ "\$(grep -c '^start' "\$1")" = 1 ]; then
	setsid $J/ks_sleep 300 &
	$J/ks_sleep 300
fi
echo "end \$\$" >> "\$1"
SH
chmod 755 "$J/job.sh"
N=4
as "$A" sh -c "cat > '$J/job.sub'" <<SUB
executable = $J/job.sh
arguments = $J/runs.\$(Process)
initialdir = $J
log = $J/events.log
should_transfer_files = YES
request_cpus = 1
request_memory = 64
job_lease_duration = 60
queue $N
SUB

job_pool_config <<CFG
NUM_CPUS = $N
MEMORY = 1024
CFG

# a job's processes: its shell (whose argument is its runs file) and the
# copies of sleep
no_job_procs() { ! pgrep -f "$J/" >/dev/null; }
starts() { cat "$J"/runs.* 2>/dev/null | grep -c '^start'; }
all_started() { [ "$(starts)" = $N ]; }
# each first run: its shell, its sleep, and the sleep in its own session
all_running() { [ "$(pgrep -f "$J/ks_sleep" | wc -l)" = $((2 * N)) ]; }
startd_pid() { pgrep -P "$MASTER_PID" -x condor_startd; }

start_master
wait_for 20 sh -c 'condor_status -af Name | grep -q slot1' || fail "no slot"
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"
out=$(cd "$J" && as "$A" condor_submit job.sub) || fail "condor_submit: $out"
C=$(cluster_of "$out")
wait_for 60 all_started || fail "the $N jobs did not all start: $(starts) started"
wait_for 20 all_running || fail "the jobs' processes: $(pgrep -af "$J/")"

OLD_ADDR=$(addr)
SD=$(startd_pid)
[ -n "$SD" ] || fail "no startd under the master $MASTER_PID"
STARTERS=$(pgrep -P "$SD" -x condor_starter | sort -n)
[ "$(echo "$STARTERS" | wc -w)" = $N ] || fail "starters of $SD: $STARTERS"
LEFT=$(ls -A "$T/execute")
echo "$LEFT" | grep -q '^dir_' && echo "$LEFT" | grep -q '^\.input_' ||
	fail "no sandbox or staging directory in EXECUTE: $LEFT"
# claim id files of slots the next startd will not have
touch "$T/log/.startd_claim_id.slot7" "$T/log/.startd_preempt_id.slot1"
# one starter cannot end its job: only the next startd can
STOPPED=$(echo "$STARTERS" | head -1)
STOPPED_JOB=$(pgrep -P "$STOPPED")
kill -STOP "$STOPPED"
# the runs file of its job: its shell noted its pid there
STOPPED_RUNS=$(grep -l "^start $STOPPED_JOB\$" "$J"/runs.*)
[ -n "$STOPPED_RUNS" ] || fail "no job file of the stopped starter's job $STOPPED_JOB"

kill -KILL "$SD"
# every process of every job ends (the stopped starter's once the next
# startd has started)
wait_for 60 no_job_procs || fail "job processes outlived the startd: $(pgrep -af "$J/")"
# dead PID: the process is gone, or a zombie nobody reaps
dead() { ! [ -e "/proc/$1" ] || grep -q '^State:[[:space:]]*Z' "/proc/$1/status"; }
for p in $STARTERS; do
	wait_for 20 dead "$p" || fail "the starter $p outlived its startd"
done
grep -q "the startd (pid $SD) went away; hard kill" "$T/StderrLog" ||
	fail "no starter says its startd went away"

# The next startd: by its first ad, the earlier one's leftovers are gone,
# but for the ends of the jobs (their claims' records, and the results
# that their starters wrote: all but the stopped one's).
new_ad() { condor_status -af MyAddress 2>/dev/null | grep -qvF "$OLD_ADDR"; }
wait_for 60 new_ad || fail "no slot ad from a new startd"
for e in $LEFT; do
	case $e in .claim_*|.result_*|.output_*) continue;; esac
	[ ! -e "$T/execute/$e" ] || fail "$e is still in EXECUTE: $(ls -A "$T/execute")"
done
[ "$(grep -c "kept the job's end (killed) that an earlier startd left" "$T/log/StartLog")" = $((N - 1)) ] &&
	[ "$(grep -c "kept the job's end (lost: its starter left no result) that an earlier startd left" "$T/log/StartLog")" = 1 ] &&
	[ "$(ls -A "$T/execute" | grep -c '^\.result_')" = $((N - 1)) ] &&
	[ "$(ls -A "$T/execute" | grep -c '^\.claim_')" = $N ] ||
	fail "the killed jobs' ends are not all kept: $(ls -A "$T/execute")"
[ ! -e "$T/log/.startd_claim_id.slot7" ] && [ ! -e "$T/log/.startd_preempt_id.slot1" ] ||
	fail "stale claim id files: $(ls -A "$T/log")"
grep -q "ended the starter (pid $STOPPED) an earlier startd left running, and the 3 processes of its job" "$T/log/StartLog" ||
	fail "the stopped starter $STOPPED (job $STOPPED_JOB) was not ended by the new startd"
grep -q "removed .* an earlier startd left in EXECUTE" "$T/log/StartLog" ||
	fail "EXECUTE not cleared"
echo "ok: the startd's death ends every job process; the next startd clears what was left"

# Each job runs again, to its end exactly once.
wait_for 120 in_history "$C" $N || fail "the jobs did not all finish: $(condor_q -allusers -af ProcId JobStatus)"
# ev CODE: how many events CODE the event log has of job $C.$p
ev() { grep -c "^$1 ($(printf '%03d.%03d' "$C" "$p")\." "$J/events.log"; }
for p in $(seq 0 $((N - 1))); do
	f=$J/runs.$p
	[ "$(grep -c '^start' "$f")" = 2 ] && [ "$(grep -c '^end' "$f")" = 1 ] ||
		fail "job $C.$p ran: $(tr '\n' ' ' < "$f")"
	[ "$(ev 001)" = 2 ] && [ "$(ev 005)" = 1 ] && [ "$(ev 022)" = 1 ] &&
		[ "$(ev 004)" = 1 ] ||
		fail "job $C.$p: $(ev 001) execute, $(ev 005) terminated, $(ev 022) disconnected, $(ev 004) evicted events"
	# the eviction learned through the new startd (reconnected), but
	# for the stopped starter's job, which was lost (reconnect failed)
	if [ "$f" = "$STOPPED_RUNS" ]; then want="0 1"; else want="1 0"; fi
	[ "$(ev 023) $(ev 024)" = "$want" ] ||
		fail "job $C.$p: $(ev 023) reconnected and $(ev 024) reconnect-failed events, expected $want"
	[ "$(condor_history -af ExitCode -constraint "ClusterId == $C && ProcId == $p")" = 0 ] ||
		fail "job $C.$p: exit code"
done
echo "ok: each job ran to its end once, as its event log shows"

# The schedd released each end it was given; nothing of them is left.
no_ends() { ! ls -A "$T/execute" | grep -qE '^\.(claim|result|output|input)_'; }
wait_for 30 no_ends || fail "ends left in EXECUTE: $(ls -A "$T/execute")"
[ "$(grep -c "an earlier startd left was released by" "$T/log/StartLog")" = $N ] ||
	fail "the kept ends were not each released: $(grep "left was released" "$T/log/StartLog")"
echo "ok: the kept ends went once the schedd had recorded them"
