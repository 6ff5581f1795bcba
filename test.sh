#!/usr/bin/env bash
# The whole test suite: set up, build, and run the tests three ways --
# a normal build, a build with AddressSanitizer and UBSan (and a short
# fuzzing run with clang's libFuzzer), and valgrind over the unit tests
# and the reference vectors -- then build the other build types.  Every
# build here treats warnings as errors (KS_WERROR).
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh test
jobs=$(nproc)

echo "== build and test"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKS_WERROR=ON >/dev/null
cmake --build build -j"$jobs" >/dev/null
ctest --test-dir build --output-on-failure -j"$jobs"

echo "== AddressSanitizer, UBSan and fuzzing (clang)"
cmake -S . -B build-asan -DCMAKE_C_COMPILER=clang -DKS_SANITIZE=ON \
	-DKS_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKS_WERROR=ON >/dev/null
cmake --build build-asan -j"$jobs" >/dev/null
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	ctest --test-dir build-asan --output-on-failure -j"$jobs"

echo "== valgrind"
vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
for t in build/tests/classad/test_classad_* build/tests/config/test_config \
	build/tests/net/test_net build/tests/log/test_log build/tests/userlog/test_userlog build/tests/token/test_token \
	build/tests/collector/test_updstats build/tests/collector/test_store \
	build/tests/store/test_ks_store build/tests/xfer/test_xfer \
	build/tests/negotiator/test_ng_accountant build/tests/negotiator/test_ng_match \
	build/tests/negotiator/test_ng_share build/tests/negotiator/test_ng_limits \
	build/tests/negotiator/test_ng_groups build/tests/negotiator/test_ng_pslot_preempt \
	build/tests/queue_tools/test_queue_tools \
	build/tests/daemon/test_loop \
	build/tests/daemon/test_call \
	build/tests/startd/test_state build/tests/startd/test_layout \
	build/tests/startd/test_starter_args build/tests/startd/test_passwd_files build/tests/startd/test_sr_end \
	build/tests/tools_startd/test_vacate_drain_args; do
	[ -x "$t" ] && $vg "$t" >/dev/null
done
$vg build/tests/classad/classad_vectors tests/vectors/classad/*.jsonl \
	| tail -n 1
echo "== the other build types compile without a warning"
for type in Debug Release MinSizeRel; do
	cmake -S . -B "build-$type" -DCMAKE_BUILD_TYPE=$type -DKS_WERROR=ON >/dev/null
	cmake --build "build-$type" -j"$jobs" >/dev/null
	echo "$type: built"
done
echo "== all tests passed"
