#!/usr/bin/env bash
# One large attribute must not keep a daemon's memory.  A collector and a
# schedd on loopback each get a 10 MiB string attribute (condor_advertise,
# condor_qedit, condor_submit) and give it back whole (condor_status -l,
# condor_q); once it is gone (the ad invalidated, the job removed) each
# daemon's anonymous memory is back within 8 MiB of where it was (it kept
# 20 to 40 MiB for good), and condor_qedit's value cost the schedd at most
# five times its size at the peak (it took eight).  A peer streaming
# data before the handshake costs the collector no more than its first
# message (it took all it was sent).  Under the sanitizers, whose
# allocator keeps what is freed for a while, the memory figures are not
# checked, only the rest.
# Usage: bigattr_test.sh BUILD_DIR [sanitized]
set -u
B=$(cd "$1" && pwd)
SANITIZED=${2:-}
T=$(mktemp -d /tmp/ksbig.XXXXXX)
chmod 755 "$T"
MASTER_PID=
cleanup() {
	[ -n "$MASTER_PID" ] && kill -QUIT "$MASTER_PID" 2>/dev/null
	sleep 0.2
	pkill -9 -f "$T" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
. "$(dirname "$0")/lib.sh"
for d in "$B"/tools/*/; do PATH=$d:$PATH; done
export PATH
export CONDOR_CONFIG=$T/condor_config
cat > "$CONDOR_CONFIG" <<CFG
LOCAL_DIR = $T
COLLECTOR_HOST = 127.0.0.1:0
MASTER = $B/master/condor_master
COLLECTOR = $B/collector/condor_collector
SCHEDD = $B/schedd/condor_schedd
DAEMON_LIST = MASTER COLLECTOR SCHEDD
MASTER_BACKOFF_CONSTANT = 1
UPDATE_INTERVAL = 1
SCHEDD_INTERVAL = 1
CFG
mkdir -p "$T/jobs"
chmod 1777 "$T/jobs"

SIZE=$((10 << 20))
SLACK_KIB=$((8 << 10))
# big NAME CHAR: the line NAME = "CHAR..." with SIZE characters
big() {
	printf '%s = "' "$1"
	head -c "$SIZE" /dev/zero | tr '\0' "$2"
	printf '"\n'
}
# kib PID FIELD: a figure of /proc/PID/status (RssAnon, VmRSS, VmHWM)
kib() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"; }
# anon_within PID BASE: the daemon's anonymous memory is back to BASE
# KiB, give or take SLACK_KIB
anon_within() { [ "$(kib "$1" RssAnon)" -le $(($2 + SLACK_KIB)) ]; }
# memory: the memory figures mean what they say (no sanitizer)
memory() { [ -z "$SANITIZED" ]; }
# child NAME: the pid of this pool's daemon NAME
child() { pgrep -P "$MASTER_PID" -f "$1" | head -1; }

"$B/master/condor_master" -f 2>"$T/stderr" &
MASTER_PID=$!
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"
CP=$(child condor_collector)
SP=$(child condor_schedd)
[ -n "$CP" ] && [ -n "$SP" ] || fail "collector $CP, schedd $SP"

# Each daemon first serves the same requests with small values, so that
# what they keep for good (buffers, tables) is in the base.
cd "$T/jobs"
printf 'MyType = "Machine"\nName = "small@host"\nSmall = "x"\n' > small.ad
condor_advertise UPDATE_STARTD_AD small.ad >/dev/null || fail "advertise small"
condor_status -l small@host >/dev/null || fail "condor_status -l small"
printf 'executable = /bin/true\nhold = true\nqueue\n' > small.sub
out=$(condor_submit small.sub) || fail "submit small"
condor_qedit 1 Small '"x"' >/dev/null || fail "condor_qedit small"
condor_q -l >/dev/null || fail "condor_q -l"

# A peer that sends 64 MiB behind a first message of 90,000 bytes, before
# the handshake, makes the collector hold that message at most (it read
# all that had come before looking at the header).  The bytes are queued
# on the collector's Unix-domain socket while it is stopped, so that all
# are there when it reads (a larger send buffer than the default needs
# root).
if [ "$(id -u)" = 0 ]; then
	sock=$(sed -n '1s/.*sock=\([^>&]*\).*/\1/p' "$T/log/.collector_address")
	rss=$(kib "$CP" VmRSS)
	echo 5 > "/proc/$CP/clear_refs"
	kill -STOP "$CP"
	python3 - "$T/log/daemon_sock/$sock" <<'PY' || { kill -CONT "$CP"; fail "streaming peer"; }
import socket, struct, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, 32, 256 << 20)  # SO_SNDBUFFORCE
s.connect(sys.argv[1])
s.settimeout(30)
s.sendall(b"KS\x01\x00" + struct.pack(">iII", 70000, 90000, 90000) +
          b"x" * (64 << 20))
