#!/usr/bin/env bash
# want_hold_test.sh BUILD: WANT_HOLD, a whole pool.  A job that its
# slot's PREEMPT evicts while WANT_HOLD is true is put on hold instead,
# as HTCondor's startd holds it: HoldReasonCode 21 (StartdHeldJob),
# HoldReasonSubCode from WANT_HOLD_SUBCODE, HoldReason from
# WANT_HOLD_REASON or else HTCondor's own words, a held event (012) and
# no eviction (004), and it does not run again.  Cases: use POLICY :
# WANT_HOLD_IF(...), a WANT_HOLD of one's own with no reason, use
# POLICY : Hold_If_Memory_Exceeded with a slot of 1 MB, and use POLICY :
# Hold_If_Runtime_Exceeds(1).
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path

pool_dir kswanthold
chmod 755 "$T"
job_account kswanthold
J=$T/jobs
mkdir -p "$J" && chown "$A" "$J" && chmod 755 "$J"
# job.sh FILE: notes each start in FILE, then runs until it is killed
cat > "$J/job.sh" <<'SH'
#!/bin/sh
echo "start $$" >> "$1"
exec sleep 300
SH
chmod 755 "$J/job.sh"

# ev TAG CODE: how many events CODE the job's event log has
ev() { grep -c "^$2 (" "$J/events.$1.log"; }
q() { condor_q -allusers "$C" -af "$1"; }
held() { status_is "$C" 5; }

# submit TAG [LINE]: submits job.sh with an extra submit line; sets C
submit() {
	as "$A" sh -c "cat > '$J/$1.sub'" <<SUB
executable = $J/job.sh
arguments = $J/runs.$1
initialdir = $J
log = $J/events.$1.log
request_memory = 1
${2:-}
queue
SUB
	out=$(cd "$J" && as "$A" condor_submit "$1.sub") || fail "$1: condor_submit: $out"
	C=$(cluster_of "$out")
}

# check_held TAG CODE SUBCODE: job C was held once by its startd after
# one run, with no eviction; its slot is free again
check_held() {
	wait_for 60 held || fail "$1: job $C is not held: status $(q JobStatus), $(cat "$J/events.$1.log")"
	[ "$(q HoldReasonCode)" = "$2" ] || fail "$1: HoldReasonCode $(q HoldReasonCode)"
	[ "$(q HoldReasonSubCode)" = "$3" ] || fail "$1: HoldReasonSubCode $(q HoldReasonSubCode)"
	[ "$(q NumHolds)" = 1 ] || fail "$1: NumHolds $(q NumHolds)"
	wait_for 20 sh -c "[ \"\$(grep -c '^012 (' '$J/events.$1.log')\" = 1 ]" ||
		fail "$1: no held event: $(cat "$J/events.$1.log")"
	wait_for 30 sh -c '[ "$(condor_status -af State Activity 2>/dev/null)" = "Unclaimed Idle" ]' ||
		fail "$1: the slot is $(condor_status -af State Activity)"
	[ "$(ev "$1" 001)" = 1 ] && [ "$(ev "$1" 004)" = 0 ] ||
		fail "$1: $(ev "$1" 001) execute and $(ev "$1" 004) evicted events: $(cat "$J/events.$1.log")"
	# the held event is the log's last: nothing started after it
	[ "$(grep '^[0-9][0-9][0-9] (' "$J/events.$1.log" | tail -1 | cut -c1-3)" = 012 ] ||
		fail "$1: events after the hold: $(cat "$J/events.$1.log")"
	[ "$(grep -c '^start' "$J/runs.$1")" = 1 ] || fail "$1: runs: $(cat "$J/runs.$1")"
	grep -q "Job was held" "$J/events.$1.log" || fail "$1: held event: $(cat "$J/events.$1.log")"
}

