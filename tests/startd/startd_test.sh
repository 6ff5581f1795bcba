#!/usr/bin/env bash
# A master, collector and startd on loopback: the slots a configuration
# makes, the ads they publish, and the policy moving them between states,
# each transition logged with its number.
# Usage: startd_test.sh BUILD_DIR
set -u
B=$1
. "$(dirname "$0")/../daemon/lib.sh"
. "$(dirname "$0")/lib_startd.sh"
pool_dir ksstartd
ST=$B/tools/condor_status/condor_status
CL=$B/tests/startd/ks_claim
write_config() {
	startd_config <<CFG
NUM_CPUS = 4
MEMORY = 4096
$(cat)
CFG
}
start_pool() {
	start_master
	wait_for 20 sh -c "'$ST' -af Name | grep -q slot" || fail "no slot ads"
}

# No slot configuration: one partitionable slot with the whole machine,
# which leaves Owner at once (IS_OWNER is False by default: transition 1).
write_config </dev/null
start_pool
out=$("$ST" -af Name SlotType PartitionableSlot Cpus Memory State Activity)
echo "$out" | grep -q "^slot1@.* Partitionable true 4 4096 Unclaimed Idle$" || fail "default slot: $out"
[ "$(echo "$out" | wc -l)" = 1 ] || fail "default layout: $out"
grep -q "slot1: transition 1 Owner/Idle -> Unclaimed/Idle: IS_OWNER is false" "$T/log/StartLog" || fail "transition 1 not logged"
out=$("$ST" -l slot1@$(hostname -f 2>/dev/null || hostname) 2>/dev/null || "$ST" -l)
for a in Machine SlotID Arch OpSys OpSysAndVer KeyboardIdle ConsoleIdle LoadAvg ClockMin ClockDay \
	FileSystemDomain UidDomain StartdIpAddr START IsOwner WANT_SUSPEND Requirements Rank CurrentRank \
	EnteredCurrentState Cpus TotalCpus Memory TotalMemory Disk TotalDisk VirtualMemory SlotType; do
	echo "$out" | grep -q "^$a = " || fail "no $a in the slot ad"
done
echo "$out" | grep -q "ClaimId\|Capability" && fail "the public slot ad shows a claim id"
# the private ad (for the negotiator): the slot's claim id
out=$("$B/tests/daemon/ks_query" QUERY_STARTD_PVT_ADS) || fail "QUERY_STARTD_PVT_ADS: $out"
echo "$out" | grep -qx "ClaimId = \"$(claim_id slot1)\"" || fail "private ad: $out"
echo "$out" | grep -q '^Name = "slot1@' || fail "private ad's Name: $out"
echo "$out" | grep -q '^MyAddress = "<' || fail "private ad's MyAddress: $out"
stop_pool

# Four static slots; IS_OWNER true keeps them in Owner, and a reconfig
# that makes it false moves them (transition 1), one log line each.
write_config <<'CFG'
use FEATURE : StaticSlots
IS_OWNER = True
STARTD_ATTRS = $(STARTD_ATTRS) Colour
Colour = "blue"
SLOT2_Colour = "green"
STARTD_SLOT_ATTRS = State Colour IsGreen Nothing
IsGreen = Colour == "green"
STARTD_ATTRS = $(STARTD_ATTRS) IsGreen
CFG
start_pool
out=$("$ST" -af Name SlotType Cpus State)
[ "$(echo "$out" | grep -c ' Static 1 Owner$')" = 4 ] || fail "static slots: $out"
[ "$("$ST" -af Colour | sort | uniq -c | tr -s ' ' | tr '\n' ',')" = " 3 blue, 1 green," ] || fail "per-slot STARTD_ATTRS: $("$ST" -af Name Colour)"
"$ST" -af slot3_State | grep -qx Owner || fail "STARTD_SLOT_ATTRS"
# a projected expression is evaluated as in the whole ad: the collector
# sends the attributes it reads along (IsGreen reads Colour)
[ "$("$ST" -af IsGreen | sort | uniq -c | tr -s ' ' | tr '\n' ',')" = " 3 false, 1 true," ] ||
	fail "a projected expression: $("$ST" -af Name IsGreen)"
# as HTCondor: slot2's expression is copied, so in slot1's ad it reads
# slot1's Colour; STARTD_EVAL_SLOT_ATTRS copies its value instead
out=$("$ST" -l -constraint 'SlotID == 1' | grep '^slot2_')
echo "$out" | grep -qx 'slot2_Colour = "green"' && echo "$out" | grep -qx 'slot2_IsGreen = Colour == "green"' ||
	fail "STARTD_SLOT_ATTRS expressions: $out"
echo "STARTD_EVAL_SLOT_ATTRS = True" >> "$CONDOR_CONFIG"
kill -HUP "$(pgrep -P "$MASTER_PID" -f condor_startd)"
wait_for 10 sh -c "'$ST' -l -constraint 'SlotID == 1' | grep -qx 'slot2_IsGreen = true'" ||
	fail "STARTD_EVAL_SLOT_ATTRS: $("$ST" -l -constraint 'SlotID == 1' | grep slot2_)"
"$ST" -l -constraint 'SlotID == 1' | grep -q '^slot1_Nothing' && fail "an undefined value was copied"
echo "IS_OWNER = False" >> "$CONDOR_CONFIG"
kill -HUP "$(pgrep -P "$MASTER_PID" -f condor_startd)"
wait_for 10 sh -c "[ \$('$ST' -af State | grep -c Unclaimed) = 4 ]" || fail "reconfig did not free the slots: $("$ST" -af Name State)"
[ "$(grep -c 'transition 1 Owner/Idle -> Unclaimed/Idle' "$T/log/StartLog")" = 4 ] || fail "transitions not logged per slot"
stop_pool

# The seed's coltrane example under the desktop policy, with the idle
# time pinned (Idle stands in for KeyboardIdle, which the host decides):
# 34 s idle and START = idle > 15 min && Owner == "coltrane" is false, so
# the slot stays in Owner; with || it is undefined without a job, and the
# slot leaves Owner.
for op in '&&' '||'; do
	write_config <<CFG
use POLICY : Desktop
STARTD_ATTRS = \$(STARTD_ATTRS) Idle
Idle = 34
START = Idle > 15 * \$(MINUTE) $op Owner == "coltrane"
CFG
	start_pool
	if [ "$op" = '&&' ]; then
		"$ST" -af State | grep -qx Owner || fail "coltrane &&: $("$ST" -af Name State)"
		grep -q "transition 1 " "$T/log/StartLog" && fail "coltrane &&: left Owner"
	else
		wait_for 10 sh -c "'$ST' -af State | grep -qx Unclaimed" || fail "coltrane ||: $("$ST" -af Name State)"
		grep -q "transition 1 Owner/Idle -> Unclaimed/Idle: IS_OWNER is false" "$T/log/StartLog" || fail "coltrane ||: not logged"
	fi
	stop_pool
done

