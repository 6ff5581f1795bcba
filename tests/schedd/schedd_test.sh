#!/usr/bin/env bash
# schedd_test.sh BUILD: a whole personal pool (master, collector,
# negotiator, startd with four CPUs, schedd) on loopback, driven by
# condor_submit, condor_q, condor_rm/hold/release and condor_history as a
# user would: 1,000 jobs run once each with their exit codes in the history and
# the event log; every queue form; hold, release and remove; the seed's
# transforms and submit requirements; a schedd killed with SIGKILL while
# jobs run loses nothing and runs nothing twice; a startd killed under a
# job sends it back to Idle.  As root the jobs belong to two temporary
# accounts (fair share between them is checked); as another user all run
# as that user and the fair-share part is skipped.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/lib_pool.sh"
tools_on_path

pool_dir schedd_test
chmod 755 "$T"
J=$T/jobs
mkdir -p "$J" && chmod 1777 "$J"

users=()
made=()
cleanup_users() {
	for u in "${made[@]}"; do userdel "$u" 2>/dev/null; done
}
if [ "$(id -u)" = 0 ]; then
	for u in ksalice ksbob kscarol; do
		if ! id "$u" >/dev/null 2>&1; then
			useradd -M -r -s /bin/sh "$u" || fail "cannot add user $u"
			made+=("$u")
		fi
		users+=("$u")
	done
	trap 'cleanup_users; pool_cleanup' EXIT
else
	users=("$(id -un)")
fi
A=${users[0]}
job_pool_config <<CFG
PERIODIC_EXPR_INTERVAL = 1
NUM_CPUS = 4
SW_LIMIT = 2
CFG
start_master
wait_for 20 sh -c 'condor_status -af Name | grep -q slot1' || fail "no slots"
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"

# --- jobs run once each, with their exit codes ---------------------------
cat > "$J/exit.sh" <<'SH'
#!/bin/sh
echo "job $1"
exit $(( $1 % 7 ))
SH
chmod 755 "$J/exit.sh"
cat > "$J/exit.sub" <<SUB
executable = $J/exit.sh
arguments = \$(Process)
output = $J/out.\$(Process)
log = $J/exit.log
queue 1000
SUB
out=$(as "$A" condor_submit "$J/exit.sub") || fail "condor_submit: $out"
C=$(cluster_of "$out")
[ -n "$C" ] || fail "no cluster in: $out"
grep -q "^Submitting job(s)\.\{1000\}$" <<<"$out" || fail "dots: $out"
grep -q "^1000 job(s) submitted to cluster $C\.$" <<<"$out" || fail "summary: $out"
wait_for 300 in_history "$C" 1000 || fail "1000 jobs did not all finish"
bad=$(condor_history -af ProcId ExitCode NumJobStarts JobStatus -constraint "ClusterId == $C" |
	awk '$2 != $1 % 7 || $3 != 1 || $4 != 4')
[ -z "$bad" ] || fail "wrong exit codes or runs: $bad"
[ "$(grep -c '^005 ' "$J/exit.log")" = 1000 ] || fail "terminated events"
[ "$(grep -c '^001 ' "$J/exit.log")" = 1000 ] || fail "execute events"
[ "$(condor_history -af ProcId -constraint "ClusterId == $C" | sort -n | uniq | wc -l)" = 1000 ] || fail "history ids"
# -since: newest first, up to (not with) the job named, from the schedd
all=$(condor_history -af ProcId -constraint "ClusterId == $C")
want=$(sed '/^500$/,$d' <<<"$all")
[ "$(condor_history -af ProcId -since "$C.500" -constraint "ClusterId == $C")" = "$want" ] ||
	fail "condor_history -since $C.500: $(condor_history -af ProcId -since "$C.500" | head -3)"
grep -q '(1) Normal termination (return value 6)' "$J/exit.log" || fail "return value 6"
# condor_q -userlog reads the same jobs back from their event log
bad=$(condor_q -userlog "$J/exit.log" -af ProcId ExitCode NumJobStarts JobStatus LastJobStatus |
	awk '$2 != $1 % 7 || $3 != 1 || $4 != 4 || $5 != 2')
