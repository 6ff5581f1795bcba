#!/usr/bin/env bash
# preempt_retire_test.sh BUILD: RANK preemption seen from the jobs, on a
# whole pool with one static slot that prefers HIGH's jobs.
#  1. Retirement: with MAXJOBRETIREMENTTIME = 300 the running job of LOW
#     is not evicted for HIGH's job: it runs to its end (005, return
#     value 0, no 004), and HIGH's job starts only after it.  The
#     negotiator may match the retiring slot at once (the startd keeps
#     the better claim waiting) or leave it until it is free; the test
#     checks only what the users see.
#  2. The schedd killed during an eviction: LOW's job takes its time to
#     leave on SIGTERM (MachineMaxVacateTime 300); while the slot is
#     Preempting for HIGH's job the schedd is killed with SIGKILL and the
#     master starts another.  Nothing is lost and nothing runs twice at
#     once: LOW's job is evicted once (004), runs again exactly once and
#     completes (each run appends a line to a file), HIGH's job runs
#     once and completes.
#  3. With REQUEST_CLAIM_TIMEOUT = 2 the schedd gives up a preempting
#     claim the startd keeps waiting for a retirement, the startd lets
#     the retiring job go back to work (19), and it still runs to its end.
# condor_q -better-analyze:priority, while the preferred job waits,
# counts the claimed slot as one it may preempt (the low job's user has
# a priority factor of 1,000,000).
# The jobs wait for files the test makes, so no step depends on timing.
# As root the two users are accounts the test makes; otherwise one
# user's jobs, the slot preferring those that say so.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path

made=()
if [ "$(id -u)" = 0 ]; then
	LOW=ksprrmccoy HIGH=ksprrcoltrane
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
pool_dir preempt_retire_test
trap 'pool_cleanup; for u in "${made[@]}"; do userdel "$u" 2>/dev/null; done' EXIT
chmod 755 "$T"
J=$T/jobs
mkdir -p "$J"
chmod 777 "$J"

# The low job: appends "start" to $1/runs, then runs until $1/finish
# exists; SIGTERM appends "term" and it leaves once $1/letgo exists.
cat > "$J/low.sh" <<'JOB'
#!/bin/sh
echo start >> "$1/runs"
trap 'echo term >> "$1/runs"; until [ -e "$1/letgo" ]; do sleep 0.1; done; exit 143' TERM
until [ -e "$1/finish" ]; do sleep 0.1; done
exit 0
JOB
chmod 755 "$J/low.sh"

# start_pool RETIREMENT [LINES]: one static slot preferring HIGH's jobs
start_pool() {
	job_pool_config <<CFG
${2:-}
NUM_SLOTS = 1
NUM_CPUS = 1
SLOT_TYPE_0_PARTITIONABLE = false
RANK = $RANK
MAXJOBRETIREMENTTIME = $1
MachineMaxVacateTime = 300
NEGOTIATOR_CONSIDER_PREEMPTION = True
PREEMPTION_REQUIREMENTS = True
SEC_PASSWORD_DIRECTORY = $T/passwords.d
CFG
	start_master
	wait_for 30 condor_q || fail "the schedd did not start"
}
# submit USER NAME EXECUTABLE ARGS [LINE]: a job of USER logged in NAME.log
submit() {
	cat > "$J/$2.sub" <<SUB
executable = $3
arguments = $4
log = $J/$2.log
${5:-}
queue
SUB
	chmod 644 "$J/$2.sub"
	out=$(cd "$J" && as "$1" condor_submit "$J/$2.sub" 2>&1) || return 1
	cluster_of "$out"
}
cycles() { grep -c 'Finished Negotiation Cycle' "$T/log/NegotiatorLog"; }
more_cycles() { [ "$(cycles)" -ge "$1" ]; }
lines() { grep -c "^$1\$" "$J/runs" 2>/dev/null; }
has_lines() { [ "$(lines "$1")" = "$2" ]; }
# hist ID ATTR: the history's value of ATTR for job ID
hist() { condor_history "$1" -af "$2" 2>/dev/null; }
# the better claim is waiting at the startd
accepted() { grep -q "preempting claim from .* accepted" "$T/log/StartLog"; }
schedd_pid() { pgrep -P "$MASTER_PID" -f condor_schedd; }