# The owner, simulated the HTCondor way: a startd cron job publishes the
# keyboard's idle time (and no load) from a file the test writes.  Under
# the desktop policy a busy keyboard keeps the slot in Owner; once idle
# long enough START holds and the slot goes to Unclaimed (transition 1);
# a touch brings it back to Owner (transition 2).
cat > "$T/owner.sh" <<'SH'
#!/bin/sh
echo "KeyboardIdle = $(cat "$1")"
echo "LoadAvg = 0.0"
echo "CondorLoadAvg = 0.0"
SH
chmod +x "$T/owner.sh"
echo 5 > "$T/idle"
write_config <<CFG
use POLICY : Desktop
STARTD_CRON_JOBLIST = owner
STARTD_CRON_owner_EXECUTABLE = $T/owner.sh
STARTD_CRON_owner_ARGS = $T/idle
STARTD_CRON_owner_MODE = Periodic
STARTD_CRON_owner_PERIOD = 1
CFG
start_pool
wait_for 10 sh -c "'$ST' -af KeyboardIdle | grep -qx 5" || fail "cron output not in the ad: $("$ST" -af Name KeyboardIdle)"
"$ST" -af State | grep -qx Owner || fail "busy keyboard: $("$ST" -af Name State KeyboardIdle)"
echo 2000 > "$T/idle"
wait_for 10 sh -c "'$ST' -af State | grep -qx Unclaimed" || fail "idle keyboard: $("$ST" -af Name State KeyboardIdle)"
grep -q "transition 1 Owner/Idle -> Unclaimed/Idle: IS_OWNER is false" "$T/log/StartLog" || fail "transition 1"
echo 3 > "$T/idle"
wait_for 10 sh -c "'$ST' -af State | grep -qx Owner" || fail "owner back: $("$ST" -af Name State KeyboardIdle)"
grep -q "transition 2 Unclaimed/Idle -> Owner/Idle: IS_OWNER became true" "$T/log/StartLog" || fail "transition 2"
stop_pool
pgrep -f "$T/owner.sh" >/dev/null && fail "the cron job outlived the startd"

# Claims, driven by ks_claim (the schedd's and negotiator's part): the
# claim id is a capability the startd writes for local tools.
state_of() { "$ST" -constraint "Name == \"$1@$(hostname -f 2>/dev/null || hostname)\" || regexp(\"^$1@\", Name)" -af State Activity; }
proc_state() { awk '{print $3}' "/proc/$1/stat" 2>/dev/null; }
state_is() { [ "$(state_of "$1")" = "$2" ]; }
# the jobs run as nobody, in a directory of the test's
mkdir -p "$T/iwd"
chmod 755 "$T"
chmod 777 "$T/iwd"
cat > "$T/job.ad" <<AD
Owner = "nobody"
ClusterId = 7
ProcId = 0
JobUniverse = 5
Cmd = "/bin/sh"
Arguments = "-c 'echo hello from \$\$; exit 3'"
Iwd = "$T/iwd"
ShouldTransferFiles = "NO"
Out = "out.txt"
AD
write_config <<'CFG'
use FEATURE : StaticSlots
NUM_CPUS = 2
RUNBENCHMARKS = false
MATCH_TIMEOUT = 2
CFG
start_pool
wait_for 10 sh -c "[ \$('$ST' -af State | grep -c Unclaimed) = 2 ]" || fail "slots not free"
out=$("$CL" "$(addr)" REQUEST_CLAIM "nosuchid" "$T/job.ad" 2>&1) && fail "a wrong claim id was accepted: $out"
grep -q "REQUEST_CLAIM from .*no slot has that claim id; refused" "$T/log/StartLog" || fail "wrong claim id not logged"
ID=$(claim_id slot1)
out=$("$CL" "$(addr)" REQUEST_CLAIM "$ID" "$T/job.ad") || fail "claim: $out"
# (the startd sends what changed at the next whole second, as HTCondor's)
wait_for 5 state_is slot1 "Claimed Idle" || fail "claimed: $(state_of slot1)"
wait_for 5 sh -c "'$ST' -af RemoteOwner JobId ClientMachine | grep -q '^nobody 7.0 '" || fail "claim attributes: $("$ST" -af Name RemoteOwner JobId ClientMachine)"
out=$("$CL" "$(addr)" ACTIVATE_CLAIM "$ID" "$T/job.ad") || fail "activate: $out"
echo "$out" | grep -q '^StarterPid = [0-9]' || fail "no starter pid: $out"
echo "$out" | grep -q '^ExitCode = 3$' || fail "no exit code in the result: $out"
echo "$out" | grep -q '^JobExitReason = "exited"$' || fail "result: $out"
grep -q "^hello from [0-9]" "$T/iwd/out.txt" || fail "job output: $(cat "$T/iwd/out.txt")"
wait_for 5 sh -c "[ \"\$('$ST' -constraint 'SlotID == 1' -af State Activity)\" = 'Claimed Idle' ]" || fail "after the job: $(state_of slot1)"
grep -q "slot1: transition 11 Claimed/Idle -> Claimed/Busy" "$T/log/StartLog" || fail "transition 11"
grep -q "slot1: transition 12 Claimed/Busy -> Claimed/Idle: the job has ended" "$T/log/StartLog" || fail "transition 12"
# the claim stays, the job it ran is no longer named (as HTCondor's)
wait_for 5 sh -c "'$ST' -constraint 'SlotID == 1' -af RemoteOwner ClientMachine JobId JobStart | grep -q '^nobody localhost undefined undefined$'" ||
	fail "claim attributes after the job: $("$ST" -constraint 'SlotID == 1' -af RemoteOwner ClientMachine JobId JobStart)"