[ -z "$bad" ] && [ "$(condor_q -userlog "$J/exit.log" -af ProcId | wc -l)" = 1000 ] ||
	fail "condor_q -userlog: $(head -3 <<<"$bad")"
[ "$(cat "$J/out.13")" = "job 13" ] || fail "output of job 13"
[ "$(stat -c %U "$J/out.0")" = "$A" ] || fail "job ran as $(stat -c %U "$J/out.0"), not $A"
# what each job keeps of its slot, as HTCondor's schedd records it
bad=$(condor_history -af NumJobMatches MachineAttrCpus0 MachineAttrSlotWeight0 LastMatchTime -constraint "ClusterId == $C" |
	awk '$1 != 1 || $2 != 1 || $3 != 1 || $4 !~ /^[0-9]+$/' | head -3)
[ -z "$bad" ] || fail "NumJobMatches MachineAttrCpus0 MachineAttrSlotWeight0 LastMatchTime: $bad"
echo "ok: 1000 jobs once each, exit codes in history and event log"

# --- every queue form ----------------------------------------------------
printf 'a\nb\n' > "$J/items.txt"
touch "$J/m1.dat" "$J/m2.dat" "$J/m3.dat"
cat > "$J/forms.sub" <<SUB
executable = /bin/echo
initialdir = $J
arguments = \$(Item)
queue 2
queue x in (p, q, r)
queue from $J/items.txt
queue matching files *.dat
SUB
out=$( cd "$J" && as "$A" condor_submit forms.sub) || fail "queue forms: $out"
C=$(cluster_of "$out")
grep -q "10 job(s) submitted" <<<"$out" || fail "queue forms count: $out"
wait_for 60 in_history "$C" 10 || fail "queue forms did not finish"
echo "ok: queue N, in, from, matching"

# -verbose shows each job's ad instead of a dot, and no summary line
out=$( cd "$J" && as "$A" condor_submit -verbose forms.sub) || fail "-verbose: $out"
[ "$(grep -c '^\*\* Proc [0-9]*\.[0-9]*:$' <<<"$out")" = 10 ] || fail "-verbose procs: $out"
[ "$(grep -c '^Cmd = "/bin/echo"$' <<<"$out")" = 10 ] || fail "-verbose ads: $out"
grep -q 'submitted to cluster' <<<"$out" && fail "-verbose summary: $out"
wait_for 60 queue_empty || fail "the -verbose jobs did not finish"
echo "ok: condor_submit -verbose"

# --- local and scheduler universe: on the submit host, not negotiated ----
for u in local scheduler; do
	cat > "$J/$u.sub" <<SUB
universe = $u
executable = /bin/echo
arguments = ran $u
output = $J/$u.out
log = $J/$u.log
queue
SUB
	out=$(as "$A" condor_submit "$J/$u.sub") || fail "$u submit: $out"
	C=$(cluster_of "$out")
	wait_for 30 in_history "$C" 1 || fail "the $u universe job did not finish"
	[ "$(cat "$J/$u.out")" = "ran $u" ] || fail "$u output: $(cat "$J/$u.out")"
	[ "$(condor_history -af ExitCode JobStatus -constraint "ClusterId == $C")" = "0 4" ] || fail "$u job result"
	grep -q '^005 ' "$J/$u.log" || fail "no terminated event for the $u job"
done
echo "ok: local and scheduler universe"

