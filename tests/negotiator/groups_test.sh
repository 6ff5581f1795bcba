#!/usr/bin/env bash
# groups_test.sh BUILD: accounting groups with quotas on a whole pool.
# Four static slots, GROUP_NAMES = group_a, group_b with static quotas 1
# and 3 and no surplus; both groups submit more jobs than there are
# slots (accounting_group = group_a / group_b): group_a runs 1 and
# group_b 3, and so it stays over several more negotiation cycles; the
# NegotiatorLog has HTCondor's quota table and "Group group_a is using
# its quota 1 - halting negotiation"; condor_userprio shows the groups
# with their quotas.  Then with GROUP_ACCEPT_SURPLUS group_a takes all
# four slots while group_b asks for none; when group_b's jobs come,
# PREEMPTION_REQUIREMENTS on the group attributes the negotiator inserts
# (RemoteGroupResourcesInUse > RemoteGroupQuota) gives group_b its three
# slots back, and group_a keeps one (the requirements read RemoteGroup,
# SubmitterGroup, SubmitterNegotiatingGroup and SubmitterAutoregroup
# too).  With GROUP_AUTOREGROUP_group_a, group_a alone takes all four
# slots, three of them in <none>'s turn.  A quota that is no number and a GROUP_SORT_EXPR that does not
# parse are logged once, however many cycles run.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path

pool_dir groups_test
job_account ksgroups
trap 'pool_cleanup; [ -n "${KS_MADE_ACCOUNT:-}" ] && userdel "$KS_MADE_ACCOUNT" 2>/dev/null' EXIT
chmod 755 "$T"
J=$T/jobs
mkdir -p "$J"
chmod 777 "$J"

# start_pool SURPLUS [PREEMPTION_REQUIREMENTS [LINES]]: four static
# slots, the two groups with quotas 1 and 3
start_pool() {
	job_pool_config <<CFG
NUM_SLOTS = 4
NUM_CPUS = 4
SLOT_TYPE_0_PARTITIONABLE = false
MAXJOBRETIREMENTTIME = 0
GROUP_NAMES = group_a, group_b ${3:-}
GROUP_QUOTA_group_a = 1
GROUP_QUOTA_group_b = 3
${4:-}
GROUP_ACCEPT_SURPLUS = $1
PREEMPTION_REQUIREMENTS = ${2:-False}
NEGOTIATOR_DEBUG = D_MATCH D_FULLDEBUG
SEC_PASSWORD_DIRECTORY = $T/passwords.d
CFG
	start_master
	wait_for 30 condor_q || fail "the schedd did not start"
}
# submit GROUP N: N long sleep jobs of the group
submit() {
	cat > "$J/$1.sub" <<SUB
executable = /bin/sleep
arguments = 600
log = $J/$1.log
accounting_group = $1
queue $2
SUB
	chmod 644 "$J/$1.sub"
	out=$(cd "$J" && as "$A" condor_submit "$J/$1.sub" 2>&1) || return 1
	cluster_of "$out"
}
cycles() { grep -c 'Finished Negotiation Cycle' "$T/log/NegotiatorLog"; }
more_cycles() { [ "$(cycles)" -ge "$1" ]; }
# running CLUSTER: how many of its jobs run
running() { condor_q -allusers -constraint "ClusterId == $1 && JobStatus == 2" -af ProcId | wc -l; }
runs() { [ "$(running "$1")" = "$2" ] && [ "$(running "$3")" = "$4" ]; }

