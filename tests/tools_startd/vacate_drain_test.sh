#!/usr/bin/env bash
# condor_vacate and condor_drain against a master, collector and startd
# on loopback: jobs run through claims made with ks_claim (standing in for
# the schedd), the tools' commands reach them as HTCondor's do (a soft
# kill for -graceful, none for -fast), the slots move through the states
# the startd's log and condor_status show, and bad input gets HTCondor's
# messages and exit statuses.
# Usage: vacate_drain_test.sh BUILD_DIR
set -u
B=$1
. "$(dirname "$0")/../daemon/lib.sh"
. "$(dirname "$0")/../startd/lib_startd.sh"
pool_dir ksvacate
ST=$B/tools/condor_status/condor_status
CL=$B/tests/startd/ks_claim
VAC=$B/tools/condor_vacate/condor_vacate
DRAIN=$B/tools/condor_drain/condor_drain
mkdir -p "$T/iwd"
# the jobs run as nobody, in a directory of the test's
chmod 755 "$T"
chmod 777 "$T/iwd"

write_config() {
	startd_config <<CFG
use FEATURE : StaticSlots
NUM_CPUS = 2
MEMORY = 2048
RUNBENCHMARKS = false
$(cat)
CFG
}
start_pool() {
	start_master
	wait_for 20 sh -c "[ \$('$ST' -af State | grep -c Unclaimed) = 2 ]" ||
		fail "slots not free: $("$ST" -af Name State 2>&1)"
	H=$("$ST" -af Machine | head -1)
	[ -n "$H" ] || fail "no Machine in the slot ads"
}

# "State Activity" of slot N
state_of() { "$ST" -constraint "SlotID == $1" -af State Activity; }
# wait_state SECONDS N "State Activity"
wait_state() {
	wait_for "$1" sh -c "[ \"\$('$ST' -constraint 'SlotID == $2' -af State Activity)\" = '$3' ]"
}
# Every slot of the machine in "State Activity".
all_in() {
	[ "$("$ST" -af State Activity | sort -u)" = "$1" ]
}

# A job that records its soft kill: it writes TAG.started once its trap
# is set, and TAG.term when SIGTERM comes.
cat > "$T/job.sh" <<'SH'
#!/bin/sh
trap 'echo TERM > "$1.term"; exit 0' TERM
echo started > "$1.started"
while :; do sleep 0.2; done
SH
chmod 755 "$T/job.sh"
# run_job N TAG: claims slot N and starts the job there; ks_claim keeps
# waiting for its end in the background, writing to $T/TAG.out.
run_job() {
	cat > "$T/$2.ad" <<AD
Owner = "nobody"
ClusterId = $1
ProcId = 0
JobUniverse = 5
Cmd = "/bin/sh"
Arguments = "$T/job.sh $T/iwd/$2"
Iwd = "$T/iwd"
ShouldTransferFiles = "NO"
AD
	rm -f "$T/iwd/$2".*
	local id
	id=$(claim_id "slot$1")
	out=$("$CL" "$(addr)" REQUEST_CLAIM "$id" "$T/$2.ad" 2>&1) || fail "claim slot$1: $out"
	"$CL" "$(addr)" ACTIVATE_CLAIM "$id" "$T/$2.ad" > "$T/$2.out" 2>&1 &
	wait_for 15 test -e "$T/iwd/$2.started" || fail "job $2 did not start: $(cat "$T/$2.out")"
	wait_state 10 "$1" "Claimed Busy" || fail "slot$1 not busy: $(state_of "$1")"
}
# job_ended TAG: ks_claim got the job's result.
job_ended() { wait_for "${2:-20}" grep -q '^JobExitReason = ' "$T/$1.out"; }
# expect STATUS COMMAND...: runs it into $out (stdout and stderr) and
# checks its exit status, and that no sanitizer spoke.
expect() {
	local want=$1 got
	shift
	out=$("$@" 2>&1)
	got=$?
	[ "$got" = "$want" ] || fail "$* exited $got, not $want"
	# in a sanitizer build a leak on a failure path exits 1 as well
	case $out in *Sanitizer*) fail "$*: sanitizer report" ;; esac
}

write_config </dev/null
start_pool

# ---- condor_vacate ------------------------------------------------------

