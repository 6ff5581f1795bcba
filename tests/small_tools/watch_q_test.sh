#!/usr/bin/env bash
# watch_q_test.sh BUILD: condor_watch_q against a personal pool (master,
# collector, negotiator, startd, schedd) on loopback with free ports, in
# a temporary directory, its output going to files (not a terminal, so
# each table is appended and ended by "...").  A cluster is submitted
# that cannot start (KsNoStart); condor_watch_q finds its event log
# through the schedd and shows it idle; -exit any,held,3 ends with 3 once
# condor_hold holds it; -exit all,done,0 follows it through release and
# running until every job is done.  Then the user's own jobs by default,
# -files with no schedd, a job with no log, and bad options and logs.
# As root the jobs belong to the existing account "nobody"; otherwise to
# the user running this.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path
# the layout is checked for the fallback terminal size, 80x24
unset COLUMNS LINES

pool_dir watch_q_test
chmod 755 "$T"
J=$T/jobs
mkdir -p "$J" && chmod 1777 "$J"
if [ "$(id -u)" = 0 ]; then U=nobody; else U=$(id -un); fi

WPIDS=
watch_cleanup() {
	local p
	for p in $WPIDS; do kill "$p" 2>/dev/null; done
	pool_cleanup
}
trap watch_cleanup EXIT

job_pool_config </dev/null
start_master
wait_for 20 sh -c 'condor_status -af Name | grep -q slot1' || fail "no slots"
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"

# bg NAME ARGS...: condor_watch_q in the background, its output in
# $J/NAME.out and .err, its pid in $NAME_pid
bg() {
	local name=$1; shift
	condor_watch_q "$@" </dev/null >"$J/$name.out" 2>"$J/$name.err" &
	eval "${name}_pid=$!"
	WPIDS="$WPIDS $!"
}
# ended PID: the process has exited
ended() { ! kill -0 "$1" 2>/dev/null; }
# last_table FILE: the last copy of the text in FILE (after the last
# "..." but one)
last_table() {
	awk '/^\.\.\.$/ { if (cur != "") last = cur; cur = ""; next }
	     { cur = cur $0 "\n" } END { printf "%s", last }' "$1"
}
show() { echo "--- $1.out (end):"; tail -25 "$J/$1.out"; echo "--- $1.err:"; cat "$J/$1.err"; }

cat >"$J/w1.sub" <<SUB
executable = /bin/true
log = w1.log
batch_name = wq_batch
+KsNoStart = true
queue 3
SUB
out=$(cd "$J" && as "$U" condor_submit w1.sub 2>&1) || fail "condor_submit: $out"
C1=$(cluster_of "$out")
[ -n "$C1" ] || fail "no cluster in '$out'"

# --- idle, then held: -exit any,held,3 ---------------------------------------
bg held -clusters "$C1" -exit any,held,3
bg done -clusters "$C1" -exit all,done,0
idle_row="^wq_batch +3 +- +- +3 +$C1\\.0 \\.\\.\\. $C1\\.2 +\\[-+\\]\$"
wait_for 30 grep -Eq "$idle_row" "$J/held.out" || { show held; fail "no idle row"; }
wait_for 30 grep -Eq "$idle_row" "$J/done.out" || { show done; fail "no idle row"; }
ended "$held_pid" && { show held; fail "-exit any,held ended with no job held"; }
grep -qx 'Total: 3 jobs; 3 idle' "$J/held.out" || { show held; fail "idle summary"; }
grep -q $'\033' "$J/held.out" && fail "escape sequences when not on a terminal"
grep -q 'Press' "$J/held.out" && fail "a 'Press ... to exit' line with -exit given"
echo "ok: condor_watch_q -clusters finds the cluster's log and shows it idle"