# --- hold, release, remove -----------------------------------------------
cat > "$J/sleep.sub" <<SUB
executable = /bin/sleep
arguments = 300
log = $J/sleep.log
queue
SUB
out=$(as "$A" condor_submit "$J/sleep.sub") || fail "sleep submit: $out"
C=$(cluster_of "$out")
wait_for 20 status_is "$C.0" 2 || fail "sleep job not running"
# a running job's RUN_TIME and host, as HTCondor's condor_q shows them
line=$(condor_q -allusers -nobatch "$C.0" | grep "^ *$C\.0 ")
[[ "$line" =~ \ 0\+00:0[0-9]:[0-9][0-9]\ R\  ]] || fail "condor_q -nobatch of a running job: $line"
line=$(condor_q -allusers -run "$C.0" | grep "^ *$C\.0 ")
[[ "$line" =~ \ 0\+00:0[0-9]:[0-9][0-9]\ slot[0-9_]*@ ]] || fail "condor_q -run: $line"
out=$(as "$A" condor_hold "$C.0") || fail "condor_hold: $out"
wait_for 10 status_is "$C.0" 5 || fail "not held"
grep -q '^012 ' "$J/sleep.log" || fail "no held event"
out=$(as "$A" condor_release "$C") || fail "condor_release: $out"
wait_for 20 status_is "$C.0" 2 || fail "not running again after release"
out=$(as "$A" condor_rm "$C.0") || fail "condor_rm: $out"
wait_for 20 in_history "$C" 1 || fail "removed job not in history"
[ "$(condor_history -af JobStatus -constraint "ClusterId == $C")" = 3 ] || fail "not Removed"
grep -q '^009 ' "$J/sleep.log" || fail "no aborted event"
grep -q '^013 ' "$J/sleep.log" || fail "no released event"
[ "$(condor_q -userlog "$J/sleep.log" -af JobStatus NumJobStarts HoldReasonCode NumSystemHolds)" = "3 2 1 0" ] ||
	fail "condor_q -userlog of a held, released, removed job: $(condor_q -userlog "$J/sleep.log" -af JobStatus NumJobStarts HoldReasonCode NumSystemHolds)"
echo "ok: hold, release, rm"

# --- a running job's news: suspended, continued, its memory ---------------
cat > "$J/susp.sub" <<SUB
executable = /bin/sleep
arguments = 6
log = $J/susp.log
+KsSuspendTest = true
queue
SUB
out=$(as "$A" condor_submit "$J/susp.sub") || fail "susp submit: $out"
C=$(cluster_of "$out")
wait_for 20 grep -q '^010 ' "$J/susp.log" || fail "no suspended event"
grep -q 'Number of processes actually suspended: 1' "$J/susp.log" || fail "010: $(cat "$J/susp.log")"
# suspended from 2 s to 4 s of its run: the queue shows it meanwhile
status_is "$C.0" 7 || grep -q '^011 ' "$J/susp.log" || fail "not Suspended in the queue"
wait_for 20 grep -q '^011 ' "$J/susp.log" || fail "no unsuspended event"
wait_for 30 in_history "$C" 1 || fail "susp job did not finish"
grep -q '^006 .*Image size of job updated: [1-9]' "$J/susp.log" || fail "no image size event: $(cat "$J/susp.log")"
set -- $(condor_history -af TotalSuspensions CumulativeSuspensionTime ImageSize -constraint "ClusterId == $C")
[ "$1" = 1 ] && [ "${2:-0}" -ge 1 ] && [ "${3:-0}" -gt 0 ] || fail "suspension figures: $*"
echo "ok: suspended and continued (010, 011), image size (006)"

# --- a schedd killed with SIGKILL loses nothing ---------------------------
cat > "$J/k.sub" <<SUB
executable = /bin/sleep
arguments = 2
log = $J/k.log
job_ad_information_attrs = Owner, ProcId
queue 8
SUB
out=$(as "$A" condor_submit "$J/k.sub") || fail "k submit: $out"
C=$(cluster_of "$out")
# a local universe job cannot be reconnected: it dies with the schedd
# and runs again, never twice at once
as "$A" sh -c "cat > '$J/lk.sub'" <<SUB
universe = local
executable = /bin/sh
arguments = "-c 'echo start >> $J/lk.runs; sleep 3; echo end >> $J/lk.runs'"
log = $J/lk.log
queue
SUB
wait_for 20 grep -q '^001 ' "$J/k.log" || fail "k jobs did not start"
out=$(as "$A" condor_submit "$J/lk.sub") || fail "lk submit: $out"
LC=$(cluster_of "$out")
wait_for 20 grep -q start "$J/lk.runs" || fail "the local job did not start"
# only this pool's daemons: other tests' may run alongside
pkill -9 -P "$MASTER_PID" -f condor_schedd || fail "no schedd to kill"
wait_for 60 in_history "$C" 8 || fail "jobs lost after the schedd was killed"
wait_for 30 in_history "$LC" 1 || fail "the local job did not finish after the restart"
[ "$(tr '\n' ' ' < "$J/lk.runs")" = "start start end " ] ||
	fail "local job runs: $(tr '\n' ' ' < "$J/lk.runs")"
