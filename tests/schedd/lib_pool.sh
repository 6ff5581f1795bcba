# lib_pool.sh: what the tests of a whole personal pool share (sourced
# after tests/daemon/lib.sh and tests/startd/lib_startd.sh, with B the
# build directory and T the pool's directory): its configuration, running
# a command as a job's owner, and reading the queue and the history.

# tools_on_path: the build's commands (condor_submit, condor_q, ...)
# first on PATH, found as a user finds them.
tools_on_path() {
	local d
	for d in "$B"/tools/*/; do PATH=$d:$PATH; done
	export PATH
}

# job_pool_config: a master, collector, negotiator, startd and schedd on
# loopback with short intervals, then the lines on standard input.
job_pool_config() {
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
MASTER_BACKOFF_CONSTANT = 1
UPDATE_INTERVAL = 1
POLLING_INTERVAL = 1
NEGOTIATOR_INTERVAL = 1
NEGOTIATOR_CYCLE_DELAY = 1
SCHEDD_INTERVAL = 1
EXECUTE = $T/execute
SCHEDD_DEBUG = D_FULLDEBUG
# jobs that ask for it are suspended 2 s into their run and continued at
# 4 s; their memory is reported a second in
WANT_SUSPEND = TARGET.KsSuspendTest =?= true
SUSPEND = TARGET.KsSuspendTest =?= true && (time() - JobStart) >= 2 && (time() - JobStart) < 4
CONTINUE = (time() - JobStart) >= 4
STARTER_INITIAL_UPDATE_INTERVAL = 1
# jobs that ask not to start find no slot
START = TARGET.KsNoStart =!= true
CFG
	cat >> "$CONDOR_CONFIG"
}

# as USER COMMAND...: runs the command as USER (as root), or as ourselves
as() {
	local u=$1; shift
	if [ "$(id -u)" = 0 ]; then
		runuser -u "$u" -- env CONDOR_CONFIG="$CONDOR_CONFIG" PATH="$PATH" "$@"
	else
		"$@"
	fi
}

# queue_empty: no job of anybody's is in the queue
queue_empty() { [ -z "$(condor_q -allusers -af ClusterId 2>/dev/null)" ]; }
# in_history CLUSTER N: the history holds N jobs of CLUSTER
in_history() {
	[ "$(condor_history -af ProcId -constraint "ClusterId == $1" 2>/dev/null | wc -l)" = "$2" ]
}
# status_is ID ST: condor_q says job ID has JobStatus ST
status_is() { [ "$(condor_q -allusers "$1" -af JobStatus 2>/dev/null)" = "$2" ]; }
# cluster_of OUTPUT: the cluster id condor_submit printed
cluster_of() { sed -n 's/.* submitted to cluster \([0-9]*\)\./\1/p' <<<"$1"; }

# job_account NAME: sets A to the account the test's jobs belong to: as
# root, NAME, made for the test if no such account exists and removed
# once the pool is gone; otherwise ourselves.
job_account() {
	if [ "$(id -u)" != 0 ]; then
		A=$(id -un)
		return
	fi
	A=$1
	KS_MADE_ACCOUNT=
	if ! id "$A" >/dev/null 2>&1; then
		useradd -M -r -s /bin/sh "$A" || fail "cannot add user $A"
		KS_MADE_ACCOUNT=$A
	fi
	# the account goes once nothing of it runs any more
	trap 'pool_cleanup; [ -n "$KS_MADE_ACCOUNT" ] && userdel "$KS_MADE_ACCOUNT" 2>/dev/null' EXIT
}