# WANT_HOLD_IF for jobs that ask for it, a second into their run, and a
# WANT_HOLD of one's own for others, without a reason
job_pool_config <<CFG
NUM_CPUS = 1
use FEATURE : StaticSlots
KS_HOLD_ME = TARGET.KsHoldTest =?= true && (time() - JobStart) >= 1
use POLICY : WANT_HOLD_IF(KS_HOLD_ME, 42, my reason for holding)
KS_HOLD_PLAIN = TARGET.KsPlainHold =?= true && (time() - JobStart) >= 1
PREEMPT = \$(PREEMPT) || \$(KS_HOLD_PLAIN)
WANT_HOLD = \$(WANT_HOLD) || (TARGET.KsPlainHold =?= true)
CFG

start_master
wait_for 20 sh -c 'condor_status -af Name | grep -q slot1' || fail "no slot"
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"

submit holdif "+KsHoldTest = true"
check_held holdif 21 42
[ "$(q HoldReason)" = "my reason for holding" ] || fail "holdif: HoldReason $(q HoldReason)"
grep -q "my reason for holding" "$J/events.holdif.log" || fail "holdif: the held event's reason: $(cat "$J/events.holdif.log")"
grep -q "Code 21 Subcode 42" "$J/events.holdif.log" || fail "holdif: the held event's codes: $(cat "$J/events.holdif.log")"
grep -q "slot1: WANT_HOLD is true: the job is to be held (code 21, subcode 42): my reason for holding" "$T/log/StartLog" ||
	fail "holdif: the startd's log says nothing of the hold"
echo "ok: use POLICY : WANT_HOLD_IF holds the job with its subcode and reason"

# released, it runs again and is held again
condor_release "$C" >/dev/null || fail "condor_release $C"
wait_for 60 sh -c "[ \"\$(grep -c '^start' '$J/runs.holdif')\" = 2 ]" || fail "holdif: not run again after its release"
wait_for 60 held || fail "holdif: not held again: $(cat "$J/events.holdif.log")"
[ "$(q NumHolds)" = 2 ] || fail "holdif: NumHolds $(q NumHolds) after the second hold"
condor_rm "$C" >/dev/null
echo "ok: a released job held again"

submit plain "+KsPlainHold = true"
check_held plain 21 0
reason=$(q HoldReason)
case $reason in
"The startd put this job on hold.  (At preemption time, WANT_HOLD evaluated to true: WANT_HOLD = "*"KsPlainHold"*")") ;;
*) fail "plain: HoldReason $reason" ;;
esac
echo "ok: a WANT_HOLD without WANT_HOLD_REASON holds the job with HTCondor's reason"
condor_rm "$C" >/dev/null

stop_pool

# Hold_If_Memory_Exceeded: a slot of 1 MB, which any job outgrows
job_pool_config <<CFG
NUM_CPUS = 1
MEMORY = 1
use FEATURE : StaticSlots
use POLICY : Hold_If_Memory_Exceeded
CFG
start_master
wait_for 20 sh -c 'condor_status -af Name | grep -q slot1' || fail "memory: no slot"
submit memory
check_held memory 21 102
[ "$(q HoldReason)" = "memory usage exceeded request_memory" ] || fail "memory: HoldReason $(q HoldReason)"
echo "ok: use POLICY : Hold_If_Memory_Exceeded holds a job that outgrows its slot's memory"
stop_pool

# Hold_If_Runtime_Exceeds: a second at most (JobState and
# JobCurrentStartDate of the startd's copy of the job ad)
job_pool_config <<CFG
NUM_CPUS = 1
use FEATURE : StaticSlots
use POLICY : Hold_If_Runtime_Exceeds(1)
CFG
start_master
wait_for 20 sh -c 'condor_status -af Name | grep -q slot1' || fail "runtime: no slot"
submit runtime
check_held runtime 21 103
[ "$(q HoldReason)" = "runtime exceeded maximum (1 seconds)" ] || fail "runtime: HoldReason $(q HoldReason)"
echo "ok: use POLICY : Hold_If_Runtime_Exceeds holds a job that runs too long"
echo "PASS"