[ "$(condor_history -af NumJobStarts -constraint "ClusterId == $LC")" = 2 ] || fail "local job starts"
! grep -q '^02[24] ' "$J/lk.log" || fail "reconnect events for a local job: $(cat "$J/lk.log")"
bad=$(condor_history -af ProcId NumJobStarts -constraint "ClusterId == $C" | awk '$2 != 1')
[ -z "$bad" ] || fail "jobs run twice after the schedd's restart: $bad"
[ "$(grep -c '^005 ' "$J/k.log")" = 8 ] || fail "k terminated events"
grep -q 'reconnected' "$T/log/SchedLog" || fail "no reconnection"
# the jobs found again say so in their log, as HTCondor's shadow does
grep -q '^023 .*Job reconnected to ' "$J/k.log" || fail "no reconnected event"
[ "$(condor_history -af NumJobReconnects -constraint "ClusterId == $C" | grep -c '^1$')" = \
	"$(grep -c '^023 ' "$J/k.log")" ] || fail "NumJobReconnects"
# job_ad_information_attrs: every event followed by a 028 with the job's
# Owner and ProcId and what triggered it
others=$(grep -c '^0[0-9][0-9] ' "$J/k.log")
infos=$(grep -c '^028 ' "$J/k.log")
[ $((others - infos)) = "$infos" ] || fail "028 events: $infos of $others"
awk '/^028 /{x=1} x&&/^\.\.\./{exit} x' "$J/k.log" > "$J/k.028"
grep -q "^Owner = \"$A\"" "$J/k.028" && grep -q '^ProcId = ' "$J/k.028" &&
	grep -q '^TriggerEventTypeNumber = 0' "$J/k.028" || fail "028: $(cat "$J/k.028")"
echo "ok: schedd killed mid-run: nothing lost, nothing run twice, reconnected events, job ad information"

# --- a startd killed under a job: disconnected, Idle after its lease -------
# As HTCondor's shadow: 022, the job stays Running while the schedd tries
# to reconnect (the restarted startd listens elsewhere and has no such
# claim: its job was lost, or ended killed), then 024 (or 023) and 004,
# and it runs again.
# The other job is removed while disconnected: it leaves at once.  A job
# without a lease (job_lease_duration = 0) is not reconnected at all.
cat > "$J/s.sub" <<SUB
executable = /bin/sleep
arguments = 5
job_lease_duration = 20
log = $J/s.log
queue 2
SUB
sed -e 's/^job_lease_duration = 20$/job_lease_duration = 0/' -e 's/^queue 2$/queue/' \
	-e "s|^log = .*|log = $J/s0.log|" "$J/s.sub" > "$J/s0.sub"
out=$(as "$A" condor_submit "$J/s.sub") || fail "s submit: $out"
C=$(cluster_of "$out")
out=$(as "$A" condor_submit "$J/s0.sub") || fail "s0 submit: $out"
C0=$(cluster_of "$out")
wait_for 20 status_is "$C.0" 2 || fail "s job not running"
wait_for 20 status_is "$C.1" 2 || fail "s job 1 not running"
wait_for 20 status_is "$C0.0" 2 || fail "s0 job not running"
SDP=$(pgrep -P "$MASTER_PID" -f condor_startd)
[ -n "$SDP" ] || fail "no startd to kill"
# the startd first: a starter killed before it would be reported as a
# job's end, not a lost connection
STP=$(for p in $SDP; do pgrep -P "$p" -f condor_starter; done)
kill -9 $SDP
[ -n "$STP" ] && kill -9 $STP
killed=$(date +%s)
two_disconnected() { [ "$(grep -c '^022 ' "$J/s.log")" = 2 ]; }
wait_for 20 two_disconnected || fail "no disconnected events: $(cat "$J/s.log")"
grep -A3 '^022 ' "$J/s.log" | grep -q 'Socket between submit and execute hosts closed unexpectedly' ||
	fail "022: $(grep -A3 '^022 ' "$J/s.log")"
