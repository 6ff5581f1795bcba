#!/usr/bin/env bash
# preempt_test.sh BUILD: RANK preemption on a whole pool, seed 004's
# story: the only slot prefers coltrane's jobs (RANK = Owner ==
# "coltrane"); another user's job runs on it; when coltrane submits,
# the negotiator matches the claimed slot to coltrane's job ("preempting
# <user>" in the MatchLog), the startd takes the better claim, the
# running job is evicted (004, back to Idle) and runs again once
# coltrane's is done.  As root the two users are accounts the test
# makes; otherwise one user's jobs, the slot preferring those that say
# so.  With NEGOTIATOR_CONSIDER_PREEMPTION = False nothing is preempted.
# Priority preemption: two slots run two jobs of a submitter whose
# priority factor is 1,000,000; with PREEMPTION_REQUIREMENTS =
# RemoteUserPrio > SubmitterUserPrio * 1.2 (the attributes the negotiator
# inserts) another submitter's two jobs take both slots, the first one's
# jobs are evicted (two 004), queued again, and run again once the slots
# are free.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path

made=()
if [ "$(id -u)" = 0 ]; then
	# names no machine has; made for the test, removed after it
	LOW=kspremccoy HIGH=kspcoltrane
	for u in $LOW $HIGH; do
		if ! id "$u" >/dev/null 2>&1; then
			useradd -M -r -s /bin/sh "$u" || { echo "FAIL cannot add user $u"; exit 1; }
			made+=("$u")
		fi
	done
	RANK="Owner == \"$HIGH\""
	MARK=
else
	LOW=$(id -un) HIGH=$(id -un)
	RANK='TARGET.KsPreferred =?= true'
	MARK='+KsPreferred = true'
fi
pool_dir preempt_test
trap 'pool_cleanup; for u in "${made[@]}"; do userdel "$u" 2>/dev/null; done' EXIT
chmod 755 "$T"
J=$T/jobs
mkdir -p "$J"
chmod 777 "$J"

# start_pool PREEMPTION [SLOTS [PREEMPTION_REQUIREMENTS [MORE]]]: a pool
# of static slots (one by default) that prefer HIGH's jobs, no
# retirement time unless MORE (configuration lines) says
start_pool() {
	job_pool_config <<CFG
NUM_SLOTS = ${2:-1}
NUM_CPUS = ${2:-1}
SLOT_TYPE_0_PARTITIONABLE = false
RANK = $RANK
MAXJOBRETIREMENTTIME = 0
NEGOTIATOR_CONSIDER_PREEMPTION = $1
PREEMPTION_REQUIREMENTS = ${3:-False}
SEC_PASSWORD_DIRECTORY = $T/passwords.d
${4:-}
CFG
	start_master
	wait_for 30 condor_q || fail "the schedd did not start"
}
# submit USER NAME ARGS [LINE [N]]: N sleep jobs (1) of USER, logged in
# NAME.log
submit() {
	cat > "$J/$2.sub" <<SUB
executable = /bin/sleep
arguments = $3
log = $J/$2.log
${4:-}
queue ${5:-1}
SUB
	chmod 644 "$J/$2.sub"
	out=$(cd "$J" && as "$1" condor_submit "$J/$2.sub" 2>&1) || return 1
	cluster_of "$out"
}
# event_time CODE LOG: the epoch second of the first CODE event in LOG
event_time() {
	date -d "$(awk -v c="$1" '$1 == c { print $3, $4; exit }' "$2")" +%s
}
# cycles: the negotiation cycles the negotiator has finished
cycles() { grep -c 'Finished Negotiation Cycle' "$T/log/NegotiatorLog"; }
more_cycles() { [ "$(cycles)" -ge "$1" ]; }

# --- RANK preemption ------------------------------------------------------
start_pool True
L=$(submit "$LOW" low 600) || fail "condor_submit of the low job"
wait_for 60 status_is "$L.0" 2 || fail "the low job did not start"
H=$(submit "$HIGH" high 2 "$MARK") || fail "condor_submit of the preferred job"
wait_for 60 status_is "$H.0" 2 || fail "the preferred job did not preempt the slot: $(condor_q -allusers -af ClusterId JobStatus LastRejMatchReason)"
grep -q "Matched $H.0 $HIGH@[^ ]* <[^>]*> preempting $LOW@" "$T/log/MatchLog" ||
	fail "no preempting match in the MatchLog: $(grep Matched "$T/log/MatchLog")"
grep -q "preempting claim from .* accepted (rank 1, the current claim's 0: rank preemption)" "$T/log/StartLog" ||
	fail "the startd did not take it as a rank preemption"
