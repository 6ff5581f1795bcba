#!/usr/bin/env bash
# bench_test.sh BUILD: the startd's benchmarks, BENCHMARKS_JOBLIST jobs
# run OnDemand when RunBenchmarks becomes true in Unclaimed/Idle: the
# slot is Unclaimed/Benchmarking (transition 3) while any of them runs and
# back to Idle (4) once all have ended, with LastBenchmark set and their
# output in the slot ad: Mips and KFlops from condor_mips and
# condor_kflops ($(LIBEXEC), the build's), and a job of the test's own.
# Once done, RunBenchmarks still true does not start them again.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/lib_startd.sh"
ST=$B/tools/condor_status/condor_status

pool_dir ksbench
cat > "$T/slow.sh" <<'SH'
#!/bin/sh
# a benchmark that ends once the test lets it
echo start >> "$1.log"
while [ ! -e "$1" ]; do sleep 0.1; done
echo 'KsBench = 7'
SH
chmod 755 "$T/slow.sh"
startd_config <<CFG
LIBEXEC = $B/startd
BENCHMARKS_JOBLIST = mips kflops slow
BENCHMARKS_slow_EXECUTABLE = $T/slow.sh
BENCHMARKS_slow_ARGS = $T/go
RunBenchmarks = False
CFG

act() { "$ST" -af Activity 2>/dev/null; }
start_master
wait_for 20 sh -c "'$ST' -af State Activity | grep -qx 'Unclaimed Idle'" || fail "no idle slot: $("$ST" -af Name State Activity)"
[ "$("$ST" -af LastBenchmark)" = 0 ] || fail "LastBenchmark before any run: $("$ST" -af LastBenchmark)"
[ "$("$ST" -af Mips)" = undefined ] || fail "Mips before any run: $("$ST" -af Mips)"
[ -e "$T/go.log" ] && fail "a benchmark ran while RunBenchmarks was false"

# RunBenchmarks becomes true: HTCondor's default expression
cat >> "$CONDOR_CONFIG" <<CFG
RunBenchmarks = LastBenchmark == 0
CFG
"$B/tools/condor_daemonctl/condor_reconfig" >/dev/null || fail "condor_reconfig"
wait_for 20 sh -c "[ \"\$('$ST' -af Activity)\" = Benchmarking ]" || fail "no Benchmarking activity: $(act)"
grep -q "transition 3 Unclaimed/Idle -> Unclaimed/Benchmarking: RUNBENCHMARKS became true" "$T/log/StartLog" || fail "transition 3 not logged"
# condor_mips and condor_kflops run (one after the other) while slow waits
wait_for 20 sh -c "'$ST' -af Mips | grep -qx '[1-9][0-9]*'" || fail "no Mips from condor_mips: $("$ST" -af Mips KFlops)"
wait_for 20 sh -c "'$ST' -af KFlops | grep -qx '[1-9][0-9]*'" || fail "no KFlops from condor_kflops: $("$ST" -af Mips KFlops)"
wait_for 20 test -e "$T/go.log" || fail "the slow benchmark did not start"
[ "$(act)" = Benchmarking ] || fail "the slot left Benchmarking before the last benchmark ended: $(act)"
[ "$("$ST" -af LastBenchmark)" = 0 ] || fail "LastBenchmark set before the end: $("$ST" -af LastBenchmark)"

touch "$T/go"
wait_for 20 sh -c "[ \"\$('$ST' -af Activity)\" = Idle ]" || fail "the slot stayed $(act) after the benchmarks"
grep -q "transition 4 Unclaimed/Benchmarking -> Unclaimed/Idle: the benchmarks are done" "$T/log/StartLog" || fail "transition 4 not logged"
lb=$("$ST" -af LastBenchmark)
[ "$lb" -gt 0 ] 2>/dev/null || fail "LastBenchmark not set: $lb"
[ "$("$ST" -af KsBench)" = 7 ] || fail "the slow benchmark's output is missing: $("$ST" -af KsBench)"

# a benchmark run ends the activity for good: RunBenchmarks true again
# does not start another until the slot changes activity
cat >> "$CONDOR_CONFIG" <<CFG
RunBenchmarks = True
CFG
"$B/tools/condor_daemonctl/condor_reconfig" >/dev/null || fail "condor_reconfig 2"
wait_for 20 grep -q "reconfigured" "$T/log/StartLog" || fail "no reconfig"
wait_for 20 sh -c "'$ST' -af RunBenchmarks | grep -qx true" || fail "RunBenchmarks not true: $("$ST" -af RunBenchmarks)"
[ "$(grep -c 'transition 3 ' "$T/log/StartLog")" = 1 ] || fail "the benchmarks ran again at once"
[ "$(wc -l < "$T/go.log")" = 1 ] || fail "the slow benchmark ran again"
stop_pool
echo "PASS: benchmarks"
