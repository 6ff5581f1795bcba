#!/usr/bin/env bash
# end_kept_test.sh BUILD: a job's end outlives its startd's death until
# its claimer has had it (docs/startd.md, "After a startd's death").
#
# 1. A startd alone, its claims driven by ks_claim: a claim's end (the
#    starter's result, its output files) and its record are on disk while
#    the claim keeps them, and gone when it runs its next job or ends.
#    The startd is killed with SIGKILL; the next one keeps the ends left
#    and answers for them: a reconnect gets the end, ALIVE is answered,
#    other commands refused, RELEASE_CLAIM removes it, an end no claimer
#    comes for goes after its job's lease; nothing is given to the slot's
#    new claim, and an id that names nothing is refused.
# 2. A whole pool: a job ends while its schedd is stopped, its output too
#    large to reach the stopped schedd whole; the startd is killed and
#    started again by the master; the schedd, continued, reconnects
#    through the new startd and completes the job exactly once, with its
#    output, and releases the end.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path
CL=$B/tests/startd/ks_claim

pool_dir ksendkept
chmod 755 "$T"
job_account ksendkept
J=$T/jobs
mkdir -p "$J" && chown "$A" "$J" && chmod 755 "$J"
X=$T/execute

# files SLOT: the end's files of SLOT's claims in EXECUTE (of any life)
files() { ls -A "$X" | grep -E "^\.(claim|result|output)_$1_[0-9]" | sort; }
# no_files SLOT: none is left
no_files() { [ -z "$(files "$1")" ]; }
startd_pid() { pgrep -P "$MASTER_PID" -x condor_startd; }
# restart_startd: the startd killed with SIGKILL; the master starts
# another, which has advertised its slots
restart_startd() {
	local old sd
	old=$(addr)
	sd=$(startd_pid)
	[ -n "$sd" ] || fail "no startd under the master $MASTER_PID"
	kill -KILL "$sd"
	new_ad() { condor_status -af MyAddress 2>/dev/null | grep -qvF "$old"; }
	wait_for 60 new_ad || fail "no slot ad from a new startd"
}

# ---- 1. the startd's side ------------------------------------------------
startd_config <<CFG
use FEATURE : StaticSlots
NUM_CPUS = 3
MEMORY = 1024
CFG
start_master
wait_for 20 sh -c 'condor_status -af Name | grep -q slot3' || fail "no slots"

# job.ad: a job that leaves one output file
cat > "$T/job.ad" <<EOF
Cmd = "/bin/sh"
Arguments = "-c 'echo out > result.txt'"
Owner = "$A"
ClusterId = 1
ProcId = 0
JobLeaseDuration = 600
EOF
# slot3: the normal path.  Each job's end is on disk until the next job
# on the claim, and nothing is left once the claim ends.
ID3=$(claim_id slot3)
"$CL" "$(addr)" REQUEST_CLAIM "$ID3" "$T/job.ad" >/dev/null || fail "claim slot3"
out=$("$CL" "$(addr)" ACTIVATE_CLAIM "$ID3" "$T/job.ad") || fail "activate slot3: $out"
echo "$out" | grep -q '^FileName = "result.txt"' || fail "slot3: no output file: $out"
[ "$(files slot3 | cut -d_ -f1 | tr '\n' ' ')" = ".claim .output .result " ] ||
	fail "slot3's end is not on disk: $(ls -A "$X")"
RESULT3=$(files slot3 | grep '^\.result_')
grep -q '^JobExitReason = "exited"' "$X/$RESULT3" || fail "slot3: the result file: $(cat "$X/$RESULT3")"
[ "$(stat -c %a "$X/$RESULT3") $(stat -c %a "$X/$(files slot3 | grep '^\.claim_')")" = "600 600" ] ||
	fail "slot3: the end's files are not the startd's alone: $(ls -la "$X")"
out=$("$CL" "$(addr)" ACTIVATE_CLAIM "$ID3" "$T/job.ad") || fail "activate slot3 again: $out"
[ "$(files slot3 | wc -l)" = 3 ] || fail "slot3's first end stayed beside the second: $(ls -A "$X")"
"$CL" "$(addr)" RELEASE_CLAIM "$ID3" >/dev/null || fail "release slot3"
wait_for 10 no_files slot3 || fail "slot3's claim ended, its end stayed: $(ls -A "$X")"
echo "ok: a job's end is on disk while its claim keeps it, and goes with it"