# --- 1. the retiring job runs to its end ------------------------------------
start_pool 300
L=$(submit "$LOW" low "$J/low.sh" "$J") || fail "condor_submit of the low job"
wait_for 60 has_lines start 1 || fail "the low job did not start"
# the low job's user is far behind in priority
lowsub() { LS=$(condor_status -submitters -af Name | grep "^$LOW@") && [ -n "$LS" ]; }
wait_for 30 lowsub || fail "no submitter ad of $LOW"
condor_userprio -setfactor "$LS" 1000000 >/dev/null || fail "condor_userprio -setfactor $LS"
H=$(submit "$HIGH" high /bin/sleep 1 "$MARK") || fail "condor_submit of the preferred job"
# the negotiator has seen the preferred job: it matched the retiring slot
# (the startd holds the better claim), or left the slot to its end
n=$(cycles)
seen() { accepted || more_cycles $((n + 5)); }
wait_for 60 seen || fail "the negotiator did not cycle"
how="the slot was left to its end"
accepted && how="the better claim waited for it"
[ "$(condor_q -allusers "$H.0" -af JobStatus)" = 1 ] ||
	fail "the preferred job runs while the retiring job has not ended: $(condor_q -allusers -af ClusterId JobStatus)"
# condor_q's analysis with the negotiator's priorities: the claimed
# slot is one the preferred job may preempt (its own user's, with one
# user)
ana=$(condor_q -allusers -better-analyze:priority "$H.0") || fail "condor_q -better-analyze:priority: $ana"
grep -q "Run analysis summary considering user priority.  Of 1 slots on 1 machines" <<<"$ana" ||
	fail "condor_q -better-analyze:priority: $ana"
if [ "$LOW" != "$HIGH" ]; then
	grep -q "^Submittor $HIGH@[^ ]* has a priority of " <<<"$ana" &&
		grep -q "^      1 slots match and are willing to run your job" <<<"$ana" ||
		fail "the claimed slot is not one the preferred job may preempt: $ana"
else
	grep -q "^      1 slots match and are already running one of your jobs" <<<"$ana" ||
		fail "the claimed slot is not the user's own: $ana"
fi
touch "$J/finish"
wait_for 60 in_history "$L" 1 || fail "the retiring job did not complete"
grep -q '^004 ' "$J/low.log" && fail "the retiring job was evicted: $(cat "$J/low.log")"
grep -q 'Normal termination (return value 0)' "$J/low.log" ||
	fail "the retiring job did not end normally: $(cat "$J/low.log")"
[ "$(lines term)" = 0 ] || fail "the retiring job got a soft kill"
wait_for 60 in_history "$H" 1 || fail "the preferred job did not run after the retiring one"
done_at=$(hist "$L.0" CompletionDate) began=$(hist "$H.0" JobStartDate)
[ -n "$done_at" ] && [ -n "$began" ] && [ "$began" -ge "$done_at" ] ||
	fail "the preferred job started at $began, the retiring job completed at $done_at"
[ "$(grep -c '^001 ' "$J/high.log")" = 1 ] || fail "the preferred job's starts: $(cat "$J/high.log")"
# its claim waited at the startd for the slot (REQUEST_CLAIM_TIMEOUT),
# it was not given up and matched again
[ "$(grep -c "Matched $H.0 " "$T/log/MatchLog")" = 1 ] ||
	fail "the preferred job was matched more than once: $(grep Matched "$T/log/MatchLog")"
echo "ok: a retiring job is not evicted for a preferred one, which starts after it ($how)"
stop_pool

