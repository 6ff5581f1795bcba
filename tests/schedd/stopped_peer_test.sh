#!/usr/bin/env bash
# stopped_peer_test.sh BUILD: a stopped startd stops nothing else.  A pool
# of two startds (the second one STARTD2, -local-name STARTD2); jobs run
# on both; the second is stopped with SIGSTOP.  Meanwhile:
#  - the schedd answers condor_q every time (it waited up to 5 s for each
#    request to the stopped startd before: 10 s and more for a condor_rm
#    of two of its jobs);
#  - the jobs of the other startd keep starting and finishing;
#  - the removed jobs of the stopped startd stay Removed while their
#    lease lasts, and leave the queue once it is over without a word from
#    their startd (the schedd's log says so), as HTCondor's shadow gives
#    up on a silent starter;
#  - the startd, continued, is heard again by the pool.
# Then the collector is stopped: condor_q and condor_submit are answered,
# a running job's end is recorded, and once the collector is continued
# the job submitted meanwhile runs.
# It prints the slowest condor_q answer seen while the startd was
# stopped (a figure, not a check).
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/lib_pool.sh"
tools_on_path

pool_dir stopped_peer
chmod 755 "$T"
mkdir -p "$T/execute2"
job_pool_config <<CFG
DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR STARTD STARTD2 SCHEDD
STARTD2 = \$(STARTD)
STARTD2_ARGS = -local-name STARTD2
STARTD2.STARTD_NAME = second
STARTD2.EXECUTE = $T/execute2
STARTD2.STARTD_LOG = $T/log/StartLog2
STARTD2.STARTD_ADDRESS_FILE = $T/log/.startd2_address
NUM_CPUS = 2
ALIVE_INTERVAL = 10
CFG
start_master
two_startds() { [ "$(condor_status -af Name | grep -c '^slot')" -ge 2 ]; }
wait_for 30 two_startds || fail "not both startds' slots: $(condor_status -af Name)"
SD2=$(pgrep -P "$MASTER_PID" -f 'local-name STARTD2')
[ -n "$SD2" ] || fail "no second startd"
COLL=$(pgrep -P "$MASTER_PID" -f condor_collector)
[ -n "$COLL" ] || fail "no collector"
trap 'kill -CONT $SD2 $COLL 2>/dev/null; pool_cleanup' EXIT

# two long jobs for the second startd, with a short lease
cat > "$T/long.sub" <<SUB
executable = /bin/sleep
arguments = 600
requirements = regexp("@second@", Name)
job_lease_duration = 20
queue 2
SUB
out=$(condor_submit "$T/long.sub") || fail "long submit: $out"
L=$(cluster_of "$out")
wait_for 30 status_is "$L.0" 2 || fail "long job 0 not running"
wait_for 30 status_is "$L.1" 2 || fail "long job 1 not running"
wait_for 30 sh -c "[ \$(grep -c 'job $L\\.[01] started on' '$T/log/SchedLog') = 2 ]" ||
	fail "long jobs not started"

kill -STOP "$SD2"
stopped=$(date +%s)

# short jobs for the first startd, submitted and run while the second is
# stopped
cat > "$T/short.sub" <<SUB
executable = /bin/sleep
arguments = 1
requirements = !regexp("@second@", Name)
queue 6
SUB
out=$(condor_submit "$T/short.sub") || fail "short submit: $out"
S=$(cluster_of "$out")
out=$(condor_rm "$L") || fail "condor_rm: $out"

# condor_q answers all along (timeout: a generous bound, far below what
# a schedd that waits on the stopped startd takes)
slowest=0
n=0
while ! in_history "$S" 6; do
	t0=$(date +%s%N)
	timeout 3 condor_q -allusers -af ClusterId ProcId JobStatus >/dev/null ||
		fail "condor_q did not answer within 3 s while a startd was stopped"
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ "$ms" -gt "$slowest" ] && slowest=$ms
	n=$((n + 1))
	[ $(( $(date +%s) - stopped )) -gt 90 ] &&
		fail "the short jobs did not finish while the second startd was stopped"
	sleep 0.2
done
echo "ok: 6 jobs ran on the first startd while the second was stopped; condor_q answered $n times, the slowest in $slowest ms"

# the removed jobs wait for their lease, then leave
[ "$(condor_q -allusers "$L" -af JobStatus | sort -u)" = 3 ] ||
	fail "the long jobs are not Removed: $(condor_q -allusers "$L" -af JobStatus)"
wait_for 90 in_history "$L" 2 || fail "the removed jobs did not leave once their lease was over"
gone=$(date +%s)
[ $((gone - stopped)) -ge 20 ] || fail "the removed jobs left before their lease was over"
grep -q "nothing heard from .* for its whole lease (20 s)" "$T/log/SchedLog" ||
	fail "the schedd's log does not say why: $(grep -i lease "$T/log/SchedLog" | tail -5)"
echo "ok: the removed jobs of the stopped startd left the queue $((gone - stopped)) s after it stopped (lease 20 s)"

kill -CONT "$SD2"
# continued, it answers the pool again
wait_for 30 sh -c "condor_status -af Name State | grep '@second@' | grep -vq Claimed" ||
	fail "the continued startd's slots did not come back: $(condor_status -af Name State)"
echo "ok: the continued startd is back"

# --- a stopped collector -------------------------------------------------
cat > "$T/c.sub" <<SUB
executable = /bin/sleep
arguments = 4
queue
SUB
out=$(condor_submit "$T/c.sub") || fail "c submit: $out"
C=$(cluster_of "$out")
wait_for 30 status_is "$C.0" 2 || fail "job c not running"
kill -STOP "$COLL"
out=$(timeout 10 condor_submit "$T/c.sub") ||
	fail "condor_submit did not answer while the collector was stopped: $out"
D=$(cluster_of "$out")
slowest=0
until in_history "$C" 1; do
	t0=$(date +%s%N)
	timeout 3 condor_q -allusers -af ClusterId ProcId JobStatus >/dev/null ||
		fail "condor_q did not answer within 3 s while the collector was stopped"
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ "$ms" -gt "$slowest" ] && slowest=$ms
	sleep 0.2
done
echo "ok: with the collector stopped, a job's end was recorded and condor_submit and condor_q answered (the slowest condor_q in $slowest ms)"
kill -CONT "$COLL"
wait_for 60 in_history "$D" 1 || fail "the job submitted while the collector was stopped did not run once it was back"
echo "ok: once the collector was back, the job submitted meanwhile ran"
