#!/usr/bin/env bash
# bigattr_bench.sh BUILD [MIB]: what one large string attribute (MIB MiB,
# default 10) costs a collector and a schedd, one JSON line per step:
#   collector: advertise (condor_advertise of an ad holding it),
#              status_l (condor_status -l of that ad), invalidate
#   schedd:    submit (condor_submit of a held job with +Big), q_l
#              (condor_q -l), qedit (condor_qedit -edits of a second job),
#              rm (condor_rm of both, until the queue is empty)
# with the step's wall time, the daemon's peak resident memory during the
# step above its resident memory before it (peak_kib, from VmHWM reset
# through clear_refs), and its anonymous memory after the step above
# where it was before the first (kept_kib).  The daemons run in a pool of
# their own on loopback (master, collector, schedd), started as
# condor_master starts them.
# A benchmark, not a test: it prints figures and passes no judgement.
set -eu
B=$(cd "$1" && pwd)
MIB=${2:-10}
T=$(mktemp -d /tmp/bigattr_bench.XXXXXX)
chmod 755 "$T"
MP=
trap '[ -n "$MP" ] && kill -QUIT $MP 2>/dev/null; sleep 0.3; pkill -9 -f "$T" 2>/dev/null; rm -rf "$T"' EXIT
for d in "$B"/tools/*/; do PATH=$d:$PATH; done
export PATH
export CONDOR_CONFIG=$T/condor_config
[ "$(id -u)" = 0 ] && export CONDOR_IDS=${CONDOR_IDS:-0.0}
cat > "$CONDOR_CONFIG" <<CFG
LOCAL_DIR = $T
COLLECTOR_HOST = 127.0.0.1:0
MASTER = $B/master/condor_master
COLLECTOR = $B/collector/condor_collector
SCHEDD = $B/schedd/condor_schedd
DAEMON_LIST = MASTER COLLECTOR SCHEDD
UPDATE_INTERVAL = 2
CFG
mkdir -p "$T/jobs"
chmod 1777 "$T/jobs"
SIZE=$((MIB << 20))

big() {
	printf '%s = "' "$1"
	head -c "$SIZE" /dev/zero | tr '\0' "$2"
	printf '"\n'
}
kib() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"; }
now() { echo "$EPOCHREALTIME"; }
wait_until() {
	local limit=$(($(date +%s) + $1)); shift
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -lt "$limit" ] || { echo "timed out: $*" >&2; exit 1; }
		sleep 0.05
	done
}
# step DAEMON PID OP COMMAND...: runs the command and prints the figures
step() {
	local name=$1 pid=$2 op=$3; shift 3
	local rss t0 t1 peak
	echo 5 > "/proc/$pid/clear_refs" 2>/dev/null || true
	rss=$(kib "$pid" VmRSS)
	t0=$(now)
	"$@" >/dev/null
	t1=$(now)
	peak=$(($(kib "$pid" VmHWM) - rss))
	printf '{"bench": "bigattr", "daemon": "%s", "op": "%s", "mib": %d, "seconds": %.3f, "peak_kib": %d, "kept_kib": %d}\n' \
		"$name" "$op" "$MIB" "$(echo "$t1 - $t0" | bc)" \
		$((peak > 0 ? peak : 0)) \
		$(($(kib "$pid" RssAnon) - ${BASE[$name]}))
}
gone() { ! condor_status -af Name | grep -q big@host; }
empty() { [ -z "$(condor_q -allusers -af ClusterId)" ]; }
invalidate() { condor_advertise INVALIDATE_STARTD_ADS inv.ad && wait_until 30 gone; }
remove() { condor_rm -all && wait_until 30 empty; }

"$B/master/condor_master" -f 2>/dev/null &
MP=$!
wait_until 30 sh -c 'condor_status -schedd -af Name | grep -q .'
CP=$(pgrep -P "$MP" -f condor_collector)
SP=$(pgrep -P "$MP" -f condor_schedd)

# the same requests with small values first: what stays for good is in
# the base
cd "$T/jobs"
printf 'MyType = "Machine"\nName = "small@host"\nSmall = "x"\n' > small.ad
condor_advertise UPDATE_STARTD_AD small.ad >/dev/null
condor_status -l small@host >/dev/null
printf 'executable = /bin/true\nhold = true\nqueue\n' > small.sub
condor_submit small.sub >/dev/null
condor_qedit 1 Small '"x"' >/dev/null
condor_q -l >/dev/null
condor_rm -all >/dev/null
wait_until 30 empty
declare -A BASE=([collector]=$(kib "$CP" RssAnon) [schedd]=$(kib "$SP" RssAnon))

{ printf 'MyType = "Machine"\nName = "big@host"\n'; big Big x; } > big.ad
printf 'MyType = "Query"\nTargetType = "Machine"\nRequirements = Name == "big@host"\n' > inv.ad
step collector "$CP" advertise condor_advertise UPDATE_STARTD_AD big.ad
step collector "$CP" status_l condor_status -l big@host
step collector "$CP" invalidate invalidate

{ printf 'executable = /bin/true\nhold = true\n+'; big Big y; printf 'queue\n'; } > big.sub
big Big2 z > edits.ad
step schedd "$SP" submit condor_submit big.sub
step schedd "$SP" q_l condor_q -l
condor_submit small.sub >/dev/null
step schedd "$SP" qedit condor_qedit 3 -edits edits.ad
step schedd "$SP" rm remove
