#!/usr/bin/env bash
# running_bench.sh BUILD [-n "200 2000"] [-w SECONDS] [-c LINE]... [-s]: the schedd
# while many jobs run, as ../shared/bench/README.md measures HTCondor's
# ("Running jobs", "A stopped peer").  One JSON line per figure set.
#
# For each N (default 200 and 2000): a personal pool on 127.0.0.1 with N
# static slots (NUM_CPUS = N), the fast knobs of pool_bench.sh, one
# cluster of N /bin/sleep jobs; once all N run, a window of -w seconds
# (default 60) in which it measures
#   schedd_pss_mb          the schedd's proportional set size (smaps_rollup)
#   schedd_cpu_s_per_min   the schedd's user+system CPU seconds in the
#                          window, per minute (answering the queries
#                          below included)
#   cpu_ms_per_job_min     the same in milliseconds per running job
#   condor_q_max_s, condor_q_median_s  condor_q -af ClusterId ProcId
#                          JobStatus, asked every 0.2 s through the window
#   startd_pss_mb, starters_pss_mb  the execute side's, for information
# -c adds a line to the pool's configuration (after the fast knobs).  At
# 2000 slots the fast knobs keep the startd from starting jobs in time:
# every starter report (STARTER_UPDATE_INTERVAL, 2 s), every update of
# its 4000 ads (UPDATE_INTERVAL) and, in each poll (POLLING_INTERVAL),
# every busy slot's ad reads all of /proc for the host's load and the
# jobs' usage (startd/jobload.c); the schedd's job starts wait for it and
# time out.  -c 'UPDATE_INTERVAL = 300' -c 'POLLING_INTERVAL = 3600'
# -c 'STARTER_UPDATE_INTERVAL = 300' get past that.
# With -s instead: 4 slots, 4 sleep jobs running, the startd stopped
# (SIGSTOP), condor_rm of two of them, and condor_q every 0.2 s for 8 s
# from condor_rm's start: the slowest answer (and condor_rm's own time).
# A benchmark, not a test: it prints figures and passes no judgement.
set -eu
B=$(cd "$1" && pwd)
shift
NS="200 2000"
WINDOW=60
EXTRA=
STOPPED=
while getopts n:w:c:s o; do
	case $o in
	n) NS=$OPTARG ;;
	w) WINDOW=$OPTARG ;;
	c) EXTRA+=$OPTARG$'\n' ;;
	s) STOPPED=1 ;;
	*) echo "usage: running_bench.sh BUILD [-n \"N...\"] [-w SECONDS] [-c LINE]... [-s]" >&2; exit 2 ;;
	esac
