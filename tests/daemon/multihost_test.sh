#!/usr/bin/env bash
# A pool of two "hosts", each a network namespace joined by a veth pair:
# the collector on host A (10.213.0.1), a master on host B (10.213.0.2).
# The only shared set-up is the pool signing key: B's daemons and tools
# sign their own tokens with it and are let in; without it they are
# refused.  Needs root and iproute2; exits 77 (skipped) otherwise.
# Usage: multihost_test.sh BUILD_DIR
set -u
B=$1
if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null; then
	echo "skipped: needs root and iproute2 (ip netns)"
	exit 77
fi
T=$(mktemp -d /tmp/ksmulti.XXXXXX)
NA=ksA$$ NB=ksB$$
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill -QUIT "$p" 2>/dev/null; done
	sleep 0.3
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	ip netns del "$NA" 2>/dev/null
	ip netns del "$NB" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
. "$(dirname "$0")/lib.sh"
ip netns add "$NA" && ip netns add "$NB" || { echo "skipped: cannot make network namespaces"; exit 77; }
ip link add vA$$ type veth peer name vB$$ || fail "veth"
ip link set vA$$ netns "$NA"
ip link set vB$$ netns "$NB"
ip -n "$NA" addr add 10.213.0.1/24 dev vA$$
ip -n "$NB" addr add 10.213.0.2/24 dev vB$$
for n in "$NA" "$NB"; do
	ip -n "$n" link set lo up
done
ip -n "$NA" link set vA$$ up
ip -n "$NB" link set vB$$ up

mkdir -p "$T/key" "$T/a" "$T/b" "$T/c"
head -c 64 /dev/urandom > "$T/key/POOL"
chmod 600 "$T/key/POOL"
head -c 64 /dev/urandom > "$T/key/OTHER"
chmod 600 "$T/key/OTHER"
host_config() { # DIR IP KEY DAEMON_LIST
	cat > "$1/condor_config" <<CFG
LOCAL_DIR = $1
COLLECTOR_HOST = 10.213.0.1:9618
NETWORK_INTERFACE = $2
SEC_TOKEN_POOL_SIGNING_KEY_FILE = $3
TRUST_DOMAIN = test.pool
SBIN = $B/collector
DAEMON_LIST = $4
MASTER_UPDATE_INTERVAL = 1
COLLECTOR_DEBUG = D_FULLDEBUG D_COMMAND D_SECURITY
CFG
}
host_config "$T/a" 10.213.0.1 "$T/key/POOL" "MASTER COLLECTOR"
host_config "$T/b" 10.213.0.2 "$T/key/POOL" "MASTER"
echo "MASTER_NAME = hostb" >> "$T/b/condor_config"
host_config "$T/c" 10.213.0.2 "$T/key/OTHER" "MASTER"
sed -i 's/^MASTER_UPDATE/MASTER_NAME = intruder\nMASTER_UPDATE/' "$T/c/condor_config"
ST=$B/tools/condor_status/condor_status
ADV=$B/tools/condor_advertise/condor_advertise

CONDOR_CONFIG=$T/a/condor_config ip netns exec "$NA" "$B/master/condor_master" -f &
PIDS+=($!)
CONDOR_CONFIG=$T/b/condor_config ip netns exec "$NB" "$B/master/condor_master" -f &
PIDS+=($!)
inB() { CONDOR_CONFIG=$T/b/condor_config ip netns exec "$NB" "$@"; }

