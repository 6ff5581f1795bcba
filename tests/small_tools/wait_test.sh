#!/usr/bin/env bash
# wait_test.sh BUILD: condor_wait against event logs written here, in
# HTCondor's text format: a finished log, a log that grows while
# condor_wait follows it (partial lines included), -num, a job id, -wait
# running out, a missing log, a bad job id, and a wait that uses no CPU.
set -u
B=$(cd "$1" && pwd)
W=$B/tools/condor_wait/condor_wait
D=$(mktemp -d /tmp/condor_wait_test.XXXXXX)
WPID=
cleanup() {
	[ -n "$WPID" ] && kill "$WPID" 2>/dev/null
	rm -rf "$D"
}
trap cleanup EXIT
export CONDOR_CONFIG=ONLY_ENV
fail() { echo "FAIL: $*"; [ -f "$D/out" ] && { echo "--- out:"; cat "$D/out"; }; exit 1; }

# ev TYPE CLUSTER PROC TEXT: one event as the schedd writes it
ev() {
	printf '%03d (%03d.%03d.000) 2026-11-23 10:11:12 %s\n' "$1" "$2" "$3" "$4"
	case $1 in
	1) printf '\tSlotName: slot1_1@host\n' ;;
	5) printf '\t(1) Normal termination (return value 0)\n' ;;
	9) printf '\tvia condor_rm (by user alice)\n' ;;
	esac
	printf '...\n'
}
submit() { ev 0 "$1" "$2" "Job submitted from host: <127.0.0.1:9618>"; }
execute() { ev 1 "$1" "$2" "Job executing on host: <127.0.0.1:9619>"; }
term() { ev 5 "$1" "$2" "Job terminated."; }
abort_() { ev 9 "$1" "$2" "Job was aborted."; }

# start ARGS...: condor_wait in the background, output in $D/out
start() {
	"$W" "$@" >"$D/out" 2>&1 &
	WPID=$!
}
# finish SECONDS: waits for the background condor_wait to exit (no
# longer than SECONDS) and sets $rc; fails if it does not
finish() {
	local until=$(( $(date +%s) + $1 ))
	while kill -0 "$WPID" 2>/dev/null; do
		[ "$(date +%s)" -ge "$until" ] && fail "condor_wait did not exit in $1 s"
		sleep 0.05
	done
	wait "$WPID"; rc=$?
	WPID=
}
# until_out TEXT: waits (at most 10 s) until the output holds TEXT
until_out() {
	local until=$(( $(date +%s) + 10 ))
	until grep -qF "$1" "$D/out"; do
		[ "$(date +%s)" -ge "$until" ] && fail "no '$1' in the output"
		kill -0 "$WPID" 2>/dev/null || fail "condor_wait ended early"
		sleep 0.05
	done
}
still_running() { kill -0 "$WPID" 2>/dev/null || fail "condor_wait ended: $1"; }

# --- a finished log -------------------------------------------------------
L=$D/done.log
{ submit 1 0; submit 1 1; execute 1 0; term 1 0; abort_ 1 1; } >"$L"
out=$("$W" "$L") || fail "finished log: status $?"
[ "$out" = "All jobs done." ] || fail "finished log: '$out'"
out=$("$W" -status "$L")
[ "$out" = "1.0.0 submitted
1.1.0 submitted
1.0.0 executing on host <127.0.0.1:9619>
1.0.0 completed
1.1.0 aborted
All jobs done." ] || fail "-status: '$out'"
out=$("$W" -echo "$L" 1.1)
[ "$out" = "$(submit 1 1; abort_ 1 1; echo 'All jobs done.')" ] || fail "-echo: '$out'"
echo "ok: a finished log"

# --- a log that grows while condor_wait follows it -----------------------
L=$D/grow.log
{ submit 2 0; submit 2 1; execute 2 0; } >"$L"
start -status "$L"
until_out "2.1.0 submitted"
until_out "2.0.0 executing on host"
# half an event, then the rest of its header, then the end of the first
# job: one job is still running
printf '005 (002.000.000) 2026-11-23 ' >>"$L"
still_running "after a partial line"
{ printf '10:11:12 Job terminated.\n\t(1) Normal termination (return value 0)\n'; printf '..'; } >>"$L"
still_running "after a partial event"
printf '.\n' >>"$L"
until_out "2.0.0 completed"
still_running "with job 2.1 still queued"
abort_ 2 1 >>"$L"
finish 10
[ "$rc" = 0 ] || fail "growing log: status $rc"
tail -1 "$D/out" | grep -qx "All jobs done." || fail "growing log: no All jobs done."
echo "ok: a growing log, partial lines included"

# --- -num -------------------------------------------------------------------
L=$D/num.log
{ submit 3 0; submit 3 1; submit 3 2; } >"$L"
start -num 2 "$L"
term 3 1 >>"$L"
still_running "-num 2 after one job"
abort_ 3 2 >>"$L"
finish 10
[ "$rc" = 0 ] && [ "$(cat "$D/out")" = "Specifed number of jobs (2) done." ] ||
	fail "-num 2: status $rc"
out=$("$W" -num 0 "$L" 2>&1); rc=$?
[ "$rc" = 1 ] && grep -qx -- "-num must be greater than zero" <<<"$out" || fail "-num 0: $rc '$out'"
echo "ok: -num"

# --- a job id --------------------------------------------------------------
L=$D/id.log
{ submit 4 0; submit 5 0; submit 5 1; term 4 0; } >"$L"
out=$("$W" "$L" 4) && [ "$out" = "All jobs done." ] || fail "cluster 4: '$out'"
start "$L" 5.1
term 5 0 >>"$L"
still_running "job 5.1 not ended, 5.0 did"
term 5 1 >>"$L"
finish 10
[ "$rc" = 0 ] && [ "$(cat "$D/out")" = "All jobs done." ] || fail "job 5.1: $rc"
out=$("$W" "$L" x.1 2>&1); rc=$?
[ "$rc" = 1 ] && [ "$out" = "Couldn't understand job number: x.1" ] || fail "bad id: $rc '$out'"
echo "ok: a job id"

# --- -wait runs out, without using the CPU --------------------------------
L=$D/wait.log
submit 6 0 >"$L"
TIMEFORMAT='%R %U %S'
t=$( { time "$W" -wait 2 "$L" >"$D/out" 2>&1; echo "rc=$?" >>"$D/out"; } 2>&1 )
grep -qx "Time expired." "$D/out" && grep -qx "rc=1" "$D/out" || fail "-wait 2"
read -r real user sys <<<"$t"
awk -v r="$real" 'BEGIN { exit !(r >= 1.9 && r < 4) }' || fail "-wait 2 took $real s"
awk -v u="$user" -v s="$sys" 'BEGIN { exit !(u + s < 0.3) }' ||
	fail "-wait 2 used $user s user and $sys s system time: busy waiting"
: >"$D/empty.log"
out=$("$W" -num 1 -wait 1 "$D/empty.log" 2>&1); rc=$?
[ "$rc" = 1 ] && [ "$out" = "This log does not mention any jobs!" ] || fail "empty log: $rc '$out'"
echo "ok: -wait"

# --- a missing log -----------------------------------------------------------
out=$("$W" "$D/missing.log" 2>&1); rc=$?
[ "$rc" = 1 ] && [ "$out" = "Couldn't open $D/missing.log: No such file or directory" ] ||
	fail "missing log: $rc '$out'"
out=$("$W" 2>&1); rc=$?
[ "$rc" = 1 ] && grep -q "^Use: .* \[options\] <log-file> \[job-number\]" <<<"$out" || fail "no log: $rc"
echo "ok: a missing log"