status_is "$C.0" 2 || fail "s job left Running at once: $(condor_q -allusers "$C.0" -af JobStatus)"
[ -n "$(condor_q -allusers "$C.0" -af JobDisconnectedDate)" ] || fail "no JobDisconnectedDate"
out=$(as "$A" condor_rm "$C.1") || fail "condor_rm of a disconnected job: $out"
wait_for 10 in_history "$C" 1 || fail "the disconnected job removed did not leave the queue"
[ "$(condor_history -af JobStatus -constraint "ClusterId == $C && ProcId == 1")" = 3 ] ||
	fail "removed disconnected job: $(condor_history -l -constraint "ClusterId == $C")"
status_is "$C.0" 2 || fail "s job left Running"
# The job's starter killed with the startd leaves no end: the new startd
# says the job was lost (024).  One quick enough to write its end first
# (killed) is given to the reconnect instead (023, then its eviction).
lost_or_killed() { grep -q '^024 ' "$J/s.log" || grep -q '^023 ' "$J/s.log"; }
wait_for 50 lost_or_killed || fail "no reconnect-failed or reconnected event: $(cat "$J/s.log")"
waited=$(( $(date +%s) - killed ))
if grep -q '^024 ' "$J/s.log"; then
	grep -A2 '^024 ' "$J/s.log" | grep -Eq 'JobLeaseDuration \(20 seconds\) expired|Claim not found|Job lost' ||
		fail "024: $(grep -A2 '^024 ' "$J/s.log")"
	if grep -A2 '^024 ' "$J/s.log" | grep -q expired; then
		[ "$waited" -ge 18 ] || fail "gave up after $waited s, before the 20 s lease"
	fi
	again=024
else
	again=023
fi
wait_for 10 grep -q '^004 ' "$J/s.log" || fail "no eviction event after $again"
wait_for 60 in_history "$C" 2 || fail "s job did not finish after the startd came back"
P0=$(printf '(%03d.000.000)' "$C")
seq=$(grep -F "$P0" "$J/s.log" | grep -oE '^(000|001|004|005|009|022|023|024) ' | tr -d ' \n')
[ "$seq" = "000001022${again}004001005" ] || fail "s job's events in the order $seq"
wait_for 60 in_history "$C0" 1 || fail "the lease-less job did not run again"
seq=$(grep -oE '^(000|001|004|005|009|022|023|024) ' "$J/s0.log" | tr -d ' \n')
[ "$seq" = 000001024004001005 ] || fail "lease-less job's events in the order $seq"
grep -A1 '^024 ' "$J/s0.log" | grep -q 'Reconnect is not supported' || fail "024 of the lease-less job"
P1=$(printf '(%03d.001.000)' "$C")
seq=$(grep -F "$P1" "$J/s.log" | grep -oE '^(000|001|004|005|009|022|023|024) ' | tr -d ' \n')
[ "$seq" = 000001022009 ] || fail "removed job's events in the order $seq"
[ "$(condor_history -af NumJobStarts -constraint "ClusterId == $C && ProcId == 0")" = 2 ] || fail "s job starts"
n=$(condor_history -af TotalJobReconnectAttempts -constraint "ClusterId == $C && ProcId == 0")
[ "$n" -ge 1 ] || fail "TotalJobReconnectAttempts: $n"
echo "ok: startd killed mid-job: disconnected (022), Idle after ${waited} s ($again, 004), then run again"