# --- 2. the schedd killed while the slot is preempting ------------------------
rm -f "$J"/*.log "$J/runs" "$J/finish" "$J/letgo"
start_pool 0
L=$(submit "$LOW" low "$J/low.sh" "$J") || fail "condor_submit of the low job"
wait_for 60 has_lines start 1 || fail "the low job did not start"
H=$(submit "$HIGH" high /bin/sleep 1 "$MARK") || fail "condor_submit of the preferred job"
wait_for 60 has_lines term 1 || fail "the low job was not vacated for the preferred one"
preempting() { [ "$(condor_status -af State)" = Preempting ]; }
wait_for 10 preempting || fail "the slot is not Preempting: $(condor_status -af State Activity)"
old=$(schedd_pid)
[ -n "$old" ] || fail "no schedd to kill"
kill -9 "$old"
restarted() { p=$(schedd_pid) && [ -n "$p" ] && [ "$p" != "$old" ] && condor_q >/dev/null; }
wait_for 60 restarted || fail "the schedd was not restarted"
touch "$J/letgo"
wait_for 90 in_history "$H" 1 || fail "the preferred job did not run after the schedd's restart: $(condor_q -allusers -af ClusterId JobStatus; condor_status -af State Activity RemoteUser)"
wait_for 60 has_lines start 2 || fail "the low job did not run again: $(cat "$J/runs")"
touch "$J/finish"
wait_for 60 in_history "$L" 1 || fail "the low job did not complete"
[ "$(lines start)" = 2 ] || fail "the low job ran $(lines start) times: $(cat "$J/runs")"
[ "$(grep -c '^001 ' "$J/low.log")" = 2 ] || fail "the low job's execute events: $(cat "$J/low.log")"
[ "$(grep -c '^004 ' "$J/low.log")" = 1 ] || fail "the low job's evictions: $(cat "$J/low.log")"
[ "$(hist "$L.0" NumJobStarts)" = 2 ] || fail "NumJobStarts of the low job: $(hist "$L.0" NumJobStarts)"
[ "$(grep -c '^001 ' "$J/high.log")" = 1 ] || fail "the preferred job's starts: $(cat "$J/high.log")"
grep -q 'Normal termination (return value 0)' "$J/high.log" || fail "the preferred job did not complete: $(cat "$J/high.log")"
echo "ok: a schedd killed while its job is being preempted loses nothing: the job runs again once, the preferring job once"
stop_pool

# --- 3. a claim that waits too long is given up -------------------------------
# (early preemption asked for, so that the retiring slot is matched)
rm -f "$J"/*.log "$J/runs" "$J/finish" "$J/letgo"
start_pool 300 "REQUEST_CLAIM_TIMEOUT = 2
NEGOTIATOR_CONSIDER_EARLY_PREEMPTION = True"
L=$(submit "$LOW" low "$J/low.sh" "$J") || fail "condor_submit of the low job"
wait_for 60 has_lines start 1 || fail "the low job did not start"
H=$(submit "$HIGH" high /bin/sleep 1 "$MARK") || fail "condor_submit of the preferred job"
timed_out() { grep -q "Timed out requesting claim slot1@[^ ]* for job $H.0 after REQUEST_CLAIM_TIMEOUT" "$T/log/SchedLog"; }
wait_for 60 timed_out || fail "the schedd did not give up its claim after REQUEST_CLAIM_TIMEOUT"
back() { grep -q "transition 19 Claimed/Retiring -> Claimed/Busy" "$T/log/StartLog"; }
wait_for 30 back || fail "the retiring job did not go back to work when the waiting claim was given up"
touch "$J/finish"
wait_for 60 in_history "$L" 1 || fail "the low job did not complete"
grep -q '^004 ' "$J/low.log" && fail "the low job was evicted: $(cat "$J/low.log")"
wait_for 60 in_history "$H" 1 || fail "the preferred job did not run after the low job"
[ "$(lines start)" = 1 ] || fail "the low job ran $(lines start) times: $(cat "$J/runs")"
echo "ok: a preempting claim not granted within REQUEST_CLAIM_TIMEOUT is given up, and the retiring job goes back to work"
echo "all retirement and restart checks passed"
