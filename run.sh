#!/usr/bin/env bash
# The main job: set up, build, and (for now) evaluate ClassAd expressions
# with classad_eval on an example job and machine.
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh build
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >/dev/null

eval_=build/tools/classad_eval/classad_eval
echo "== expressions with no context"
$eval_ 'strcat("Hello, ", "pool")' '1 + 2 * 3' 'quantize(1000, {128})'
echo "== a job (MY) against a machine (TARGET)"
$eval_ -my-file etc/examples/job.ad -target-file etc/examples/machine.ad \
	-quiet 'MY.Requirements' 'TARGET.Requirements' 'MY.Rank' \
	'TARGET.Rank' 'RequestMemory' 'Cpus'