# --- autoclusters tell apart what the slots' START reads ------------------
# Procs of one cluster that differ only in an attribute START reads are
# two autoclusters (the negotiator's AutoClusterAttrs): the ones no slot
# takes are never matched, so never refused a claim.
cat > "$J/ac.sub" <<SUB
executable = /bin/true
+KsNoStart = \$(no)
queue no in (false, true, false, true)
SUB
out=$(as "$A" condor_submit "$J/ac.sub") || fail "ac submit: $out"
C=$(cluster_of "$out")
wait_for 30 in_history "$C" 2 || fail "the startable jobs did not run: $(condor_q -allusers -af ProcId JobStatus KsNoStart)"
[ "$(condor_history -af ProcId -constraint "ClusterId == $C" | sort | tr '\n' ' ')" = "0 2 " ] ||
	fail "jobs run: $(condor_history -af ProcId -constraint "ClusterId == $C")"
# two more negotiation cycles: they must still not be tried
cycles() { grep -c 'Started Negotiation Cycle' "$T/log/NegotiatorLog"; }
cycles_reach() { [ "$(cycles)" -ge "$1" ]; }
wait_for 20 cycles_reach $(( $(cycles) + 2 )) || fail "no more negotiation cycles"
[ "$(condor_q -allusers -constraint "ClusterId == $C" -af JobStatus | tr '\n' ' ')" = "1 1 " ] ||
	fail "unstartable jobs: $(condor_q -allusers -constraint "ClusterId == $C" -af ProcId JobStatus)"
# the negotiator's reason reaches the job its request stood for
[ "$(condor_q -allusers "$C.1" -af LastRejMatchReason)" = "no match found" ] ||
	fail "LastRejMatchReason: $(condor_q -allusers "$C.1" -af LastRejMatchReason LastRejMatchTime)"
# condor_q -long prints a schedd's jobs from their records as they came;
# a saved listing read back with -jobads is parsed and printed: the two
# agree, and the schedd put its clock in each job (SendServerTime)
condor_q -allusers -l "$C" > "$T/q_long.txt" || fail "condor_q -l failed"
[ "$(grep -c '^ServerTime = ' "$T/q_long.txt")" = 2 ] && [ "$(grep -c '^ClusterId = ' "$T/q_long.txt")" = 2 ] ||
	fail "condor_q -l: $(grep -c '^ServerTime = ' "$T/q_long.txt") ServerTime in $(grep -c '^ClusterId = ' "$T/q_long.txt") jobs"
condor_q -jobads "$T/q_long.txt" -l > "$T/q_long_again.txt" &&
	cmp -s "$T/q_long.txt" "$T/q_long_again.txt" ||
	fail "condor_q -l and the same ads through -jobads differ: $(diff "$T/q_long.txt" "$T/q_long_again.txt" | head -5)"
[ "$(condor_q -allusers -l "$C.1" -attributes ProcId,KsNoStart)" = "$(printf 'KsNoStart = true\nProcId = 1')" ] ||
	fail "condor_q -l -attributes: $(condor_q -allusers -l "$C.1" -attributes ProcId,KsNoStart)"
ana=$(condor_q -allusers -better-analyze "$C.1")
grep -q "^No successful match recorded\.$" <<<"$ana" && grep -q "^Last failed match: " <<<"$ana" &&
	grep -q "^Reason for last match failure: no match found$" <<<"$ana" ||
	fail "condor_q -better-analyze: $ana"
! grep -q "cannot claim .* for job $C\." "$T/log/SchedLog" ||
	fail "slots matched to jobs START refuses: $(grep "cannot claim" "$T/log/SchedLog" | tail -3)"
as "$A" condor_rm "$C" >/dev/null || fail "ac rm"
wait_for 20 queue_empty || fail "ac jobs not removed"
echo "ok: autoclusters split by what START reads (AutoClusterAttrs)"

