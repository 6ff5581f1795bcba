#!/usr/bin/env bash
# A master and collector on loopback, driven by condor_advertise and
# ks_query: updates, queries (constraint, projection), invalidation,
# expiry, authorization, reconfig (good and broken), restart of a killed
# collector, broken configuration at start, shutdown.
# Usage: pool_test.sh BUILD_DIR
set -u
B=$1
T=$(mktemp -d /tmp/kspool.XXXXXX)
MASTER_PID=
cleanup() {
	[ -n "$MASTER_PID" ] && kill -QUIT "$MASTER_PID" 2>/dev/null
	sleep 0.2
	pkill -9 -f "$T" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
. "$(dirname "$0")/lib.sh"
export CONDOR_CONFIG=$T/condor_config
cat > "$CONDOR_CONFIG" <<CFG
LOCAL_DIR = $T
COLLECTOR_HOST = 127.0.0.1:0
SBIN = $B/collector
MASTER = $B/master/condor_master
DAEMON_LIST = MASTER COLLECTOR
MASTER_BACKOFF_CONSTANT = 1
MASTER_UPDATE_INTERVAL = 1
COLLECTOR_UPDATE_INTERVAL = 1
COLLECTOR_DEBUG = D_FULLDEBUG D_COMMAND D_SECURITY
USE_SHARED_PORT = False
ENABLE_RUNTIME_CONFIG = True
ENABLE_PERSISTENT_CONFIG = True
PERSISTENT_CONFIG_DIR = $T/persist
SETTABLE_ATTRS_ADMINISTRATOR = FOO_*
CFG
mkdir -p "$T/persist"
ADV=$B/tools/condor_advertise/condor_advertise
Q=$B/tests/daemon/ks_query

# A broken configuration stops a daemon at once, with file and line.
cp "$CONDOR_CONFIG" "$T/good_config"
BAD_LINE=$(( $(wc -l < "$CONDOR_CONFIG") + 1 ))
echo 'if version >' >> "$CONDOR_CONFIG"
out=$("$B/collector/condor_collector" -f -t 2>&1) && fail "collector started with a broken config"
echo "$out" | grep -q "condor_config\", Line $BAD_LINE:" || fail "no file and line in: $out"
cp "$T/good_config" "$CONDOR_CONFIG"

"$B/master/condor_master" -f &
MASTER_PID=$!
wait_for 10 test -s "$T/log/.collector_address" || fail "collector address file"

cat > "$T/slots" <<ADS
MyType = "Machine"
Name = "slot1@host1"
Cpus = 4
Memory = 8192

MyType = "Machine"
Name = "slot2@host1"
Cpus = 1
Memory = 1024
ADS
out=$("$ADV" -multiple UPDATE_STARTD_AD "$T/slots") || fail "advertise: $out"
[ "$out" = "Sent 2 of 2 ads to 127.0.0.1:0." ] || fail "advertise said: $out"
n=$("$Q" QUERY_STARTD_ADS | grep -c '^Name = ')
[ "$n" = 2 ] || fail "expected 2 slot ads, got $n"
"$Q" QUERY_STARTD_ADS | grep -q '^LastHeardFrom = [0-9]' || fail "no LastHeardFrom"
out=$("$Q" QUERY_STARTD_ADS 'Cpus > 2' 'Name Cpus')
[ "$(echo "$out" | grep -c '^Name = ')" = 1 ] || fail "constraint: $out"
echo "$out" | grep -q '^Memory' && fail "projection kept Memory: $out"
"$Q" QUERY_STARTD_ADS 'Cpus >' >/dev/null 2>&1 && fail "bad constraint accepted"

# condor_status in its forms, over the same ads.
ST=$B/tools/condor_status/condor_status
out=$("$ST") || fail "condor_status"
echo "$out" | grep -q '^slot1@host1' || fail "slot table: $out"
echo "$out" | grep -q 'Total Owner Claimed' || fail "no summary: $out"
out=$("$ST" -l slot1@host1) || fail "condor_status -l"
echo "$out" | grep -q '^Cpus = 4$' || fail "-l: $out"
out=$("$ST" -af Name Cpus) || fail "-af"
[ "$out" = "slot1@host1 4
slot2@host1 1" ] || fail "-af said: $out"
out=$("$ST" -af:h Name Memory) || fail "-af:h"
[ "$(echo "$out" | head -1 | tr -s ' ')" = "Name Memory" ] || fail "-af:h said: $out"
out=$("$ST" -constraint 'Cpus > 2' -af Name) || fail "-constraint"
[ "$out" = slot1@host1 ] || fail "-constraint said: $out"
"$ST" -json | python3 -c 'import json,sys; a=json.load(sys.stdin); assert len(a)==2 and a[0]["Cpus"]==4' || fail "-json"
out=$("$ST" -format '%s:' Name -format '%d\n' Memory) || fail "-format"
echo "$out" | grep -qx 'slot2@host1:1024' || fail "-format said: $out"
"$ST" -total | grep -q 'Total' || fail "-total"
"$ST" -compact >/dev/null || fail "-compact"
wait_for 10 sh -c "'$ST' -master -af Name | grep -q ." || fail "condor_status -master"
wait_for 10 sh -c "'$ST' -collector -af MyType | grep -qx Collector" || fail "condor_status -collector"
[ "$("$ST" -any -af MyType | sort -u | tr '\n' ' ')" = "Collector DaemonMaster Machine " ] || fail "-any: $("$ST" -any -af MyType)"
out=$("$ST" -constraint 'Cpus >' 2>&1) && fail "bad constraint accepted: $out"
echo "$out" | grep -qi 'constraint' || fail "bad constraint message: $out"
out=$("$ST" -bogus 2>&1) && fail "bad flag accepted"
out=$("$ST" -pool 127.0.0.1:1 2>&1) && fail "unreachable collector gave success"
echo "$out" | grep -q "Couldn't contact the condor_collector" || fail "unreachable: $out"
out=$("$ADV" -pool 127.0.0.1:1 -multiple UPDATE_STARTD_AD "$T/slots" 2>&1) && fail "advertise to nowhere succeeded"
echo "$out" | grep -q "failed to send classad" || fail "advertise to nowhere: $out"

# -long from the collector prints each ad's lines as they came, parsing
# only what the sort needs; read back with -ads, where every ad is
# parsed and printed afresh, the listing must come out the same.  The ads have names in mixed case and
# order, a private attribute, escapes, reals, and a Machine that is an
# expression (the sort then needs the whole ad).
cat > "$T/longads" <<'ADS'
MyType = "Machine"
Name = "slot1@long1"
zeta = 1.5e-7
Machine = "long1"
ClaimId = "secret"
Alpha = "a \"quoted\" word"
beta = { 1, "two", [ x = 3 ] }
_condor_privX = 1
Cpus = 2

MyType = "Machine"
Name = "slot1@long0"
Machine = strcat("long", "9")
Cpus = 1
Rank = TARGET.Cpus * 2.0
ADS
"$ADV" -multiple UPDATE_STARTD_AD "$T/longads" >/dev/null || fail "advertise long ads"
for args in "-l" "-l -attributes Name,Cpus,zeta" "-l -sort Cpus" "-l -sort Machine"; do
	"$ST" $args -constraint 'regexp("long", Name)' > "$T/coll.out" || fail "condor_status $args"
	"$ST" -ads "$T/coll.out" $args > "$T/file.out" || fail "condor_status -ads $args"
	out=$(diff "$T/coll.out" "$T/file.out") || fail "$args differs from the parsed ads"
done
grep -q '^ClaimId' "$T/coll.out" && fail "-l shows ClaimId"
[ "$(grep -c '^Name = ' "$T/coll.out")" = 2 ] || fail "-l: $(cat "$T/coll.out")"
# slot1@long0 sorts as long9, after long1
[ "$("$ST" -l -constraint 'regexp("long", Name)' | grep '^Name = ' | tr '\n' ' ')" = 'Name = "slot1@long1" Name = "slot1@long0" ' ] || fail "sort on an expression Machine"
"$ADV" -multiple INVALIDATE_STARTD_ADS "$T/longads" >/dev/null || fail "invalidate long ads"

# A file over 4 MiB is checked in two halves at once: an error in the
# second half names its line in the whole file, and nothing is sent.
python3 - "$T/big" <<'PY'
import sys
lines = []
for i in range(20000):
    lines += ['MyType = "Machine"', 'Name = "slot%d@big"' % i,
              'Pad = "%s"' % ("y" * 220), 'Cpus = %d' % (i % 4), '']
with open(sys.argv[1], "w") as f:
    f.write("\n".join(lines) + "\n")
lines[5 * 15000 + 3] = 'Cpus = = 2'
with open(sys.argv[1] + ".bad", "w") as f:
    f.write("\n".join(lines) + "\n")
PY
out=$("$ADV" -multiple UPDATE_STARTD_AD "$T/big.bad" 2>&1) && fail "a bad big file was sent"
echo "$out" | grep -q "line 75004:" || fail "bad big file: $out"
[ -z "$("$ST" -constraint 'regexp("@big", Name)' -af Name)" ] || fail "ads of a bad file arrived"
out=$("$ADV" -multiple UPDATE_STARTD_AD "$T/big") || fail "big file: $out"
[ "$out" = "Sent 20000 of 20000 ads to 127.0.0.1:0." ] || fail "big file: $out"
[ "$("$ST" -constraint 'regexp("@big", Name)' -af Name | sort -u | wc -l)" = 20000 ] || fail "big file: not all ads listed"
"$ADV" -multiple INVALIDATE_STARTD_ADS "$T/big" >/dev/null || fail "invalidate big file"

# A long answer is sent a piece at a time, as the reader takes it: a
# reader that stops holds the collector to little, and others are served
# meanwhile.
python3 - "$T/many" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(3000):
        f.write('MyType = "Machine"\nName = "slot%d@many"\nMachine = "many"\n' % i)
        f.write('Pad = "%s"\nCpus = %d\n\n' % ("x" * 200, i % 8))
PY
"$ADV" -multiple UPDATE_STARTD_AD "$T/many" >/dev/null || fail "advertise 3000 ads"
mkfifo "$T/fifo"
"$ST" -l -constraint 'Machine == "many"' > "$T/fifo" &
SLOW=$!
exec 7<"$T/fifo" # opened, not yet read: the listing stalls
wait_for 10 sh -c "'$ST' -af Name | grep -q slot2999@many" || fail "collector busy with a stalled reader"
[ "$(cat <&7 | grep -c '^Name = ')" = 3000 ] || fail "stalled reader lost ads"
exec 7<&-
wait "$SLOW" || fail "condor_status -l to a slow reader"
"$ADV" -multiple INVALIDATE_STARTD_ADS "$T/many" >/dev/null || fail "invalidate 3000 ads"

# Over UDP, signed with the session of the handshake.
printf 'MyType = "Machine"\nName = "udp1@host4"\nCpus = 2\n' > "$T/udp"
out=$("$ADV" -udp UPDATE_STARTD_AD "$T/udp") || fail "advertise -udp: $out"
wait_for 10 sh -c "'$Q' QUERY_STARTD_ADS | grep -q udp1" || fail "UDP update not stored"
# A datagram without a session is from nobody, and refused.
python3 - "$(sed -n 's/^<[^:]*:\([0-9]*\).*/\1/p' "$T/log/.collector_address")" <<'PY'
import socket, struct, sys
ad = b'MyType = "Machine"\nName = "x"\n'
payload = struct.pack('>I', len(ad)) + ad
msg = b'KS\x01\x00' + struct.pack('>iII', 0, len(payload), len(payload)) + payload
socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(msg, ('127.0.0.1', int(sys.argv[1])))
PY
wait_for 10 grep -q "PERMISSION DENIED to unauthenticated@unmapped" "$T/log/CollectorLog" || fail "anonymous datagram not refused"
"$ADV" INVALIDATE_STARTD_ADS "$T/udp" >/dev/null || fail "invalidate udp1"

# The master's and the collector's own ads arrive.
wait_for 10 sh -c "'$Q' QUERY_MASTER_ADS | grep -q DaemonList" || fail "no master ad"
wait_for 10 sh -c "'$Q' QUERY_COLLECTOR_ADS | grep -q UpdatesTotal" || fail "no collector ad"
[ "$("$Q" QUERY_ANY_ADS | grep -c '^Name = ')" -ge 4 ] || fail "QUERY_ANY_ADS"

# Malformed, oversized, truncated and unauthenticated messages: each
# connection is dropped and logged; the collector goes on serving.
PORT=$(sed -n 's/^<[^:]*:\([0-9]*\).*/\1/p' "$T/log/.collector_address")
python3 - "$PORT" <<'PY' || fail "bad-message client"
import socket, struct, sys
port = int(sys.argv[1])
def frame(code, payload, flags=0, ver=1):
    return b'KS' + bytes([ver, flags]) + struct.pack('>iII', code, len(payload), len(payload)) + payload
def ad(text):
    return struct.pack('>I', len(text)) + text
cases = [
    b'GET / HTTP/1.0\r\n\r\n',                                 # not our protocol
    b'KS\x01\x00' + struct.pack('>iII', 70000, 0x7fffffff, 0x7fffffff),  # oversized
    frame(70000, ad(b'Version = 1\n'))[:20],                     # truncated, then closed
    frame(5, ad(b'MyType = "Query"\n')),                         # command before handshake
    frame(70000, ad(b'Version = 1\n'), ver=9),                   # unknown version
    frame(70000, ad(b'Version = = 1\n')),                         # ad that does not parse
    b'KS\x01\x00' + struct.pack('>iII', 70000, 1000000, 1000000),  # big before handshake
]
for data in cases:
    s = socket.create_connection(('127.0.0.1', port), timeout=5)
    s.sendall(data)
    if data is cases[2]:
        s.close()
        continue
    s.shutdown(socket.SHUT_WR)
    try:
        while s.recv(4096):   # whatever comes back, the collector must close
            pass
    except ConnectionResetError:
        pass
    s.close()
PY
wait_for 10 grep -q "handshake message of 1000000 bytes" "$T/log/CollectorLog" || fail "big handshake message not logged"
grep -q "message of 2147483647 bytes is over the limit" "$T/log/CollectorLog" || fail "oversized message not logged"
grep -q "bad message from 127.0.0.1" "$T/log/CollectorLog" || fail "malformed message not logged"
grep -q "before the handshake" "$T/log/CollectorLog" || fail "command before handshake not logged"
"$ST" -af Name | grep -q slot1@host1 || fail "collector stopped serving after bad messages"

# Update statistics: two updates never arrived between 1 and 4.
for seq in 1 4; do
	printf 'MyType = "Machine"\nName = "seq@host6"\nDaemonStartTime = 100\nUpdateSequenceNumber = %d\n' $seq > "$T/seq"
	"$ADV" UPDATE_STARTD_AD "$T/seq" >/dev/null || fail "advertise seq $seq"
done
out=$("$B/tools/condor_status/condor_status" seq@host6 -af UpdatesTotal UpdatesLost UpdatesSequenced UpdatesHistory)
[ "$out" = "2 2 3 60000000000000000000000000000000" ] || fail "update statistics: $out"
printf 'MyType = "Query"\nTargetType = "Machine"\nName = "seq@host6"\n' > "$T/seq"
"$ADV" INVALIDATE_STARTD_ADS "$T/seq" >/dev/null

# -fake-private-ad: each startd ad goes with a made-up private ad (its
# Name, StartdIpAddr and a claim id in a startd's form), which only
# QUERY_STARTD_PVT_ADS answers.
printf 'MyType = "Machine"\nName = "pvt1@hostp"\nMyAddress = "<127.0.0.1:5555>"\nStartdIpAddr = "<127.0.0.1:5555>"\n\nMyType = "Machine"\nName = "pvt2@hostp"\nMyAddress = "<127.0.0.1:5556>"\n' > "$T/pvt"
"$ADV" -multiple -fake-private-ad UPDATE_STARTD_AD "$T/pvt" >/dev/null || fail "-fake-private-ad"
out=$("$Q" QUERY_STARTD_PVT_ADS 'regexp("@hostp$", Name)')
[ "$(echo "$out" | grep -c '^ClaimId = "<127.0.0.1:555[56]>#[0-9]*#[0-9]*#[0-9A-F]\{8\}DEADBEEF01234567BEEFBAAD"$')" = 2 ] ||
	fail "fake private ads: $out"
echo "$out" | grep -q '^StartdIpAddr = "<127.0.0.1:5555>"' || fail "fake private ad's StartdIpAddr: $out"
"$Q" QUERY_STARTD_ADS 'regexp("@hostp$", Name)' | grep -q ClaimId && fail "a public ad shows the claim id"
printf 'MyType = "Query"\nTargetType = "Machine"\nRequirements = regexp("@hostp$", Name)\n' > "$T/pvtinv"
"$ADV" INVALIDATE_STARTD_ADS "$T/pvtinv" >/dev/null || fail "invalidate fake-private ads"
[ -z "$("$Q" QUERY_STARTD_PVT_ADS 'regexp("@hostp$", Name)' | grep ClaimId)" ] || fail "private ads outlived their public ones"

# Invalidation by name.
printf 'MyType = "Query"\nTargetType = "Machine"\nName = "slot2@host1"\n' > "$T/inv"
"$ADV" INVALIDATE_STARTD_ADS "$T/inv" >/dev/null || fail "invalidate"
[ "$("$Q" QUERY_STARTD_ADS | grep -c '^Name = ')" = 1 ] || fail "invalidate left the ad"

# Keys as HTCondor's collector makes them: names exactly as written, a
# slot without a Name by Machine:SlotID, submitters of two schedds apart,
# a schedd ad without an address dropped.
printf 'MyType = "Machine"\nName = "Case@hostk"\n\nMyType = "Machine"\nName = "case@hostk"\n\nMyType = "Machine"\nMachine = "hostk"\nSlotID = 3\n\nMyType = "Machine"\nMachine = "hostk"\nSlotID = 4\n' > "$T/keys"
"$ADV" -multiple UPDATE_STARTD_AD "$T/keys" >/dev/null || fail "advertise keyed ads"
[ "$("$Q" QUERY_STARTD_ADS '(Name ?: Machine) =?= "Case@hostk" || Name =?= "case@hostk" || Machine =?= "hostk"' | grep -c '^MyType = ')" = 4 ] ||
	fail "ads that differ in their name's case or slot were merged"
printf 'MyType = "Query"\nTargetType = "Machine"\nMachine = "hostk"\nSlotID = 3\n' > "$T/inv3"
"$ADV" INVALIDATE_STARTD_ADS "$T/inv3" >/dev/null || fail "invalidate by Machine:SlotID"
out=$("$Q" QUERY_STARTD_ADS 'Machine =?= "hostk"' | grep '^SlotID = ')
[ "$out" = "SlotID = 4" ] || fail "invalidation by Machine:SlotID left: $out"
printf 'MyType = "Query"\nTargetType = "Machine"\nName = "Case@hostk"\n\nMyType = "Query"\nTargetType = "Machine"\nName = "case@hostk"\n\nMyType = "Query"\nTargetType = "Machine"\nMachine = "hostk"\nSlotID = 4\n' > "$T/invk"
"$ADV" -multiple INVALIDATE_STARTD_ADS "$T/invk" >/dev/null || fail "invalidate keyed ads"
printf 'MyType = "Submitter"\nName = "alice@x"\nScheddName = "s1@x"\nMyAddress = "<127.0.0.1:1>"\n\nMyType = "Submitter"\nName = "alice@x"\nScheddName = "s2@x"\nMyAddress = "<127.0.0.1:2>"\n\nMyType = "Submitter"\nName = "bob@x"\nScheddName = "s1@x"\n' > "$T/subs"
"$ADV" -multiple UPDATE_SUBMITTOR_AD "$T/subs" >/dev/null || fail "advertise submitters"
[ "$("$Q" QUERY_SUBMITTOR_ADS | grep -c '^Name = "alice@x"')" = 2 ] || fail "two schedds' submitters merged"
"$Q" QUERY_SUBMITTOR_ADS | grep -q bob && fail "a submitter ad without an address was kept"
wait_for 10 grep -q "dropping a Submitter ad from .*: it has no valid MyAddress" "$T/log/CollectorLog" ||
	fail "the dropped submitter ad was not logged"
printf 'MyType = "Query"\nTargetType = "Submitter"\nRequirements = Name == "alice@x"\n' > "$T/invs"
"$ADV" INVALIDATE_SUBMITTOR_ADS "$T/invs" >/dev/null || fail "invalidate submitters"
"$Q" QUERY_SUBMITTOR_ADS | grep -q alice && fail "submitters left after invalidation"

# Expiry after the ad's own ClassAdLifetime.
printf 'MyType = "Machine"\nName = "short@host2"\nClassAdLifetime = 1\n' > "$T/short"
"$ADV" UPDATE_STARTD_AD "$T/short" >/dev/null || fail "advertise short"
"$Q" QUERY_STARTD_ADS 'Name == "short@host2"' | grep -q short || fail "short ad missing"
wait_for 10 sh -c "! '$Q' QUERY_STARTD_ADS | grep -q short" || fail "ad did not expire"

# Authorization: an identity not allowed to advertise is refused, and a
# reconfig (SIGHUP) brings the new lists in.
CPID=$(pgrep -P "$MASTER_PID" -f condor_collector | head -1)
echo 'ALLOW_ADVERTISE_STARTD = nobody@nowhere' >> "$CONDOR_CONFIG"
kill -HUP "$CPID"
wait_for 10 grep -q reconfigured "$T/log/CollectorLog" || fail "no reconfig"
printf 'MyType = "Machine"\nName = "evil@host3"\n' > "$T/evil"
out=$("$ADV" UPDATE_STARTD_AD "$T/evil" 2>&1) && fail "unauthorized update accepted: $out"
echo "$out" | grep -q "refused" || fail "no refusal message: $out"
"$Q" QUERY_STARTD_ADS | grep -q evil && fail "unauthorized ad stored"
grep -q "PERMISSION DENIED" "$T/log/CollectorLog" || fail "denial not logged"
# UDP updates are signed with the session of the sender's handshake, so
# the same lists apply.
"$ADV" -udp UPDATE_STARTD_AD "$T/evil" >/dev/null
wait_for 10 sh -c "[ \$(grep -c 'PERMISSION DENIED to [a-z]' '$T/log/CollectorLog') -ge 2 ]" || fail "signed UDP update not refused"
"$Q" QUERY_STARTD_ADS | grep -q evil && fail "unauthorized UDP ad stored"
cp "$T/good_config" "$CONDOR_CONFIG"

# A broken file on reconfig: the old configuration stays, the daemon serves.
echo 'include : /nonexistent/file' >> "$CONDOR_CONFIG"
kill -HUP "$CPID"
wait_for 10 grep -q "reconfig failed, keeping the old configuration" "$T/log/CollectorLog" || fail "broken reconfig not logged"
cp "$T/good_config" "$CONDOR_CONFIG"   # (the tools read it too)
"$Q" QUERY_STARTD_ADS | grep -q slot1 || fail "collector lost its ads on a broken reconfig"

# The master restarts a killed collector.
kill -9 "$CPID"
wait_for 15 sh -c "pgrep -P $MASTER_PID -f condor_collector | grep -vx $CPID" || fail "collector not restarted"
wait_for 10 "$Q" QUERY_COLLECTOR_ADS || fail "restarted collector does not answer"

# TOKEN over TCP (the Unix-domain socket hidden from the tools): a token
# signed with the pool key the collector made names who is talking.
TOK=$B/tools/condor_token_create/condor_token_create
[ -s "$T/passwords.d/POOL" ] || fail "no pool signing key made at start-up"
mkdir -p "$T/tokens"
chmod 700 "$T/tokens"
"$TOK" -identity bob@example.org -file "$T/tokens/bob" || fail "condor_token_create"
export _CONDOR_DAEMON_SOCKET_DIR=$T/nowhere
printf 'MyType = "Machine"\nName = "tok@host5"\n' > "$T/tok"
out=$(_CONDOR_SEC_TOKEN_DIRECTORY=$T/tokens "$ADV" UPDATE_STARTD_AD "$T/tok" 2>&1) && fail "bob may not advertise: $out"
echo "$out" | grep -q "bob@example.org" || fail "refusal does not name bob: $out"
grep -q "authenticated bob@example.org from 127.0.0.1 with TOKEN" "$T/log/CollectorLog" || fail "bob not authenticated by token"
# ...but may read, over the same method.
out=$(_CONDOR_SEC_TOKEN_DIRECTORY=$T/tokens "$Q" QUERY_STARTD_ADS 2>&1) || fail "bob may read"
# ... but not the slots' private ads (NEGOTIATOR)
out=$(_CONDOR_SEC_TOKEN_DIRECTORY=$T/tokens "$Q" QUERY_STARTD_PVT_ADS 2>&1) && fail "bob read private ads: $out"
# The pool's own identity, from a token for the pool's user, advertises.
rm "$T/tokens/bob"
"$TOK" -identity "$(id -un)@example.org" -file "$T/tokens/me" || fail "token for me"
out=$(_CONDOR_SEC_TOKEN_DIRECTORY=$T/tokens "$ADV" UPDATE_STARTD_AD "$T/tok" 2>&1) || fail "own token refused: $out"
"$Q" QUERY_STARTD_ADS | grep -q tok@host5 || fail "token update not stored"
# A token limited to READ does not advertise.
rm "$T/tokens/me"
"$TOK" -identity "$(id -un)@example.org" -authz READ -file "$T/tokens/ro"
out=$(_CONDOR_SEC_TOKEN_DIRECTORY=$T/tokens "$ADV" UPDATE_STARTD_AD "$T/tok" 2>&1) && fail "READ token advertised: $out"
echo "$out" | grep -q "does not grant" || fail "scope refusal: $out"
# A token signed with another key is refused outright.
rm "$T/tokens/ro"
mkdir -p "$T/other"
head -c 64 /dev/urandom > "$T/other/POOL"
chmod 600 "$T/other/POOL"
_CONDOR_SEC_PASSWORD_DIRECTORY=$T/other "$TOK" -identity "$(id -un)@example.org" -file "$T/tokens/forged" || fail "forged token"
out=$(_CONDOR_SEC_TOKEN_DIRECTORY=$T/tokens "$ADV" UPDATE_STARTD_AD "$T/tok" 2>&1) && fail "forged token accepted: $out"
echo "$out" | grep -q "proof is wrong" || fail "forged token refusal: $out"
rm "$T/tokens/forged"
# No token, no key to sign one: unauthenticated over TCP, refused.
out=$(_CONDOR_SEC_CLIENT_AUTHENTICATION_METHODS=FS "$ADV" UPDATE_STARTD_AD "$T/tok" 2>&1) && fail "anonymous TCP advertised: $out"
echo "$out" | grep -q "unauthenticated@unmapped" || fail "anonymous refusal: $out"
unset _CONDOR_DAEMON_SOCKET_DIR

# condor_config_val asks a running daemon.
CCV=$B/tools/condor_config_val/condor_config_val
out=$("$CCV" -collector COLLECTOR_UPDATE_INTERVAL) || fail "condor_config_val -collector"
[ "$out" = 1 ] || fail "collector's COLLECTOR_UPDATE_INTERVAL: $out"
out=$("$CCV" -master DAEMON_LIST) || fail "condor_config_val -master"
[ "$out" = "MASTER COLLECTOR" ] || fail "master's DAEMON_LIST: $out"
# (the restarted collector hears from the master within a second or so)
wait_for 10 sh -c "'$ST' -master -af Name | grep -q ." || fail "master ad not back after the collector's restart"
MNAME=$("$ST" -master -af Name | head -1)
out=$("$CCV" -name "$MNAME" -v DAEMON_LIST 2>&1) || fail "condor_config_val -name ($MNAME)"
echo "$out" | grep -q "# at: $CONDOR_CONFIG, line 5" || fail "-name -v: $out"
out=$("$CCV" -master NO_SUCH_KNOB_HERE 2>&1) && fail "undefined knob: $out"
[ "$out" = "Not defined: NO_SUCH_KNOB_HERE" ] || fail "undefined knob said: $out"

# Settings from outside: -rset in memory, -set saved; both at reconfig.
out=$("$CCV" -master -rset "FOO_RUNTIME = 42") || fail "-rset: $out"
echo "$out" | grep -q '^Successfully set configuration "FOO_RUNTIME = 42" on master' || fail "-rset said: $out"
"$CCV" -master FOO_RUNTIME >/dev/null 2>&1 && fail "-rset took effect before reconfig"
out=$("$CCV" -master -set "FOO_SAVED = \$(FOO_RUNTIME)0") || fail "-set: $out"
[ -s "$T/persist/.config.MASTER" ] || fail "no persistent file"
"$B/tools/condor_daemonctl/condor_reconfig" >/dev/null || fail "reconfig after -set"
wait_for 10 sh -c "[ \"\$('$CCV' -master FOO_RUNTIME 2>/dev/null)\" = 42 ]" || fail "-rset not applied"
[ "$("$CCV" -master FOO_SAVED)" = 420 ] || fail "-set not applied: $("$CCV" -master FOO_SAVED 2>&1)"
out=$("$CCV" -master -set "OTHER_KNOB = 1" 2>&1) && fail "unsettable knob set: $out"
echo "$out" | grep -q 'Attempt to set configuration "OTHER_KNOB = 1" on master' || fail "refusal said: $out"
echo "$out" | grep -q 'SETTABLE_ATTRS' || fail "refusal reason: $out"
out=$("$CCV" -master -set "FOO_X" 2>&1) && fail "-set without a value"
echo "$out" | grep -q 'You must specify "macro_name = value"' || fail "-set FOO_X said: $out"
out=$("$CCV" -master -unset FOO_SAVED) || fail "-unset: $out"
out=$("$CCV" -master -runset FOO_RUNTIME) || fail "-runset: $out"
"$B/tools/condor_daemonctl/condor_reconfig" >/dev/null
wait_for 10 sh -c "! '$CCV' -master FOO_SAVED >/dev/null 2>&1" || fail "-unset not applied"
wait_for 10 sh -c "! '$CCV' -master FOO_RUNTIME >/dev/null 2>&1" || fail "-runset not applied"

# condor_reconfig, condor_off / condor_on -daemon, condor_restart.
BT=$B/tools/condor_daemonctl
out=$("$BT/condor_reconfig") || fail "condor_reconfig: $out"
[ "$out" = 'Sent "Reconfig" command to local master' ] || fail "condor_reconfig said: $out"
wait_for 10 sh -c "[ \$(grep -c reconfigured '$T/log/MasterLog') -ge 1 ]" || fail "master did not reconfig"
CPID=$(pgrep -P "$MASTER_PID" -f condor_collector | head -1)
out=$("$BT/condor_off" -daemon collector) || fail "condor_off -daemon: $out"
[ "$out" = 'Sent "Kill-Daemon" command for "collector" to local master' ] || fail "condor_off said: $out"
wait_for 10 sh -c "! kill -0 $CPID" || fail "collector not stopped"
sleep 2   # long enough for a restart (back-off 1 s), which must not come
pgrep -P "$MASTER_PID" -f condor_collector >/dev/null && fail "collector restarted after condor_off"
out=$("$BT/condor_on" -daemon collector) || fail "condor_on: $out"
wait_for 10 "$Q" QUERY_COLLECTOR_ADS || fail "collector not back after condor_on"
out=$("$BT/condor_restart") || fail "condor_restart: $out"
[ "$out" = 'Sent "Restart" command to local master' ] || fail "condor_restart said: $out"
wait_for 10 "$Q" QUERY_COLLECTOR_ADS || fail "collector not back after condor_restart"
# one daemon restarted on command comes back at once, not after a back-off
CPID=$(pgrep -P "$MASTER_PID" -f condor_collector | head -1)
backoffs=$(grep -c "restarting COLLECTOR in" "$T/log/MasterLog")
out=$("$BT/condor_restart" -daemon collector) || fail "condor_restart -daemon: $out"
wait_for 10 sh -c "[ -n \"\$(pgrep -P $MASTER_PID -f condor_collector | grep -vx $CPID)\" ]" ||
	fail "collector not restarted by condor_restart -daemon"
[ "$(grep -c "restarting COLLECTOR in" "$T/log/MasterLog")" = "$backoffs" ] ||
	fail "a commanded restart waited for a back-off"
"$BT/condor_off" -bogus >/dev/null 2>&1 && fail "bad flag accepted"
# tool.cpp's command line (tools/ctool), shared with condor_vacate
out=$("$BT/condor_on" -fast 2>&1) && fail "condor_on -fast accepted"
[ "$(head -1 <<<"$out")" = 'ERROR: "-fast" is not valid with condor_on' ] || fail "condor_on -fast said: $out"
out=$("$BT/condor_off" -sc -st 2>&1) && fail "two daemon flags accepted"
[ "$(head -1 <<<"$out")" = "ERROR: can only specify one daemon flag." ] || fail "two daemon flags: $out"
out=$("$BT/condor_reconfig" -full) || fail "condor_reconfig -full: $out"
[ "$out" = 'Sent "Reconfig" command to local master' ] || fail "condor_reconfig -full said: $out"
out=$("$BT/condor_off" -constraint 'Name == "no.such.master"' 2>&1) && fail "no master matched, yet 0"
grep -q "^Can't find addresses for masters for Name == \"no.such.master\"$" <<<"$out" || fail "condor_off -constraint said: $out"
out=$("$BT/condor_off" -name no.such.master 2>&1) && fail "unknown master accepted"
echo "$out" | grep -q "Can't find address for master no.such.master" || fail "condor_off -name said: $out"

# Shutdown: everything stops.
CPID=$(pgrep -P "$MASTER_PID" -f condor_collector | head -1)
[ -n "$CPID" ] || fail "no collector before shutdown"
out=$("$BT/condor_off" -master) || fail "condor_off -master"
[ "$out" = 'Sent "Kill-Daemon" command for "master" to local master' ] || fail "condor_off -master said: $out"
wait_for 15 sh -c "! kill -0 $MASTER_PID" || fail "master did not exit"
wait "$MASTER_PID"
rc=$?
[ "$rc" = 0 ] || fail "master exited with status $rc"
kill -0 "$CPID" 2>/dev/null && fail "collector still running"
# (under the sanitizers a leak or error changes the status)
grep -q "The COLLECTOR (pid $CPID) exited with status 0" "$T/log/MasterLog" || fail "collector did not exit cleanly"
MASTER_PID=
echo "pool_test: all checks passed"
