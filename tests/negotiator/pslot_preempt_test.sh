#!/usr/bin/env bash
# pslot_preempt_test.sh BUILD: partitionable-slot preemption
# (ALLOW_PSLOT_PREEMPTION) on a whole pool.  One partitionable slot of 4
# CPUs runs two 2-CPU jobs of a submitter whose priority factor is
# 1,000,000; a better submitter's 4-CPU job (PREEMPTION_REQUIREMENTS =
# True) preempts both dynamic slots at once ("preempting 2 dslots" in the
# MatchLog): both jobs are evicted (004, back to Idle) and the new job
# runs on one dynamic slot of 4 CPUs (CpusProvisioned = 4), which it
# keeps over the following cycles.  Without ALLOW_PSLOT_PREEMPTION the
# 4-CPU job waits.  With a consumption policy taking CPUs by twos, a
# 3-CPU job takes both 2-CPU dynamic slots and runs with 4.  The two
# submitters are accounting groups, so that one Unix user will do.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path

pool_dir pslot_preempt_test
trap 'pool_cleanup' EXIT
chmod 755 "$T"
J=$T/jobs
mkdir -p "$J"
chmod 777 "$J"
ME=$(id -un)

# start_pool ALLOW [MORE]: one partitionable slot of 4 CPUs and 4 GiB, no
# retirement time, preemption by priority whenever a better submitter
# asks; MORE: extra configuration lines
start_pool() {
	job_pool_config <<CFG
NUM_CPUS = 4
MEMORY = 4096
MAXJOBRETIREMENTTIME = 0
NEGOTIATOR_CONSIDER_PREEMPTION = True
PREEMPTION_REQUIREMENTS = True
ALLOW_PSLOT_PREEMPTION = $1
SEC_PASSWORD_DIRECTORY = $T/passwords.d
${2:-}
CFG
	start_master
	wait_for 30 condor_q || fail "the schedd did not start"
}
# submit NAME CPUS GROUP N: N sleep jobs of CPUS CPUs each in GROUP,
# logged in NAME.log
submit() {
	cat > "$J/$1.sub" <<SUB
executable = /bin/sleep
arguments = 600
log = $J/$1.log
request_cpus = $2
request_memory = 256
accounting_group = $3
queue $4
SUB
	out=$(cd "$J" && condor_submit "$J/$1.sub" 2>&1) || return 1
	cluster_of "$out"
}
cycles() { grep -c 'Finished Negotiation Cycle' "$T/log/NegotiatorLog"; }
more_cycles() { [ "$(cycles)" -ge "$1" ]; }
running() { [ "$(condor_q -allusers -constraint "ClusterId == $1 && JobStatus == 2" -af ProcId | wc -l)" = "$2" ]; }
# low_jobs: the two low jobs running on the partitionable slot, their
# submitter's factor set to 1,000,000
low_jobs() {
	L=$(submit low 2 group_low 2) || fail "condor_submit of the low jobs"
	wait_for 60 running "$L" 2 || fail "the low jobs did not start: $(condor_q -allusers -af ClusterId ProcId JobStatus LastRejMatchReason)"
	LS=$(condor_status -submitters -af Name | grep '^group_low\.')
	[ -n "$LS" ] || fail "no submitter ad of group_low"
	condor_userprio -setfactor "$LS" 1000000 >/dev/null || fail "condor_userprio -setfactor $LS"
}

# --- without ALLOW_PSLOT_PREEMPTION: nothing is preempted -----------------
start_pool False
low_jobs
H=$(submit high 4 group_high 1) || fail "condor_submit of the high job"
n=$(cycles)
wait_for 60 more_cycles $((n + 3)) || fail "the negotiator did not cycle"
running "$L" 2 || fail "a low job was preempted without ALLOW_PSLOT_PREEMPTION: $(condor_q -allusers -af ClusterId ProcId JobStatus)"
[ "$(condor_q -allusers "$H.0" -af JobStatus)" = 1 ] || fail "the 4-CPU job is not idle"
grep -q '^004 ' "$J/low.log" && fail "a low job was evicted"
echo "ok: ALLOW_PSLOT_PREEMPTION = False preempts no dynamic slot"
condor_rm -all >/dev/null
wait_for 30 queue_empty || fail "the queue did not empty"
stop_pool