out=$("$CL" "$(addr)" RELEASE_CLAIM "$ID") || fail "release: $out"
wait_for 5 sh -c "'$ST' -constraint 'SlotID == 1' -af State | grep -qx Unclaimed" || fail "after release: $(state_of slot1)"
grep -q "slot1: transition 22 Preempting/Vacating -> Owner/Idle" "$T/log/StartLog" || fail "transition 22"
"$CL" "$(addr)" ALIVE "$ID" >/dev/null 2>&1 && fail "the released claim id still works"
# MATCH_INFO puts a slot in Matched (Requirements false); unclaimed for
# MATCH_TIMEOUT it goes back to Owner (8), then Unclaimed.
ID2=$(claim_id slot2)
"$CL" "$(addr)" MATCH_INFO "$ID2" >/dev/null || fail "match info"
wait_for 5 sh -c "'$ST' -constraint 'SlotID == 2' -af State Requirements | grep -qx 'Matched false'" || fail "matched: $("$ST" -af Name State Requirements)"
wait_for 10 grep -q "slot2: transition 8 Matched/Idle -> Owner/Idle: not claimed within MATCH_TIMEOUT" "$T/log/StartLog" || fail "match timeout"
# A lease that runs out takes the claim (and kills its job).
ID2=$(claim_id slot2)
sed -e 's/^Arguments = .*/Arguments = "-c '\''sleep 600'\''"/' "$T/job.ad" > "$T/long.ad"
echo "JobLeaseDuration = 2" >> "$T/long.ad"
"$CL" "$(addr)" REQUEST_CLAIM "$ID2" "$T/long.ad" >/dev/null || fail "claim slot2"
"$CL" "$(addr)" ACTIVATE_CLAIM "$ID2" "$T/long.ad" > "$T/lease.out" &
wait_for 10 grep -q "slot2: no ALIVE from" "$T/log/StartLog" || fail "lease not enforced"
wait_for 20 grep -q '^JobExitReason = "killed"' "$T/lease.out" || fail "job of the expired claim: $(cat "$T/lease.out")"
grep -q "slot2: transition 10 Claimed/Busy -> Preempting/Killing: the claim lease expired" "$T/log/StartLog" || fail "transition 10 on lease"
# A startd shutting down vacates its jobs before it exits.
grep -v JobLeaseDuration "$T/long.ad" > "$T/sleep.ad"
start_job slot1 "$T/sleep.ad" shut
cp "$T/log/StartLog" "$T/StartLog.before"
stop_pool
[ -e "/proc/$JP" ] && fail "the job outlived the startd"
grep -q '^JobExitReason = "killed"' "$T/shut.out" || fail "shutdown: $(cat "$T/shut.out")"
grep -q "slot1: transition 13 Claimed/Busy -> Claimed/Retiring: the startd is shutting down" "$T/last_StartLog" ||
	fail "a graceful shutdown did not retire the job"
grep -q "slot1: transition 18 Claimed/Retiring -> Preempting/Vacating: retirement time is up" "$T/last_StartLog" ||
	fail "the job's retirement (0 s) did not end"

# A peaceful shutdown (condor_off -peaceful, passed on by the master)
# lets a running job finish however long its retirement would be; new
# claims are refused meanwhile.
write_config <<'CFG'
use FEATURE : StaticSlots
RUNBENCHMARKS = false
CFG
start_pool
sed -e 's/^Arguments = .*/Arguments = "-c '\''sleep 3'\''"/' "$T/job.ad" > "$T/three.ad"
start_job slot1 "$T/three.ad" peace
SPID=$(pgrep -P "$MASTER_PID" -f condor_startd)
out=$("$B/tools/condor_daemonctl/condor_off" -peaceful -daemon startd) || fail "condor_off -peaceful: $out"
[ "$out" = 'Sent "Kill-Daemon-Peacefully" command to local master' ] || fail "condor_off -peaceful said: $out"
wait_for 10 grep -q "got peaceful shutdown" "$T/log/StartLog" || fail "the startd did not hear a peaceful shutdown"
out=$("$CL" "$(addr)" REQUEST_CLAIM "$(claim_id slot2)" "$T/three.ad" 2>&1) && fail "a claim was granted while shutting down: $out"
echo "$out" | grep -q "the startd is shutting down" || fail "claim while shutting down: $out"
wait_for 20 sh -c "! kill -0 $SPID 2>/dev/null" || fail "the startd did not exit after its job"
grep -q '^ExitCode = 0$' "$T/peace.out" || fail "the job did not finish in a peaceful shutdown: $(cat "$T/peace.out")"
grep -q "slot1: transition 18 Claimed/Retiring -> Preempting/Vacating: the retiring job has ended" "$T/log/StartLog" ||
	fail "the retiring job's end: $(grep slot1: "$T/log/StartLog" | tail -5)"
stop_pool

# Draining (condor_drain's DRAIN_JOBS, sent here by ks_claim): a free
# slot drains at once (37); a busy one retires for MaxJobRetirementTime
# (13), is vacated (18, 22) and drains (36); once all are drained they go
# to Drained/Idle together (33); cancelling gives them back (35, 1).
write_config <<'CFG'
use FEATURE : StaticSlots
NUM_CPUS = 2
RUNBENCHMARKS = false
MAXJOBRETIREMENTTIME = 3
CFG
start_pool
wait_for 10 sh -c "[ \$('$ST' -af State | grep -c Unclaimed) = 2 ]" || fail "drain: slots not free"
start_job slot1 "$T/sleep.ad" drain
out=$("$CL" "$(addr)" DRAIN_JOBS none HowFast=0 ResumeOnCompletion=0 'DrainReason="test"') || fail "drain: $out"
echo "$out" | grep -q '^Result = true' || fail "drain refused: $out"
echo "$out" | grep -q '^RequestID = "1"' || fail "drain request id: $out"
out=$("$CL" "$(addr)" DRAIN_JOBS none HowFast=0)
echo "$out" | grep -q 'Draining already in progress' || fail "second drain: $out"
wait_for 5 sh -c "'$ST' -constraint 'SlotID == 2' -af State Activity | grep -qx 'Drained Retiring'" || fail "free slot not draining: $("$ST" -af Name State Activity)"
wait_for 5 sh -c "'$ST' -constraint 'SlotID == 1' -af State Activity Draining DrainReason | grep -qx 'Claimed Retiring true test'" || fail "busy slot not retiring: $("$ST" -af Name State Activity Draining DrainReason)"
wait_for 20 sh -c "[ \$('$ST' -af State Activity | grep -c 'Drained Idle') = 2 ]" || fail "not drained: $("$ST" -af Name State Activity)"
for n in "slot2: transition 37 Unclaimed/Idle -> Drained/Retiring: draining" \
	 "slot1: transition 13 Claimed/Busy -> Claimed/Retiring: draining" \
	 "slot1: transition 18 Claimed/Retiring -> Preempting/Vacating: retirement time is up" \
	 "slot1: transition 36 Owner/Idle -> Drained/Retiring: draining" \
	 "slot1: transition 33 Drained/Retiring -> Drained/Idle: every slot is drained"; do
	grep -q "$n" "$T/log/StartLog" || fail "drain: no '$n'"
done
wait_for 10 grep -q '^JobExitReason = "killed"' "$T/drain.out" || fail "drain: the job was not vacated: $(cat "$T/drain.out")"
out=$("$CL" "$(addr)" CANCEL_DRAIN_JOBS none 'RequestID="7"')
echo "$out" | grep -q 'No matching draining request id 7' || fail "cancel of another request: $out"
"$CL" "$(addr)" CANCEL_DRAIN_JOBS none 'RequestID="1"' | grep -q '^Result = true' || fail "cancel"
wait_for 10 sh -c "[ \$('$ST' -af State | grep -c Unclaimed) = 2 ]" || fail "after cancel: $("$ST" -af Name State Activity)"
grep -q "slot1: transition 35 Drained/Idle -> Owner/Idle: draining has ended" "$T/log/StartLog" || fail "transition 35"
stop_pool

