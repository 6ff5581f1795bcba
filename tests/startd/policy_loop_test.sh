#!/usr/bin/env bash
# policy_loop_test.sh BUILD: a START that cannot be read (a reference
# loop: RESTRICT = $(OTHER), OTHER = $(RESTRICT) && ..., START =
# $(RESTRICT)) never lets a job start, neither at the first start-up nor
# after a condor_reconfig: the slot publishes START = error, the
# negotiator matches no job to it, the startd takes no claim, and the
# startd's log and condor_config_val (local and -startd) name the loop.
# With a START that reads, the same kind of job runs.  As root the jobs
# belong to a temporary account.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path
CL=$B/tests/startd/ks_claim

pool_dir kspolicyloop
chmod 755 "$T"
job_account kspolicyloop
J=$T/jobs
mkdir -p "$J" && chown "$A" "$J" && chmod 700 "$J"
as "$A" sh -c "cat > '$J/job.sub'" <<SUB
executable = /bin/sh
arguments = "-c 'echo ran'"
initialdir = $J
output = out.\$(Cluster)
queue
SUB
cat > "$T/job.ad" <<AD
Owner = "$A"
ClusterId = 99
ProcId = 0
JobUniverse = 5
Cmd = "/bin/true"
Iwd = "$J"
RequestCpus = 1
RequestMemory = 1
RequestDisk = 1
AD

LOOP='RESTRICT = $(OTHER)
OTHER = $(RESTRICT) && Owner == "alice"
START = $(RESTRICT)'
# CLAIM_WORKLIFE = 0: a claim is not kept for the next job, whose START
# (checked when a slot is claimed) this test is about
job_pool_config <<CFG
NUM_CPUS = 1
CLAIM_WORKLIFE = 0
CFG
cp "$CONDOR_CONFIG" "$T/good_config"
printf '%s\n' "$LOOP" >> "$CONDOR_CONFIG"

LOOP_MSG='$(RESTRICT) refers to itself (RESTRICT -> OTHER -> RESTRICT)'
loop_lines() { grep -cF "slot1: START cannot be read: $LOOP_MSG; START is error" "$T/log/StartLog"; }
loop_lines_are() { [ "$(loop_lines)" = "$1" ]; }
submit() {
	out=$(cd "$J" && as "$A" condor_submit job.sub) || fail "condor_submit: $out"
	C=$(cluster_of "$out")
}
rejected() { [ "$(condor_q -allusers "$1" -af LastRejMatchReason 2>/dev/null)" != undefined ]; }

# refuses WHEN: START is error, no claim is taken, and a job submitted
# now is turned down by the negotiator and stays idle
refuses() {
	wait_for 20 sh -c '[ "$(condor_status -af START)" = error ]' ||
		fail "$1: START is $(condor_status -af Name START)"
	[ "$(condor_status -af START Requirements)" = "error error" ] || fail "$1: START, Requirements: $(condor_status -af START Requirements)"
	out=$(condor_config_val START 2>&1) && fail "$1: condor_config_val START answered $out"
	[ "$out" = "Error: START: $LOOP_MSG" ] || fail "$1: condor_config_val START: $out"
	out=$(condor_config_val -startd START 2>&1) && fail "$1: condor_config_val -startd START answered $out"
	[ "$out" = "Error: START: $LOOP_MSG" ] || fail "$1: condor_config_val -startd START: $out"
	out=$("$CL" "$(addr)" REQUEST_CLAIM "$(claim_id slot1)" "$T/job.ad" 2>&1) &&
		fail "$1: the startd took a claim: $out"
	grep -q "slot1: claim request from .* refused: START is" "$T/log/StartLog" || fail "$1: claim refusal not logged"
	submit
	wait_for 30 rejected "$C.0" || fail "$1: the negotiator never considered job $C.0"
	[ "$(condor_q -allusers "$C.0" -af JobStatus NumJobStarts)" = "1 0" ] ||
		fail "$1: job $C.0: $(condor_q -allusers "$C.0" -af JobStatus NumJobStarts LastRejMatchReason)"
	[ ! -e "$J/out.$C" ] || fail "$1: job $C ran"
}

# At the first start-up.
start_master
wait_for 20 sh -c 'condor_status -af Name | grep -q slot1' || fail "no slot"
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"
refuses "start-up"
[ "$(loop_lines)" = 1 ] || fail "the loop is not logged at start-up"
FIRST=$C
echo "ok: a START in a loop at start-up lets no job start"

# A START that reads lets the job run (so the refusals above were START's).
cp "$T/good_config" "$CONDOR_CONFIG"
condor_reconfig >/dev/null || fail "condor_reconfig"
wait_for 60 in_history "$FIRST" 1 || fail "with a good START, job $FIRST did not run: $(condor_q -allusers "$FIRST.0" -af JobStatus LastRejMatchReason)"
[ "$(cat "$J/out.$FIRST")" = ran ] || fail "job output"
[ "$(condor_status -af START)" = true ] || fail "good START: $(condor_status -af Name START)"
wait_for 20 sh -c '[ "$(condor_status -af Name | wc -l)" = 1 ]' || fail "the job's slot stays: $(condor_status -af Name State)"

# After a reconfig that makes START a loop.
printf '%s\n' "$LOOP" >> "$CONDOR_CONFIG"
condor_reconfig >/dev/null || fail "condor_reconfig"
refuses "reconfig"
loop_lines_are 2 || fail "the loop is not logged at reconfig"
echo "ok: a START made a loop by condor_reconfig lets no job start"