PY
	kill -CONT "$CP"
	wait_for 20 grep -q "bad message from local (code 70000)" "$T/log/CollectorLog" ||
		fail "the streaming peer's message was not refused"
	peak=$(( $(kib "$CP" VmHWM) - rss ))
	! memory || [ "$peak" -le "$SLACK_KIB" ] ||
		fail "a streaming peer cost the collector $peak KiB"
else
	echo "not root: the streaming peer is not tried"
fi

# The collector: an ad with the attribute, listed, invalidated.
base=$(kib "$CP" RssAnon)
{ printf 'MyType = "Machine"\nName = "big@host"\n'; big Big x; } > big.ad
out=$(condor_advertise UPDATE_STARTD_AD big.ad) || fail "advertise big"
n=$(condor_status -l big@host | awk '/^Big = /{ print length($0) }')
[ "$n" = $((SIZE + 8)) ] || fail "condor_status -l: Big line of $n bytes"
printf 'MyType = "Query"\nTargetType = "Machine"\nRequirements = Name == "big@host"\n' > inv.ad
condor_advertise INVALIDATE_STARTD_ADS inv.ad >/dev/null || fail "invalidate"
wait_for 10 sh -c '! condor_status -af Name | grep -q big@host' || fail "big@host still listed"
! memory || wait_for 15 anon_within "$CP" "$base" ||
	fail "the collector keeps $(kib "$CP" RssAnon) KiB, was $base KiB"

# The schedd: condor_qedit's value on a job, then a job submitted with
# one, listed and removed.
base=$(kib "$SP" RssAnon)
rss=$(kib "$SP" VmRSS)
big Big2 z > edits.ad
out=$(condor_qedit 1 -edits edits.ad) || fail "condor_qedit -edits"
peak=$(( $(kib "$SP" VmHWM) - rss ))
! memory || [ "$peak" -le $((5 * SIZE >> 10)) ] ||
	fail "condor_qedit took $peak KiB at the peak"
n=$(condor_q 1.0 -af 'size(Big2)')
[ "$n" = "$SIZE" ] || fail "condor_q: Big2 of $n bytes"
{ printf 'executable = /bin/true\nhold = true\n+'; big Big y; printf 'queue\n'; } > big.sub
out=$(condor_submit big.sub) || fail "submit big"
n=$(condor_q 2.0 -l | awk '/^Big = /{ print length($0) }')
[ "$n" = $((SIZE + 8)) ] || fail "condor_q -l: Big line of $n bytes"
condor_rm -all >/dev/null || fail "condor_rm"
wait_for 20 sh -c '[ -z "$(condor_q -allusers -af ClusterId)" ]' || fail "jobs not removed"
! memory || wait_for 15 anon_within "$SP" "$base" ||
	fail "the schedd keeps $(kib "$SP" RssAnon) KiB, was $base KiB"

# the daemons' own reports under the sanitizers, once they have ended
kill -QUIT "$MASTER_PID"
wait "$MASTER_PID"
MASTER_PID=
if grep -q Sanitizer "$T/stderr"; then
	out=$(grep -m1 -A20 Sanitizer "$T/stderr")
	fail "sanitizer report in the daemons' standard error"
fi
echo "PASS"
