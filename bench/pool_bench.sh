#!/usr/bin/env bash
# pool_bench.sh BUILD [JOBS]: figures of a personal pool, as
# ../shared/bench/README.md measures HTCondor's (4 static slots, the fast
# knobs of HTCondor's test framework), one JSON line each:
#   start_to_slots      condor_master start until condor_status lists 4 slots
#   start_to_first_job  start until a first /bin/true job has completed
#   true_jobs_100       100 /bin/true jobs, condor_submit to all done, and
#                       that time before and after the first job's start
#   submit_10000        condor_submit of one 10,000-job cluster (held)
#   q_af_10000, q_l_10000  condor_q -allusers -af ClusterId ProcId / -l over them
#   schedd_bytes_per_idle_job  the schedd's RSS growth per held job
#   submit_N, q_af_N    the same for one cluster of JOBS (default 100,000)
# A benchmark, not a test: it prints figures and passes no judgement.
set -eu
B=$(cd "$1" && pwd)
N=${2:-100000}
T=$(mktemp -d /tmp/pool_bench.XXXXXX)
chmod 755 "$T"
trap 'kill -QUIT $MP 2>/dev/null; sleep 0.3; pkill -9 -f "$T" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
export CONDOR_CONFIG=$T/condor_config
# (as root, the daemons run as root: CONDOR_IDS, docs/pool.md)
[ "$(id -u)" = 0 ] && export CONDOR_IDS=0.0
for d in "$B"/tools/*/; do PATH=$d:$PATH; done
export PATH
cat > "$CONDOR_CONFIG" <<CFG
LOCAL_DIR = $T
COLLECTOR_HOST = 127.0.0.1:0
MASTER = $B/master/condor_master
COLLECTOR = $B/collector/condor_collector
NEGOTIATOR = $B/negotiator/condor_negotiator
SCHEDD = $B/schedd/condor_schedd
STARTD = $B/startd/condor_startd
STARTER = $B/startd/condor_starter
DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR STARTD SCHEDD
NUM_CPUS = 4
NUM_SLOTS = 4
SLOT_TYPE_0_PARTITIONABLE = false
UPDATE_INTERVAL = 2
NEGOTIATOR_INTERVAL = 2
NEGOTIATOR_CYCLE_DELAY = 2
NEGOTIATOR_MIN_INTERVAL = 2
POLLING_INTERVAL = 2
SCHEDD_INTERVAL = 30
STARTER_UPDATE_INTERVAL = 2
RUNBENCHMARKS = 0
EXECUTE = $T/execute
CFG
mkdir -p "$T/execute" "$T/jobs"
chmod 1777 "$T/jobs"
now() { echo "$EPOCHREALTIME"; }
since() { echo "$(now) - $1" | bc; }
fig() { local v=$3; case $v in *.*) v=$(printf "%.3f" "$v");; esac; printf '{"bench": "pool", "op": "%s", "%s": %s}\n' "$1" "$2" "$v"; }
slots() { [ "$(condor_status -af Name 2>/dev/null | wc -l)" -ge 4 ]; }
wait_until() {
	local limit=$(( $(date +%s) + $1 )); shift
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -lt "$limit" ] || { echo "timed out: $*" >&2; exit 1; }
		sleep 0.02
	done
}
# Waiting for N terminated events costs the pool nothing: wait_log sleeps
# on inotify and reads only what the log gained (a shell loop that looked
# every 10 ms took about 4% of the two cores from the jobs it was timing).
wait_done() { "$B/bench/wait_log" "$1" 005 "$2" 120 || exit 1; }

t0=$(now)
"$B/master/condor_master" -f 2>/dev/null &
MP=$!
wait_until 30 slots
fig start_to_slots seconds "$(since "$t0")"
wait_until 30 sh -c 'condor_status -schedd -af Name | grep -q .'
cd "$T/jobs"
printf 'executable = /bin/true\nlog = first.log\nqueue\n' > first.sub
condor_submit first.sub >/dev/null
wait_done first.log 1
fig start_to_first_job seconds "$(since "$t0")"

printf 'executable = /bin/true\nlog = t100.log\nqueue 100\n' > t100.sub
t=$(now)
condor_submit t100.sub >/dev/null
started=$("$B/bench/wait_log" t100.log 005 100 120 001) || exit 1
done_at=$(now)
fig true_jobs_100 seconds "$(echo "$done_at - $t" | bc)"
# the same time split at the first job's start: the wait for a negotiation
# cycle (NEGOTIATOR_CYCLE_DELAY after the last one), then the 100 runs
fig true_jobs_100_until_first_start seconds "$(echo "$started - $t" | bc)"
fig true_jobs_100_from_first_start seconds "$(echo "$done_at - $started" | bc)"

rss() { awk '/^VmRSS/ {print $2 * 1024}' "/proc/$(pgrep -f "$B/schedd/condor_schedd" | head -1)/status"; }
r0=$(rss)
printf 'executable = /bin/true\nhold = true\nqueue 10000\n' > h10k.sub
t=$(now)
condor_submit h10k.sub >/dev/null
fig submit_10000 seconds "$(since "$t")"
t=$(now)
condor_q -allusers -af ClusterId ProcId >/dev/null
fig q_af_10000 seconds "$(since "$t")"
t=$(now)
condor_q -allusers -l >/dev/null
fig q_l_10000 seconds "$(since "$t")"
r1=$(rss)
fig schedd_bytes_per_idle_job bytes "$(( (r1 - r0) / 10000 ))"

printf 'executable = /bin/true\nhold = true\nqueue %s\n' "$N" > hN.sub
t=$(now)
condor_submit hN.sub >/dev/null
fig "submit_$N" seconds "$(since "$t")"
t=$(now)
condor_q -allusers -af ClusterId ProcId >/dev/null
fig "q_af_$((N + 10000))" seconds "$(since "$t")"