# One slot by name: VACATE_CLAIM; its job gets its soft kill, the other
# slot's job runs on.
run_job 1 a
run_job 2 b
expect 0 "$VAC" "slot2@$H"
[ "$out" = "Sent \"Vacate-Claim\" command to startd slot2@$H" ] || fail "vacate slot2: $out"
job_ended b || fail "slot2's job not vacated: $(cat "$T/b.out")"
[ -e "$T/iwd/b.term" ] || fail "slot2's job had no soft kill"
grep -q "slot2: transition 10 Claimed/Busy -> Preempting/Vacating" "$T/log/StartLog" || fail "slot2: no transition 10 to Vacating"
wait_state 10 2 "Unclaimed Idle" || fail "slot2 after vacate: $(state_of 2)"
[ "$(state_of 1)" = "Claimed Busy" ] || fail "slot1 was touched: $(state_of 1)"
[ -e "$T/iwd/a.term" ] && fail "slot1's job got a soft kill"

# The machine, -fast: VACATE_ALL_FAST, a hard kill (no soft kill first).
expect 0 "$VAC" -fast "$H"
[ "$out" = "Sent \"Vacate-All-Claims-Fast\" command to startd $H" ] || fail "vacate -fast: $out"
job_ended a || fail "slot1's job not killed: $(cat "$T/a.out")"
[ -e "$T/iwd/a.term" ] && fail "-fast gave the job a soft kill"
grep -q "slot1: transition 10 Claimed/Busy -> Preempting/Killing" "$T/log/StartLog" || fail "slot1: no transition 10 to Killing"
wait_state 10 1 "Unclaimed Idle" || fail "slot1 after vacate -fast: $(state_of 1)"

# No target: the local startd (its address file), VACATE_ALL_CLAIMS,
# gracefully: the soft kill, then Owner (22), then Unclaimed (1).
run_job 1 c
n1=$(grep -c "slot1: transition 1 Owner/Idle -> Unclaimed/Idle" "$T/log/StartLog")
expect 0 "$VAC"
[ "$out" = 'Sent "Vacate-All-Claims" command to local startd' ] || fail "vacate (local): $out"
job_ended c || fail "job c not vacated: $(cat "$T/c.out")"
[ -e "$T/iwd/c.term" ] || fail "graceful vacate: no soft kill"
wait_state 10 1 "Unclaimed Idle" || fail "slot1 after graceful vacate: $(state_of 1)"
grep -q "slot1: transition 22 Preempting/Vacating -> Owner/Idle" "$T/log/StartLog" || fail "slot1: no transition 22 to Owner"
[ "$(grep -c "slot1: transition 1 Owner/Idle -> Unclaimed/Idle" "$T/log/StartLog")" -gt "$n1" ] || fail "slot1: not back to Unclaimed through transition 1"

# Other ways to name targets: a sinful string, -all (once per startd,
# though it has two slots), -constraint (each slot it selects), -name.
A=$(addr)
BARE=$(echo "$A" | sed 's/?.*>$/>/')
expect 0 "$VAC" -addr "$A"
[ "$out" = "Sent \"Vacate-All-Claims\" command to daemon at $BARE" ] || fail "vacate -addr: $out"
expect 0 "$VAC" -all
[ "$out" = "Sent \"Vacate-All-Claims\" command to startd $H" ] || fail "vacate -all: $out"
expect 0 "$VAC" -fast -constraint 'SlotID == 2'
[ "$out" = "Sent \"Vacate-Claim-Fast\" command to startd slot2@$H" ] || fail "vacate -constraint: $out"
expect 0 "$VAC" -name "$H" "slot1@$H"
[ "$out" = "Sent \"Vacate-All-Claims\" command to startd $H
Sent \"Vacate-Claim\" command to startd slot1@$H" ] || fail "vacate -name: $out"
grep -q "VACATE_CLAIM_FAST from .*: 0 slots vacated" "$T/log/StartLog" || fail "VACATE_CLAIM_FAST not logged"

