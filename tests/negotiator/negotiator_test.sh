#!/usr/bin/env bash
# A master, collector, negotiator and a stand-in schedd (ng_fake_schedd)
# on loopback; slot ads come from condor_advertise -fake-private-ad.
# Checks: matches respect both Requirements, the job's Rank and the
# slot's (pre-job rank); a partitionable slot is matched several times in
# one cycle under one claim id; fair share between two users, equal and
# with a priority factor set by condor_userprio -setfactor; usage and
# priorities as condor_userprio shows them, and its other commands;
# RESCHEDULE starts a cycle; schedds that fail cost only their own turn.
# Usage: negotiator_test.sh BUILD_DIR
set -u
B=$1
. "$(dirname "$0")/../daemon/lib.sh"
. "$(dirname "$0")/../startd/lib_startd.sh"
pool_dir ksneg
ADV=$B/tools/condor_advertise/condor_advertise
UP=$B/tools/condor_userprio/condor_userprio
CMD=$B/tests/negotiator/ng_cmd
Q=$B/tests/daemon/ks_query
NL=$T/log/NegotiatorLog
SL=$T/log/SchedLog
mkdir -p "$T/spool"
export TZ=UTC

cat > "$CONDOR_CONFIG" <<CFG
LOCAL_DIR = $T
COLLECTOR_HOST = 127.0.0.1:0
MASTER = $B/master/condor_master
COLLECTOR = $B/collector/condor_collector
NEGOTIATOR = $B/negotiator/condor_negotiator
SCHEDD = $B/tests/negotiator/ng_fake_schedd
DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR SCHEDD
MASTER_BACKOFF_CONSTANT = 1
UID_DOMAIN = example.org
# cycles when the test asks for them (RESCHEDULE), at once
NEGOTIATOR_INTERVAL = 3600
NEGOTIATOR_CYCLE_DELAY = 0
NEGOTIATOR_MIN_INTERVAL = 0
NEGOTIATOR_TIMEOUT = 2
NEGOTIATOR_INFORM_STARTD = True
NEGOTIATOR_DEBUG = D_FULLDEBUG D_MATCH D_ACCOUNTANT
NEGOTIATOR_UPDATE_AFTER_CYCLE = True
SCHEDD_UPDATE_INTERVAL = 1
NG_FAKE_SCHEDD_REQUESTS = $T/requests.ads
CFG
: > "$T/requests.ads"
start_master
wait_for 20 test -s "$T/spool/.schedd_address" || fail "the stand-in schedd did not start"
SA=$(head -1 "$T/spool/.schedd_address")
wait_for 20 "$CMD" negotiator DC_NOP || fail "no negotiator in the collector"

cycles() { grep -c -- "---------- Finished Negotiation Cycle ----------" "$NL" 2>/dev/null; }
# cycle: one more negotiation cycle, asked for with RESCHEDULE
cycle() {
	local n; n=$(cycles)
	"$CMD" negotiator RESCHEDULE >/dev/null || fail "RESCHEDULE refused"
	wait_for 30 sh -c "[ \$(grep -c -- '---------- Finished Negotiation Cycle' '$NL') -gt $n ]" ||
		fail "no cycle after RESCHEDULE"
}
# perms: the stand-in's log of matches since the mark
mark() { MARK=$(wc -l < "$SL"); }
perms() { tail -n +"$((MARK + 1))" "$SL" | grep 'PERMISSION_AND_AD submitter='; }
count() { perms | grep -c "$1"; }