# --- static quotas, no surplus ---------------------------------------------
# with bad knobs too: a group whose quota is no number (0), and a
# GROUP_SORT_EXPR that does not parse (HTCondor's default is used);
# each is logged once, not every cycle
start_pool False False ", group_c" "GROUP_QUOTA_group_c = lots
GROUP_SORT_EXPR = (("
CA=$(submit group_a 6) || fail "condor_submit of group_a's jobs"
CB=$(submit group_b 6) || fail "condor_submit of group_b's jobs"
wait_for 90 runs "$CA" 1 "$CB" 3 ||
	fail "group_a should run 1 and group_b 3: $(running "$CA") and $(running "$CB")"
n=$(cycles)
wait_for 60 more_cycles $((n + 4)) || fail "the negotiator did not cycle"
runs "$CA" 1 "$CB" 3 ||
	fail "after four more cycles group_a runs $(running "$CA") and group_b $(running "$CB")"
L=$T/log/NegotiatorLog
grep -q 'group quota: Quotas have been assigned to the following groups' "$L" ||
	fail "no quota table in the NegotiatorLog"
grep -Eq 'group_a +1 +1 +Y +N +N ' "$L" ||
	fail "group_a's row of the quota table: $(grep -E '^.{0,40}group_a ' "$L" | tail -2)"
grep -q 'Group group_a is using its quota 1 - halting negotiation' "$L" ||
	fail "group_a did not halt at its quota"
grep -q 'Group group_b - BEGIN NEGOTIATION with a quota limit of 3' "$L" ||
	fail "group_b did not negotiate up to 3"
[ "$(grep -c 'GROUP_QUOTA_group_c = lots is not a number' "$L")" = 1 ] ||
	fail "the bad quota should be logged once: $(grep -c 'GROUP_QUOTA_group_c' "$L")"
[ "$(grep -c 'Failed to parse GROUP_SORT_EXPR = ((' "$L")" = 1 ] ||
	fail "the bad GROUP_SORT_EXPR should be logged once: $(grep -c 'GROUP_SORT_EXPR' "$L")"
grep -Eq 'group_c +0 +0 +N +N +N ' "$L" || fail "group_c's quota should be 0"
# the group each claim was matched in goes, through the schedd and the
# claim, into the slot's ad
[ "$(condor_status -const 'State == "Claimed"' -af RemoteGroup RemoteNegotiatingGroup RemoteAutoregroup | sort | uniq -c | sed 's/^ *//')" = "1 group_a group_a false
3 group_b group_b false" ] ||
	fail "the slots' RemoteGroup: $(condor_status -af Name State RemoteGroup RemoteNegotiatingGroup RemoteAutoregroup)"
echo "ok: group_a runs 1 and group_b 3 of four slots, over several cycles; bad knobs logged once"

# condor_userprio: the groups, with their quotas, and the users in them
up=$(condor_userprio -allusers) || fail "condor_userprio -allusers"
grep -Eq '^group_a +1\.00 +no ' <<<"$up" || fail "no group_a row in condor_userprio: $up"
grep -Eq '^group_b +3\.00 +no ' <<<"$up" || fail "no group_b row in condor_userprio: $up"
grep -A1 "^group_a " <<<"$up" | grep -Eq "^  $A@[^ ]+ " || fail "no user under group_a in condor_userprio: $up"
q=$(condor_userprio -quotas) || fail "condor_userprio -quotas"
grep -Eq '^group_b +3\.00 +3\.00 +no +3\.00 +6 *$' <<<"$q" ||
	fail "group_b in condor_userprio -quotas: $q"
r=$(condor_userprio -grouprollup -l -legacy) || fail "condor_userprio -grouprollup"
grep -q 'SurplusPolicy2 = "no"' <<<"$r" || fail "no SurplusPolicy in the rollup: $r"
l=$(condor_userprio -l) || fail "condor_userprio -l"
for a in 'EffectiveQuota = 3.0' 'ConfigQuota = 3.0' 'SubtreeQuota = 3.0' \
	'IsAccountingGroup = true' 'Requested = 6.0' "AccountingGroup = \"group_b\""; do
	grep -q "$a" <<<"$l" || fail "condor_userprio -l has no $a: $l"
done
echo "ok: condor_userprio shows the groups, their quotas and their users"
condor_rm -all >/dev/null
wait_for 30 queue_empty || fail "the queue did not empty"
stop_pool

# --- surplus, taken back by priority preemption on the group attributes -----
rm -f "$J"/*.log
start_pool True 'RemoteGroupResourcesInUse > RemoteGroupQuota && TARGET.SubmitterGroupResourcesInUse < TARGET.SubmitterGroupQuota && RemoteGroup == "group_a" && TARGET.SubmitterGroup == "group_b" && TARGET.SubmitterNegotiatingGroup == "group_b" && TARGET.SubmitterAutoregroup == false'
CA=$(submit group_a 4) || fail "condor_submit of group_a's jobs"
wait_for 90 runs "$CA" 4 "$CA" 4 || fail "group_a did not take the surplus: $(running "$CA")"
CB=$(submit group_b 3) || fail "condor_submit of group_b's jobs"
wait_for 90 runs "$CA" 1 "$CB" 3 ||
	fail "group_b did not take its quota back: group_a $(running "$CA"), group_b $(running "$CB")"
[ "$(grep -c '^004 ' "$J/group_a.log")" = 3 ] || fail "three evictions of group_a expected: $(grep -c '^004 ' "$J/group_a.log")"
grep -q "Matched $CB\.[0-9] group_b\.$A@[^ ]* <[^>]*> preempting group_a\.$A@" "$T/log/MatchLog" ||
	fail "no priority preemption in the MatchLog: $(grep Matched "$T/log/MatchLog")"
n=$(cycles)
wait_for 60 more_cycles $((n + 3)) || fail "the negotiator did not cycle"
runs "$CA" 1 "$CB" 3 || fail "not stable: group_a $(running "$CA"), group_b $(running "$CB")"
echo "ok: a group over its quota gives slots back to one under it (RemoteGroupResourcesInUse > RemoteGroupQuota)"
condor_rm -all >/dev/null
wait_for 30 queue_empty || fail "the queue did not empty"
stop_pool

# --- autoregroup --------------------------------------------------------------
# group_a, at its quota of 1, negotiates again in <none>'s turn, last,
# over the pool: it takes the three slots group_b does not ask for
rm -f "$J"/*.log
start_pool False False "" "GROUP_AUTOREGROUP_group_a = True"
CA=$(submit group_a 6) || fail "condor_submit of group_a's jobs"
wait_for 90 runs "$CA" 4 "$CA" 4 || fail "group_a did not regroup: $(running "$CA")"
grep -q 'group quotas: autoregroup mode: appended 1 submitters to group <none> negotiation' "$T/log/NegotiatorLog" ||
	fail "no autoregroup in the NegotiatorLog"
echo "ok: an autoregroup group takes what the others leave in <none>'s turn"
echo "all group checks passed"
