#!/usr/bin/env bash
# priv_test.sh BUILD: a whole personal pool started by root, its daemons
# running as an unprivileged account (CONDOR_IDS), and jobs of two
# users: every file the daemons touch on a user's behalf is touched with
# that user's identity, never root's.  Needs root (skipped otherwise):
# it makes a daemon account and two users, and removes them.
#  - the daemons run as the account (effective uid) with root as their
#    real uid; the directories they make and their logs and state are
#    the account's; the pool's signing key is root's;
#  - a job's event log, output and error are made as its owner, in a
#    directory only the owner may write (shared file system and file
#    transfer alike), and a local universe job runs as its owner;
#  - an event log in a directory the user may not write is not made,
#    and one that is a symbolic link to root's file does not change it;
#  - output transferred back through a link to root's file does not
#    change it, and input the user may not read is not sent: the jobs
#    are held instead;
#  - without CONDOR_IDS and without an account named condor, the master
#    refuses to start (HTCondor's message).
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: needs root (it makes accounts and runs daemons as one)"
	exit 77
fi
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/lib_pool.sh"
unset CONDOR_IDS
tools_on_path

made=()
cleanup_users() { for u in "${made[@]}"; do userdel "$u" 2>/dev/null; done; }
for u in kstcondor kstalice kstbob; do
	if ! id "$u" >/dev/null 2>&1; then
		useradd -M -r -s /bin/sh "$u" || { echo "FAIL cannot add user $u"; exit 1; }
		made+=("$u")
	fi
done
pool_dir priv_test
trap 'cleanup_users; pool_cleanup' EXIT
chmod 755 "$T"
rmdir "$T/execute"
CU=$(id -u kstcondor) CG=$(id -g kstcondor)

# --- no account to run as -------------------------------------------------
job_pool_config <<CFG
SEC_PASSWORD_DIRECTORY = $T/passwords.d
CFG
if ! id condor >/dev/null 2>&1; then
	out=$("$B/master/condor_master" -f 2>&1) && fail "the master started without an account: $out"
	grep -q "Can't find \"condor\" in the password file and CONDOR_IDS not defined" <<<"$out" ||
		fail "the master's refusal: $out"
	echo "ok: without CONDOR_IDS or a condor account, the master refuses to start"
fi
out=$(CONDOR_IDS=x.y "$B/master/condor_master" -f 2>&1) && fail "the master started with CONDOR_IDS x.y"
grep -q "badly formed value in the CONDOR_IDS environment variable (x.y)" <<<"$out" ||
	fail "CONDOR_IDS x.y: $out"

# --- the pool, as kstcondor -------------------------------------------------
echo "CONDOR_IDS = $CU.$CG" >> "$CONDOR_CONFIG"
start_master
wait_for 30 sh -c 'condor_status -af Name | grep -q slot1' || fail "no slots"
wait_for 30 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"
# (this pool's: the master and its children; other tests' may run beside)
for p in "$MASTER_PID" $(pgrep -P "$MASTER_PID" -f 'condor_(collector|negotiator|schedd|startd)'); do
	ids=$(awk '/^Uid:/ {print $2, $3}' "/proc/$p/status")
	[ "$ids" = "0 $CU" ] || fail "daemon $(cat /proc/$p/comm) (pid $p) has uids $ids, not 0 $CU"
done
for d in log spool execute; do
	[ "$(stat -c %u "$T/$d")" = "$CU" ] || fail "$T/$d belongs to $(stat -c %U "$T/$d")"
done
[ "$(stat -c %u "$T/log/SchedLog")" = "$CU" ] || fail "SchedLog belongs to $(stat -c %U "$T/log/SchedLog")"
[ "$(stat -c %u "$T/spool/job_queue.log")" = "$CU" ] || fail "the job queue belongs to $(stat -c %U "$T/spool/job_queue.log")"
[ "$(stat -c '%u %a' "$T/passwords.d/POOL")" = "0 600" ] || fail "the signing key: $(stat -c '%U %a' "$T/passwords.d/POOL")"
echo "ok: the daemons run as kstcondor (root the real uid), their files are its, the signing key root's"

# --- jobs of two users ------------------------------------------------------
for u in kstalice kstbob; do
	mkdir -p "$T/home/$u" && chown "$u:" "$T/home/$u" && chmod 700 "$T/home/$u"
done
chmod 755 "$T/home"
A=$T/home/kstalice
mkdir -m 755 "$T/rootdir"
echo "root's" > "$T/rootfile" && chmod 644 "$T/rootfile"
echo "secret" > "$T/rootsecret" && chmod 600 "$T/rootsecret"
as kstalice sh -c "echo input > '$A/in.txt'; chmod 600 '$A/in.txt'; ln -s '$T/rootfile' '$A/link.log'; ln -s '$T/rootfile' '$A/link.out'"
# job N: should_transfer_files STF, input IN, output OUT, log LOG; held
# at first, so that what condor_submit would check can be set behind its
# back (condor_qedit: the schedd must not trust the job ad either)
job() {
	as kstalice sh -c "cat > '$A/job$1.sub'" <<SUB
executable = /bin/sh
initialdir = $A
should_transfer_files = $2
${3:+transfer_input_files = $3}
arguments = "-c 'cat ${3:-/dev/null} 2>/dev/null; id -un; echo err >&2'"
output = $4
error = err.$1
log = job$1.log
hold = true
queue
SUB
	out=$(cd "$A" && as kstalice condor_submit "job$1.sub") || fail "condor_submit job $1: $out"
	J[$1]=$(cluster_of "$out")
	[ "$5" = "job$1.log" ] || as kstalice condor_qedit "${J[$1]}" UserLog "\"$5\"" >/dev/null ||
		fail "condor_qedit of job $1's log"
}
declare -a J
job 0 NO "" out.0 job0.log
job 1 YES in.txt out.1 job1.log
job 2 YES in.txt out.2 "$T/rootdir/x.log"
job 3 YES in.txt out.3 "$A/link.log"
job 4 YES in.txt link.out job4.log
job 5 YES "$T/rootsecret" out.5 job5.log
# a job whose output only its owner may read comes back all the same
as kstalice sh -c "cat > '$A/job6.sub'" <<SUB
executable = /bin/sh
initialdir = $A
should_transfer_files = YES
arguments = "-c 'umask 077; echo private > private.txt'"
log = job6.log
hold = true
queue
SUB
out=$(cd "$A" && as kstalice condor_submit job6.sub) || fail "condor_submit job 6: $out"
J[6]=$(cluster_of "$out")
for i in 0 1 2 3 4 5 6; do
	as kstalice condor_release "${J[$i]}" >/dev/null || fail "condor_release of job $i"