# slot1: a job that ended (its claimer heard of it, but has not released
# the claim); slot2: one whose lease is short (2 s), though its claim's
# lease is not (its claim's job has no JobLeaseDuration)
ID1=$(claim_id slot1)
"$CL" "$(addr)" REQUEST_CLAIM "$ID1" "$T/job.ad" >/dev/null || fail "claim slot1"
"$CL" "$(addr)" ACTIVATE_CLAIM "$ID1" "$T/job.ad" >/dev/null || fail "activate slot1"
grep -v JobLeaseDuration "$T/job.ad" > "$T/nolease.ad"
sed 's/^JobLeaseDuration = .*/JobLeaseDuration = 2/' "$T/job.ad" > "$T/short.ad"
ID2=$(claim_id slot2)
"$CL" "$(addr)" REQUEST_CLAIM "$ID2" "$T/nolease.ad" >/dev/null || fail "claim slot2"
"$CL" "$(addr)" ACTIVATE_CLAIM "$ID2" "$T/short.ad" >/dev/null || fail "activate slot2"
KEPT1=$(files slot1)
KEPT2=$(files slot2)
[ "$(echo $KEPT1 | wc -w) $(echo $KEPT2 | wc -w)" = "3 3" ] || fail "the ends are not on disk: $(ls -A "$X")"

restart_startd
grep -q "slot1: kept the job's end (exited) that an earlier startd left" "$T/log/StartLog" &&
	grep -q "slot2: kept the job's end (exited) that an earlier startd left" "$T/log/StartLog" ||
	fail "the new startd did not keep the ends"
[ "$(files slot1)" = "$KEPT1" ] || fail "slot1's end: $(ls -A "$X")"

# what the claimer of slot1's end may do
"$CL" "$(addr)" ALIVE "$ID1" >/dev/null || fail "ALIVE for a kept end"
out=$("$CL" "$(addr)" ACTIVATE_CLAIM "$ID1" "$T/job.ad" 2>&1) && fail "a kept end's claim took a job: $out"
echo "$out" | grep -q "ended with the startd that ran its job" || fail "activate a kept end: $out"
out=$("$CL" "$(addr)" DEACTIVATE_CLAIM "$ID1" 2>&1) && fail "deactivate a kept end: $out"
echo "$out" | grep -q "runs no job" || fail "deactivate a kept end: $out"
out=$("$CL" "$(addr)" ACTIVATE_CLAIM "$ID1" Reconnect=true) || fail "reconnect to a kept end: $out"
echo "$out" | grep -q '^StarterPid = 0$' && echo "$out" | grep -q '^Reconnected = true$' &&
	echo "$out" | grep -q '^JobExitReason = "exited"$' && echo "$out" | grep -q '^ExitCode = 0$' &&
	echo "$out" | grep -q '^FileName = "result.txt"$' &&
	echo "$out" | grep -q "^FileData = \"$(echo out | base64)\"$" &&
	[ "$(echo "$out" | grep -c '^reply 1$')" = 2 ] || fail "reconnect to a kept end: $out"
grep -q "slot1: .* reconnected and was given its job's end, which an earlier startd left" "$T/log/StartLog" ||
	fail "the reconnect is not logged"
# the slot's new claim is not the end's
out=$("$CL" "$(addr)" ACTIVATE_CLAIM "$(claim_id slot1)" Reconnect=true 2>&1) &&
	fail "the slot's new claim was given an end: $out"
echo "$out" | grep -q "runs no job to reconnect to" || fail "reconnect with the new claim id: $out"
# an id that names nothing
out=$("$CL" "$(addr)" ALIVE "$ID1.x" 2>&1) && fail "ALIVE for a made-up id: $out"
echo "$out" | grep -q "unknown claim id" || fail "a made-up id: $out"
"$CL" "$(addr)" RELEASE_CLAIM "$ID1" >/dev/null || fail "release a kept end"
no_files slot1 || fail "slot1's end stayed after its release: $(ls -A "$X")"
out=$("$CL" "$(addr)" ACTIVATE_CLAIM "$ID1" Reconnect=true 2>&1) && fail "a released end again: $out"
echo "$out" | grep -q "unknown claim id" || fail "reconnect after the release: $out"
echo "ok: a kept end is given to a reconnecting claimer, and goes when it releases it"