[ "$(condor_q -allusers "$L.0" -af JobStatus)" = 1 ] || fail "the preempted job is not back to Idle"
grep -q '^004 ' "$J/low.log" || fail "no eviction event for the preempted job: $(cat "$J/low.log")"
# coltrane's job ends, the other runs again (a second start)
wait_for 60 in_history "$H" 1 || fail "the preferred job did not finish"
wait_for 60 status_is "$L.0" 2 || fail "the preempted job did not run again"
[ "$(condor_q -allusers "$L.0" -af NumJobStarts)" = 2 ] || fail "NumJobStarts of the preempted job"
[ "$(grep -c '^001 ' "$J/low.log")" = 2 ] || fail "the preempted job's starts: $(cat "$J/low.log")"
echo "ok: a slot that ranks a job higher is preempted for it, and its job runs again after"
condor_rm -all >/dev/null
wait_for 30 queue_empty || fail "the queue did not empty"
stop_pool

# --- no preemption --------------------------------------------------------
rm -f "$J"/*.log
start_pool False
L=$(submit "$LOW" low 600) || fail "condor_submit of the low job"
wait_for 60 status_is "$L.0" 2 || fail "the low job did not start"
H=$(submit "$HIGH" high 2 "$MARK") || fail "condor_submit of the preferred job"
n=$(cycles)
wait_for 60 more_cycles $((n + 3)) || fail "the negotiator did not cycle"
[ "$(condor_q -allusers "$L.0" "$H.0" -af JobStatus)" = "2
1" ] || fail "something was preempted with NEGOTIATOR_CONSIDER_PREEMPTION = False: $(condor_q -allusers -af ClusterId JobStatus)"
grep -q '^004 ' "$J/low.log" && fail "the low job was evicted"
echo "ok: NEGOTIATOR_CONSIDER_PREEMPTION = False preempts nothing"
condor_rm -all >/dev/null
wait_for 30 queue_empty || fail "the queue did not empty"
stop_pool

# --- priority preemption --------------------------------------------------
# two submitters (accounting groups, so that one user will do), the
# first with a priority factor of 1,000,000; the slots do not prefer
# either (RANK 0)
rm -f "$J"/*.log
RANK=0
start_pool True 2 'RemoteUserPrio > SubmitterUserPrio * 1.2'
L=$(submit "$LOW" low 600 "accounting_group = group_low" 2) || fail "condor_submit of the low jobs"
running() { [ "$(condor_q -allusers -constraint "ClusterId == $1 && JobStatus == 2" -af ProcId | wc -l)" = 2 ]; }
wait_for 60 running "$L" || fail "the low jobs did not start"
LS=$(condor_status -submitters -af Name | grep '^group_low\.')
[ -n "$LS" ] || fail "no submitter ad of group_low"
condor_userprio -setfactor "$LS" 1000000 >/dev/null || fail "condor_userprio -setfactor $LS"
H=$(submit "$HIGH" high 4 "accounting_group = group_high" 2) || fail "condor_submit of the high jobs"
wait_for 90 running "$H" || fail "the better submitter's jobs did not take the slots: $(condor_q -allusers -af ClusterId ProcId JobStatus)"
[ "$(grep -c '^004 ' "$J/low.log")" = 2 ] || fail "two eviction events expected: $(cat "$J/low.log")"
grep -q "Matched $H.[01] group_high\.[^ ]* <[^>]*> preempting $LS " "$T/log/MatchLog" ||
	fail "no priority preemption in the MatchLog: $(grep Matched "$T/log/MatchLog")"
wait_for 90 in_history "$H" 2 || fail "the better submitter's jobs did not finish"
wait_for 90 running "$L" || fail "the preempted jobs did not run again"
[ "$(condor_q -allusers -constraint "ClusterId == $L" -af NumJobStarts | sort -u)" = 2 ] ||
	fail "NumJobStarts of the preempted jobs: $(condor_q -allusers -af ClusterId ProcId NumJobStarts)"
echo "ok: a better submitter's jobs take the slots of one whose factor is 1,000,000 (PREEMPTION_REQUIREMENTS by priorities)"
condor_rm -all >/dev/null
wait_for 30 queue_empty || fail "the queue did not empty"
stop_pool

# --- PREEMPTION_REQUIREMENTS = True (the issue's example) -------------------
# HTCondor's pie leaves a submitter without idle jobs out after the first
# spin, so there the other one would get the whole pie in the next spin
# and take the slots back; kestrel takes a slot by priority only towards
# the fair share of the first spin, so the better submitter keeps them
# and the first one's jobs run again once the slots are free.
rm -f "$J"/*.log
start_pool True 2 True
L=$(submit "$LOW" low 600 "accounting_group = group_low" 2) || fail "condor_submit of the low jobs"
wait_for 60 running "$L" || fail "the low jobs did not start (PREEMPTION_REQUIREMENTS = True)"
LS=$(condor_status -submitters -af Name | grep '^group_low\.')
condor_userprio -setfactor "$LS" 1000000 >/dev/null || fail "condor_userprio -setfactor $LS"
H=$(submit "$HIGH" high 15 "accounting_group = group_high" 2) || fail "condor_submit of the high jobs"
wait_for 90 running "$H" || fail "the better submitter's jobs did not take the slots (PREEMPTION_REQUIREMENTS = True)"
[ "$(grep -c '^004 ' "$J/low.log")" = 2 ] || fail "two eviction events expected: $(cat "$J/low.log")"
n=$(cycles)
wait_for 60 more_cycles $((n + 3)) || fail "the negotiator did not cycle"
running "$H" || fail "the slots were taken back from the better submitter: $(condor_q -allusers -af ClusterId ProcId JobStatus)"
wait_for 90 in_history "$H" 2 || fail "the better submitter's jobs did not finish"
wait_for 90 running "$L" || fail "the preempted jobs did not run again"
[ "$(grep -c '^004 ' "$J/low.log")" = 2 ] || fail "the low jobs were evicted again: $(cat "$J/low.log")"
echo "ok: PREEMPTION_REQUIREMENTS = True: the better submitter takes both slots and keeps them; the other's jobs are evicted and run again once they are free"
condor_rm -all >/dev/null
wait_for 30 queue_empty || fail "the queue did not empty"
stop_pool

# --- early preemption -------------------------------------------------------
# A slot whose job still has retirement time (RetirementTimeRemaining) is
# left out of the negotiation unless NEGOTIATOR_CONSIDER_EARLY_PREEMPTION;
# with it the slot is matched at once and its job still retires in full.
RANK="Owner == \"$HIGH\""
[ "$(id -u)" = 0 ] || RANK='TARGET.KsPreferred =?= true'
for early in False True; do
	rm -f "$J"/*.log
	start_pool True 1 False "MAXJOBRETIREMENTTIME = 20
NEGOTIATOR_CONSIDER_EARLY_PREEMPTION = $early"
	L=$(submit "$LOW" low 600) || fail "condor_submit of the low job"
	wait_for 60 status_is "$L.0" 2 || fail "the low job did not start"
	wait_for 30 condor_status -const 'RetirementTimeRemaining > 0' -af Name ||
		fail "the slot does not advertise RetirementTimeRemaining"
	H=$(submit "$HIGH" high 2 "$MARK") || fail "condor_submit of the preferred job"
	n=$(cycles)
	wait_for 60 more_cycles $((n + 2)) || fail "the negotiator did not cycle"
	if [ $early = False ]; then
		grep -q "Trimmed out 1 startd ads due to NEGOTIATOR_CONSIDER_EARLY_PREEMPTION=False" "$T/log/NegotiatorLog" ||
			fail "the retiring slot was not left out"
		grep -q "preempting $LOW@" "$T/log/MatchLog" && fail "a retiring slot was matched without early preemption"
	else
		grep -q "Trimmed out" "$T/log/NegotiatorLog" && fail "a slot was trimmed with early preemption"
		grep -q "Matched $H.0 .* preempting $LOW@" "$T/log/MatchLog" ||
			fail "no early preemption in the MatchLog: $(cat "$T/log/MatchLog")"
		# the slot says who waits for it, and is not matched again
		# for what that claim already has
		[ "$(condor_status -af PreemptingUser PreemptingRank)" = "$HIGH@$(condor_status -af Machine | head -1) 1.0" ] ||
			fail "the retiring slot does not name the claim waiting for it: $(condor_status -af PreemptingUser PreemptingRank)"
	fi
	# either way the low job retires in full, then gives way
	wait_for 60 status_is "$H.0" 2 || fail "the preferred job did not run after the retirement (early $early)"
	wait_for 60 in_history "$H" 1 || fail "the preferred job did not finish"
	[ "$(grep -c "Matched $H.0 " "$T/log/MatchLog")" = 1 ] ||
		fail "the preferred job was matched more than once: $(grep Matched "$T/log/MatchLog")"
	[ "$(grep -c '^004 ' "$J/low.log")" = 1 ] || fail "the low job was not evicted once: $(cat "$J/low.log")"
	ran=$(( $(event_time 004 "$J/low.log") - $(event_time 001 "$J/low.log") ))
	[ "$ran" -ge 19 ] || fail "the low job was evicted after ${ran}s, before its 20s of retirement (early $early)"
	echo "ok: NEGOTIATOR_CONSIDER_EARLY_PREEMPTION = $early: a retiring slot is $( [ $early = True ] && echo matched at once || echo left alone until its retirement is over)"
	condor_rm -all >/dev/null
	wait_for 30 queue_empty || fail "the queue did not empty"
	stop_pool
done
echo "all preemption checks passed"
