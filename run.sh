#!/usr/bin/env bash
# The main job: set up, build and install kestrel, then start a personal
# pool (condor_master with the collector) in a directory of its own and
# show what it holds with condor_status -any.  The pool keeps running;
# the last lines say how to use and stop it.
#   KESTREL_POOL=DIR ./run.sh    puts the pool somewhere else (default ./pool)
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh build
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
prefix=$PWD/build/install
cmake --install build --prefix "$prefix" >/dev/null

pool=${KESTREL_POOL:-$PWD/pool}
mkdir -p "$pool"
pool=$(cd "$pool" && pwd)
if [ ! -f "$pool/condor_config" ]; then
	sed -e "s|@RELEASE_DIR@|$prefix|" -e "s|@LOCAL_DIR@|$pool|" \
		etc/condor_config.personal > "$pool/condor_config"
fi
export CONDOR_CONFIG=$pool/condor_config
export PATH=$prefix/bin:$prefix/sbin:$PATH

if condor_status -master -af Name >/dev/null 2>&1; then
	echo "== a pool is already running in $pool"
else
	echo "== starting a personal pool in $pool"
	condor_master
	# wait (at most 30 s) until the master's and the slots' ads have
	# reached the collector
	for _ in $(seq 300); do
		[ -n "$(condor_status -master -af Name 2>/dev/null)" ] &&
			[ -n "$(condor_status -af Name 2>/dev/null)" ] && break
		sleep 0.1
	done
fi
echo "== condor_status"
condor_status
echo "== condor_status -any"
condor_status -any
cat <<MSG

The pool keeps running.  To use it from a shell:
  export CONDOR_CONFIG=$CONDOR_CONFIG
  export PATH=$prefix/bin:$prefix/sbin:\$PATH
  condor_status; condor_status -any; condor_advertise ...; condor_reconfig
Logs are in $pool/log.  Stop it with:  condor_off -master
MSG
