#!/usr/bin/env bash
# crash_test.sh BUILD: the schedd acknowledges nothing before it is in
# its store, and a crash at the worst moment runs no job twice and leaves
# no run out of the event log.  Each job appends a line to its own file
# each time it starts and ends, so that the runs are counted from what
# really ran.
#  1. the schedd killed the moment its ACTIVATE_CLAIM has left (a fault
#     injector preloaded into the daemons): the restarted schedd finds
#     the job started and reconnects to it; it runs once, with its
#     execute (001) and terminated (005) events;
#  2. a job that ends while the schedd is stopped, the schedd then
#     killed: the startd keeps the end for the restarted schedd, and the
#     job runs once;
#  3. (as root) a spool that fills: condor_rm, condor_qedit and a
#     submission fail with "No space left on device" and change nothing;
#     a job's end waits until there is room, across a schedd killed
#     meanwhile, and is recorded once.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/lib_pool.sh"
tools_on_path

pool_dir crash_test
chmod 755 "$T"
J=$T/jobs
mkdir -p "$J" && chmod 1777 "$J"
mkdir -p "$T/spool"
# the runs of job $1, and then sleep $2
cat > "$J/run.sh" <<'SH'
#!/bin/sh
echo "start $$" >> "$1"
sleep "$2"
echo "end $$" >> "$1"
SH
chmod 755 "$J/run.sh"
# the runs of job $1, which ends once the file $2 is there (or after 5 min)
cat > "$J/hold.sh" <<'SH'
#!/bin/sh
echo "start $$" >> "$1"
i=0
while [ ! -e "$2" ] && [ $i -lt 1500 ]; do sleep 0.2; i=$((i + 1)); done
echo "end $$" >> "$1"
SH
chmod 755 "$J/hold.sh"
job_pool_config <<CFG
NUM_CPUS = 2
SPOOL = $T/spool
CFG
# the fault injector, in every daemon the master starts
export LD_PRELOAD=$B/tests/libks_crash_after.so
export KS_CRASH_AFTER_FILE=$T/crash
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0
KS_CRASH_AFTER_CODE=444 start_master
unset LD_PRELOAD
wait_for 20 sh -c 'condor_status -af Name | grep -q slot1' || fail "no slots"
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"

schedd_pid() { pgrep -P "$MASTER_PID" -f condor_schedd; }
# more_than N PATTERN FILE: FILE has more than N lines with PATTERN
more_than() { [ "$(grep -c "$2" "$3")" -gt "$1" ]; }
# runs FILE: the starts and ends a job wrote, as "start end ..."
runs() { sed 's/ .*//' "$1" 2>/dev/null | tr '\n' ' '; }
# events LOG: the numbers of the events of a job's runs, in order, as
# one word (image sizes and the like left out)
events() { grep -oE '^(000|001|004|005|009|012|013|022|023|024) ' "$1" | tr -d ' \n'; }
submit() {
	cat > "$J/$1.sub"
	out=$(condor_submit "$J/$1.sub") || fail "condor_submit $1: $out"
	C=$(cluster_of "$out")
	[ -n "$C" ] || fail "no cluster for $1: $out"
}

# --- 1. killed right after ACTIVATE_CLAIM ---------------------------------
touch "$T/crash"
old=$(schedd_pid)
submit a <<SUB
executable = $J/run.sh
arguments = $J/a.runs 2
log = $J/a.log
queue
SUB
wait_for 30 sh -c "[ ! -e '$T/crash' ]" || fail "the schedd did not send ACTIVATE_CLAIM"
wait_for 30 sh -c "p=\$(pgrep -P $MASTER_PID -f condor_schedd) && [ \"\$p\" != '$old' ]" ||
	fail "the schedd was not restarted"
wait_for 60 in_history "$C" 1 || fail "job a did not finish after the crash"
[ "$(runs "$J/a.runs")" = "start end " ] || fail "job a ran: $(runs "$J/a.runs")"
[ "$(events "$J/a.log")" = 000001023005 ] || fail "job a's events: $(events "$J/a.log")"
[ "$(condor_history -af NumJobStarts -constraint "ClusterId == $C")" = 1 ] ||
	fail "job a's NumJobStarts: $(condor_history -af NumJobStarts -constraint "ClusterId == $C")"
grep -q "job $C.0 reconnected" "$T/log/SchedLog" || fail "job a was not reconnected"
echo "ok: a schedd killed right after ACTIVATE_CLAIM: the job ran once, 001 and 005 in its log"