# --- concurrency limits ----------------------------------------------------
# SW_LIMIT = 2: of four jobs that each take one "sw", at most two run at a
# time though four slots are free; the negotiator logs why the others
# wait, and condor_userprio -l -legacy reports the limit in use.  Four
# jobs taking "free" (no limit set) come first in the queue: the claims
# they leave behind are not reused for the sw jobs, which would slip past
# the negotiator's count (CLAIM_RECYCLING_CONSIDER_LIMITS).
cat > "$J/cl.sub" <<SUB
executable = /bin/sleep
arguments = 2
log = $J/cl.log
concurrency_limits = \$(lim)
queue lim in (free, free, free, free, SW, SW, SW, SW)
SUB
out=$(as "$A" condor_submit "$J/cl.sub") || fail "cl submit: $out"
C=$(cluster_of "$out")
sw_in_use() { condor_userprio -l -legacy 2>/dev/null | grep -qi '^ConcurrencyLimit_sw = 2'; }
wait_for 30 sw_in_use || fail "condor_userprio -l -legacy: $(condor_userprio -l -legacy 2>&1 | grep -i concurrency)"
wait_for 90 in_history "$C" 8 || fail "limited jobs did not all run: $(condor_q -allusers -af ProcId JobStatus)"
# the most sw jobs (procs 4-7) running at once, from the event log (001
# starts one, 005 ends one)
most=$(awk '/^001 \([0-9]+\.00[4-7]\./{n++; if (n > m) m = n} /^005 \([0-9]+\.00[4-7]\./{n--} END {print m}' "$J/cl.log")
[ "$most" = 2 ] || fail "$most jobs taking sw ran at once; SW_LIMIT is 2"
grep -q "Rejected $C\.[0-9]* .*: concurrency limit sw reached" "$T/log/NegotiatorLog" ||
	fail "no rejection for the limit: $(grep Rejected "$T/log/NegotiatorLog" | tail -3)"
condor_history -af LastRejMatchReason -constraint "ClusterId == $C" | grep -qx "concurrency limit sw reached" ||
	fail "LastRejMatchReason: $(condor_history -af ProcId LastRejMatchReason -constraint "ClusterId == $C")"
echo "ok: concurrency limits (SW_LIMIT = 2 of 4 slots)"

