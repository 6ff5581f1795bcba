#!/usr/bin/env bash
# resched_prio_test.sh BUILD: condor_reschedule and condor_prio against a
# personal pool (master, collector, negotiator, startd, schedd) on
# loopback with free ports, in a temporary directory.  The jobs are
# made never to start (KsNoStart), so their JobPrio can be read and
# changed at leisure.  As root the jobs belong to the existing account
# "nobody" (no account is created); otherwise to the user running this.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path

pool_dir resched_prio_test
chmod 755 "$T"
J=$T/jobs
mkdir -p "$J" && chmod 1777 "$J"
if [ "$(id -u)" = 0 ]; then U=nobody; else U=$(id -un); fi

job_pool_config </dev/null
start_master
wait_for 20 sh -c 'condor_status -af Name | grep -q slot1' || fail "no slots"
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"
SCHEDD=$(condor_status -schedd -af Name | head -1)

# --- condor_reschedule ----------------------------------------------------
out=$(condor_reschedule 2>&1) || fail "condor_reschedule: $?"
[ "$out" = 'Sent "Reschedule" command to local schedd' ] || fail "local: '$out'"
out=$(condor_reschedule -name "$SCHEDD" 2>&1) || fail "condor_reschedule -name: $?"
[ "$out" = "Sent \"Reschedule\" command to schedd $SCHEDD" ] || fail "-name: '$out'"
out=$(condor_reschedule -all 2>&1) || fail "condor_reschedule -all: $?"
[ "$out" = "Sent \"Reschedule\" command to schedd $SCHEDD" ] || fail "-all: '$out'"
out=$(condor_reschedule nosuch@nowhere 2>&1); rc=$?
[ "$rc" = 1 ] && grep -qx "Can't find address for schedd nosuch@nowhere" <<<"$out" &&
	grep -qx "Perhaps you need to query another pool." <<<"$out" || fail "unknown schedd: $rc '$out'"
out=$(condor_reschedule -pool 127.0.0.1 2>&1); rc=$?
[ "$rc" = 1 ] && grep -q "^ERROR: You have asked to find a machine in another pool" <<<"$out" ||
	fail "-pool without a target: $rc '$out'"
out=$(condor_reschedule -schedd 2>&1); rc=$?
[ "$rc" = 1 ] && grep -qx "ERROR: Can't specify a daemon flag with condor_reschedule." <<<"$out" ||
	fail "-schedd: $rc '$out'"
# tool.cpp's command line, shared with condor_vacate: -graceful is taken
# by every such tool, -fast only by those that stop or vacate
out=$(condor_reschedule -graceful 2>&1) || fail "condor_reschedule -graceful: $? '$out'"
[ "$out" = 'Sent "Reschedule" command to local schedd' ] || fail "-graceful: '$out'"
out=$(condor_reschedule -fast 2>&1); rc=$?
[ "$rc" = 1 ] && [ "$out" = "$(printf 'ERROR: "-fast" is not valid with condor_reschedule\nUse "-help" to see usage information')" ] ||
	fail "-fast: $rc '$out'"
out=$(condor_reschedule -exec /bin/true 2>&1); rc=$?
[ "$rc" = 1 ] && grep -qx 'ERROR: "-exec" is not valid with condor_reschedule without -drain' <<<"$out" ||
	fail "-exec: $rc '$out'"
echo "ok: condor_reschedule"

# --- condor_prio -------------------------------------------------------------
cat >"$J/idle.sub" <<SUB
executable = /bin/true
+KsNoStart = true
priority = 2
queue 2
SUB
out=$(cd "$J" && as "$U" condor_submit idle.sub 2>&1) || fail "condor_submit: $out"
C=$(cluster_of "$out")
[ -n "$C" ] || fail "no cluster in '$out'"
prios() { condor_q -allusers "$C" -af JobPrio 2>/dev/null | tr '\n' ' '; }
[ "$(prios)" = "2 2 " ] || fail "submitted with priority 2: '$(prios)'"

out=$(as "$U" condor_prio -p 5 "$C" 2>&1) || fail "-p 5 cluster: $? '$out'"
[ -z "$out" ] || fail "-p 5 printed '$out'"
[ "$(prios)" = "5 5 " ] || fail "-p 5: '$(prios)'"
as "$U" condor_prio +3 "$C.1" || fail "+3 job"
[ "$(prios)" = "5 8 " ] || fail "+3 $C.1: '$(prios)'"
as "$U" condor_prio -2 "$U" || fail "-2 user"
[ "$(prios)" = "3 6 " ] || fail "-2 $U: '$(prios)'"
# any integer: HTCondor 25 has no -20..20 bound
as "$U" condor_prio -p 25 -a || fail "-p 25 -a"
[ "$(prios)" = "25 25 " ] || fail "-p 25 -a: '$(prios)'"
as "$U" condor_prio -p -30 "$C.0" || fail "-p -30"
[ "$(prios)" = "-30 25 " ] || fail "-p -30: '$(prios)'"

out=$(as "$U" condor_prio -p 1 "$((C + 100)).0" 2>&1); rc=$?
[ "$rc" = 0 ] && [ "$out" = "Couldn't retrieve current priority for $((C + 100)).0." ] ||
	fail "missing job: $rc '$out'"
out=$(as "$U" condor_prio -p 1 0 2>&1); rc=$?
[ "$rc" = 0 ] && [ "$out" = "Invalid cluster # from 0" ] || fail "cluster 0: $rc '$out'"
out=$(as "$U" condor_prio -p 1 "$C.x" 2>&1); rc=$?
[ "$rc" = 0 ] && [ "$out" = "Warning: unrecognized \"$C.x\" skipped" ] || fail "$C.x: $rc '$out'"
out=$(as "$U" condor_prio "$C" 2>&1); rc=$?
[ "$rc" = 1 ] && grep -qx "You must specify a new priority or priority adjustment." <<<"$out" &&
	grep -q "^Usage: condor_prio \[{+|-}priority \] \[-p priority\]" <<<"$out" || fail "no priority: $rc '$out'"
out=$(condor_prio -pool 127.0.0.1 -p 1 "$C" 2>&1); rc=$?
[ "$rc" = 1 ] && [ "$out" = "condor_prio: -pool also requires -n to be specified" ] || fail "-pool: $rc '$out'"
out=$(condor_prio -n nosuch -p 1 "$C" 2>&1); rc=$?
[ "$rc" = 1 ] && [ "$out" = "condor_prio: No such schedd named nosuch in local pool" ] || fail "-n nosuch: $rc '$out'"
[ "$(prios)" = "-30 25 " ] || fail "changed by a failed command: '$(prios)'"
echo "ok: condor_prio"