# slot NAME [Attr = value lines on stdin]: one static slot's ad, whose
# startd is the stand-in (so it hears MATCH_INFO)
slot() {
	cat <<AD
MyType = "Machine"
Name = "$1"
Machine = "exec.example.org"
MyAddress = "$SA"
StartdIpAddr = "$SA"
State = "Unclaimed"
Activity = "Idle"
SlotType = "Static"
Cpus = 1
Memory = 1024
Disk = 100000
SlotWeight = Cpus
Rank = 0
Requirements = true
AD
	cat
	echo
}
advertise() {
	"$ADV" -multiple -fake-private-ad UPDATE_STARTD_AD "$1" >/dev/null || fail "condor_advertise $1"
}
clear_slots() {
	printf 'MyType = "Query"\nTargetType = "Machine"\nRequirements = true\n' > "$T/all.ad"
	"$ADV" INVALIDATE_STARTD_ADS "$T/all.ad" >/dev/null
	wait_for 10 sh -c "! '$Q' QUERY_STARTD_ADS | grep -q '^Name'" || fail "slot ads stayed"
}
# slots_listed N: the collector has N slot ads
slots_listed() {
	wait_for 10 sh -c "[ \$('$Q' QUERY_STARTD_ADS | grep -c '^Name = ') = $1 ]" ||
		fail "expected $1 slot ads: $("$Q" QUERY_STARTD_ADS | grep '^Name')"
}
# submitters 'alice@example.org' ...: their ads are in the collector
submitters() {
	for s in "$@"; do
		wait_for 10 sh -c "'$Q' QUERY_SUBMITTOR_ADS | grep -q 'Name = \"$s\"'" ||
			fail "no submitter ad for $s"
	done
}
# request USER AC COUNT [lines]: one resource request
request() {
	cat <<AD
User = "$1"
Owner = "${1%@*}"
AutoClusterId = $2
ResourceRequestCount = $3
ClusterId = $2
ProcId = 0
RequestCpus = 1
RequestMemory = 128
JobUniverse = 5
AD
	cat
	echo
}

# ---- Requirements and Rank ----------------------------------------------
{
	slot s1@exec <<<'Color = "red"'
	slot s2@exec <<<'Color = "blue"'
	printf 'Color = "green"\nRequirements = TARGET.Owner == "bob"\n' | slot s3@exec
	slot s4@exec <<<'Color = "green"'
	printf 'Color = "yellow"\nRank = TARGET.Owner == "carol"\n' | slot s5@exec
} > "$T/slots1.ads"
advertise "$T/slots1.ads"
slots_listed 5
{
	printf 'Requirements = TARGET.Color =!= "red"\nRank = (TARGET.Color == "green") * 10 + (TARGET.Color == "blue")\n' |
		request alice@example.org 1 2
	printf 'Requirements = true\nRank = 0\n' | request carol@example.org 7 1
} > "$T/requests.ads"
submitters alice@example.org carol@example.org
mark
cycle
out=$(perms)
echo "$out" | grep -q "submitter=alice@example.org autocluster=1 claim=.* slot=s4@exec" || fail "alice's best (green) slot: $out"
echo "$out" | grep -q "submitter=alice@example.org autocluster=1 claim=.* slot=s2@exec" || fail "alice's second (blue) slot: $out"
echo "$out" | grep -q "submitter=carol@example.org autocluster=7 claim=.* slot=s5@exec" || fail "carol on the slot that ranks her first: $out"
[ "$(echo "$out" | wc -l)" = 3 ] || fail "3 matches expected: $out"
echo "$out" | grep -q "slot=s3@exec\|slot=s1@exec" && fail "a slot whose Requirements refuse the job was matched: $out"
grep -q "      Matched 1.0 alice@example.org $SA preempting none $SA s4@exec" "$NL" ||
	fail "the match is not logged as HTCondor logs it: $(grep Matched "$NL")"
grep -q "MATCH_INFO claim=$SA#" "$SL" || fail "no MATCH_INFO to the startd"
grep -q -- "---------- Started Negotiation Cycle ----------" "$NL" || fail "no cycle start line"
grep -q "Phase 4.1:  Negotiating with schedds" "$NL" || fail "no phase 4 line"
# carol's match is charged by the next cycle only if that cycle starts in a
# later second (as HTCondor's accountant, whose uncharged time nets to zero
# for a match that ends within the second it began)
carol_cycle=$(date +%s)

# ---- a partitionable slot, matched several times in one cycle ------------
clear_slots
cat > "$T/slots2.ads" <<AD
MyType = "Machine"
Name = "slot1@part"
Machine = "part.example.org"
MyAddress = "$SA"
StartdIpAddr = "$SA"
State = "Unclaimed"
Activity = "Idle"
SlotType = "Partitionable"
PartitionableSlot = true
Cpus = 8
Memory = 8192
Disk = 100000
MachineResources = "Cpus Memory Disk"
SlotWeight = Cpus
Rank = 0
Requirements = true

AD
advertise "$T/slots2.ads"
slots_listed 1
printf 'RequestCpus = 2\nRequestMemory = 1000\nRequirements = TARGET.Cpus >= RequestCpus && TARGET.Memory >= RequestMemory\nRank = 0\n' |
	request alice@example.org 3 10 > "$T/requests.ads"
