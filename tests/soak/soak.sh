#!/usr/bin/env bash
# soak.sh BUILD [JOBS] [SECONDS]: a personal pool with 8 slots runs JOBS
# short jobs (200) while a driver kills its daemons with SIGKILL at
# random moments for SECONDS (100): the schedd, the startd, the
# negotiator, the collector and the master (the others the master
# restarts; the master is started again by hand, as an operator would).
# Each job appends a line to its own file when it starts and when it
# ends, so that what really ran can be counted against the queue's
# history and the jobs' event log.  At the end it prints, as one JSON
# line: the jobs completed exactly once, lost (not completed in the
# history, or never ended), run twice (ended more than once), and runs
# missing from the log (starts without an execute event), with the kills
# made; any of the last three above 0 fails.
#   tests/soak/soak.sh build               the short form (the suite's)
#   tests/soak/soak.sh build 2000 900      a long form, by hand
set -u
B=$(cd "$1" && pwd)
N=${2:-200}
DURATION=${3:-100}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path

pool_dir soak
chmod 755 "$T"
J=$T/jobs
mkdir -p "$J/runs" && chmod -R 1777 "$J"
cat > "$J/job.sh" <<'SH'
#!/bin/sh
# job.sh ID SECONDS: one execution of job ID, recorded at its start and
# at its end
echo "start $$" >> "$1"
sleep "$2"
echo "end $$" >> "$1"
SH
chmod 755 "$J/job.sh"
# A daemon killed again and again is restarted within 10 s (the master's
# back-off would otherwise grow to an hour, as HTCondor's does).
job_pool_config <<CFG
NUM_CPUS = 8
ALIVE_INTERVAL = 10
MASTER_BACKOFF_CEILING = 10
CFG
start_master
wait_for 30 sh -c 'condor_status -af Name | grep -q slot1' || fail "no slots"
wait_for 30 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"

# the jobs, sleeping 1 to 3 s; a lease of 2 minutes (HTCondor's default
# is 40), long enough for a schedd restarted several times over to come
# back to its jobs, short enough that a claim a killed schedd left
# behind does not keep its slot for long
for i in $(seq 0 $((N - 1))); do echo $((1 + i % 3)); done > "$J/sleeps"
cat > "$J/soak.sub" <<SUB
executable = $J/job.sh
arguments = $J/runs/\$(Process) \$(S)
log = $J/soak.log
job_lease_duration = 120
queue S from $J/sleeps
SUB
out=$(condor_submit "$J/soak.sub") || fail "condor_submit: $out"
C=$(cluster_of "$out")
[ -n "$C" ] || fail "no cluster: $out"

# --- the driver --------------------------------------------------------
declare -A kills=([schedd]=0 [startd]=0 [negotiator]=0 [collector]=0 [master]=0)
victims=(schedd schedd schedd startd startd negotiator collector master)
until=$(( $(date +%s) + DURATION ))
while [ "$(date +%s)" -lt "$until" ]; do
	sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.1f", 1 + (r % 40) / 10 }')"
	v=${victims[$((RANDOM % ${#victims[@]}))]}
	if [ "$v" = master ]; then
		old=$MASTER_PID
		kill -9 "$old" 2>/dev/null
		wait "$old" 2>/dev/null
		# its daemons see it gone and end; then it is started again
		wait_for 30 sh -c "! pgrep -f '$T/.*condor_(schedd|startd|negotiator|collector)' >/dev/null" ||
			fail "the daemons of a killed master did not end"
		start_master
	else
		p=$(pgrep -P "$MASTER_PID" -f "condor_$v" | head -1)
		[ -n "$p" ] || continue
		kill -9 "$p"
	fi
	kills[$v]=$((kills[$v] + 1))
done

# --- the end: every job done, then counted -------------------------------
done_all() { [ "$(condor_history -af ProcId -constraint "ClusterId == $C && JobStatus == 4" 2>/dev/null | wc -l)" -ge "$N" ]; }
# jobs not done in 10 minutes count as lost; what became of them is shown
wait_for 600 done_all ||
	condor_q -af:j JobStatus NumJobStarts HoldReason -constraint "ClusterId == $C" | head -20
once=0 lost=0 twice=0 missing=0
declare -A completed=()
while read -r p; do completed[$p]=1; done < <(condor_history -af ProcId -constraint "ClusterId == $C && JobStatus == 4")
for i in $(seq 0 $((N - 1))); do
	f=$J/runs/$i
	starts=$(grep -c '^start' "$f" 2>/dev/null)
	ends=$(grep -c '^end' "$f" 2>/dev/null)
	starts=${starts:-0} ends=${ends:-0}
	id=$(printf '(%03d.%03d.000)' "$C" "$i")
	execs=$(grep -F "$id" "$J/soak.log" | grep -c '^001 ')
	bad=
	if [ "$ends" -gt 1 ]; then
		twice=$((twice + 1)) bad=1
	elif [ "$ends" = 1 ] && [ -n "${completed[$i]:-}" ]; then
		once=$((once + 1))
	else
		lost=$((lost + 1)) bad=1
	fi
	[ "$starts" -gt "$execs" ] && missing=$((missing + starts - execs)) bad=1
	# what each job that failed did, for whoever reads a failed run
	[ -n "$bad" ] && echo "job $C.$i: $(tr '\n' ' ' < "$f" 2>/dev/null)| events" \
		"$(grep -F "$id" "$J/soak.log" | cut -c1-3 | tr '\n' ' ')" >&2 &&
		grep -hE "job $C\.$i( |:)" "$T"/log/SchedLog* | tail -n 12 >&2
done
printf '{"soak":"kestrel","jobs":%d,"seconds":%d,"completed_once":%d,"lost":%d,"run_twice":%d,"runs_missing_from_log":%d,"kills":{"schedd":%d,"startd":%d,"negotiator":%d,"collector":%d,"master":%d}}\n' \
	"$N" "$DURATION" "$once" "$lost" "$twice" "$missing" \
	"${kills[schedd]}" "${kills[startd]}" "${kills[negotiator]}" "${kills[collector]}" "${kills[master]}"
[ "$lost" = 0 ] && [ "$twice" = 0 ] && [ "$missing" = 0 ] || fail "jobs lost, run twice or missing from the log"