# slot2's end: no claimer comes within its lease
wait_for 30 no_files slot2 || fail "slot2's end outlived its lease: $(ls -A "$X")"
grep -q "slot2: no claimer came for the job's end an earlier startd left within its lease (2 s): removed" "$T/log/StartLog" ||
	fail "the expiry is not logged"
out=$("$CL" "$(addr)" ACTIVATE_CLAIM "$ID2" Reconnect=true 2>&1) && fail "an expired end: $out"
echo "ok: a kept end no claimer comes for goes after its job's lease"
stop_pool

# ---- 2. a whole pool: the schedd stopped when its job ends -----------------
# The output is larger than what the kernel holds for a stopped reader
# (what the startd's socket may hold, tcp_wmem's largest, and the
# schedd's, tcp_rmem's default, twice over): the job's end cannot reach
# the stopped schedd whole, and the startd dies with the rest of it.
read -r _ _ wmax < /proc/sys/net/ipv4/tcp_wmem
read -r _ rdef _ < /proc/sys/net/ipv4/tcp_rmem
BYTES=$(( 2 * (wmax + rdef) ))
cat > "$J/job.sh" <<'SH'
#!/bin/sh
# job.sh RUNS GO BYTES: notes its start in RUNS, waits for GO, leaves
# big.dat (BYTES random bytes; its checksum in RUNS.sum) and notes its end
echo "start $$" >> "$1"
while [ ! -e "$2" ]; do sleep 0.1; done
head -c "$3" /dev/urandom > big.dat
sha256sum < big.dat > "$1.sum"
echo "end $$" >> "$1"
SH
chmod 755 "$J/job.sh"
as "$A" sh -c "cat > '$J/job.sub'" <<SUB
executable = $J/job.sh
arguments = $J/runs $J/go $BYTES
initialdir = $J
log = $J/events.log
should_transfer_files = YES
when_to_transfer_output = ON_EXIT
request_cpus = 1
request_memory = 64
job_lease_duration = 600
queue
SUB
job_pool_config <<CFG
NUM_CPUS = 1
MEMORY = 1024
CFG
start_master
wait_for 20 sh -c 'condor_status -af Name | grep -q slot1' || fail "no slot"
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"
out=$(cd "$J" && as "$A" condor_submit job.sub) || fail "condor_submit: $out"
C=$(cluster_of "$out")
wait_for 60 grep -q '^start' "$J/runs" || fail "the job did not start"
SCHEDD=$(pgrep -P "$MASTER_PID" -x condor_schedd)
[ -n "$SCHEDD" ] || fail "no schedd under the master $MASTER_PID"
kill -STOP "$SCHEDD"
trap 'kill -CONT $SCHEDD 2>/dev/null; pool_cleanup; [ -n "${KS_MADE_ACCOUNT:-}" ] && userdel "${KS_MADE_ACCOUNT:-}" 2>/dev/null' EXIT
touch "$J/go"
wait_for 60 grep -q "the job has ended (exited); its result went to the claimer" "$T/log/StartLog" ||
	fail "the job did not end"
restart_startd
grep -q "kept the job's end (exited) that an earlier startd left" "$T/log/StartLog" ||
	fail "the new startd did not keep the end"
kill -CONT "$SCHEDD"
wait_for 120 in_history "$C" 1 || fail "the job did not complete: $(condor_q -allusers -af ProcId JobStatus)"
[ "$(grep -c '^start' "$J/runs")" = 1 ] && [ "$(grep -c '^end' "$J/runs")" = 1 ] ||
	fail "the job ran: $(tr '\n' ' ' < "$J/runs")"
id=$(printf '%03d.000.000' "$C")
ev() { grep -c "^$1 ($id)" "$J/events.log"; }
[ "$(ev 001) $(ev 005)" = "1 1" ] || fail "$(ev 001) execute and $(ev 005) terminated events"
[ "$(ev 023)" = 1 ] && [ "$(ev 024)" = 0 ] || fail "$(ev 023) reconnected, $(ev 024) reconnect-failed events"
[ "$(condor_history -af ExitCode -constraint "ClusterId == $C")" = 0 ] || fail "exit code"
[ "$(sha256sum < "$J/big.dat")" = "$(cat "$J/runs.sum")" ] || fail "the output file did not come back whole"
wait_for 30 no_files slot1_1 || fail "the end was not released: $(ls -A "$X")"
grep -q "slot1_1: the job's end an earlier startd left was released by" "$T/log/StartLog" ||
	fail "the end was not released"
echo "ok: a job that ended while its schedd was stopped completes once, with its output, through the next startd"
