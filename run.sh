#!/usr/bin/env bash
# The main job: set up, build and install kestrel, then start a personal
# pool (condor_master with the collector, negotiator, startd and schedd)
# in a directory of its own, show it with condor_status, and run an
# example submission through it: condor_submit, condor_q while it runs,
# the jobs' output and event log, condor_history.  The pool keeps
# running; the last lines say how to use and stop it.
#   KESTREL_POOL=DIR ./run.sh    puts the pool somewhere else (default ./pool)
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh build
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKS_WERROR=OFF >/dev/null
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

# Daemons started by root run as the account named condor (or CONDOR_IDS),
# as HTCondor's do: made here when missing, as HTCondor's packages make it,
# and given the pool's own directories (the master makes missing ones).
if [ "$(id -u)" = 0 ] && [ -z "${CONDOR_IDS:-}" ]; then
	if ! id condor >/dev/null 2>&1; then
		echo "== adding the system account condor, which the daemons run as"
		useradd --system --user-group --no-create-home \
			--home-dir /nonexistent --shell /usr/sbin/nologin condor
	fi
	for d in log spool; do
		[ -d "$pool/$d" ] && [ "$(stat -c %U "$pool/$d")" != condor ] &&
			chown -R condor: "$pool/$d"
	done
	[ -d "$pool/execute" ] && chown condor: "$pool/execute"
fi

if condor_status -master -af Name >/dev/null 2>&1; then
	echo "== a pool is already running in $pool"
else
	echo "== starting a personal pool in $pool"
	condor_master
	# wait (at most 30 s) until the master's, the slots' and the
	# schedd's ads have reached the collector
	for _ in $(seq 300); do
		[ -n "$(condor_status -master -af Name 2>/dev/null)" ] &&
			[ -n "$(condor_status -af Name 2>/dev/null)" ] &&
			[ -n "$(condor_status -schedd -af Name 2>/dev/null)" ] &&
			break
		sleep 0.1
	done
fi
echo "== condor_status"
condor_status
echo "== condor_status -any"
condor_status -any

# An example submission.  Run as root, the jobs run as nobody (never as
# root), so their directory is one anybody may write in.
ex=$pool/example
mkdir -p "$ex"
[ "$(id -u)" = 0 ] && chmod 1777 "$ex"
cat > "$ex/hello.sub" <<SUB
executable = /bin/sh
arguments  = "-c 'echo hello from job \$(Process); sleep 2'"
output     = $ex/hello.\$(Process).out
error      = $ex/hello.\$(Process).err
log        = $ex/hello.log
queue 3
SUB
rm -f "$ex"/hello.*.out "$ex"/hello.*.err "$ex/hello.log"
echo "== condor_submit $ex/hello.sub"
out=$(condor_submit "$ex/hello.sub")
echo "$out"
cluster=$(sed -n 's/.* submitted to cluster \([0-9]*\)\./\1/p' <<<"$out")
sleep 1
echo "== condor_q"
condor_q
# wait (at most 60 s) for the three jobs to leave the queue
for _ in $(seq 600); do
	[ -z "$(condor_q -af ClusterId -constraint "ClusterId == $cluster" 2>/dev/null)" ] && break
	sleep 0.1
done
echo "== condor_q -nobatch"
condor_q -nobatch
echo "== the jobs' output"
cat "$ex"/hello.*.out
echo "== condor_history $cluster"
condor_history "$cluster"
echo "== the event log $ex/hello.log (first events)"
head -n 12 "$ex/hello.log"
cat <<MSG

The pool keeps running.  To use it from a shell:
  export CONDOR_CONFIG=$CONDOR_CONFIG
  export PATH=$prefix/bin:$prefix/sbin:\$PATH
  condor_submit FILE; condor_q; condor_history; condor_rm ID; condor_status
Logs are in $pool/log.  Stop it with:  condor_off -master
MSG