condor_hold "$C1" >/dev/null || fail "condor_hold"
wait_for 60 ended "$held_pid" || { show held; fail "-exit any,held,3 did not end"; }
wait "$held_pid"; rc=$?
[ "$rc" = 3 ] || { show held; fail "-exit any,held,3 exited $rc"; }
got=$(last_table "$J/held.out")
# rep N CHAR: CHAR N times
rep() { printf "%${1}s" "" | tr ' ' "$2"; }
ids="$C1.0 ... $C1.2"
row="wq_batch     3     -    -     -      3   $ids "
# the row's bar takes what is left of 80 columns
want="BATCH      HELD  IDLE  RUN  DONE  TOTAL  JOB_IDS
$row[$(rep $((80 - ${#row} - 2)) '!')]

Total Progress: [$(rep 62 '!')]

Total: 3 jobs; 3 held"
[ "$(sed '/^Updated at /d' <<<"$got")" = "$want" ] || { show held; fail "held table:
$got"; }
grep -Eq "^Updated at [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\$" <<<"$got" ||
	fail "no Updated at line: $got"
tail -1 "$J/held.out" | grep -Eq '^Exiting with code 3 because of condition "any held" at [0-9-]+ [0-9:]+$' ||
	{ show held; fail "exit message"; }
[ "$(tail -2 "$J/held.out" | head -1)" = "..." ] || { show held; fail "no ... before the exit message"; }
echo "ok: -exit any,held,3 exits 3 once condor_hold holds the jobs, the table showing them held"

# --- released, run, done: -exit all,done,0 -----------------------------------
ended "$done_pid" && { show done; fail "-exit all,done,0 ended early"; }
condor_qedit "$C1" KsNoStart false >/dev/null || fail "condor_qedit"
condor_release "$C1" >/dev/null || fail "condor_release"
wait_for 120 ended "$done_pid" || { show done; fail "-exit all,done,0 did not end"; }
wait "$done_pid"; rc=$?
[ "$rc" = 0 ] || { show done; fail "-exit all,done,0 exited $rc"; }
got=$(last_table "$J/done.out" | sed '/^Updated at /d')
row="wq_batch     -    -     3      3          "
want="BATCH      IDLE  RUN  DONE  TOTAL  JOB_IDS
$row[$(rep $((80 - ${#row} - 2)) '#')]

Total Progress: [$(rep 62 '#')]

Total: 3 jobs; 3 completed"
[ "$got" = "$want" ] || { show done; fail "done table:
$got"; }
tail -1 "$J/done.out" | grep -Eq '^Exiting with code 0 because of condition "all done" at ' ||
	{ show done; fail "exit message"; }
grep -q '^BATCH *HELD' "$J/done.out" || { show done; fail "never showed the jobs held"; }
echo "ok: -exit all,done,0 follows the jobs through hold, release and run, and exits 0 when all are done"

# --- -files, no schedd needed --------------------------------------------------
out=$(CONDOR_CONFIG=/nonexistent condor_watch_q -files "$J/w1.log" -groupby cluster \
	-exit all,done,5 -no-progress -no-updated-at </dev/null 2>&1); rc=$?
[ "$rc" = 5 ] || fail "-files: $rc '$out'"
row=$(printf '%-7s    -    -     3      3          ' "$C1")
[ "$out" = "CLUSTER  IDLE  RUN  DONE  TOTAL  JOB_IDS
$row[$(rep $((80 - ${#row} - 2)) '#')]

Total: 3 jobs; 3 completed
...
Exiting with code 5 because of condition \"all done\" at ${out##* at }" ] || fail "-files: '$out'"
# the batch name from the submit events' notes
out=$(CONDOR_CONFIG=/nonexistent condor_watch_q -files "$J/w1.log" -exit all,done \
	-no-row-progress </dev/null 2>&1); rc=$?
[ "$rc" = 0 ] && grep -q '^wq_batch  ' <<<"$out" || fail "-files, batch name: $rc '$out'"
echo "ok: -files reads the log alone"

# --- the user's own jobs by default --------------------------------------------
cat >"$J/w2.sub" <<SUB
executable = /bin/true
log = w2.log
+KsNoStart = true
queue
SUB
out=$(cd "$J" && as "$U" condor_submit w2.sub 2>&1) || fail "condor_submit: $out"
C2=$(cluster_of "$out")
out=$(cd "$J" && as "$U" timeout 60 condor_watch_q -exit any,idle,4 -no-row-progress </dev/null 2>&1); rc=$?
[ "$rc" = 4 ] || fail "default: $rc '$out'"
grep -Eq "^ID: $C2 +1 +- +- +1 +$C2\\.0 *\$" <<<"$out" || fail "default: '$out'"
grep -q "wq_batch" <<<"$out" && fail "default: a cluster that left the queue: '$out'"
condor_rm "$C2" >/dev/null || fail "condor_rm"
wait_for 30 queue_empty || fail "queue not empty"
out=$(cd "$J" && as "$U" condor_watch_q </dev/null 2>&1); rc=$?
[ "$rc" = 0 ] && [ "$out" = "WARNING: No jobs found, exiting..." ] || fail "no jobs: $rc '$out'"
echo "ok: with no options, the user's own jobs; none: 'No jobs found', 0"

# --- a job with no log -----------------------------------------------------------
cat >"$J/w3.sub" <<SUB
executable = /bin/true
+KsNoStart = true
queue
SUB
out=$(cd "$J" && as "$U" condor_submit w3.sub 2>&1) || fail "condor_submit: $out"
C3=$(cluster_of "$out")
out=$(condor_watch_q -clusters "$C3" </dev/null 2>&1); rc=$?
[ "$rc" = 0 ] && [ "$out" = "WARNING: Cluster $C3 does not have a job event log file (set log=<path> in the submit description)
WARNING: No jobs found, exiting..." ] || fail "no log: $rc '$out'"
condor_rm "$C3" >/dev/null
echo "ok: a cluster with no log is named"

# --- bad options and logs ------------------------------------------------------------
out=$(condor_watch_q -bogus </dev/null 2>&1); rc=$?
[ "$rc" = 2 ] && [ "$(tail -1 <<<"$out")" = "condor_watch_q: error: unrecognized arguments: -bogus" ] &&
	grep -q '^usage: condor_watch_q \[-help\]' <<<"$out" || fail "-bogus: $rc '$out'"
out=$(condor_watch_q -exit all,finished </dev/null 2>&1); rc=$?
[ "$rc" = 2 ] && [ "$(tail -1 <<<"$out")" = 'condor_watch_q: error: invalid JOB_STATUS "finished", must be one of {active, done, idle, held}' ] ||
	fail "-exit all,finished: $rc '$out'"
out=$(condor_watch_q -exit all,done,zero </dev/null 2>&1); rc=$?
[ "$rc" = 2 ] && [ "$(tail -1 <<<"$out")" = 'condor_watch_q: error: exit_status must be an integer, but was "zero"' ] ||
	fail "-exit all,done,zero: $rc '$out'"
out=$(condor_watch_q "$C1" </dev/null 2>/dev/null); rc=$?
err=$(condor_watch_q "$C1" </dev/null 2>&1 >/dev/null)
[ "$rc" = 1 ] && [ "$err" = "condor_watch_q: error: argument $C1: to track specific cluster IDs, try -clusters $C1" ] ||
	fail "a bare cluster id: $rc '$err'"
out=$(condor_watch_q -files "$J/nope.log" -exit all,done </dev/null 2>&1); rc=$?
grep -qx "WARNING: Could not open event log at $J/nope.log for reading, so it will be ignored. Reason: File path does not exist" <<<"$out" ||
	fail "missing log: $rc '$out'"
printf 'this is not\nan event log\n...\n' >"$J/junk.log"
out=$(condor_watch_q -files "$J/junk.log" -exit all,done,0 </dev/null 2>&1); rc=$?
[ "$rc" = 0 ] && grep -Eq "^[0-9-]+ [0-9:]+ \\| ERROR: Failed to parse event from $J/junk.log\\. Reason: line 1: " <<<"$out" ||
	fail "junk log: $rc '$out'"
echo "ok: bad options, -exit conditions and logs are refused clearly"
echo "PASS"