# --- fair share between two users ------------------------------------------
if [ ${#users[@]} -ge 3 ]; then
	# two users who have run nothing yet
	A2=${users[1]} Bb=${users[2]}
	for u in "$A2" "$Bb"; do
		cat > "$J/fair.$u.sub" <<SUB
executable = /bin/sleep
arguments = 3
hold = true
queue 8
SUB
	done
	# held, then released together, so that one cycle sees both users
	as "$A2" condor_submit "$J/fair.$A2.sub" >/dev/null || fail "fair submit $A2"
	as "$Bb" condor_submit "$J/fair.$Bb.sub" >/dev/null || fail "fair submit $Bb"
	# the claims of the jobs above gone from the collector too (a
	# claimed slot counts toward its user's share)
	idle_pool() { [ -z "$(condor_status -af State | grep -v Unclaimed)" ]; }
	wait_for 20 idle_pool || fail "slots still claimed: $(condor_status -af Name State)"
	out=$(condor_release -all) || fail "condor_release -all: $out"
	both_run() {
		local r
		r=$(condor_q -allusers -constraint 'JobStatus == 2' -af Owner | sort | uniq -c)
		[ "$(wc -l <<<"$r")" = 2 ] && [ "$(awk '{s += $1} END {print s}' <<<"$r")" = 4 ]
	}
	wait_for 30 both_run || fail "the two users did not share the slots: $(condor_q -allusers -af Owner JobStatus)"
	split=$(condor_q -allusers -constraint 'JobStatus == 2' -af Owner | sort | uniq -c | awk '{print $1}' | tr '\n' ' ')
	[ "$split" = "2 2 " ] || fail "slots split $split, not 2 2"
	wait_for 60 queue_empty || fail "fair jobs did not finish"
	echo "ok: fair share 2 2"
fi

# --- the seed's transforms and submit requirements ------------------------
stop_pool
printf '* %s physics,chem\n' "$A" > "$T/groups.map"
job_pool_config <<CFG
PERIODIC_EXPR_INTERVAL = 1
NUM_CPUS = 4
CLASSAD_USER_MAPFILE_Groups = $T/groups.map
SCHEDD_CLASSAD_USER_MAP_NAMES = Groups
JOB_TRANSFORM_NAMES = AssignGroup, SL6ToDocker
JOB_TRANSFORM_AssignGroup @=end
   # map Owner to group using the existing accounting group attribute as requested group
   EVALSET AcctGroup = userMap("Groups",Owner,AcctGroup)
   EVALSET AccountingGroup = join(".",AcctGroup,Owner)
@end
JOB_TRANSFORM_SL6ToDocker @=end
   # match only vanilla jobs that have WantSL6 and do not already have a DockerImage
   REQUIREMENTS JobUniverse==5 && WantSL6 && DockerImage =?= undefined
   SET WantDocker = true
   SET DockerImage = "SL6"
   SET Requirements = TARGET.HasDocker && \$(MY.Requirements)
@end
SUBMIT_REQUIREMENT_NAMES = NotStandardUniverse, MinimalRequestMemory, NotChris
SUBMIT_REQUIREMENT_NotStandardUniverse = JobUniverse != 1
SUBMIT_REQUIREMENT_MinimalRequestMemory = RequestMemory > 512
SUBMIT_REQUIREMENT_NotChris = Owner != "chris"
SUBMIT_REQUIREMENT_NotStandardUniverse_REASON = "This pool does not accept standard universe jobs."
SUBMIT_REQUIREMENT_MinimalRequestMemory_REASON = strcat( "The job only requested ", RequestMemory, " Megabytes.  If that small amount is really enough, please contact ..." )
SUBMIT_REQUIREMENT_NotChris_REASON = "Chris, you may only submit jobs to the instructional pool."
SUBMIT_REQUIREMENT_NAMES = OneGig \$(SUBMIT_REQUIREMENT_NAMES)
SUBMIT_REQUIREMENT_OneGig = RequestMemory > 1024
SUBMIT_REQUIREMENT_OneGig_REASON = "As of <date>, the minimum requested memory will be 1024."
SUBMIT_REQUIREMENT_OneGig_IS_WARNING = TRUE
CFG
start_master
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad (policy)"
printf 'executable = /bin/true\nrequest_memory = 256\nqueue 3\n' > "$J/small.sub"
out=$(as "$A" condor_submit "$J/small.sub" 2>&1) && fail "a 256 MB job was accepted: $out"
grep -q '^ERROR: Failed to commit job submission into the queue\.$' <<<"$out" || fail "rejection: $out"
grep -q '^ERROR: The job only requested 256 Megabytes\.' <<<"$out" || fail "reason: $out"
[ -z "$(condor_q -allusers -af ClusterId)" ] || fail "a rejected cluster left jobs"
cat > "$J/warn.sub" <<SUB
executable = /bin/sleep
arguments = 60
request_memory = 800
+WantSL6 = true
accounting_group = chem
log = $J/warn.log
hold = true
queue
SUB
out=$(as "$A" condor_submit "$J/warn.sub" 2>&1) || fail "an 800 MB job was refused: $out"
grep -q 'WARNING: Committed job submission into the queue with the following warning' <<<"$out" || fail "no warning: $out"
grep -q 'WARNING: As of <date>, the minimum requested memory will be 1024\.' <<<"$out" || fail "warning text: $out"
grep -q 'As of <date>, the minimum requested memory will be 1024\.' "$J/warn.log" || fail "warning not in the event log"
C=$(cluster_of "$out")
got=$(condor_q -allusers "$C.0" -af AcctGroup AccountingGroup WantDocker DockerImage)
[ "$got" = "chem chem.$A true SL6" ] || fail "transforms gave: $got"
condor_q -allusers "$C.0" -af:r Requirements | grep -q '^TARGET.HasDocker && (' || fail "Requirements not extended: $(condor_q -allusers "$C.0" -af:r Requirements)"
printf 'executable = /bin/true\nrequest_memory = 2048\nqueue\n' > "$J/big.sub"
out=$(as "$A" condor_submit "$J/big.sub" 2>&1) || fail "a 2 GB job was refused: $out"
grep -q WARNING <<<"$out" && fail "a 2 GB job had a warning: $out"
got=$(condor_q -allusers "$(cluster_of "$out").0" -af AcctGroup)
[ "$got" = "physics" ] || fail "AssignGroup without a requested group gave $got"
echo "ok: transforms and submit requirements of seed 004"
echo "all passed"