# Dynamic slots: a claim on the partitionable slot carves slot1_1 with the
# job's request (memory rounded up to 128 MiB by
# MODIFY_REQUEST_EXPR_REQUESTMEMORY); the partitionable slot shows what is
# left; when the claim ends the dynamic slot goes and gives it back.
write_config <<'CFG'
RUNBENCHMARKS = false
IS_OWNER = Busy =?= true
CFG
start_pool
wait_for 10 sh -c "'$ST' -af State | grep -qx Unclaimed" || fail "pslot not free"
ID=$(claim_id slot1)
sed -e '/^Arguments/d' -e 's|^Cmd = .*|Cmd = "/bin/true"|' "$T/job.ad" > "$T/small.ad"
printf 'RequestCpus = 3\nRequestMemory = 5000\n' >> "$T/small.ad"
out=$("$CL" "$(addr)" REQUEST_CLAIM "$ID" "$T/small.ad" 2>&1) && fail "an oversized request was granted: $out"
echo "$out" | grep -q "slot1 has Cpus 4, Memory 4096 MiB" || fail "oversized request: $out"
sed -i -e 's/^RequestMemory = .*/RequestMemory = 500/' "$T/small.ad"
out=$("$CL" "$(addr)" REQUEST_CLAIM "$ID" "$T/small.ad") || fail "pslot claim: $out"
DID=$(echo "$out" | sed -n 's/^ClaimId = "\(.*\)"$/\1/p')
echo "$out" | grep -q '^Name = "slot1_1@' || fail "no dynamic slot: $out"
[ -n "$DID" ] && [ "$DID" != "$ID" ] || fail "the dynamic slot's claim id: $out"
carved() {
	out=$("$ST" -af Name SlotType Cpus Memory State | sort)
	echo "$out" | grep -q "^slot1@.* Partitionable 1 3584 Unclaimed$" &&
		echo "$out" | grep -q "^slot1_1@.* Dynamic 3 512 Claimed$"
}
wait_for 5 carved || fail "pslot and dslot after carving: $out"
"$ST" -af DynamicSlot NumDynamicSlots | grep -q "^true undefined$" || fail "DynamicSlot: $("$ST" -af Name DynamicSlot NumDynamicSlots)"
out=$("$CL" "$(addr)" ACTIVATE_CLAIM "$DID" "$T/small.ad") || fail "dslot activate: $out"
echo "$out" | grep -q '^ExitCode = 0$' || fail "dslot job: $out"
"$CL" "$(addr)" RELEASE_CLAIM "$DID" >/dev/null || fail "dslot release"
wait_for 10 sh -c "[ \"\$('$ST' -af Name Cpus Memory | cut -d@ -f1 | tr '\n' ' ')\" = 'slot1 ' ] && '$ST' -af Cpus Memory | grep -qx '4 4096'" || fail "dslot not given back: $("$ST" -af Name Cpus Memory State)"
grep -q "slot1_1: deleted; its resources go back to slot1" "$T/log/StartLog" || fail "dslot deletion not logged"
# condor_update_machine_ad: attributes for the slot ads until the startd
# ends; the policy sees them (IS_OWNER below reads Busy).
UMA=$B/tools/condor_update_machine_ad/condor_update_machine_ad
printf 'Busy = true\nColour = "red"\n' | "$UMA" || fail "condor_update_machine_ad"
wait_for 5 sh -c "'$ST' -af Colour State | grep -qx 'red Owner'" || fail "update_machine_ad: $("$ST" -af Name Colour State)"
grep -q "slot1: transition 2 Unclaimed/Idle -> Owner/Idle: IS_OWNER became true" "$T/log/StartLog" || fail "update_machine_ad: transition 2"
printf 'Busy = false\n' > "$T/upd.ad"
"$UMA" -name "$("$ST" -af Machine | head -1)" "$T/upd.ad" || fail "condor_update_machine_ad -name"
wait_for 5 sh -c "'$ST' -af State | grep -qx Unclaimed" || fail "update_machine_ad -name: $("$ST" -af Name Busy State)"
out=$(printf '' | "$UMA" 2>&1) && fail "an empty update was accepted"
echo "$out" | grep -q "File was empty" || fail "empty update: $out"
out=$(printf 'X = = 1\n' | "$UMA" 2>&1) && fail "a bad update was accepted"
echo "$out" | grep -q "Syntax error in file" || fail "bad update: $out"
out=$("$UMA" -name no.such.host "$T/upd.ad" 2>&1) && fail "an unknown startd was found"
echo "$out" | grep -q "Unable to locate startd" || fail "unknown startd: $out"
stop_pool

# Custom resources in dynamic slots: a claim carves the job's RequestGPUs
# (the first free ids) and RequestLicenses; the partitionable slot shows
# what is left; the job is told its GPUs (_CONDOR_AssignedGPUs and, by
# HTCondor's default ENVIRONMENT_FOR_AssignedGPUs, CUDA_VISIBLE_DEVICES
# and GPU_DEVICE_ORDINAL); a job given none sees 10000; ids given back
# keep the order of the share.
write_config <<'CFG'
RUNBENCHMARKS = false
MACHINE_RESOURCE_GPUs = CUDA0, CUDA1, CUDA2
MACHINE_RESOURCE_Licenses = 4
SLOT_WEIGHT = Cpus * 2
CONSUMPTION_POLICY = True
CONSUMPTION_LICENSES = 1
CONSUMPTION_MEMORY = quantize(target.RequestMemory, {1000})
CFG
start_pool
wait_for 10 sh -c "'$ST' -af State | grep -qx Unclaimed" || fail "gpu pslot not free"
# the consumption policy's attributes, as HTCondor advertises them
# (CONSUMPTION_CPUS/MEMORY/DISK have defaults; other resources take the
# job's request)
out=$("$ST" -l | grep -E '^(SlotWeight|Consumption[A-Za-z]*) = ' | sort)
exp='ConsumptionCpus = quantize(target.RequestCpus,{ 1 })
ConsumptionDisk = quantize(target.RequestDisk,{ 1024 })
ConsumptionGPUs = ifthenelse(target.RequestGPUs =?= undefined,0,target.RequestGPUs)
ConsumptionLicenses = 1
ConsumptionMemory = quantize(target.RequestMemory,{ 1000 })
SlotWeight = Cpus * 2'
[ "$out" = "$exp" ] || fail "consumption policy attributes: $out"
out=$("$ST" -af GPUs AssignedGPUs Licenses)
[ "$out" = "3 CUDA0,CUDA1,CUDA2 4" ] || fail "gpu pslot: $out"
sed -e 's|^Arguments = .*|Arguments = "-c '\''env \| sort'\''"|' -e 's|^Out = .*|Out = "env.txt"|' "$T/job.ad" > "$T/gpu.ad"
printf 'RequestGPUs = 4\nRequestLicenses = 1\nRequestMemory = 100\n' >> "$T/gpu.ad"
out=$("$CL" "$(addr)" REQUEST_CLAIM "$(claim_id slot1)" "$T/gpu.ad" 2>&1) && fail "4 GPUs of 3 were granted: $out"
echo "$out" | grep -q "slot1 has 3 GPUs left; its consumption policy takes 4 for the job" || fail "too many GPUs: $out"
# a consumption that is not a number refuses the claim, saying why
sed -e 's/^RequestMemory = .*/RequestMemory = "lots"/' "$T/gpu.ad" > "$T/lots.ad"
out=$("$CL" "$(addr)" REQUEST_CLAIM "$(claim_id slot1)" "$T/lots.ad" 2>&1) && fail "a memory of \"lots\" was granted: $out"
echo "$out" | grep -q "slot1's ConsumptionMemory is error for this job, not a number of at least 0" || fail "bad consumption: $out"
grep -q "slot1: consumption policy: slot1's ConsumptionMemory is error" "$T/log/StartLog" || fail "bad consumption not logged"
sed -i 's/^RequestGPUs = .*/RequestGPUs = 2/' "$T/gpu.ad"
out=$("$CL" "$(addr)" REQUEST_CLAIM "$(claim_id slot1)" "$T/gpu.ad") || fail "gpu claim: $out"
G1=$(echo "$out" | sed -n 's/^ClaimId = "\(.*\)"$/\1/p')
gpus_carved() {
	out=$("$ST" -af Name GPUs AssignedGPUs Licenses | cut -d@ -f1,2 | sed 's/@[^ ]*//' | sort)
	[ "$out" = "$(printf 'slot1 1 CUDA2 3\nslot1_1 2 CUDA0,CUDA1 1')" ]
}
wait_for 5 gpus_carved || fail "after carving GPUs: $out"
grep -q "slot1: carved slot1_1 (.*GPUs 2 (CUDA0,CUDA1), Licenses 1)" "$T/log/StartLog" || fail "carving GPUs not logged"
# the job's 100 MiB (128 after MODIFY_REQUEST_EXPR_REQUESTMEMORY) take
# what CONSUMPTION_MEMORY says: 1000
out=$("$ST" -af Name Memory | sed 's/@[^ ]*//' | sort | tr '\n' ' ')
[ "$out" = "slot1 3096 slot1_1 1000 " ] || fail "memory by consumption policy: $out"
grep -q "slot1: carved slot1_1 (Cpus 1, Memory 1000 MiB" "$T/log/StartLog" || fail "consumption carving not logged"
out=$("$CL" "$(addr)" ACTIVATE_CLAIM "$G1" "$T/gpu.ad") || fail "gpu activate: $out"
echo "$out" | grep -q '^ExitCode = 0$' || fail "gpu job: $out"
for v in _CONDOR_AssignedGPUs=CUDA0,CUDA1 CUDA_VISIBLE_DEVICES=0,1 GPU_DEVICE_ORDINAL=0,1; do
	grep -qx "$v" "$T/iwd/env.txt" || fail "gpu job's environment lacks $v: $(grep -E 'GPU|CUDA|Assigned' "$T/iwd/env.txt")"