# --- 1b. killed as it records the next job on a claim ---------------------
# Two jobs that each take the whole machine share one claim: after the
# first ends, the schedd records the second's start and dies before its
# ACTIVATE_CLAIM leaves.  The startd still has the first job's end on the
# claim; the restarted schedd must not take it for the second's.
echo before > "$T/crash.b"
submit ab <<SUB
executable = $J/run.sh
arguments = $J/ab.\$(Process).runs 2
request_cpus = 2
log = $J/ab.log
queue 2
SUB
wait_for 30 grep -q '^001 ' "$J/ab.log" || fail "job ab.0 did not start"
old=$(schedd_pid)
mv "$T/crash.b" "$T/crash"
wait_for 60 in_history "$C" 2 || fail "jobs ab did not finish after the crash"
[ ! -e "$T/crash" ] || fail "the schedd did not crash before the second ACTIVATE_CLAIM"
[ "$(schedd_pid)" != "$old" ] || fail "the schedd was not restarted (1b)"
for p in 0 1; do
	[ "$(runs "$J/ab.$p.runs")" = "start end " ] || fail "job ab.$p ran: $(runs "$J/ab.$p.runs")"
done
P1=$(printf '(%03d.001.000)' "$C")
[ "$(grep -F "$P1" "$J/ab.log" | grep -oE '^(000|001|004|005|022|023|024) ' | tr -d ' \n')" = 000001005 ] ||
	fail "job ab.1's events: $(grep -F "$P1" "$J/ab.log" | grep -oE '^[0-9]{3} ' | tr -d '\n')"
grep -q "had not started on" "$T/log/SchedLog" || fail "the second job's start was not found pending"
echo "ok: a schedd killed before a claim's next ACTIVATE_CLAIM: the claim's last end was not taken for the next job's"

# --- 1c. killed right after ACTIVATE_CLAIM, its job lost with the startd --
# The master is stopped so that nothing is restarted while the job's
# starter and startd are killed: the job ran, its starter wrote no
# result, and the schedd never heard that it started.  The new startd
# must tell the reconnecting schedd that the job was lost, so that the
# run is in the log (001, then 024) before the job runs again.
kill -STOP "$MASTER_PID"
trap 'kill -CONT "$MASTER_PID" 2>/dev/null; pool_cleanup' EXIT
touch "$T/crash"
submit c <<SUB
executable = $J/run.sh
arguments = $J/c.runs 20
log = $J/c.log
queue
SUB
wait_for 30 sh -c "[ ! -e '$T/crash' ]" || fail "the schedd did not send ACTIVATE_CLAIM (1c)"
wait_for 30 grep -q start "$J/c.runs" || fail "job c did not start"
pkill -9 -f "$B/startd/condor_starter .*$T/" || fail "no starter for job c"
pkill -9 -P "$MASTER_PID" -f condor_startd || fail "no startd to kill (1c)"
kill -CONT "$MASTER_PID"
trap pool_cleanup EXIT
wait_for 90 in_history "$C" 1 || fail "job c did not finish after the crashes"
[ "$(runs "$J/c.runs")" = "start start end " ] || fail "job c ran: $(runs "$J/c.runs")"
[ "$(events "$J/c.log")" = 000001024001005 ] || fail "job c's events: $(events "$J/c.log")"
[ "$(condor_history -af NumJobStarts -constraint "ClusterId == $C")" = 2 ] ||
	fail "job c's NumJobStarts: $(condor_history -af NumJobStarts -constraint "ClusterId == $C")"
grep -q "kept the job's end (lost: its starter left no result)" "$T/log/StartLog" ||
	fail "the new startd kept no end for job c"
grep -A1 '^024 ' "$J/c.log" | grep -q 'Job lost at execution machine' ||
	fail "job c's 024: $(grep -A1 '^024 ' "$J/c.log")"
echo "ok: a schedd killed after ACTIVATE_CLAIM, the job's starter and startd killed before it was back: the lost run in the log, then the job ran again"