# --- with it: both dynamic slots go for the 4-CPU job ---------------------
rm -f "$J"/*.log
rm -f "$T"/log/*Log
start_pool True
low_jobs
H=$(submit high 4 group_high 1) || fail "condor_submit of the high job"
wait_for 90 running "$H" 1 || fail "the 4-CPU job did not start: $(condor_q -allusers -af ClusterId ProcId JobStatus LastRejMatchReason)"
grep -q "Matched $H.0 group_high\.[^ ]* <[^>]*> preempting 2 dslots <[^>]*> slot1@" "$T/log/MatchLog" ||
	fail "no pslot preemption in the MatchLog: $(grep Matched "$T/log/MatchLog")"
grep -q "slot1: preempting claim from .* accepted: it waits for slot1_[12], slot1_[12] to go" "$T/log/StartLog" ||
	fail "the startd did not take the preempting claim: $(grep -i preempt "$T/log/StartLog")"
cpus=$(condor_q -allusers "$H.0" -af CpusProvisioned)
[ "$cpus" = 4 ] || fail "CpusProvisioned of the 4-CPU job is $cpus"
[ "$(grep -c '^004 ' "$J/low.log")" = 2 ] || fail "two eviction events expected: $(cat "$J/low.log")"
[ "$(condor_q -allusers -constraint "ClusterId == $L" -af JobStatus | sort -u)" = 1 ] ||
	fail "the preempted jobs are not back to Idle: $(condor_q -allusers -af ClusterId ProcId JobStatus)"
# it keeps the slot: three more cycles, still running, one start, and the
# only dynamic slot is its, with 4 CPUs
n=$(cycles)
wait_for 60 more_cycles $((n + 3)) || fail "the negotiator did not cycle"
running "$H" 1 || fail "the 4-CPU job lost its slot: $(condor_q -allusers -af ClusterId ProcId JobStatus)"
[ "$(condor_q -allusers "$H.0" -af NumJobStarts)" = 1 ] || fail "the 4-CPU job started more than once"
grep -q '^004 ' "$J/high.log" && fail "the 4-CPU job was evicted: $(cat "$J/high.log")"
[ "$(condor_status -constraint 'DynamicSlot =?= true' -af Cpus State)" = "4 Claimed" ] ||
	fail "the dynamic slots: $(condor_status -af Name Cpus State)"
[ "$(condor_q -allusers -constraint "ClusterId == $L" -af JobStatus | sort -u)" = 1 ] ||
	fail "a preempted job runs again: $(condor_q -allusers -af ClusterId ProcId JobStatus)"
echo "ok: a 4-CPU job of a better submitter preempts two 2-CPU dynamic slots and runs on 4 CPUs"
condor_rm -all >/dev/null
wait_for 30 queue_empty || fail "the queue did not empty"
stop_pool

# --- with a consumption policy: what it takes is what counts --------------
# CPUs by twos: two 1-CPU jobs fill the slot (2 each), and a 3-CPU job
# takes 4, so both go and its dynamic slot has 4 CPUs
rm -f "$J"/*.log
rm -f "$T"/log/*Log
start_pool True 'CONSUMPTION_POLICY = True
CONSUMPTION_CPUS = quantize(target.RequestCpus, {2})'
L=$(submit low 1 group_low 2) || fail "condor_submit of the low jobs"
wait_for 60 running "$L" 2 || fail "the low jobs did not start: $(condor_q -allusers -af ClusterId ProcId JobStatus LastRejMatchReason)"
dslot_cpus() { [ "$(condor_status -constraint 'DynamicSlot =?= true' -af Cpus | sort | tr '\n' ' ')" = "$1" ]; }
wait_for 30 dslot_cpus "2 2 " ||
	fail "the policy did not give the low jobs 2 CPUs each: $(condor_status -af Name Cpus State)"
LS=$(condor_status -submitters -af Name | grep '^group_low\.')
condor_userprio -setfactor "$LS" 1000000 >/dev/null || fail "condor_userprio -setfactor $LS"
H=$(submit high 3 group_high 1) || fail "condor_submit of the high job"
wait_for 90 running "$H" 1 || fail "the 3-CPU job did not start: $(condor_q -allusers -af ClusterId ProcId JobStatus LastRejMatchReason)"
grep -q "Matched $H.0 group_high\.[^ ]* <[^>]*> preempting 2 dslots " "$T/log/MatchLog" ||
	fail "no pslot preemption in the MatchLog: $(grep Matched "$T/log/MatchLog")"
cpus=$(condor_q -allusers "$H.0" -af CpusProvisioned)
[ "$cpus" = 4 ] || fail "CpusProvisioned of the 3-CPU job is $cpus, not the policy's 4"
[ "$(grep -c '^004 ' "$J/low.log")" = 2 ] || fail "two eviction events expected: $(cat "$J/low.log")"
echo "ok: with a consumption policy the dynamic slots preempted are those its share needs (3 CPUs asked, 4 taken)"
condor_rm -all >/dev/null
wait_for 30 queue_empty || fail "the queue did not empty"
stop_pool
echo "all pslot preemption checks passed"
