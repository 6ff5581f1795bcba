#!/usr/bin/env bash
# A master, collector and startd on loopback: the slots a configuration
# makes, the ads they publish, and the policy moving them between states,
# each transition logged with its number.
# Usage: startd_test.sh BUILD_DIR
set -u
B=$1
T=$(mktemp -d /tmp/ksstartd.XXXXXX)
MASTER_PID=
cleanup() {
	[ -n "$MASTER_PID" ] && kill -QUIT "$MASTER_PID" 2>/dev/null
	sleep 0.2
	pkill -9 -f "$T" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
. "$(dirname "$0")/../daemon/lib.sh"
export CONDOR_CONFIG=$T/condor_config
ST=$B/tools/condor_status/condor_status
mkdir -p "$T/execute"
write_config() {
	cat > "$CONDOR_CONFIG" <<CFG
LOCAL_DIR = $T
COLLECTOR_HOST = 127.0.0.1:0
SBIN = $B/collector
MASTER = $B/master/condor_master
STARTD = $B/startd/condor_startd
DAEMON_LIST = MASTER COLLECTOR STARTD
MASTER_BACKOFF_CONSTANT = 1
UPDATE_INTERVAL = 1
POLLING_INTERVAL = 1
STARTD_DEBUG = D_FULLDEBUG
NUM_CPUS = 4
MEMORY = 4096
EXECUTE = $T/execute
CFG
	cat >> "$CONDOR_CONFIG"
}
start_pool() {
	"$B/master/condor_master" -f &
	MASTER_PID=$!
	wait_for 20 sh -c "'$ST' -af Name | grep -q slot" || fail "no slot ads"
}
# Each pool begins with fresh logs, so that a check sees only its own.
stop_pool() {
	kill -TERM "$MASTER_PID"
	wait "$MASTER_PID"
	MASTER_PID=
	rm -f "$T"/log/*Log
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
stop_pool

# Four static slots; IS_OWNER true keeps them in Owner, and a reconfig
# that makes it false moves them (transition 1), one log line each.
write_config <<'CFG'
use FEATURE : StaticSlots
IS_OWNER = True
STARTD_ATTRS = $(STARTD_ATTRS) Colour
Colour = "blue"
SLOT2_Colour = "green"
STARTD_SLOT_ATTRS = State
CFG
start_pool
out=$("$ST" -af Name SlotType Cpus State)
[ "$(echo "$out" | grep -c ' Static 1 Owner$')" = 4 ] || fail "static slots: $out"
[ "$("$ST" -af Colour | sort | uniq -c | tr -s ' ' | tr '\n' ',')" = " 3 blue, 1 green," ] || fail "per-slot STARTD_ATTRS: $("$ST" -af Name Colour)"
"$ST" -af slot3_State | grep -qx Owner || fail "STARTD_SLOT_ATTRS"
echo "IS_OWNER = False" >> "$CONDOR_CONFIG"
kill -HUP "$(pgrep -f "$B/startd/condor_startd")"
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

# An impossible layout: the startd refuses to start and says why.
write_config <<'CFG'
SLOT_TYPE_1 = cpus=3
NUM_SLOTS_TYPE_1 = 2
CFG
out=$("$B/startd/condor_startd" -f -t 2>&1) && fail "an impossible layout started"
echo "$out" | grep -qi "cpu" || fail "impossible layout message: $out"
echo PASS