done
for d in "$B"/tools/*/; do PATH=$d:$PATH; done
export PATH
[ "$(id -u)" = 0 ] && export CONDOR_IDS=0.0
# 2000 jobs: the schedd's connections to the startd and the starters'
# to it, and the startd's to its starters, each a descriptor
ulimit -n "$(ulimit -Hn)"
HZ=$(getconf CLK_TCK)

T=
MP=
STARTD=
PIDS=
now() { echo "$EPOCHREALTIME"; }
# descendants PID: every process under PID (ps's parent links)
descendants() {
	ps -e -o pid=,ppid= | awk -v root="$1" '
		{ parent[$1] = $2 }
		END { for (p in parent) { q = p
			while (q in parent && q != root && q > 1) q = parent[q]
			if (q == root && p != root) print p } }'
}
cleanup() {
	# whatever fails here, the rest is still to be done
	local -
	set +e
	[ -n "$STARTD" ] && { kill -CONT "$STARTD" 2>/dev/null || true; }
	if [ -n "$MP" ]; then
		PIDS=$(descendants "$MP")
		kill -QUIT "$MP" 2>/dev/null
		local limit=$(( $(date +%s) + 30 ))
		while kill -0 "$MP" 2>/dev/null && [ "$(date +%s)" -lt "$limit" ]; do
			sleep 0.1
		done
		kill -9 "$MP" $PIDS 2>/dev/null || true
		wait "$MP" 2>/dev/null || true
	fi
	MP= STARTD=
	if [ -n "$T" ] && [ -z "${KEEP:-}" ]; then rm -rf "$T"; fi
	T=
	return 0
}
trap cleanup EXIT
trap 'exit 1' INT TERM

wait_until() {
	local limit=$(( $(date +%s) + $1 )); shift
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -lt "$limit" ] || { echo "timed out: $*" >&2; return 1; }
		sleep 0.5
	done
}

# start_pool SLOTS: a pool of its own in a new temp dir
start_pool() {
	local n=$1
	T=$(mktemp -d /tmp/running_bench.XXXXXX)
	chmod 755 "$T"
	export CONDOR_CONFIG=$T/condor_config
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
NUM_CPUS = $n
NUM_SLOTS = $n
SLOT_TYPE_0_PARTITIONABLE = false
MEMORY = $(( n * 64 ))
MAX_JOBS_RUNNING = $(( n + 100 ))
UPDATE_INTERVAL = 2
NEGOTIATOR_INTERVAL = 2
NEGOTIATOR_CYCLE_DELAY = 2
NEGOTIATOR_MIN_INTERVAL = 2
POLLING_INTERVAL = 2
SCHEDD_INTERVAL = 30
STARTER_UPDATE_INTERVAL = 2
RUNBENCHMARKS = 0
EXECUTE = $T/execute
$EXTRA
CFG
	mkdir -p "$T/execute" "$T/jobs"
	chmod 1777 "$T/jobs"
	"$B/master/condor_master" -f 2>/dev/null &
	MP=$!
	wait_until 120 sh -c "[ \$(condor_status -af Name 2>/dev/null | wc -l) -ge $n ]" ||
		{ echo "the startd did not advertise $n slots" >&2; return 1; }
	wait_until 60 sh -c 'condor_status -schedd -af Name | grep -q .'
}
# daemon NAME: the pid of the master's child running NAME
daemon() { pgrep -P "$MP" -f "/$1( |\$)" | head -1; }
# submit_sleeps N SECONDS
submit_sleeps() {
	printf 'executable = /bin/sleep\narguments = %s\nrequest_memory = 1\nrequest_disk = 1\nlog = sleep.log\nqueue %s\n' \
		"$2" "$1" > "$T/jobs/sleep.sub"
	(cd "$T/jobs" && condor_submit sleep.sub >/dev/null 2>&1) ||
		{ echo "condor_submit failed" >&2; return 1; }
}
running() { condor_q -af JobStatus 2>/dev/null | grep -c '^2$' || true; }
all_running() { [ "$(running)" -ge "$1" ]; }
pss_kb() {
	local p t=0 v
	for p in "$@"; do
		v=$(awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null) || v=
		t=$(( t + ${v:-0} ))
	done
	echo "$t"
}
cpu_ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'; }
mb() { echo "scale=1; $1 / 1024" | bc; }
# us: the time in microseconds (no process started: the sampling loops
# must not cost what they measure)
us() { US=${EPOCHREALTIME/./}; }
# sample_q SECONDS: condor_q -af ClusterId ProcId JobStatus every 0.2 s for
# SECONDS; each answer's time in microseconds into LAT, failed or timed
# out (60 s) ones counted in QFAIL
sample_q() {
	local end next t0 rest
	us; end=$(( US + $1 * 1000000 )); next=$US
	LAT=() QFAIL=0
	while us; [ "$US" -lt "$end" ]; do
		t0=$US
		timeout 60 condor_q -af ClusterId ProcId JobStatus >/dev/null 2>&1 ||
			QFAIL=$((QFAIL + 1))
		us
		LAT+=($(( US - t0 )))
		next=$(( next + 200000 ))
		rest=$(( next - US ))
		if [ "$rest" -gt 0 ]; then sleep "$(printf '0.%06d' "$rest")"; fi
	done
}
# seconds of the largest and of the median of LAT
lat_max() { printf '%s\n' "${LAT[@]}" | sort -n | tail -1 | awk '{printf "%.3f", $1 / 1e6}'; }
lat_median() { printf '%s\n' "${LAT[@]}" | sort -n | awk '{v[NR] = $1} END {printf "%.3f", v[int((NR + 1) / 2)] / 1e6}'; }

run_n() {
	local n=$1 t0 started sched c0 c1 w0 w1
	start_pool "$n"
	sched=$(daemon condor_schedd)
	STARTD=$(daemon condor_startd)
	t0=$(now)
	submit_sleeps "$n" 100000
	# a start that timed out leaves its slot claimed for a while: at
	# 2000 slots, a job or two may wait for it, and the window then
	# measures the jobs running (running_at_start says how many)
	local at_start
	if ! wait_until $(( 300 + n / 2 )) all_running "$n"; then
		at_start=$(running)
		[ "$at_start" -ge $(( n * 99 / 100 )) ] ||
			{ echo "only $at_start of $n jobs ran" >&2; return 1; }
		echo "measuring with $at_start of $n jobs running" >&2
	fi
	at_start=$(running)
	started=$(echo "$(now) - $t0" | bc)
	w0=$(now)
	c0=$(cpu_ticks "$sched")
	sample_q "$WINDOW"
	c1=$(cpu_ticks "$sched")
	w1=$(now)
	local still starters cpu_min extra=${EXTRA%$'\n'}
	extra=${extra//$'\n'/; }
	extra=${extra//\"/\\\"}
	still=$(running)
	starters=$(pgrep -P "$STARTD" | tr '\n' ' ')
	cpu_min=$(echo "scale=3; ($c1 - $c0) / $HZ * 60 / ($w1 - $w0)" | bc)
	printf '{"bench": "running", "n": %s, "extra_config": "%s", "seconds_to_all_running": %.1f, "running_at_start": %s, "running_at_end": %s, "window_s": %.1f, "schedd_pss_mb": %s, "schedd_cpu_s_per_min": %.2f, "cpu_ms_per_job_min": %.3f, "condor_q_samples": %s, "condor_q_failed": %s, "condor_q_max_s": %s, "condor_q_median_s": %s, "startd_pss_mb": %s, "starters": %s, "starters_pss_mb": %s}\n' \
		"$n" "$extra" "$started" "$at_start" "$still" "$(echo "$w1 - $w0" | bc)" \
		"$(mb "$(pss_kb "$sched")")" "$cpu_min" \
		"$(echo "scale=6; $cpu_min * 1000 / $at_start" | bc)" "${#LAT[@]}" "$QFAIL" \
		"$(lat_max)" "$(lat_median)" \
		"$(mb "$(pss_kb "$STARTD")")" "$(wc -w <<<"$starters")" \
		"$(mb "$(pss_kb $starters)")"
	cleanup
}

run_stopped() {
	local rm_s ids
	start_pool 4
	STARTD=$(daemon condor_startd)
	submit_sleeps 4 100000
	wait_until 120 all_running 4 || { echo "the 4 jobs did not all run" >&2; return 1; }
	kill -STOP "$STARTD"
	ids=$(condor_q -af ClusterId ProcId | head -2 | tr ' ' . | tr '\n' ' ')
	# condor_rm in the background: condor_q's samples start with it, so
	# that a schedd busy with the stopped startd on condor_rm's behalf
	# shows in them (HTCondor's condor_rm returns at once)
	# shellcheck disable=SC2086
	( us; t0=$US; timeout 60 condor_rm $ids >/dev/null 2>&1 || echo "condor_rm failed" >&2
	  us; echo $(( US - t0 )) > "$T/rm_us" ) &
	local rm_pid=$!
	sample_q 8
	wait "$rm_pid" || true
	rm_s=$(awk '{printf "%.3f", $1 / 1e6}' "$T/rm_us")
	printf '{"bench": "running", "op": "stopped_peer", "condor_rm_s": %.3f, "condor_q_samples": %s, "condor_q_failed": %s, "condor_q_max_s": %s, "condor_q_median_s": %s}\n' \
		"$rm_s" "${#LAT[@]}" "$QFAIL" "$(lat_max)" "$(lat_median)"
	cleanup
}

if [ -n "$STOPPED" ]; then
	run_stopped
else
	for n in $NS; do run_n "$n"; done
fi
