#!/usr/bin/env bash
# instance_test.sh BUILD PART: one master per LOCAL_DIR, one daemon per
# local state, and daemons that end with their master, on a whole
# personal pool (master, collector, negotiator, startd, schedd) on
# loopback.  PART is one of
#   second_master  a second condor_master on the same LOCAL_DIR (with -f
#                  and without) is refused, says why, and leaves the
#                  first one's pool alone;
#   state_locks    a schedd, startd or negotiator started by hand on the
#                  running pool's state is refused, naming the lock and
#                  its holder; a master whose schedd finds its job queue
#                  taken says so in its log and starts it once it is free;
#   master_killed  after kill -9 of the master every daemon it started
#                  exits (a running job's process with them), and a new
#                  master starts a pool that runs the jobs submitted
#                  before, each to one completion.
# As root the jobs belong to a temporary account.
set -u
B=$(cd "$1" && pwd)
PART=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path

# ours [NAME]: the pids of condor_NAME (any daemon without NAME) running
# with this pool's configuration
ours() {
	local p
	for p in $(pgrep -f "/condor_${1:-[a-z]+}( |\$)"); do
		tr '\0' '\n' 2>/dev/null < "/proc/$p/environ" |
			grep -qxF "CONDOR_CONFIG=$CONDOR_CONFIG" && echo "$p"
	done
}
# cleanup: besides the pool, what this test leaves when it fails (the
# orphans of a killed master, a daemon started by hand), which the
# pool's clean-up cannot tell by their command lines
cleanup() {
	local p
	for p in $(ours); do
		[ "$p" = "${MASTER_PID:-}" ] ||
			[ "$(ps -o ppid= -p "$p" | tr -d ' ')" = "${MASTER_PID:-none}" ] ||
			kill -9 "$p" 2>/dev/null
	done
	pool_cleanup
	for p in $(ours); do kill -9 "$p" 2>/dev/null; done
	[ -n "$made" ] && userdel "$made" 2>/dev/null
}

made=
pool_dir "instance_$PART"
trap cleanup EXIT
chmod 755 "$T"
if [ "$(id -u)" = 0 ]; then
	A=ksinst
	if ! id "$A" >/dev/null 2>&1; then
		useradd -M -r -s /bin/sh "$A" || fail "cannot add user $A"
		made=$A
	fi
else
	A=$(id -un)
fi
J=$T/jobs
mkdir -p "$J" && chmod 1777 "$J"

job_pool_config <<CFG
NUM_CPUS = 2
CFG

# pool_up: the slots and the schedd are in the collector
pool_up() {
	wait_for 30 sh -c 'condor_status -af Name | grep -q slot1' || fail "no slots"
	wait_for 30 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"
}
# kid NAME: the pid of the master's child running condor_NAME
kid() { pgrep -P "$MASTER_PID" -f "/condor_$1( |\$)"; }
# starts SUBSYS: how many times SUBSYS's log says it started
starts() { grep -c 'STARTING UP' "$T/log/$1"; }
# refused OUT STATUS PATH WHAT PROGRAM PID: a start refused its lock
refused() {
	out=$1
	case $out in *Sanitizer*) fail "sanitizer report" ;; esac
	[ "$2" = 98 ] || fail "refused with status $2 (want 98)"
	grep -qF "Can't get lock on \"$3\" ($4): $5 (pid $6) holds it" <<<"$out" ||
		fail "no lock message naming $3 and $5 $6"
}

start_master
pool_up

case $PART in
second_master)
	addr=$(cat "$T/log/.master_address")
	# in the foreground: without the lock it would run (timeout: 124)
	out=$(timeout 20 "$B/master/condor_master" -f 2>&1)
	rc=$?
	refused "$out" "$rc" "$T/log/InstanceLock" \
		"one condor_master per LOCAL_DIR" condor_master "$MASTER_PID"
	# in the background: the command fails all the same
	out=$(timeout 20 "$B/master/condor_master" 2>&1)
	rc=$?
	refused "$out" "$rc" "$T/log/InstanceLock" \
		"one condor_master per LOCAL_DIR" condor_master "$MASTER_PID"
	# nothing of the first one's was touched: its log, its address, its
	# daemons (one each)
	[ "$(starts MasterLog)" = 1 ] || fail "MasterLog has a second start"
	[ "$(cat "$T/log/.master_address")" = "$addr" ] || fail "master address file changed"
	for d in master collector negotiator startd schedd; do
		[ "$(ours $d | wc -l)" = 1 ] || fail "not one $d: $(ours $d)"
	done
	out=$(condor_status -master -af Name | wc -l)
	[ "$out" = 1 ] || fail "$out masters in the collector"
	;;