done
as kstalice sh -c "cat > '$A/local.sub'" <<SUB
universe = local
executable = /bin/sh
initialdir = $A
arguments = "-c 'id -un'"
output = local.out
log = local.log
queue
SUB
out=$(cd "$A" && as kstalice condor_submit local.sub) || fail "condor_submit local: $out"
L=$(cluster_of "$out")
# every job has ended or is held again
settled() { [ -z "$(condor_q -allusers -af ClusterId -constraint 'JobStatus != 5')" ]; }
wait_for 120 settled || fail "the jobs did not end: $(condor_q -allusers -af ClusterId ProcId JobStatus HoldReason)"
owner_is() { [ "$(stat -c %U "$1" 2>/dev/null)" = "$2" ] || fail "$1 belongs to $(stat -c %U "$1" 2>&1), not $2"; }
# a shared file system's job and a transferring one: the user's files
for f in out.0 err.0 job0.log out.1 err.1 job1.log local.out local.log; do
	owner_is "$A/$f" kstalice
done
[ "$(tail -1 "$A/out.0")" = kstalice ] || fail "job 0 ran as $(tail -1 "$A/out.0")"
[ "$(head -1 "$A/out.1")" = input ] && [ "$(tail -1 "$A/out.1")" = kstalice ] ||
	fail "job 1's output: $(cat "$A/out.1")"
[ "$(cat "$A/local.out")" = kstalice ] || fail "the local job ran as $(cat "$A/local.out")"
grep -q '^005 ' "$A/job0.log" && grep -q '^005 ' "$A/job1.log" || fail "no terminated events"
# an event log where the user may not write: not made
in_history "${J[2]}" 1 || fail "job 2 did not complete"
[ ! -e "$T/rootdir/x.log" ] || fail "the schedd made $T/rootdir/x.log ($(stat -c %U "$T/rootdir/x.log"))"
grep -q "cannot write its event log.*$T/rootdir/x.log" "$T/log/SchedLog" ||
	fail "the refused event log is not in the SchedLog"
# an event log, and an output, through a link to root's file: unchanged
in_history "${J[3]}" 1 || fail "job 3 did not complete"
[ "$(cat "$T/rootfile")" = "root's" ] || fail "root's file was written: $(head -c 300 "$T/rootfile")"
[ "$(condor_q -allusers "${J[4]}" -af JobStatus HoldReasonCode)" = "5 12" ] ||
	fail "the job whose output is a link to root's file: $(condor_q -allusers "${J[4]}" -af JobStatus HoldReason)"
# input the user may not read: not sent, the job held
[ "$(condor_q -allusers "${J[5]}" -af JobStatus HoldReasonCode)" = "5 13" ] ||
	fail "the job with root's input: $(condor_q -allusers "${J[5]}" -af JobStatus HoldReason)"
! grep -rqx secret "$A" || fail "root's secret reached the user's directory"
in_history "${J[6]}" 1 || fail "job 6 did not complete: $(condor_q -allusers "${J[6]}" -af HoldReason)"
[ "$(cat "$A/private.txt")" = private ] && owner_is "$A/private.txt" kstalice ||
	fail "job 6's private output"
echo "ok: job files made as their owner; logs and output refused where the owner could not write; input the owner could not read not sent"

# --- whose jobs condor_q shows ---------------------------------------------
# as HTCondor's schedd decides: root (a queue superuser) sees every job
# and gets no line of its own; a user sees its own jobs, with a line for
# them; another user none of them.  The schedd of a pool root started is
# named after the host.
out=$(condor_q)
grep -q "^-- Schedd: $(hostname) : <" <<<"$out" || fail "the schedd's heading in a pool root started: $out"
grep -q "^Total for root" <<<"$out" && fail "root got a line of its own: $out"
n=$(condor_q -allusers -constraint 'Owner == "kstalice"' -af ClusterId | wc -l)
[ "$n" -gt 0 ] || fail "no job of alice's left to look at"
[ "$(condor_q -af ClusterId | wc -l)" = "$n" ] || fail "root does not see alice's jobs: $out"
out=$(as kstalice condor_q)
grep -q "^Total for kstalice: $n jobs;" <<<"$out" || fail "alice's condor_q: $out"
[ "$(as kstalice condor_q -af ClusterId | wc -l)" = "$n" ] || fail "alice's own jobs"
[ -z "$(as kstbob condor_q -af ClusterId)" ] || fail "bob sees alice's jobs"
echo "ok: condor_q shows root every job, and each user its own with a line for them"