done
grep -q "^_CONDOR_MACHINE_AD=.*/.machine.ad$" "$T/iwd/env.txt" || fail "no _CONDOR_MACHINE_AD"
grep -q "^_CONDOR_AssignedLicenses" "$T/iwd/env.txt" && fail "a resource without ids was assigned"
sed -e 's/^RequestGPUs = .*/RequestGPUs = 0/' "$T/gpu.ad" > "$T/nogpu.ad"
out=$("$CL" "$(addr)" REQUEST_CLAIM "$(claim_id slot1)" "$T/nogpu.ad") || fail "no-gpu claim: $out"
G2=$(echo "$out" | sed -n 's/^ClaimId = "\(.*\)"$/\1/p')
out=$("$CL" "$(addr)" ACTIVATE_CLAIM "$G2" "$T/nogpu.ad") || fail "no-gpu activate: $out"
for v in _CONDOR_AssignedGPUs=10000 CUDA_VISIBLE_DEVICES=10000 GPU_DEVICE_ORDINAL=10000; do
	grep -qx "$v" "$T/iwd/env.txt" || fail "no-gpu job's environment lacks $v: $(grep -E 'GPU|CUDA|Assigned' "$T/iwd/env.txt")"
done
"$CL" "$(addr)" RELEASE_CLAIM "$G1" >/dev/null || fail "gpu release"
wait_for 10 sh -c "'$ST' -af Name AssignedGPUs Licenses | grep -q '^slot1@[^ ]* CUDA0,CUDA1,CUDA2 3$'" ||
	fail "GPUs not given back in order: $("$ST" -af Name GPUs AssignedGPUs Licenses)"
stop_pool

# A better claim (rank preemption, as the seed's machine that prefers
# coltrane's jobs): with the slot's preempting capability a job the slot
# ranks higher waits while the current job retires (13); released, the
# current job goes back to work (19); when the current job ends, the
# better claim gets the slot (18, 23) and its request is answered; a job
# ranked lower is refused.
write_config <<'CFG'
use FEATURE : StaticSlots
RUNBENCHMARKS = false
RANK = (Owner == "coltrane") * 10
MAXJOBRETIREMENTTIME = 600
CFG
start_pool
wait_for 10 state_is slot1 "Unclaimed Idle" || fail "rank slot: $(state_of slot1)"
start_job slot1 "$T/sleep.ad" ranked
PRE=$(cat "$T/log/.startd_preempt_id.slot1")
# a claimed slot's private ad offers the capability for a better claim
wait_for 10 sh -c "'$B/tests/daemon/ks_query' QUERY_STARTD_PVT_ADS 'regexp(\"^slot1@\", Name)' | grep -qx 'ClaimId = \"$PRE\"'" ||
	fail "claimed slot's private ad: $("$B/tests/daemon/ks_query" QUERY_STARTD_PVT_ADS)"
sed -e 's/^Owner = .*/Owner = "coltrane"/' -e 's|^Cmd = .*|Cmd = "/bin/true"|' -e '/^Arguments/d' -e '/JobLeaseDuration/d' "$T/job.ad" > "$T/coltrane.ad"
"$CL" "$(addr)" REQUEST_CLAIM "$PRE" "$T/coltrane.ad" > "$T/better.out" 2>&1 &
BETTER=$!
wait_for 10 grep -q "slot1: transition 13 Claimed/Busy -> Claimed/Retiring: a better claim preempts this one" "$T/log/StartLog" ||
	fail "the better claim did not retire the current one"
