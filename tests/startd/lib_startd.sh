# lib_startd.sh: what the tests of a pool with a startd share (sourced
# after tests/daemon/lib.sh, with B the build directory): a temporary
# pool directory, its configuration, starting and stopping it, and the
# startd's address and claim ids.

# pool_dir NAME: $T, a new directory for the pool, cleaned up (with
# whatever still runs from it) when the test ends; KEEP=1 keeps it.
pool_dir() {
	T=$(mktemp -d "/tmp/$1.XXXXXX")
	MASTER_PID=
	trap pool_cleanup EXIT
	export CONDOR_CONFIG=$T/condor_config
	mkdir -p "$T/execute"
}
pool_cleanup() {
	# the daemons' own fast exit (the master takes them with it), then
	# the hard kill of whatever is left
	if [ -n "$MASTER_PID" ]; then
		kill -QUIT "$MASTER_PID" 2>/dev/null
		local n=0
		while kill -0 "$MASTER_PID" 2>/dev/null && [ $n -lt 50 ]; do
			sleep 0.1
			n=$((n + 1))
		done
	fi
	pkill -9 -f "$T" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}

# startd_config: a master, collector and startd on loopback with short
# intervals, then the lines on standard input.
startd_config() {
	cat > "$CONDOR_CONFIG" <<CFG
LOCAL_DIR = $T
COLLECTOR_HOST = 127.0.0.1:0
SBIN = $B/collector
MASTER = $B/master/condor_master
STARTD = $B/startd/condor_startd
STARTER = $B/startd/condor_starter
DAEMON_LIST = MASTER COLLECTOR STARTD
MASTER_BACKOFF_CONSTANT = 1
UPDATE_INTERVAL = 1
POLLING_INTERVAL = 1
STARTD_DEBUG = D_FULLDEBUG
EXECUTE = $T/execute
CFG
	cat >> "$CONDOR_CONFIG"
}

# start_master: the pool runs; the daemons' own standard error (starters
# log there) goes to $T/StderrLog, which fail() shows with the logs.
start_master() {
	"$B/master/condor_master" -f 2>>"$T/StderrLog" &
	MASTER_PID=$!
}

# stop_pool: the pool ends (gracefully); each pool begins with fresh
# logs, so that a check sees only its own (the last StartLog is kept as
# $T/last_StartLog).
stop_pool() {
	kill -TERM "$MASTER_PID"
	wait "$MASTER_PID"
	MASTER_PID=
	cp "$T/log/StartLog" "$T/last_StartLog" 2>/dev/null
	rm -f "$T"/log/*Log
}

# The startd's address, and slot NAME's claim id, as it writes them.
addr() { head -1 "$T/log/.startd_address"; }
claim_id() { cat "$T/log/.startd_claim_id.$1"; }

# start_job SLOT AD TAG: claims SLOT (e.g. slot1) for the job ad AD and
# starts the job, ks_claim ($CL) waiting for its end in the background
# with its replies in $T/TAG.out; sets ID (the claim id), SP (the
# starter's pid) and JP (the job's).
start_job() {
	ID=$(claim_id "$1")
	"$CL" "$(addr)" REQUEST_CLAIM "$ID" "$2" >/dev/null || fail "$3: claim $1"
	"$CL" "$(addr)" ACTIVATE_CLAIM "$ID" "$2" > "$T/$3.out" &
	wait_for 10 grep -q "^StarterPid" "$T/$3.out" || fail "$3: no starter"
	SP=$(sed -n 's/^StarterPid = //p' "$T/$3.out")
	wait_for 10 pgrep -P "$SP" || fail "$3: no job process"
	JP=$(pgrep -P "$SP" | head -1)
}