printf '# pslot\n' >> "$T/requests.ads"
submitters alice@example.org
wait_for 10 sh -c "! '$Q' QUERY_SUBMITTOR_ADS | grep -q carol" || fail "carol's submitter ad stayed"
wait_for 3 sh -c "[ \$(date +%s) -gt $carol_cycle ]" || fail "the clock stands still"
mark
nmi=$(grep -c "MATCH_INFO claim=" "$SL")
cycle
out=$(perms)
[ "$(count 'slot=slot1@part')" = 4 ] || fail "8 cpus, 2 a job: 4 matches on the partitionable slot: $out"
[ "$(echo "$out" | sed 's/.*claim=\([^ ]*\).*/\1/' | sort -u | wc -l)" = 1 ] || fail "one claim id for every carve: $out"
[ "$(grep -c "MATCH_INFO claim=" "$SL")" = $((nmi + 1)) ] || fail "one MATCH_INFO for the partitionable slot's claim"

# ---- fair share -----------------------------------------------------------
clear_slots
for i in $(seq 1 12); do slot "f$i@farm" </dev/null; done > "$T/slots3.ads"
advertise "$T/slots3.ads"
slots_listed 12
share_round() {
	{
		printf 'Requirements = true\nRank = 0\n' | request alice@example.org 11 12
		printf 'Requirements = true\nRank = 0\n' | request bob@example.org 12 12
		echo "# $1"
	} > "$T/requests.ads"
	submitters alice@example.org bob@example.org
	mark
	cycle
	A=$(count submitter=alice)
	N=$(count submitter=bob)
}
# the earlier matches' usage ends with a cycle that sees no claimed
# slot; then both start from the lowest priority
echo "# nobody" > "$T/requests.ads"
cycle
"$UP" -setprio alice@example.org 0.5 >/dev/null && "$UP" -setprio bob@example.org 0.5 >/dev/null || fail "-setprio"
share_round equal
# HTCondor's arithmetic: a share of 6 may come out a hair under 6
[ $((A + N)) -ge 11 ] && [ $((A - N)) -le 1 ] && [ $((N - A)) -le 1 ] ||
	fail "equal priorities, 12 slots: about 6 each, got alice $A, bob $N"
out=$("$UP" -setfactor bob@example.org 3000) || fail "condor_userprio -setfactor: $out"
[ "$out" = "The priority factor of bob@example.org was set to 3000.000000" ] || fail "-setfactor said: $out"
grep -q "Setting the priority factor of bob@example.org to 3000.000000" "$NL" || fail "-setfactor not logged"
share_round factor
[ $((A + N)) -ge 11 ] && [ "$A" -ge 8 ] && [ "$N" -ge 2 ] && [ "$N" -le 3 ] ||
	fail "factors 1000 and 3000, 12 slots: about 9 and 3, got alice $A, bob $N"
out=$("$UP" -allusers -l)
echo "$out" | grep -qx 'PriorityFactor = 3000.0' || fail "-l: no factor 3000: $out"