grep -q "slot1: preempting claim from .* accepted (rank 10, the current claim's 0: rank preemption)" "$T/log/StartLog" || fail "preemption not logged"
"$CL" "$(addr)" RELEASE_CLAIM "$PRE" >/dev/null || fail "release of the waiting claim"
wait "$BETTER" && fail "the released waiting claim was answered OK: $(cat "$T/better.out")"
grep -q "the preempting claim was released" "$T/better.out" || fail "released waiting claim: $(cat "$T/better.out")"
grep -q "slot1: transition 19 Claimed/Retiring -> Claimed/Busy: the preempting claim went away" "$T/log/StartLog" || fail "transition 19"
kill -0 "$JP" || fail "the unretired job is gone"
# a job the slot ranks lower than the current one's is refused
sed -e 's/^Owner = .*/Owner = "tyner"/' "$T/coltrane.ad" > "$T/tyner.ad"
"$CL" "$(addr)" RELEASE_CLAIM "$ID" >/dev/null || fail "release of the long job"
wait_for 10 state_is slot1 "Unclaimed Idle" || fail "after release: $(state_of slot1)"
sed -e 's/^Arguments = .*/Arguments = "-c '\''sleep 2'\''"/' -e 's/^Owner = .*/Owner = "coltrane"/' "$T/sleep.ad" > "$T/colshort.ad"
start_job slot1 "$T/colshort.ad" colshort
PRE=$(cat "$T/log/.startd_preempt_id.slot1")
out=$("$CL" "$(addr)" REQUEST_CLAIM "$PRE" "$T/tyner.ad" 2>&1) && fail "a lower-ranked job preempted: $out"
echo "$out" | grep -q "the slot ranks this job 0, below the current claim's 10" || fail "lower rank: $out"
"$CL" "$(addr)" REQUEST_CLAIM "$PRE" "$T/coltrane.ad" > "$T/better.out" 2>&1 &
BETTER=$!
wait "$BETTER" || fail "the better claim was not given the slot: $(cat "$T/better.out")"
grep -q "slot1: transition 18 Claimed/Retiring -> Preempting/Vacating: the retiring job has ended" "$T/log/StartLog" || fail "transition 18 for the better claim"
grep -q "slot1: transition 23 Preempting/Vacating -> Claimed/Idle: the job is gone; the better claim takes the slot" "$T/log/StartLog" || fail "transition 23"
NEWID=$(sed -n 's/^ClaimId = "\(.*\)"$/\1/p' "$T/better.out")
[ "$NEWID" = "$PRE" ] && [ "$(claim_id slot1)" = "$PRE" ] || fail "the better claim's id: $NEWID"
out=$("$CL" "$(addr)" ACTIVATE_CLAIM "$NEWID" "$T/coltrane.ad") || fail "the better claim's job: $out"
echo "$out" | grep -q '^ExitCode = 0$' || fail "the better claim's job: $out"
stop_pool

# Bad input: a policy expression that does not parse is logged and reads
# as undefined; a job ad of the wrong types is claimed with defaults and
# fails to start with a reason; garbage on the command port is refused;
# the startd goes on.
write_config <<'CFG'
RUNBENCHMARKS = false
PREEMPT = (KeyboardIdle <
SUSPEND = "yes"
CFG
start_pool
wait_for 10 grep -q "slot1: PREEMPT = (KeyboardIdle < does not parse" "$T/log/StartLog" || fail "bad PREEMPT not logged"
wait_for 10 state_is slot1 "Unclaimed Idle" || fail "slot with a bad policy: $(state_of slot1)"
SPID=$(pgrep -P "$MASTER_PID" -f condor_startd)
cat > "$T/bad.ad" <<AD
Owner = "nobody"
ClusterId = "seven"
Cmd = 17
Arguments = 3
RequestCpus = "four"
RequestMemory = undefined
RequestDisk = -5
JobLeaseDuration = "long"
MaxJobRetirementTime = "soon"
KillSig = 42.5
Iwd = "$T/iwd"
AD
out=$("$CL" "$(addr)" REQUEST_CLAIM "$(claim_id slot1)" "$T/bad.ad") || fail "claim with a badly typed job: $out"
BID=$(echo "$out" | sed -n 's/^ClaimId = "\(.*\)"$/\1/p')
out=$("$CL" "$(addr)" ACTIVATE_CLAIM "$BID" "$T/bad.ad" 2>&1)
echo "$out" | grep -q '^JobExitReason = "start failed"' || fail "a badly typed job: $out"
python3 - "$(addr | sed -n 's/^<[^:]*:\([0-9]*\).*/\1/p')" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"KS\x01\x00\x00\x00\x01\xbb\xff\xff\xff\xff\x00\x00\x00\x10garbage" * 3)
s.close()
PY
"$CL" "$(addr)" RELEASE_CLAIM "$BID" >/dev/null || fail "release after bad input"
kill -0 "$SPID" || fail "the startd died of bad input"
wait_for 10 state_is slot1 "Unclaimed Idle" || fail "after bad input: $(state_of slot1)"
stop_pool

# CLAIM_WORKLIFE: a claim that has run a job and is older than it ends
# once idle (10), and the slot is free again.
write_config <<'CFG'
use FEATURE : StaticSlots
RUNBENCHMARKS = false
CLAIM_WORKLIFE = 2
CFG
start_pool
wait_for 10 state_is slot1 "Unclaimed Idle" || fail "worklife slot: $(state_of slot1)"
sed -e 's|^Cmd = .*|Cmd = "/bin/true"|' -e '/^Arguments/d' "$T/job.ad" > "$T/true.ad"
"$CL" "$(addr)" REQUEST_CLAIM "$(claim_id slot1)" "$T/true.ad" >/dev/null || fail "worklife claim"
ID=$(claim_id slot1)
out=$("$CL" "$(addr)" ACTIVATE_CLAIM "$ID" "$T/true.ad") || fail "worklife job: $out"
wait_for 10 grep -q "slot1: transition 10 Claimed/Idle -> Preempting/Vacating: idle claim shutting down due to CLAIM_WORKLIFE" "$T/log/StartLog" ||
	fail "CLAIM_WORKLIFE did not end the claim: $(state_of slot1)"
wait_for 10 state_is slot1 "Unclaimed Idle" || fail "after CLAIM_WORKLIFE: $(state_of slot1)"
# CondorLoadAvg: the CPU a slot's job keeps busy, in that slot's LoadAvg
# and in every slot's TotalCondorLoadAvg; idle slots have none.
sed -e 's/^Arguments = .*/Arguments = "-c '\''while :; do :; done'\''"/' "$T/job.ad" > "$T/spin.ad"
start_job slot2 "$T/spin.ad" spin
busy() { "$ST" -constraint 'SlotID == 2' -af 'CondorLoadAvg > 0.3 && LoadAvg >= CondorLoadAvg' | grep -qx true; }
wait_for 15 busy || fail "no CondorLoadAvg for a busy job: $("$ST" -af Name CondorLoadAvg LoadAvg TotalCondorLoadAvg)"
"$ST" -constraint 'SlotID == 1' -af 'CondorLoadAvg == 0 && TotalCondorLoadAvg > 0.3' | grep -qx true ||
	fail "other slots' load: $("$ST" -af Name CondorLoadAvg TotalCondorLoadAvg)"
"$CL" "$(addr)" RELEASE_CLAIM "$ID" >/dev/null || fail "release of the spinning job"
wait_for 15 sh -c "! kill -0 $JP 2>/dev/null" || fail "the spinning job was not stopped"
stop_pool