# Bad input.
expect 1 "$VAC" -bogus
echo "$out" | head -1 | grep -qx 'ERROR: invalid argument "-bogus"' || fail "bad flag: $out"
expect 1 "$VAC" nosuch.example.invalid
[ "$out" = "Can't find address for startd nosuch.example.invalid
Can't find address for nosuch.example.invalid
Perhaps you need to query another pool." ] || fail "unknown machine: $out"
expect 1 "$VAC" nosuchhost-ks
[ "$out" = "condor_vacate: unknown host nosuchhost-ks" ] || fail "unknown host: $out"
expect 1 "$VAC" -constraint 'SlotID == 99'
echo "$out" | grep -q "^Found no ClassAds when querying pool (local)$" || fail "empty constraint: $out"
echo "$out" | grep -q "^Can't find addresses for startd's for constraint 'SlotID == 99'$" || fail "empty constraint: $out"
expect 1 "$VAC" -pool 127.0.0.1:1 "$H"
echo "$out" | grep -q "^ERROR: can't connect to collector 127.0.0.1:1$" || fail "collector down: $out"
echo "$out" | tail -1 | grep -qx "Perhaps you need to query another pool." || fail "collector down: $out"
expect 1 "$VAC" -pool 127.0.0.1:1
echo "$out" | head -1 | grep -q "^ERROR: You have asked to find a machine in another pool" || fail "-pool without a target: $out"
expect 1 "$VAC" '<127.0.0.1:1>'
[ "$out" = "Can't connect to daemon at <127.0.0.1:1>" ] || fail "startd down: $out"
expect 1 "$VAC" '<127.0.0.1>'
echo "$out" | head -1 | grep -qx "Address <127.0.0.1> is not valid." || fail "bad address: $out"

# ---- condor_drain -------------------------------------------------------

expect 2 "$DRAIN" -bogus "$H"
[ "$out" = "ERROR: unexpected argument: -bogus" ] || fail "drain bad flag: $out"
expect 2 "$DRAIN"
[ "$out" = "ERROR: must specify one target machine" ] || fail "drain no machine: $out"
expect 1 "$DRAIN" nosuch.example.invalid
[ "$out" = "ERROR: Can't find address for startd nosuch.example.invalid" ] || fail "drain unknown machine: $out"
expect 1 "$DRAIN" nosuchhost-ks
[ "$out" = "ERROR: unknown host nosuchhost-ks" ] || fail "drain unknown host: $out"
expect 1 "$DRAIN" -pool 127.0.0.1:1 "$H"
echo "$out" | grep -q "^ERROR: .*127.0.0.1:1" || fail "drain, collector down: $out"

# A startd without draining answers that it does not serve the command.
out=$("$DRAIN" -cancel "$H" 2>&1); rc=$?
if [ "$rc" != 0 ] && echo "$out" | grep -q "is not served by the startd"; then
	echo "$out" | head -1 | grep -q "^Attempt to send CANCEL_DRAIN_JOBS to startd <.*> failed$" || fail "drain refusal: $out"
	echo "SKIP: condor_drain: the startd does not serve DRAIN_JOBS yet"
	stop_pool
	echo PASS
	exit 0
fi
[ "$rc" = 0 ] && [ "$out" = "Sent request to cancel draining on $H" ] || fail "cancel with no draining ($rc): $out"
stop_pool

# Draining honours retirement, so give jobs some.
write_config <<'CFG'
MAXJOBRETIREMENTTIME = 600
CFG
start_pool
A=$(addr)
# The statistics of draining (HTCondor's): never drained, no totals; no
# job, nothing to lose and nothing to wait for.
[ "$("$ST" -af TotalMachineDrainingBadput TotalMachineDrainingUnclaimedTime | sort -u)" = "undefined undefined" ] ||
	fail "draining totals before any draining: $("$ST" -af TotalMachineDrainingBadput TotalMachineDrainingUnclaimedTime)"
[ "$("$ST" -af ExpectedMachineGracefulDrainingBadput ExpectedMachineQuickDrainingBadput | sort -u)" = "0 0" ] ||
	fail "expected badput with no job: $("$ST" -af ExpectedMachineGracefulDrainingBadput ExpectedMachineQuickDrainingBadput)"

# -graceful: the free slot drains at once (Drained/Retiring: waiting for
# the others), the busy one retires with its job still running.
run_job 1 d
# a quick drain now would cost the job's run and its vacate time (600 s
# by default) and end in 600 s: completion - badput is the job's start
quick_cost() {
	local v
	v=$("$ST" -constraint 'SlotID == 1' -af 'ExpectedMachineQuickDrainingCompletion - ExpectedMachineQuickDrainingBadput' JobStart ExpectedMachineQuickDrainingBadput)
	set -- $v
	[ "$1" = "$2" ] && [ "$3" -ge 600 ]
}
wait_for 10 quick_cost || fail "expected quick draining: $("$ST" -af ExpectedMachineQuickDrainingCompletion ExpectedMachineQuickDrainingBadput JobStart)"
expect 0 "$DRAIN" -graceful "$H"
[ "$out" = "Sent request to drain the startd $A with $H. This only affects the single startd; any other startds running on the same host will not be drained." ] || fail "drain: $out"
wait_state 10 2 "Drained Retiring" || fail "slot2 while draining: $(state_of 2)"
wait_state 10 1 "Claimed Retiring" || fail "slot1 while draining: $(state_of 1)"
[ -e "$T/iwd/d.term" ] && fail "graceful draining cut the retirement short"
"$ST" -af DrainReason | sort -u | grep -qx "by $(id -un)" || fail "default DrainReason: $("$ST" -af Name DrainReason)"

# A second request, a wrong request id: refused, with the startd's reason.
expect 1 "$DRAIN" "$H"
[ "$out" = "Attempt to send DRAIN_JOBS to startd $A failed
Received failure from $H in response to DRAIN_JOBS request: error code 1: Draining already in progress." ] || fail "second drain: $out"
expect 1 "$DRAIN" -cancel -request-id 999 "$H"
[ "$out" = "Attempt to send CANCEL_DRAIN_JOBS to startd $A failed
Received failure from $H in response to CANCEL_DRAIN_JOBS request: error code 2: No matching draining request id 999." ] || fail "cancel with a wrong id: $out"

# -cancel: the drained slot takes jobs again; the job runs on.
expect 0 "$DRAIN" -cancel "$H"
[ "$out" = "Sent request to cancel draining on $H" ] || fail "cancel: $out"
wait_state 10 2 "Unclaimed Idle" || fail "slot2 after cancel: $(state_of 2)"
[ "$("$ST" -constraint 'SlotID == 1' -af State)" = Claimed ] || fail "slot1 after cancel: $(state_of 1)"

# -quick: no retirement; the job gets its soft kill at once, and the
# machine ends Drained/Idle with the reason given, until cancelled.
# The job has run a second at least: its run is draining's badput.
ran_a_second() { [ $(( $(date +%s) - $("$ST" -constraint 'SlotID == 1' -af JobStart) )) -ge 1 ]; }
wait_for 10 ran_a_second || fail "job d: $("$ST" -constraint 'SlotID == 1' -af JobStart)"
expect 0 "$DRAIN" -quick -reason "kestrel test" "$H"
job_ended d || fail "-quick: the job was not vacated: $(cat "$T/d.out")"
[ -e "$T/iwd/d.term" ] || fail "-quick: no soft kill"
wait_for 15 all_in "Drained Idle" || fail "-quick: not drained: $("$ST" -af Name State Activity)"
# TotalMachineDrainingBadput: the evicted job's CPU-seconds, as logged;
# TotalMachineDrainingUnclaimedTime: CPU-seconds free while draining,
# growing while the slots stay drained
wait_for 10 grep -q "slot1: adding to badput caused by draining: [1-9][0-9]* cpu-seconds" "$T/log/StartLog" ||
	fail "no badput logged: $(grep -i badput "$T/log/StartLog")"
BADPUT=$(sed -n 's/.*slot1: adding to badput caused by draining: \([0-9]*\) cpu-seconds/\1/p' "$T/log/StartLog")
wait_for 10 sh -c "[ \"\$('$ST' -af TotalMachineDrainingBadput | sort -u)\" = '$BADPUT' ]" ||
	fail "TotalMachineDrainingBadput: $("$ST" -af TotalMachineDrainingBadput), logged $BADPUT"
U1=$("$ST" -af TotalMachineDrainingUnclaimedTime | head -1)
[ "$U1" -ge 0 ] 2>/dev/null || U1=0
wait_for 10 sh -c "[ \"\$('$ST' -af TotalMachineDrainingUnclaimedTime | head -1)\" -gt $U1 ]" ||
	fail "TotalMachineDrainingUnclaimedTime does not grow: $U1, $("$ST" -af TotalMachineDrainingUnclaimedTime)"
# drained: nothing left to lose, and the expected completion has come
[ "$("$ST" -af ExpectedMachineQuickDrainingBadput ExpectedMachineGracefulDrainingBadput | sort -u)" = "0 0" ] ||
	fail "expected badput when drained: $("$ST" -af ExpectedMachineQuickDrainingBadput ExpectedMachineGracefulDrainingBadput)"
[ "$("$ST" -af ExpectedMachineQuickDrainingCompletion | head -1)" -le "$(date +%s)" ] ||
	fail "expected completion when drained: $("$ST" -af ExpectedMachineQuickDrainingCompletion)"
grep -q "slot1: transition .* -> Drained/" "$T/log/StartLog" || fail "no transition to Drained logged"
[ "$("$ST" -af DrainReason | sort -u)" = "kestrel test" ] || fail "-reason: $("$ST" -af Name DrainReason)"
expect 0 "$DRAIN" -cancel "$H"
wait_for 10 all_in "Unclaimed Idle" || fail "after cancel: $("$ST" -af Name State Activity)"

# -fast: a hard kill, no soft kill.
run_job 1 e
expect 0 "$DRAIN" -fast "$H"
job_ended e || fail "-fast: the job was not killed: $(cat "$T/e.out")"
[ -e "$T/iwd/e.term" ] && fail "-fast gave the job a soft kill"
wait_for 15 all_in "Drained Idle" || fail "-fast: not drained: $("$ST" -af Name State Activity)"
# the killed job's run adds to the badput
wait_for 10 sh -c "[ \$(grep -c 'slot1: adding to badput caused by draining' '$T/log/StartLog') = 2 ]" || fail "-fast: no badput logged"
BADPUT=$((BADPUT + $(sed -n 's/.*slot1: adding to badput caused by draining: \([0-9]*\) cpu-seconds/\1/p' "$T/log/StartLog" | tail -1)))
wait_for 10 sh -c "[ \"\$('$ST' -af TotalMachineDrainingBadput | sort -u)\" = '$BADPUT' ]" ||
	fail "-fast: TotalMachineDrainingBadput: $("$ST" -af TotalMachineDrainingBadput), not $BADPUT"
expect 0 "$DRAIN" -cancel "$H"
wait_for 10 all_in "Unclaimed Idle" || fail "after cancel: $("$ST" -af Name State Activity)"

# -check must hold on every slot, or nothing drains.
expect 1 "$DRAIN" -check 'SlotID == 1' "$H"
echo "$out" | tail -1 | grep -q "in response to DRAIN_JOBS request: error code 3: Draining check expression is false on slot2" || fail "-check: $out"
all_in "Unclaimed Idle" || fail "a failed -check drained: $("$ST" -af Name State Activity)"

# -resume-on-completion (with -verbose, the request id): drained, then
# back to work without a cancel.
expect 0 "$DRAIN" -resume-on-completion -verbose "$H"
echo "$out" | tail -1 | grep -qE "^	Request id: [0-9]+$" || fail "-verbose: $out"
wait_for 15 grep -q "slot2: transition .* -> Drained/" "$T/log/StartLog" || fail "-resume-on-completion: never drained"
wait_for 15 all_in "Unclaimed Idle" || fail "-resume-on-completion: not resumed: $("$ST" -af Name State Activity)"

# A command the startd refuses to this user: the tools say so.
echo "ALLOW_ADMINISTRATOR = nobody@nowhere" >> "$CONDOR_CONFIG"
kill -HUP "$(pgrep -P "$MASTER_PID" -f condor_startd)"
wait_for 10 sh -c "! '$VAC' -name '$H' >/dev/null 2>&1" || fail "ALLOW_ADMINISTRATOR not in force"
expect 1 "$VAC" "$H"
[ "$(echo "$out" | head -1)" = "ERROR" ] || fail "refused vacate: $out"
echo "$out" | grep -q "^PERMISSION DENIED: " || fail "refused vacate: $out"
echo "$out" | tail -1 | grep -qx "Can't send Vacate-All-Claims command to startd $H" || fail "refused vacate: $out"
expect 1 "$DRAIN" "$H"
echo "$out" | grep -q "^Failed to start DRAIN_JOBS command to $H: PERMISSION DENIED: " || fail "refused drain: $out"
stop_pool
echo PASS