# --- 1d. the job ends as its startd shuts down fast ----------------------
# The startd is stopped while the job ends, then told to shut down fast
# (as when its master goes) with the starter's exit not yet seen, and the
# schedd is killed meanwhile: the end must outlive that startd, for the
# schedd and the next startd, and the job must not run again.
submit d <<SUB
executable = $J/run.sh
arguments = $J/d.runs 2
log = $J/d.log
queue
SUB
wait_for 30 grep -q '^001 ' "$J/d.log" || fail "job d's execute event"
SD=$(pgrep -P "$MASTER_PID" -f condor_startd)
ST=$(pgrep -P "$SD" -f condor_starter)
[ -n "$ST" ] || fail "no starter for job d"
kill -STOP "$(schedd_pid)" "$SD"
wait_for 30 grep -q end "$J/d.runs" || { kill -CONT "$SD"; fail "job d did not end"; }
zombie() { grep -q '^State:[[:space:]]*Z' "/proc/$1/status"; }
wait_for 30 zombie "$ST" || { kill -CONT "$SD"; fail "job d's starter did not end"; }
kill -9 "$(schedd_pid)"
kill -QUIT "$SD"
kill -CONT "$SD"
wait_for 60 in_history "$C" 1 || fail "job d did not finish after the fast shutdown"
[ "$(runs "$J/d.runs")" = "start end " ] || fail "job d ran: $(runs "$J/d.runs")"
[ "$(events "$J/d.log")" = 000001023005 ] || fail "job d's events: $(events "$J/d.log")"
echo "ok: a job that ended as its startd shut down fast, its schedd away: recorded once"

# --- 1e. the startd killed as it answers ACTIVATE_CLAIM ---------------------
# The job has started, and the startd dies just before its answer leaves
# (its first OK was the claim's): the schedd cannot tell whether the job
# started, so it must find out by reconnecting, not take the run for one
# that never happened: the run is in the log (001, then its eviction).
# (it waits a second first, dying: the starter has started the job)
echo "before code=1 skip=1 delay=1000 who=condor_startd" > "$T/crash"
submit e <<SUB
executable = $J/run.sh
arguments = $J/e.runs 2
log = $J/e.log
queue
SUB
wait_for 30 sh -c "[ ! -e '$T/crash' ]" || fail "the startd did not die answering ACTIVATE_CLAIM"
wait_for 90 in_history "$C" 1 || fail "job e did not finish after the startd's crash"
[ "$(runs "$J/e.runs")" = "start start end " ] || fail "job e ran: $(runs "$J/e.runs")"
[ "$(events "$J/e.log")" = 000001023004001005 ] || fail "job e's events: $(events "$J/e.log")"
[ "$(condor_history -af NumJobStarts -constraint "ClusterId == $C")" = 2 ] ||
	fail "job e's NumJobStarts: $(condor_history -af NumJobStarts -constraint "ClusterId == $C")"
echo "ok: a startd killed as it answered ACTIVATE_CLAIM: the run it started in the log, then the job ran again"

# --- 2. the job ends while the schedd is away -----------------------------
submit b <<SUB
executable = $J/run.sh
arguments = $J/b.runs 2
log = $J/b.log
queue
SUB
wait_for 30 status_is "$C.0" 2 || fail "job b did not start"
wait_for 30 grep -q '^001 ' "$J/b.log" || fail "job b's execute event"
pid=$(schedd_pid)
ends=$(grep -c 'its result went to the claimer' "$T/log/StartLog")
kill -STOP "$pid"
wait_for 30 grep -q end "$J/b.runs" || { kill -CONT "$pid"; fail "job b did not end"; }
wait_for 30 more_than "$ends" 'its result went to the claimer' "$T/log/StartLog" ||
	{ kill -CONT "$pid"; fail "the startd did not send job b's end"; }
kill -9 "$pid"
wait_for 60 in_history "$C" 1 || fail "job b did not finish after the crash"
[ "$(runs "$J/b.runs")" = "start end " ] || fail "job b ran: $(runs "$J/b.runs")"
[ "$(events "$J/b.log")" = 000001023005 ] || fail "job b's events: $(events "$J/b.log")"
grep -q 'reconnected and was given its job' "$T/log/StartLog" || fail "the startd gave no end"
echo "ok: a job that ended while its schedd was away: recorded once after the restart"

# --- 3. a full spool ------------------------------------------------------
# The store reuses the pages older transactions freed, so a full file
# system fails only the writes that need more: the commands below and
# job r's end (its ad is large) each need a few hundred KiB.
if [ "$(id -u)" != 0 ]; then
	echo "skip: a full spool (needs root to mount a small file system)"
	exit 0
