#!/usr/bin/env bash
# multihost_jobs_test.sh BUILD: a pool of four "hosts", each a network
# namespace (and a UTS namespace, for its own host name) joined through
# a bridge in a fifth, "switch", namespace (10.214.0.0/24):
#   cm      10.214.0.1  COLLECTOR NEGOTIATOR
#   submit  10.214.0.2  SCHEDD
#   exec1   10.214.0.3  STARTD
#   exec2   10.214.0.4  STARTD
# Each host has its own LOCAL_DIR and FILESYSTEM_DOMAIN (one UID_DOMAIN,
# so that users map), and the pool signing key is the only shared
# security set-up (TOKEN authentication, TLS between hosts).  A
# temporary user submits jobs with should_transfer_files = YES, an input
# file and output files: they run on both execute hosts, in their
# sandboxes, and their outputs come back into the submit directory.  A
# startd with another key is refused by the collector.  Needs root,
# iproute2, unshare and runuser; exits 77 (skipped) otherwise.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null ||
	! command -v runuser >/dev/null || ! command -v unshare >/dev/null; then
	echo "skipped: needs root, iproute2 (ip netns), unshare and runuser"
	exit 77
fi
for d in "$B"/tools/*/; do PATH=$d:$PATH; done
export PATH

T=$(mktemp -d /tmp/ksmhjobs.XXXXXX)
chmod 755 "$T"
HOSTS=(cm submit exec1 exec2)
declare -A IP=([cm]=10.214.0.1 [submit]=10.214.0.2 [exec1]=10.214.0.3
	[exec2]=10.214.0.4 [intruder]=10.214.0.4)
declare -A NS=([cm]=ksmcm$$ [submit]=ksmsub$$ [exec1]=ksmex1$$
	[exec2]=ksmex2$$ [intruder]=ksmex2$$)
SW=ksmsw$$
PIDS=()
A=ksmhuser
made=
cleanup() {
	for p in "${PIDS[@]}"; do kill -QUIT "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.2
		done
	done
	# whatever is left in the namespaces this test made
	for n in "${NS[@]}" "$SW"; do
		ip netns pids "$n" 2>/dev/null | xargs -r kill -9 2>/dev/null
	done
	for n in "${NS[@]}" "$SW"; do ip netns del "$n" 2>/dev/null; done
	[ -n "$made" ] && userdel "$made" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT

# --- the network: a bridge in the switch namespace, a veth to each host
ip netns add "$SW" || { echo "skipped: cannot make network namespaces"; exit 77; }
for h in "${HOSTS[@]}"; do
	ip netns add "${NS[$h]}" || fail "netns $h"
done
ip -n "$SW" link add br0 type bridge || fail "bridge"
ip -n "$SW" link set lo up
ip -n "$SW" link set br0 up
i=0
for h in "${HOSTS[@]}"; do
	i=$((i + 1))
	n=${NS[$h]}
	# made inside the namespaces: nothing of the host's is touched
	ip -n "$n" link add eth0 type veth peer name p$i netns "$SW" || fail "veth $h"
	ip -n "$SW" link set p$i master br0 || fail "bridge port $h"
	ip -n "$SW" link set p$i up
	ip -n "$n" addr add "${IP[$h]}/24" dev eth0
	ip -n "$n" link set lo up
	ip -n "$n" link set eth0 up
done

# --- the pool ------------------------------------------------------------
mkdir -p "$T/key"
chmod 700 "$T/key"
head -c 64 /dev/urandom > "$T/key/POOL"
head -c 64 /dev/urandom > "$T/key/OTHER"
chmod 600 "$T/key/POOL" "$T/key/OTHER"
host_config() { # HOST KEY DAEMONS
	local h=$1
	mkdir -p "$T/$h/execute"
	cat > "$T/$h/condor_config" <<CFG
LOCAL_DIR = $T/$h
COLLECTOR_HOST = ${IP[cm]}:9618
NETWORK_INTERFACE = ${IP[$h]}
SEC_TOKEN_POOL_SIGNING_KEY_FILE = $T/key/$2
TRUST_DOMAIN = test.pool
UID_DOMAIN = ks.test
FILESYSTEM_DOMAIN = $h.ks.test
MASTER = $B/master/condor_master
COLLECTOR = $B/collector/condor_collector
NEGOTIATOR = $B/negotiator/condor_negotiator
SCHEDD = $B/schedd/condor_schedd
STARTD = $B/startd/condor_startd
STARTER = $B/startd/condor_starter
DAEMON_LIST = MASTER $3
MASTER_BACKOFF_CONSTANT = 1
MASTER_UPDATE_INTERVAL = 1
UPDATE_INTERVAL = 1
POLLING_INTERVAL = 1
NEGOTIATOR_INTERVAL = 1
NEGOTIATOR_CYCLE_DELAY = 1
SCHEDD_INTERVAL = 1
NUM_CPUS = 2
EXECUTE = $T/$h/execute
COLLECTOR_DEBUG = D_FULLDEBUG D_COMMAND D_SECURITY
SCHEDD_DEBUG = D_FULLDEBUG D_SECURITY
STARTD_DEBUG = D_FULLDEBUG D_SECURITY
CFG
}
host_config cm POOL "COLLECTOR NEGOTIATOR"
host_config submit POOL SCHEDD
host_config exec1 POOL STARTD
host_config exec2 POOL STARTD
host_config intruder OTHER STARTD

# on HOST CMD...: runs CMD on HOST (its network namespace, its host name,
# its configuration)
on() {
	local h=$1; shift
	ip netns exec "${NS[$h]}" unshare --uts sh -c 'hostname "$0" && exec "$@"' \
		"$h.ks.test" env CONDOR_CONFIG="$T/$h/condor_config" PATH="$PATH" "$@"
}
# as CMD...: runs CMD on the submit host as the user
as() { on submit runuser -u "$A" -- env CONDOR_CONFIG="$T/submit/condor_config" PATH="$PATH" "$@"; }
# start_host HOST: HOST's master, its pid (not a subshell's) in PIDS
start_host() {
	ip netns exec "${NS[$1]}" unshare --uts sh -c 'hostname "$0" && exec "$@"' \
		"$1.ks.test" env CONDOR_CONFIG="$T/$1/condor_config" \
		"$B/master/condor_master" -f 2>>"$T/$1/StderrLog" &
	PIDS+=($!)
}
in_history() { [ "$(on submit condor_history -af ProcId -constraint "ClusterId == $1" 2>/dev/null | wc -l)" = "$2" ]; }
cluster_of() { sed -n 's/.* submitted to cluster \([0-9]*\)\./\1/p' <<<"$1"; }
slots_of() { on cm condor_status -af Machine 2>/dev/null | grep -c "^$1\$"; }

if ! id "$A" >/dev/null 2>&1; then
	useradd -M -r -s /bin/sh "$A" || fail "cannot add user $A"
	made=$A
fi
J=$T/jobs
mkdir -p "$J" && chown "$A" "$J" && chmod 700 "$J"

for h in "${HOSTS[@]}"; do start_host "$h"; done
wait_for 30 sh -c "[ \$(ip netns exec ${NS[cm]} env CONDOR_CONFIG=$T/cm/condor_config condor_status -master -af Name 2>/dev/null | wc -l) = 4 ]" ||
	fail "four masters expected: $(on cm condor_status -master -af Name MyAddress 2>&1)"
wait_for 30 sh -c "[ \$(ip netns exec ${NS[cm]} env CONDOR_CONFIG=$T/cm/condor_config condor_status -af Machine 2>/dev/null | sort -u | wc -l) = 2 ]" ||
	fail "slots of two execute hosts expected: $(on cm condor_status -af Name MyAddress 2>&1)"
# (each host's ads as the collector has them; a query may meet the
# collector still busy with the hosts' first TLS handshakes, under the
# sanitizers: it is asked again until the deadline)
host_slots() {
	out=$(on cm condor_status -af MyAddress FileSystemDomain UidDomain -constraint "Machine == \"$1.ks.test\"" 2>&1)
	grep -q "^<${IP[$1]}:[0-9]*[^ ]*> $1.ks.test ks.test$" <<<"$out"
}
for h in exec1 exec2; do
	wait_for 30 host_slots "$h" || { host_slots "$h"; fail "$h's slots: $out"; }
done
wait_for 30 sh -c "ip netns exec ${NS[cm]} env CONDOR_CONFIG=$T/cm/condor_config condor_status -schedd -af MyAddress | grep -q '<${IP[submit]}:'" ||
	fail "no schedd ad from the submit host"
wait_for 30 sh -c "ip netns exec ${NS[cm]} env CONDOR_CONFIG=$T/cm/condor_config condor_status -negotiator -af Name | grep -q ." ||
	fail "no negotiator ad"
for h in submit exec1 exec2; do
	grep -q "authenticated condor@test.pool from ${IP[$h]} with TOKEN+TLS" "$T/cm/log/CollectorLog" ||
		fail "$h not authenticated by its token over TLS"
done
echo "ok: four hosts in the pool, authenticated by the pool key over TLS"

# --- a startd with another key is refused --------------------------------
start_host intruder
wait_for 20 grep -q "token proof from ${IP[intruder]} (condor@test.pool) is wrong" "$T/cm/log/CollectorLog" ||
	fail "the intruder's wrong key was not refused"
wait_for 20 grep -q . "$T/intruder/log/StartLog" || fail "the intruder's startd did not start"
on cm condor_status -any -af Name Machine | grep -q intruder && fail "intruder listed"
echo "ok: a host with another key is refused"

# --- jobs with file transfer over the hosts -------------------------------
as sh -c "cat > '$J/job.sh'" <<SH
#!/bin/sh
case "\$PWD" in $J*) echo "ran in Iwd \$PWD" >&2; exit 9;; esac
[ -e job.sub ] && { echo "sees the submit directory" >&2; exit 8; }
read line
echo "host: \$(hostname)"
echo "stdin: \$line"
echo "input: \$(cat data.txt)"
echo "job \$1 on \$(hostname)" >&2
tr a-z A-Z < data.txt > result.\$1.txt
echo "not asked for" > other.\$1.txt
sleep 2
exit 0
SH
as sh -c "
chmod 755 '$J/job.sh'
echo hello > '$J/data.txt'
echo from-stdin > '$J/in.txt'
"
as sh -c "cat > '$J/job.sub'" <<SUB
executable = job.sh
arguments = \$(Process)
initialdir = $J
should_transfer_files = YES
when_to_transfer_output = ON_EXIT
input = in.txt
transfer_input_files = data.txt
transfer_output_files = result.\$(Process).txt
output = out.\$(Process).txt
error = err.\$(Process).txt
log = job.log
queue 8
SUB
out=$(cd "$J" && as condor_submit job.sub) || fail "condor_submit: $out"
C=$(cluster_of "$out")
[ -n "$C" ] || fail "no cluster in: $out"
# while they run (four at a time, two seconds each), condor_q shows
# them on slots of both execute hosts
both_running() {
	local r
	r=$(on submit condor_q -allusers -af RemoteHost 2>/dev/null)
	grep -q "@exec1.ks.test$" <<<"$r" && grep -q "@exec2.ks.test$" <<<"$r"
}
wait_for 60 both_running || fail "not running on both hosts at once: $(on submit condor_q -allusers -af ProcId JobStatus RemoteHost 2>&1)"
wait_for 120 in_history "$C" 8 || fail "the jobs did not finish: $(on submit condor_q -allusers -af ProcId JobStatus HoldReason 2>&1)"
bad=$(on submit condor_history -af ProcId ExitCode JobStatus -constraint "ClusterId == $C" | awk '$2 != 0 || $3 != 4')
[ -z "$bad" ] || fail "exit codes or statuses: $bad"
hosts=
for p in 0 1 2 3 4 5 6 7; do
	f=$J/out.$p.txt
	[ -f "$f" ] || fail "no out.$p.txt"
	grep -q "^stdin: from-stdin$" "$f" || fail "out.$p.txt stdin: $(cat "$f")"
	grep -q "^input: hello$" "$f" || fail "out.$p.txt input: $(cat "$f")"
	h=$(sed -n 's/^host: //p' "$f")
	case "$h" in exec1.ks.test|exec2.ks.test) ;; *) fail "job $p ran on '$h'";; esac
	hosts="$hosts$h"$'\n'
	[ "$(cat "$J/err.$p.txt")" = "job $p on $h" ] || fail "err.$p.txt: $(cat "$J/err.$p.txt")"
	[ "$(cat "$J/result.$p.txt")" = HELLO ] || fail "result.$p.txt"
	[ ! -e "$J/other.$p.txt" ] || fail "other.$p.txt came back unasked"
	for g in out.$p.txt err.$p.txt result.$p.txt; do
		[ "$(stat -c %U "$J/$g")" = "$A" ] || fail "$g belongs to $(stat -c %U "$J/$g")"
	done
done
[ "$(sort -u <<<"${hosts%$'\n'}" | wc -l)" = 2 ] || fail "jobs ran on only: $(sort -u <<<"$hosts")"
for h in exec1 exec2; do
	grep -q "Job executing on host: <${IP[$h]}:" "$J/job.log" ||
		fail "no execution on $h in the event log: $(grep 'executing on' "$J/job.log")"
done
[ "$(grep -c '^005 ' "$J/job.log")" = 8 ] || fail "terminated events: $(grep -c '^005 ' "$J/job.log")"
sent=$(on submit condor_history -af BytesSent -constraint "ClusterId == $C && ProcId == 0")
recvd=$(on submit condor_history -af BytesRecvd -constraint "ClusterId == $C && ProcId == 0")
awk -v s="$sent" -v r="$recvd" 'BEGIN { exit !(s > 0 && r > 0) }' || fail "BytesSent $sent BytesRecvd $recvd"
# the execute hosts' sandboxes are gone
for h in exec1 exec2; do
	wait_for 10 sh -c "[ -z \"\$(ls -A '$T/$h/execute')\" ]" || fail "$h's sandboxes left: $(ls -A "$T/$h/execute")"
done
# the schedd knew the user by the local socket (the schedd listens on
# 10.214.0.2, an address of this host, not on loopback); the negotiator
# and the schedd came to it and to the startds over TLS with the pool's
# tokens
grep -q "authenticated $A@ks.test from a local socket with FS" "$T/submit/log/SchedLog" ||
	fail "the submitter not known by its local socket"
grep -q "authenticated condor@test.pool from ${IP[cm]} with TOKEN+TLS" "$T/submit/log/SchedLog" ||
	fail "the negotiator not authenticated over TLS"
for h in exec1 exec2; do
	grep -q "authenticated condor@test.pool from ${IP[submit]} with TOKEN+TLS" "$T/$h/log/StartLog" ||
		fail "the schedd not authenticated over TLS by $h"
done
echo "ok: 8 jobs ran on both execute hosts, files transferred both ways"

# --- the pool stops cleanly ---------------------------------------------
for i in "${!PIDS[@]}"; do
	kill -TERM "${PIDS[$i]}" 2>/dev/null
done
for i in 0 1 2 3; do
	wait "${PIDS[$i]}"
	rc=$?
	[ "$rc" = 0 ] || fail "${HOSTS[$i]}'s master exited with status $rc"
done
echo "multihost_jobs_test: all checks passed"