state_locks)
	SP=$(kid schedd)
	[ -n "$SP" ] || fail "no schedd"
	qaddr=$(cat "$T/spool/.schedd_address")
	out=$(timeout 20 "$B/schedd/condor_schedd" -f 2>&1)
	rc=$?
	refused "$out" "$rc" "$T/spool/job_queue.log" "the job queue" condor_schedd "$SP"
	out=$(timeout 20 "$B/startd/condor_startd" -f 2>&1)
	rc=$?
	refused "$out" "$rc" "$T/execute" "the execute directory" condor_startd "$(kid startd)"
	out=$(timeout 20 "$B/negotiator/condor_negotiator" -f 2>&1)
	rc=$?
	refused "$out" "$rc" "$T/spool/Accountantnew.mdb" "the accountant" \
		condor_negotiator "$(kid negotiator)"
	# in the background, too
	out=$(timeout 20 "$B/schedd/condor_schedd" 2>&1)
	rc=$?
	refused "$out" "$rc" "$T/spool/job_queue.log" "the job queue" condor_schedd "$SP"
	# the running ones' logs and addresses are theirs alone
	for l in SchedLog StartLog NegotiatorLog; do
		[ "$(starts $l)" = 1 ] || fail "$l has a second start"
	done
	[ "$(cat "$T/spool/.schedd_address")" = "$qaddr" ] || fail "schedd address file changed"
	condor_q -allusers >/dev/null || fail "condor_q after the refusals"
	[ "$(kid schedd)" = "$SP" ] || fail "the schedd changed"

	# A schedd started by hand holds the queue: the master's, started by
	# condor_on, is refused, and the master's log says why.
	condor_off -schedd >/dev/null || fail "condor_off -schedd"
	wait_for 30 sh -c "! kill -0 $SP" || fail "the schedd did not stop"
	"$B/schedd/condor_schedd" -f 2>>"$T/StderrLog" &
	HAND=$!
	# (its lock is taken before its log is written)
	wait_for 20 grep -q "PID = $HAND\$" "$T/log/SchedLog" || fail "the schedd started by hand"
	condor_on -schedd >/dev/null || fail "condor_on -schedd"
	wait_for 30 grep -q "The SCHEDD (pid [0-9]*) exited with status 98 (another process holds its local state: a SCHEDD of an earlier master still shutting down, or one started by hand)" "$T/log/MasterLog" ||
		fail "the master did not say why its schedd exited"
	grep -q "restarting SCHEDD in [0-9]* seconds" "$T/log/MasterLog" || fail "no restart planned"
	# once the hand-started one has gone, the master's runs
	kill -TERM "$HAND"
	wait "$HAND"
	wait_for 60 eval '[ "$(starts SchedLog)" = 3 ]' || fail "the master's schedd never started"
	kid schedd >/dev/null || fail "the schedd running is not the master's"
	wait_for 30 sh -c 'condor_q -allusers >/dev/null' || fail "condor_q after the master's schedd started"
	;;
master_killed)
	# three jobs that wait (no slot starts them) and one that runs until
	# told to end, noting each of its runs
	cat > "$J/hold.sh" <<SH
#!/bin/sh
echo \$\$ >> $J/runs.\$1
while [ ! -e $J/go ]; do sleep 0.1; done
SH
	chmod 755 "$J/hold.sh"
	cat > "$J/wait.sub" <<SUB
executable = /bin/true
initialdir = $J
log = $J/jobs.log
+KsNoStart = true
queue 3
SUB
	cat > "$J/run.sub" <<SUB
executable = $J/hold.sh
initialdir = $J
arguments = run
log = $J/jobs.log
queue
SUB
	out=$(as "$A" condor_submit "$J/wait.sub") || fail "condor_submit: $out"
	CW=$(cluster_of "$out")
	out=$(as "$A" condor_submit "$J/run.sub") || fail "condor_submit: $out"
	CR=$(cluster_of "$out")
	wait_for 60 status_is "$CR.0" 2 || fail "job $CR.0 did not start"
	wait_for 20 test -s "$J/runs.run" || fail "job $CR.0 has no process"
	JP=$(head -1 "$J/runs.run")
	OLD=$MASTER_PID
	kids=$(pgrep -P "$OLD" | tr '\n' ' ')
	[ "$(wc -w <<<"$kids")" = 4 ] || fail "want 4 daemons, have: $kids"
	kill -9 "$OLD"
	wait "$OLD" 2>/dev/null
	MASTER_PID=
	alive() { for p in "$@"; do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }
	# shellcheck disable=SC2086
	wait_for 30 eval "! alive $kids" ||
		fail "daemons still running after their master was killed: $(ps -o pid=,args= -p "$(echo $kids | tr ' ' ,)")"
	for l in CollectorLog NegotiatorLog StartLog SchedLog; do
		grep -q "Our parent process (pid $OLD) went away; shutting down fast" "$T/log/$l" ||
			fail "$l does not say its master went away"
	done
	wait_for 20 sh -c "! kill -0 $JP" || fail "the job's first run still runs"
	# a new master, a new pool, the same jobs
	start_master
	pool_up
	[ "$(condor_q -allusers -af ClusterId | wc -l)" = 4 ] || fail "jobs lost: $(condor_q -allusers -af ClusterId ProcId JobStatus)"
	as "$A" condor_qedit "$CW" KsNoStart false >/dev/null || fail "condor_qedit"
	touch "$J/go"
	wait_for 120 in_history "$CW" 3 || fail "the waiting jobs did not finish"
	wait_for 60 in_history "$CR" 1 || fail "the running job did not finish"
	bad=$(condor_history -af ClusterId ProcId JobStatus NumJobStarts -constraint "ClusterId == $CW" |
		awk '$3 != 4 || $4 != 1')
	[ -z "$bad" ] || fail "waiting jobs not run exactly once: $bad"
	[ "$(condor_history -af JobStatus -constraint "ClusterId == $CR")" = 4 ] || fail "the running job did not complete"
	for c in "$CW" "$CR"; do
		n=$(grep -c "^005 ($(printf %03d "$c")\." "$J/jobs.log")
		[ "$n" = "$([ "$c" = "$CW" ] && echo 3 || echo 1)" ] || fail "cluster $c: $n terminated events"
	done
	# the running job's first run was ended with the pool, the second ran
	# to the end: two runs, one completion
	[ "$(wc -l < "$J/runs.run")" = 2 ] || fail "runs of the running job: $(cat "$J/runs.run")"
	;;
*)
	fail "no such part: $PART"
	;;
esac
# (under the sanitizers: the daemons' own reports, those of the ones that
# ended with their master among them)
if grep -q Sanitizer "$T/StderrLog"; then
	out=$(grep -m1 -A20 Sanitizer "$T/StderrLog")
	fail "sanitizer report in the daemons' standard error"
fi
echo PASS