# ---- usage, priorities and condor_userprio ---------------------------------
# claimed slots of alice's (weights 2 and 1) and bob's (weight 4): their
# usage counts from the next cycle on, and with a half-life of one
# second the real priorities come to about 3 and 4 within a few cycles
clear_slots
{
	printf 'State = "Claimed"\nActivity = "Busy"\nRemoteUser = "alice@example.org"\nCpus = 2\n' | slot c1@exec
	printf 'State = "Claimed"\nActivity = "Busy"\nRemoteUser = "alice@example.org"\n' | slot c2@exec
	printf 'State = "Claimed"\nActivity = "Busy"\nRemoteUser = "bob@example.org"\nCpus = 4\n' | slot c3@exec
} > "$T/slots4.ads"
advertise "$T/slots4.ads"
slots_listed 3
echo "PRIORITY_HALFLIFE = 1" >> "$CONDOR_CONFIG"
"$CMD" negotiator DC_RECONFIG >/dev/null || fail "reconfig"
# settled: a cycle, then alice's effective priority near 3 * 1000
settled() {
	cycle
	local e
	e=$("$UP" | awk '/^alice@example.org / {print $2}')
	[ -n "$e" ] && awk "BEGIN { exit !($e > 2500 && $e < 3500) }"
}
wait_for 60 settled || fail "alice's priority does not settle near 3000: $("$UP")"
out=$("$UP")
echo "$out" | head -1 | grep -q "^Last Priority Update: [ 0-9/]* [0-9][0-9]:[0-9][0-9]$" || fail "userprio's first line: $out"
echo "$out" | sed -n 2p | grep -q "^ *Effective *Priority *Wghted Total Usage  Time Since Submitter Submitter$" || fail "userprio's headings: $out"
echo "$out" | sed -n 3p | grep -q "^User Name *Priority *Factor *In Use (wghted-hrs) Last Usage   Floor    Ceiling $" || fail "userprio's headings: $out"
echo "$out" | sed -n 4p | grep -q "^-* ------------ --------- ------ ------------ ---------- --------- ---------$" || fail "userprio's rule: $out"
# alice: weight 3 in use, real priority about 3 (factor 1000); bob: 4,
# factor 3000; by effective priority, alice first
echo "$out" | grep -qE '^alice@example.org +[0-9]+\.[0-9][0-9] +1000\.00 +3 +[0-9]+\.[0-9][0-9] +<now> +$' || fail "alice's line: $out"
echo "$out" | grep -qE '^bob@example.org +[0-9]+\.[0-9][0-9] +3000\.00 +4 ' || fail "bob's line: $out"
[ "$(echo "$out" | grep -n '^alice\|^bob' | head -1 | cut -d: -f2 | cut -c1-5)" = alice ] || fail "ordered by effective priority: $out"
# carol's match in the first part counted as usage: three users.  The
# last column is the last priority update less a day before now (as
# HTCondor's): a day when the last cycle was this second, a minute less
# when it was a second or more ago
echo "$out" | tail -1 | grep -qE '^Number of users: 3 +7 +0\.[0-9][0-9] +(1\+00:00|0\+23:5[0-9]) +$' || fail "userprio's totals: $out"
echo "$out" | grep -q '<none>' && fail "the <none> group is shown: $out"
# dave never used anything: shown only with -allusers
"$UP" -setfactor dave@example.org 2 >/dev/null || fail "-setfactor dave"
"$UP" | grep -q dave && fail "dave shown without -allusers: $("$UP")"
"$UP" -allusers | grep -qE '^dave@example.org +1\.00 +2\.00 +0 +0\.00 +[0-9]+\+[0-9:]+ +$' || fail "-allusers: $("$UP" -allusers)"
out=$("$UP" -all)
echo "$out" | sed -n 3p | grep -q "^User Name  *Priority   Priority  Factor   In Use (wghted-hrs)    Start Time       Usage Time    Last Usage   Floor    Ceiling $" ||
	fail "-all headings: $out"
"$UP" alice | grep -q '^bob' && fail "a user name restricts the output: $("$UP" alice)"
out=$("$UP" -l)
echo "$out" | grep -qx 'Name = "alice@example.org"' || fail "-l: $out"
echo "$out" | grep -qx 'WeightedResourcesUsed = 3.0' || fail "-l usage: $out"
# the accounting ads the negotiator sends the collector
"$Q" QUERY_ACCOUNTING_ADS | grep -qx 'Name = "alice@example.org"' || fail "no accounting ad for alice"
"$Q" QUERY_NEGOTIATOR_ADS | grep -q '^LastNegotiationCycleMatches0 = ' || fail "no cycle statistics in the negotiator's ad"

out=$("$UP" -setprio alice@example.org 7) && [ "$out" = "The priority of alice@example.org was set to 7.000000" ] || fail "-setprio: $out"
"$UP" -l | grep -qx 'Priority = 7000.0' || fail "-setprio did not set the real priority: $("$UP" -l)"
out=$("$UP" -resetusage alice@example.org) && [ "$out" = "The accumulated usage of alice@example.org was reset" ] || fail "-resetusage: $out"
"$UP" -allusers -l | awk '/^Name = "alice/ {a=1} a && /^WeightedAccumulatedUsage/ {print; exit}' | grep -qx 'WeightedAccumulatedUsage = 0.0' ||
	fail "-resetusage: $("$UP" -l)"