# Backfill (HTCondor's BOINC backfill, with a script for the client):
# slots whose START_BACKFILL holds enter Backfill (7) and share one client
# (26); a claim takes a slot out at once while another still uses the
# client (28, 29, 31); EVICT_BACKFILL on the last one kills the client
# (28), and once it is gone the slot goes back to its owner (29, 30); a
# shutdown kills it too.
cat > "$T/iwd/boinc.sh" <<'SH'
#!/bin/sh
echo "started $$" >> "$1"
exec sleep 600
SH
chmod 755 "$T/iwd/boinc.sh"
write_config <<CFG
use FEATURE : StaticSlots
RUNBENCHMARKS = false
ENABLE_BACKFILL = true
BACKFILL_SYSTEM = BOINC
START_BACKFILL = SlotID <= 2 && Evict =!= true
EVICT_BACKFILL = Evict =?= true
BOINC_Executable = $T/iwd/boinc.sh
BOINC_Arguments = $T/iwd/boinc.log
BOINC_InitialDir = $T/iwd
BOINC_Universe = vanilla
BOINC_Owner = nobody
CFG
rm -f "$T/iwd/boinc.log"
start_pool
wait_for 10 sh -c "[ \"\$('$ST' -af Name State Activity | sort | cut -d' ' -f2- | tr '\n' ' ')\" = 'Backfill Busy Backfill Busy Unclaimed Idle Unclaimed Idle ' ]" ||
	fail "backfill slots: $("$ST" -af Name State Activity)"
grep -q "slot1: transition 7 Unclaimed/Idle -> Backfill/Idle: START_BACKFILL became true" "$T/log/StartLog" || fail "transition 7"
grep -q "slot2: transition 26 Backfill/Idle -> Backfill/Busy: the backfill client is running" "$T/log/StartLog" || fail "transition 26"
[ "$(grep -c started "$T/iwd/boinc.log")" = 1 ] || fail "not one backfill client: $(cat "$T/iwd/boinc.log")"
BPID=$(sed -n 's/^started //p' "$T/iwd/boinc.log")
[ "$(stat -c %U "/proc/$BPID")" = "$( [ "$(id -u)" = 0 ] && echo nobody || id -un)" ] || fail "the backfill client runs as $(stat -c %U "/proc/$BPID")"
out=$("$CL" "$(addr)" REQUEST_CLAIM "$(claim_id slot1)" "$T/job.ad") || fail "claim of a backfill slot: $out"
wait_for 10 state_is slot1 "Claimed Idle" || fail "backfill slot not claimed: $(state_of slot1)"
grep -q "slot1: transition 28 Backfill/Busy -> Backfill/Killing: claimed" "$T/log/StartLog" || fail "transition 28 on a claim"
grep -q "slot1: transition 31 Backfill/Idle -> Claimed/Idle: the backfill client is gone" "$T/log/StartLog" || fail "transition 31"
kill -0 "$BPID" || fail "the client went while slot2 still used it"
printf 'Evict = true\n' | "$B/tools/condor_update_machine_ad/condor_update_machine_ad" || fail "update_machine_ad Evict"
wait_for 10 sh -c "! kill -0 $BPID 2>/dev/null" || fail "EVICT_BACKFILL did not kill the client"
wait_for 10 state_is slot2 "Unclaimed Idle" || fail "after eviction: $(state_of slot2)"
grep -q "slot2: transition 28 Backfill/Busy -> Backfill/Killing: EVICT_BACKFILL became true" "$T/log/StartLog" || fail "transition 28"
grep -q "slot2: transition 29 Backfill/Killing -> Backfill/Idle: the backfill client is gone" "$T/log/StartLog" || fail "transition 29"
grep -q "slot2: transition 30 Backfill/Idle -> Owner/Idle: the backfill client is gone" "$T/log/StartLog" || fail "transition 30"
printf 'Evict = false\n' | "$B/tools/condor_update_machine_ad/condor_update_machine_ad" || fail "update_machine_ad Evict=false"
wait_for 10 state_is slot2 "Backfill Busy" || fail "backfill again: $(state_of slot2)"
BPID=$(sed -n 's/^started //p' "$T/iwd/boinc.log" | tail -1)
stop_pool
kill -0 "$BPID" 2>/dev/null && fail "the backfill client outlived the startd"
grep -q "slot2: transition 28 Backfill/Busy -> Backfill/Killing: the startd is shutting down" "$T/last_StartLog" || fail "shutdown in backfill"

# The desktop policy with a job: the owner's keyboard suspends it (14,
# the process stopped), idleness continues it (15), a long suspension
# preempts (16), retirement is 0 (18), the vacate's soft kill ends it,
# and the slot goes back to its owner (22).
echo 2000 > "$T/idle"
cat > "$T/desk.ad" <<AD
Owner = "nobody"
ClusterId = 8
ProcId = 0
JobUniverse = 5
Cmd = "/bin/sleep"
Arguments = "600"
Iwd = "$T/iwd"
ShouldTransferFiles = "NO"
AD
write_config <<CFG
use FEATURE : StaticSlots
NUM_CPUS = 1
RUNBENCHMARKS = false
use POLICY : Desktop
# long enough for CONTINUE (10 s in Suspended, fixed in the policy) to
# come first the first time
MaxSuspendTime = 14
STARTD_CRON_JOBLIST = owner
STARTD_CRON_owner_EXECUTABLE = $T/owner.sh
STARTD_CRON_owner_ARGS = $T/idle
STARTD_CRON_owner_PERIOD = 1
CFG
start_pool
wait_for 10 sh -c "'$ST' -af State | grep -qx Unclaimed" || fail "desktop: not unclaimed: $("$ST" -af Name State KeyboardIdle)"
start_job slot1 "$T/desk.ad" desk
echo 5 > "$T/idle"
wait_for 10 sh -c "[ \"\$('$ST' -af Activity)\" = Suspended ]" || fail "not suspended: $("$ST" -af State Activity KeyboardIdle)"
wait_for 5 sh -c "[ \"\$(awk '{print \$3}' /proc/$JP/stat)\" = T ]" || fail "job process not stopped: $(proc_state "$JP")"
grep -q "slot1: transition 14 Claimed/Busy -> Claimed/Suspended: SUSPEND became true" "$T/log/StartLog" || fail "transition 14"
echo 2000 > "$T/idle"
wait_for 30 sh -c "[ \"\$('$ST' -af Activity)\" = Busy ]" || fail "not continued: $("$ST" -af State Activity KeyboardIdle)"
wait_for 5 sh -c "[ \"\$(awk '{print \$3}' /proc/$JP/stat)\" = S ]" || fail "job process not running: $(proc_state "$JP")"
grep -q "slot1: transition 15 Claimed/Suspended -> Claimed/Busy: CONTINUE became true" "$T/log/StartLog" || fail "transition 15"
echo 5 > "$T/idle"
wait_for 40 grep -q '^JobExitReason = "killed"' "$T/desk.out" || fail "desktop: job not vacated: $(cat "$T/desk.out")"
for n in "16 Claimed/Suspended -> Claimed/Retiring: PREEMPT became true" \
	 "18 Claimed/Retiring -> Preempting/Vacating: retirement time is up" \
	 "22 Preempting/Vacating -> Owner/Idle: the job is gone"; do
	grep -q "slot1: transition $n" "$T/log/StartLog" || fail "transition $n"
