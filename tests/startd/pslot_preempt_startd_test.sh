#!/usr/bin/env bash
# pslot_preempt_startd_test.sh BUILD: the startd's side of partitionable-
# slot preemption, driven by ks_claim as a schedd would: a 4-CPU
# partitionable slot runs two 2-CPU jobs (slot1_1, slot1_2).  A
# REQUEST_CLAIM on it with PreemptDslotClaims is refused when a
# capability names no dynamic slot of it, when the job's share does not
# fit even with theirs, and when START is false for the job; with both
# slots' preempting capabilities and a 4-CPU job it waits while their
# jobs retire (MAXJOBRETIREMENTTIME = 3) and are vacated, refuses any
# other claim on the slot meanwhile, and is answered with ONE new dynamic
# slot of 4 CPUs once both have gone.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path
CL=$B/tests/startd/ks_claim

pool_dir kspslotpre
chmod 755 "$T"
job_account kspslotpre
startd_config <<CFG
NUM_CPUS = 4
MEMORY = 4096
MAXJOBRETIREMENTTIME = 3
START = TARGET.KsNoStart =!= true
CFG
start_master
wait_for 20 sh -c 'condor_status -af Name | grep -q "^slot1@"' || fail "no slot"

# job CPUS [LINE]: a sleeping job's ad of CPUS CPUs
job() {
	cat <<AD
Cmd = "/bin/sleep"
Arguments = "600"
Owner = "$A"
ClusterId = 1
ProcId = 0
RequestCpus = $1
RequestMemory = 256
RequestDisk = 1000
${2:-}
AD
}
job 2 > "$T/two.ad"
job 4 > "$T/four.ad"
job 5 > "$T/five.ad"
job 4 'KsNoStart = true' > "$T/nostart.ad"
P=$(claim_id slot1)
# two dynamic slots of 2 CPUs, each running a job
for k in 1 2; do
	out=$("$CL" "$(addr)" REQUEST_CLAIM "$P" "$T/two.ad") || fail "claim $k: $out"
	id=$(sed -n 's/^ClaimId = "\(.*\)"/\1/p' <<<"$out")
	"$CL" "$(addr)" ACTIVATE_CLAIM "$id" "$T/two.ad" > "$T/run$k.out" &
done
wait_for 10 grep -q "^StarterPid" "$T/run1.out" || fail "no starter for slot1_1"
wait_for 10 grep -q "^StarterPid" "$T/run2.out" || fail "no starter for slot1_2"
wait_for 10 test -s "$T/log/.startd_preempt_id.slot1_2" || fail "no preempting capability of slot1_2"
D1=$(cat "$T/log/.startd_preempt_id.slot1_1")
D2=$(cat "$T/log/.startd_preempt_id.slot1_2")

# the refusals: nothing is preempted
out=$("$CL" "$(addr)" REQUEST_CLAIM "$P" "$T/four.ad" "PreemptDslotClaims=\"$D1 nonsense\"" 2>&1) &&
	fail "a capability that names nothing was taken: $out"
grep -q 'PreemptDslotClaims names no dynamic slot of slot1@.* that can be preempted' <<<"$out" ||
	fail "the refusal of a bad capability: $out"
out=$("$CL" "$(addr)" REQUEST_CLAIM "$P" "$T/five.ad" "PreemptDslotClaims=\"$D1 $D2\"" 2>&1) &&
	fail "a 5-CPU job was taken: $out"
grep -q 'slot1 has Cpus 4, Memory .* left; the job asks for 5' <<<"$out" ||
	fail "the refusal of a job too big: $out"
out=$("$CL" "$(addr)" REQUEST_CLAIM "$P" "$T/nostart.ad" "PreemptDslotClaims=\"$D1 $D2\"" 2>&1) &&
	fail "a job START refuses was taken: $out"
grep -q 'START is false for this job on slot1@' <<<"$out" || fail "the refusal by START: $out"
grep -q 'transition 13' "$T/log/StartLog" && fail "a job was preempted by a refused claim"

# the preemption: both go, the request waits, then one slot of 4 CPUs
"$CL" "$(addr)" REQUEST_CLAIM "$P" "$T/four.ad" "PreemptDslotClaims=\"$D1 $D2\"" > "$T/pre.out" 2>&1 &
PRE=$!
wait_for 10 grep -q 'slot1: preempting claim from .* accepted: it waits for slot1_1, slot1_2 to go' "$T/log/StartLog" ||
	fail "the preempting claim was not accepted: $(cat "$T/pre.out")"
out=$("$CL" "$(addr)" REQUEST_CLAIM "$P" "$T/two.ad" 2>&1) && fail "another claim took the slot meanwhile: $out"
grep -q 'slot1@.* is kept for a claim that preempts its dynamic slots' <<<"$out" ||
	fail "the refusal while waiting: $out"
wait "$PRE" || fail "the preempting claim was refused: $(cat "$T/pre.out")"
grep -q '^Name = "slot1_3@' "$T/pre.out" || fail "not a new dynamic slot: $(cat "$T/pre.out")"
grep -q '^Cpus = 4$' "$T/pre.out" || fail "the new dynamic slot has not 4 CPUs: $(cat "$T/pre.out")"
grep -q 'slot1_1: transition 13 Claimed/Busy -> Claimed/Retiring: a better claim preempts this one' "$T/log/StartLog" ||
	fail "slot1_1 did not retire"
grep -q 'slot1_1: deleted; its resources go back to slot1' "$T/log/StartLog" || fail "slot1_1 was not deleted"
grep -q 'slot1_2: deleted; its resources go back to slot1' "$T/log/StartLog" || fail "slot1_2 was not deleted"
grep -q 'slot1: the dynamic slots preempted are gone: slot1_3 is claimed by' "$T/log/StartLog" ||
	fail "no grant in the log"
# the evicted jobs' claimers heard of their ends
for k in 1 2; do
	wait_for 10 grep -q '^JobExitReason = "killed"' "$T/run$k.out" ||
		fail "slot1_$k's claimer did not hear that its job was killed: $(cat "$T/run$k.out")"
done
echo "ok: a claim preempting two dynamic slots waits for them and gets one slot of 4 CPUs; bad ones are refused"