out=$("$UP" -resetall) && [ "$out" = "The accumulated usage was reset for all users" ] || fail "-resetall: $out"
out=$("$UP" -delete carol@example.org) && [ "$out" = "The accountant record named carol@example.org was deleted" ] || fail "-delete: $out"
"$UP" -allusers | grep -q carol && fail "-delete left carol"
out=$("$UP" -setfactor bob 10 2>&1) && fail "-setfactor without a domain: $out"
echo "$out" | grep -q "You must specify the full name of the submittor" || fail "-setfactor bob: $out"
out=$("$UP" -setfactor bob@example.org 0.5 2>&1) && fail "-setfactor 0.5: $out"
echo "$out" | grep -q "Priority factors must be greater than or equal to 1." || fail "-setfactor 0.5: $out"
out=$("$UP" -pool 127.0.0.1:1 2>&1) && fail "-pool of no collector: $out"
echo "$out" | grep -q "Can't locate negotiator 'default' in 127.0.0.1:1" || fail "-pool: $out"
out=$("$CMD" negotiator SET_PRIORITYFACTOR 'PriorityFactor=2') && fail "SET_PRIORITYFACTOR without Name: $out"

# the accountant survives the negotiator's restart
pid=$(pgrep -P "$MASTER_PID" -f condor_negotiator)
kill -TERM "$pid"
wait_for 20 sh -c "pgrep -P '$MASTER_PID' -f condor_negotiator | grep -vqx '$pid'" || fail "the master did not restart the negotiator"
wait_for 20 sh -c "'$UP' -allusers | grep -qE '^bob@example.org +[0-9.]+ +3000.00'" || fail "the factor is gone after a restart: $("$UP" -allusers)"

# ---- schedds that fail ------------------------------------------------------
clear_slots
for i in 1 2 3 4; do slot "g$i@farm" </dev/null; done > "$T/slots5.ads"
advertise "$T/slots5.ads"
slots_listed 4
# a submitter whose schedd cannot be reached, one whose schedd refuses,
# one whose schedd never answers (NEGOTIATOR_TIMEOUT), one that is fine
cat > "$T/ghost.ad" <<AD
MyType = "Submitter"
Name = "ghost@example.org"
ScheddName = "nowhere"
ScheddIpAddr = "<127.0.0.1:1>"
IdleJobs = 5

AD
"$ADV" UPDATE_SUBMITTOR_AD "$T/ghost.ad" >/dev/null || fail "advertise ghost"
{
	printf 'Requirements = true\nRank = 0\nKsMisbehave = "error"\n' | request erin@example.org 21 4
	printf 'Requirements = true\nRank = 0\nKsMisbehave = "hang"\n' | request frank@example.org 22 4
	printf 'Requirements = true\nRank = 0\nKsMisbehave = "noac"\n' | request gina@example.org 24 4
	printf 'Requirements = true\nRank = 0\n' | request alice@example.org 23 2
} > "$T/requests.ads"
submitters ghost@example.org erin@example.org frank@example.org gina@example.org alice@example.org
mark
cycle
[ "$(count submitter=alice)" = 2 ] || fail "alice's matches despite the failing schedds: $(perms)"
grep -q "Failed to get resource requests from <127.0.0.1:1> for ghost@example.org" "$NL" || fail "unreachable schedd not logged"
grep -q "Failed to get resource requests from .* for erin@example.org: NEGOTIATE failed: this schedd does not negotiate for erin" "$NL" ||
	fail "refusing schedd not logged"
grep -q "Failed to get resource requests from .* for frank@example.org" "$NL" || fail "silent schedd not logged"
grep -q "1 resource requests from .* for gina@example.org have no AutoClusterId; ignored" "$NL" || fail "requests without AutoClusterId not logged"
count submitter=gina >/dev/null && fail "a request without AutoClusterId was matched: $(perms)"
wait_for 10 sh -c "'$Q' QUERY_NEGOTIATOR_ADS | grep -q 'LastNegotiationCycleSubmittersFailed0 = .*ghost@example.org'" ||
	fail "the failed submitters are not in the negotiator's ad: $("$Q" QUERY_NEGOTIATOR_ADS | grep Failed)"

# garbage on the command port leaves it running
port=$("$Q" QUERY_NEGOTIATOR_ADS | sed -n 's/^MyAddress = "<127.0.0.1:\([0-9]*\).*/\1/p' | head -1)
head -c 3000 /dev/urandom | timeout 5 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port; cat >&3" 2>/dev/null
"$CMD" negotiator DC_NOP >/dev/null || fail "the negotiator died of garbage"

cp "$NL" "$T/last_NegotiatorLog"
cp "$SL" "$T/last_SchedLog"
stop_pool
echo "negotiator_test: all passed"