# B's master, with the shared key only, appears in A's collector, at
# B's address.
wait_for 20 sh -c "CONDOR_CONFIG=$T/b/condor_config ip netns exec $NB '$ST' -master -af MyAddress | grep -q '<10.213.0.2:'" || fail "host B's master not in the collector"
grep -q "authenticated condor@test.pool from 10.213.0.2 with TOKEN+TLS" "$T/a/log/CollectorLog" || fail "B not authenticated by its own token over TLS"
# condor_status from B lists both masters.
wait_for 10 sh -c "[ \$(CONDOR_CONFIG=$T/b/condor_config ip netns exec $NB '$ST' -master -af MyAddress | wc -l) = 2 ]" || fail "two masters expected: $(inB "$ST" -master -af MyAddress)"
# condor_advertise from B: with the key, accepted; without, refused.
printf 'MyType = "Machine"\nName = "slot1@hostb"\nCpus = 2\n' > "$T/slot"
out=$(inB "$ADV" UPDATE_STARTD_AD "$T/slot") || fail "advertise from B: $out"
out=$(inB "$ST" -af Name) || fail "status from B"
[ "$out" = slot1@hostb ] || fail "slot from B: $out"
out=$(_CONDOR_SEC_TOKEN_POOL_SIGNING_KEY_FILE=$T/none inB "$ADV" UPDATE_STARTD_AD "$T/slot" 2>&1) && fail "advertise without the key accepted: $out"
echo "$out" | grep -q "unauthenticated@unmapped" || fail "refusal: $out"
# ... but reading needs no key (and is encrypted all the same).
_CONDOR_SEC_TOKEN_POOL_SIGNING_KEY_FILE=$T/none inB "$ST" -af Name | grep -q slot1@hostb || fail "anonymous read from B"
grep -q "authenticated unauthenticated@unmapped from 10.213.0.2 with ANONYMOUS over TLS" "$T/a/log/CollectorLog" || fail "anonymous read not over TLS"
# Without TLS (SEC_DEFAULT_ENCRYPTION = NEVER on the tool) it still works,
# unless the collector requires encryption.
_CONDOR_SEC_DEFAULT_ENCRYPTION=NEVER inB "$ST" -af Name | grep -q slot1@hostb || fail "plain read from B"
grep -q "authenticated condor@test.pool from 10.213.0.2 with TOKEN$" "$T/a/log/CollectorLog" || fail "plain connection not logged as such"
echo "SEC_DEFAULT_ENCRYPTION = REQUIRED" >> "$T/a/condor_config"
CONDOR_CONFIG=$T/a/condor_config ip netns exec "$NA" "$B/tools/condor_daemonctl/condor_reconfig" >/dev/null || fail "reconfig A"
wait_for 10 grep -q reconfigured "$T/a/log/CollectorLog" || fail "collector did not reconfig"
out=$(_CONDOR_SEC_DEFAULT_ENCRYPTION=NEVER inB "$ST" -af Name 2>&1) && fail "plain read accepted though TLS is required: $out"
grep -q "without TLS, which SEC_DEFAULT_ENCRYPTION = REQUIRED asks" "$T/a/log/CollectorLog" || fail "plain connection refusal not logged"
inB "$ST" -af Name | grep -q slot1@hostb || fail "TLS read after REQUIRED"
# A master with another key is refused, and never listed.
CONDOR_CONFIG=$T/c/condor_config ip netns exec "$NB" "$B/master/condor_master" -f &
PIDS+=($!)
wait_for 15 grep -q "token proof from 10.213.0.2 (condor@test.pool) is wrong" "$T/a/log/CollectorLog" || fail "wrong key not refused"
inB "$ST" -master -af Name | grep -q intruder && fail "intruder listed"
# Over UDP from B, signed with the session of B's token handshake.
printf 'MyType = "Machine"\nName = "slot2@hostb"\n' > "$T/slot2"
out=$(inB "$ADV" -udp UPDATE_STARTD_AD "$T/slot2") || fail "udp from B: $out"
wait_for 10 sh -c "CONDOR_CONFIG=$T/b/condor_config ip netns exec $NB '$ST' -af Name | grep -q slot2@hostb" || fail "UDP update from B not stored"
# Host A stops cleanly (under the sanitizers a leak or error changes the
# statuses).
kill -TERM "${PIDS[0]}"
wait "${PIDS[0]}"
rc=$?
[ "$rc" = 0 ] || fail "host A's master exited with status $rc"
grep -q "The COLLECTOR (pid [0-9]*) exited with status 0" "$T/a/log/MasterLog" || fail "host A's collector did not exit cleanly"
echo "multihost_test: all checks passed"
