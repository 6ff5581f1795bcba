#!/usr/bin/env bash
# consumption_pool_test.sh BUILD: a whole pool whose partitionable slot
# has a consumption policy (CONSUMPTION_MEMORY = quantize(target.
# RequestMemory, {1000})): two jobs asking for 100 MiB each are matched by
# the negotiator, claimed by the schedd and run, each in a dynamic slot of
# 1000 MiB, the partitionable slot keeping the rest; both complete.  As
# root the jobs belong to a temporary account.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path

pool_dir kscpolicy
chmod 755 "$T"
job_account kscpolicy
J=$T/jobs
mkdir -p "$J" && chown "$A" "$J" && chmod 700 "$J"
# each job runs until the test lets it end (the file go appears)
as "$A" sh -c "cat > '$J/job.sub'" <<SUB
executable = /bin/sh
arguments = "-c 'while [ ! -e $J/go ]; do sleep 0.2; done; echo ran'"
initialdir = $J
output = out.\$(Cluster).\$(Process)
request_memory = 100
queue 2
SUB

job_pool_config <<CFG
NUM_CPUS = 2
MEMORY = 4096
CONSUMPTION_POLICY = True
CONSUMPTION_MEMORY = quantize(target.RequestMemory, {1000})
CFG
start_master
wait_for 20 sh -c 'condor_status -af Name | grep -q slot1' || fail "no slot"
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"
[ "$(condor_status -l | grep '^ConsumptionMemory = ')" = 'ConsumptionMemory = quantize(target.RequestMemory,{ 1000 })' ] ||
	fail "ConsumptionMemory: $(condor_status -l | grep '^ConsumptionMemory')"

out=$(cd "$J" && as "$A" condor_submit job.sub) || fail "condor_submit: $out"
C=$(cluster_of "$out")
both_run() { [ "$(condor_q -allusers "$C" -af JobStatus | tr '\n' ' ')" = "2 2 " ]; }
wait_for 60 both_run || fail "jobs not running: $(condor_q -allusers "$C" -af ProcId JobStatus LastRejMatchReason)"
# the collector has the carved slots a moment after the schedd's news
carved() {
	out=$(condor_status -af Name Memory State | sed 's/@[^ ]*//' | sort | tr '\n' ' ')
	[ "$out" = "slot1 2096 Unclaimed slot1_1 1000 Claimed slot1_2 1000 Claimed " ]
}
wait_for 20 carved || fail "slots by the consumption policy: $out"
grep -q "slot1: carved slot1_1 (Cpus 1, Memory 1000 MiB" "$T/log/StartLog" || fail "carving not logged"
touch "$J/go"
wait_for 60 in_history "$C" 2 || fail "jobs did not complete: $(condor_q -allusers "$C" -af ProcId JobStatus)"
for p in 0 1; do
	[ "$(cat "$J/out.$C.$p")" = ran ] || fail "job $C.$p output: $(cat "$J/out.$C.$p")"
done
echo "ok: a 100 MiB job takes a 1000 MiB dynamic slot by CONSUMPTION_MEMORY"