fi
stop_pool
mount -t tmpfs -o size=16m kstest "$T/spool" || { echo "skip: cannot mount a tmpfs"; exit 0; }
trap 'umount -l "$T/spool" 2>/dev/null; pool_cleanup' EXIT
start_master
wait_for 20 sh -c 'condor_status -af Name | grep -q slot1' || fail "no slots (3)"
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad (3)"
big=$(head -c 300000 /dev/zero | tr '\0' x)
submit h <<SUB
executable = /bin/true
hold = true
log = $J/h.log
queue 200
SUB
H=$C
submit r <<SUB
executable = $J/hold.sh
arguments = $J/r.runs $J/r.go
log = $J/r.log
+Payload = "$big"
queue
SUB
R=$C
cat > "$J/many.sub" <<SUB
executable = /bin/true
hold = true
queue 5000
SUB
wait_for 30 grep -q start "$J/r.runs" || fail "job r did not start"
wait_for 30 grep -q '^001 ' "$J/r.log" || fail "job r's execute event"
ends=$(grep -c 'its result went to the claimer' "$T/log/StartLog")
dd if=/dev/zero of="$T/spool/filler" bs=64k 2>/dev/null
out=$(condor_rm "$H" 2>&1) && fail "condor_rm on a full spool succeeded: $out"
grep -q 'No space left on device' <<<"$out" || fail "condor_rm's error: $out"
[ "$(condor_q "$H" -af JobStatus | sort -u)" = 5 ] || fail "condor_rm changed job h"
out=$(condor_qedit "$H" Foo "\"${big:0:3000}\"" 2>&1) && fail "condor_qedit on a full spool succeeded: $out"
grep -q 'No space left on device' <<<"$out" || fail "condor_qedit's error: $out"
[ "$(condor_q "$H" -af Foo | sort -u)" = undefined ] || fail "condor_qedit changed job h"
out=$(condor_submit "$J/many.sub" 2>&1) && fail "a submission to a full spool succeeded: $out"
grep -q 'No space left on device' <<<"$out" || fail "condor_submit's error: $out"
[ "$(condor_q -af ClusterId | sort -u | tr '\n' ' ')" = "$H $R " ] ||
	fail "the queue after a refused submission: $(condor_q -af ClusterId | sort -u)"
# job r ends now: its end cannot be written, and waits
fails=$(grep -c 'cannot write the job queue' "$T/log/SchedLog")
touch "$J/r.go"
wait_for 30 grep -q end "$J/r.runs" || fail "job r did not end"
wait_for 30 more_than "$ends" 'its result went to the claimer' "$T/log/StartLog" ||
	fail "the startd did not send job r's end"
wait_for 30 more_than "$fails" 'cannot write the job queue' "$T/log/SchedLog" ||
	fail "job r's end was not tried"
! grep -q '^005 ' "$J/r.log" || fail "job r's end logged before it was recorded"
# and a schedd killed now restarts with the job still running: the
# startd still has its end
fails=$(grep -c 'cannot write the job queue' "$T/log/SchedLog")
old=$(schedd_pid)
kill -9 "$old"
wait_for 30 sh -c "p=\$(pgrep -P $MASTER_PID -f condor_schedd) && [ \"\$p\" != '$old' ]" ||
	fail "the schedd was not restarted (3)"
wait_for 30 more_than "$fails" 'cannot write the job queue' "$T/log/SchedLog" ||
	fail "the restarted schedd did not try to write job r's end"
! grep -q '^005 ' "$J/r.log" || fail "job r's end logged before it was recorded (2)"
rm -f "$T/spool/filler"
wait_for 60 grep -q '^005 ' "$J/r.log" || fail "job r's end was not recorded once there was room"
wait_for 10 in_history "$R" 1 || fail "job r is not in the history"
[ "$(runs "$J/r.runs")" = "start end " ] || fail "job r ran: $(runs "$J/r.runs")"
[ "$(grep -c '^005 ' "$J/r.log")" = 1 ] || fail "job r's terminated events: $(events "$J/r.log")"
[ "$(grep -c '^001 ' "$J/r.log")" = 1 ] || fail "job r's execute events: $(events "$J/r.log")"
out=$(condor_rm "$H" 2>&1) || fail "condor_rm once there was room: $out"
wait_for 30 in_history "$H" 200 || fail "jobs h were not removed"
echo "ok: a full spool: commands and submissions refused with the reason, a job's end kept until written"