done
[ -e "/proc/$JP" ] && fail "the job outlived its vacate"
wait_for 5 sh -c "'$ST' -af State | grep -qx Owner" || fail "desktop: not back to Owner: $("$ST" -af State Activity)"
stop_pool

# The seed's time-of-day policy: jobs only after hours (8:00-17:00,
# Monday to Friday, the machine is its owner's).  ClockMin and ClockDay
# are the host's local time, and the slot's state follows them.
write_config <<'CFG'
RUNBENCHMARKS = false
WorkHours = ( (ClockMin >= 480 && ClockMin < 1020) && (ClockDay > 0 && ClockDay < 6) )
AfterHours = ( (ClockMin < 480 || ClockMin >= 1020) || (ClockDay == 0 || ClockDay == 6) )
START = $(AfterHours)
IS_OWNER = (START =?= False)
CFG
start_pool
read -r cmin cday state <<EOF2
$("$ST" -af ClockMin ClockDay State)
EOF2
now=$(( 10#$(date +%H) * 60 + 10#$(date +%M) ))
[ $(( now - cmin )) -le 1 ] && [ $(( now - cmin )) -ge 0 ] || fail "ClockMin $cmin, local time $now"
[ "$cday" = "$(date +%w)" ] || fail "ClockDay $cday, local day $(date +%w)"
if [ "$cmin" -ge 480 ] && [ "$cmin" -lt 1020 ] && [ "$cday" -gt 0 ] && [ "$cday" -lt 6 ]; then
	want=Owner
else
	want=Unclaimed
fi
# (a run at 8:00 or 17:00 sharp may see the next minute's state)
[ "$state" = "$want" ] || [ $(( cmin % 60 )) = 59 ] || fail "time of day: $state at ClockMin $cmin, ClockDay $cday"
stop_pool

# The seed's desktop/non-desktop policy: one policy for all machines and
# IsDesktop in the local configuration.  The same busy keyboard (from the
# cron job) keeps a desktop in Owner and is ignored on a cluster machine.
echo 5 > "$T/idle"
for desktop in True False; do
	write_config <<CFG
RUNBENCHMARKS = false
use FEATURE : POLICY_EXPR_FRAGMENTS
StartIdleTime = 15 * 60
BackgroundLoad = 0.3
STARTD_ATTRS = IsDesktop
IsDesktop = $desktop
START = ( (\$(CPUIdle) || (State != "Unclaimed" && State != "Owner")) && (IsDesktop =!= True || (KeyboardIdle > \$(StartIdleTime))) )
IS_OWNER = (START =?= False)
STARTD_CRON_JOBLIST = owner
STARTD_CRON_owner_EXECUTABLE = $T/owner.sh
STARTD_CRON_owner_ARGS = $T/idle
STARTD_CRON_owner_PERIOD = 1
CFG
	start_pool
	wait_for 10 sh -c "'$ST' -af KeyboardIdle | grep -qx 5" || fail "IsDesktop: no cron output"
	want=$([ "$desktop" = True ] && echo Owner || echo Unclaimed)
	wait_for 10 sh -c "'$ST' -af State | grep -qx $want" || fail "IsDesktop = $desktop: $("$ST" -af Name State IsDesktop KeyboardIdle)"
	stop_pool
done

# The seed's suspendable/non-suspendable pair, on one core shown as two
# slots: slot2 runs suspendable jobs while slot1 is idle, and its job is
# suspended while slot1 runs one (slot1_State through STARTD_SLOT_ATTRS
# and eval()), then continued when slot1 is free again.
write_config <<'CFG'
use FEATURE : StaticSlots
NUM_CPUS = 2
RUNBENCHMARKS = false
IsSuspendableSlot = SlotID > 1
NonSuspendableSlotState = eval(strcat("slot",SlotID-1,"_State"))
STARTD_SLOT_ATTRS = $(STARTD_SLOT_ATTRS) State
STARTD_ATTRS = $(STARTD_ATTRS) IsSuspendableSlot NonSuspendableSlotState
MyNonSuspendableSlotIsIdle = (NonSuspendableSlotState =!= "Claimed" && NonSuspendableSlotState =!= "Preempting")
START = IsSuspendableSlot!=True && IsSuspendableJob=!=True || IsSuspendableSlot && IsSuspendableJob==True && $(MyNonSuspendableSlotIsIdle)
SUSPEND = IsSuspendableSlot && $(MyNonSuspendableSlotIsIdle)!=True
WANT_SUSPEND = $(SUSPEND)
CONTINUE = ($(SUSPEND)) != True
CFG
start_pool
wait_for 10 sh -c "[ \$('$ST' -af State | grep -c Unclaimed) = 2 ]" || fail "pair: slots not free"
( cat "$T/sleep.ad"; echo "IsSuspendableJob = True" ) > "$T/susp.ad"
out=$("$CL" "$(addr)" REQUEST_CLAIM "$(claim_id slot1)" "$T/susp.ad" 2>&1) && fail "slot1 took a suspendable job: $out"
start_job slot2 "$T/susp.ad" pair2
ID1=$(claim_id slot1)
"$CL" "$(addr)" REQUEST_CLAIM "$ID1" "$T/sleep.ad" >/dev/null || fail "pair: claim slot1"
"$CL" "$(addr)" ACTIVATE_CLAIM "$ID1" "$T/sleep.ad" > "$T/pair1.out" &
wait_for 10 sh -c "'$ST' -constraint 'SlotID == 2' -af Activity | grep -qx Suspended" || fail "pair: slot2 not suspended: $("$ST" -af Name State Activity NonSuspendableSlotState)"
wait_for 5 sh -c "[ \"\$(awk '{print \$3}' /proc/$JP/stat)\" = T ]" || fail "pair: job not stopped"
"$CL" "$(addr)" DEACTIVATE_CLAIM "$ID1" >/dev/null || fail "pair: deactivate slot1"
"$CL" "$(addr)" RELEASE_CLAIM "$ID1" >/dev/null || fail "pair: release slot1"
wait_for 10 sh -c "'$ST' -constraint 'SlotID == 2' -af Activity | grep -qx Busy" || fail "pair: slot2 not continued: $("$ST" -af Name State Activity NonSuspendableSlotState)"
wait_for 5 sh -c "[ \"\$(awk '{print \$3}' /proc/$JP/stat)\" = S ]" || fail "pair: job not running again"
grep -q "slot2: transition 15 Claimed/Suspended -> Claimed/Busy: CONTINUE became true" "$T/log/StartLog" || fail "pair: transition 15"
stop_pool

# An impossible layout: the startd refuses to start and says why.
write_config <<'CFG'
SLOT_TYPE_1 = cpus=3
NUM_SLOTS_TYPE_1 = 2
CFG
out=$("$B/startd/condor_startd" -f -t 2>&1) && fail "an impossible layout started"
echo "$out" | grep -qi "cpu" || fail "impossible layout message: $out"
echo PASS
