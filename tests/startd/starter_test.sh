#!/usr/bin/env bash
# The real condor_starter on small jobs in a temporary directory: output,
# exit codes, signal deaths, environment, Iwd, In, suspend and continue,
# soft kill with KillSig, hard kill, the startd's death (the job's whole
# family killed), leftover processes, missing executable, bad ads and
# command lines, sandbox removed and kept, and (as root) the account the
# job runs as.
# Usage: starter_test.sh BUILD_DIR
set -u
B=$1
S=$B/startd/condor_starter
T=$(mktemp -d /tmp/ksstarter.XXXXXX)
NEWUSER=
NEWGROUP=
BG=
ORPHANS=
cleanup() {
	[ -n "$BG" ] && kill -KILL "$BG" 2>/dev/null
	# what a starter that outlived its startd may have left
	[ -n "$ORPHANS" ] && kill -KILL $ORPHANS 2>/dev/null
	[ -n "$NEWUSER" ] && userdel "$NEWUSER" 2>/dev/null
	[ -n "$NEWGROUP" ] && groupdel "$NEWGROUP" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
# Everything under $T must be reachable by "nobody", whom a root
# starter runs most of these jobs as.
chmod 755 "$T"
mkdir -m 755 "$T/execute"
mkdir -m 1777 "$T/iwd"
export CONDOR_CONFIG=ONLY_ENV
ROOT=false
[ "$(id -u)" = 0 ] && ROOT=true
NOBODY_UID=$(id -u nobody 2>/dev/null || echo none)

fail() {
	echo "FAIL: $*"
	for f in "$T"/*.log; do
		[ -f "$f" ] || continue
		echo "== $f"
		tail -15 "$f"
	done
	for f in "$T"/*.result; do
		[ -f "$f" ] || continue
		echo "== $f"
		cat "$f"
	done
	# again at the end, which is what a truncated report keeps
	echo "FAIL: $*"
	exit 1
}
pass() { echo "ok: $*"; }

# wait_for SECONDS COMMAND...: polls until the command succeeds.
wait_for() {
	local until=$(( $(date +%s) + $1 )); shift
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -ge "$until" ] && return 1
		sleep 0.05
	done
}

# attr NAME FILE: the value of NAME in a result ad, quotes stripped.
attr() {
	sed -n "s/^$1 = //p" "$2" | sed 's/^"\(.*\)"$/\1/'
}

# expect NAME RESULT VALUE: attribute NAME of $T/RESULT is VALUE.
expect() {
	local got
	got=$(attr "$1" "$T/$2")
	[ "$got" = "$3" ] || fail "$2: $1 is '$got', expected '$3'"
}

# run NAME [ARGS...]: writes the ad on standard input to NAME.ad and runs
# the starter on it to the end (NAME.result, NAME.log, NAME.rc).
run() {
	local name=$1; shift
	cat > "$T/$name.ad"
	timeout 60 "$S" -job "$T/$name.ad" -sandbox-root "$T/execute" \
		-log "$T/$name.log" "$@" > "$T/$name.result"
	echo $? > "$T/$name.rc"
	[ "$(cat "$T/$name.rc")" = 0 ] || fail "$name: starter exited $(cat "$T/$name.rc")"
	[ "$(grep -c '^JobExitReason = ' "$T/$name.result")" = 1 ] ||
		fail "$name: not one result ad"
}

# start NAME [ARGS...]: like run, in the background ($BG is the starter).
start() {
	local name=$1; shift
	cat > "$T/$name.ad"
	"$S" -job "$T/$name.ad" -sandbox-root "$T/execute" \
		-log "$T/$name.log" "$@" > "$T/$name.result" &
	BG=$!
}

# finish: waits for the background starter to end.
finish() {
	wait_for 20 sh -c "! kill -0 $BG" || fail "the starter did not end"
	wait "$BG"
	local rc=$?
	BG=
	[ "$rc" = 0 ] || fail "background starter exited $rc"
}

# stopped_group PGID: every process of the job's group is stopped (T),
# but for a shell that had vfork()ed when the stop came: it waits,
# uninterruptibly (D), for a child stopped before its exec.
stopped_group() {
	local states
	states=$(group_states "$1" | sort -u | tr -d '\n')
	[ "$states" = T ] || [ "$states" = DT ]
}
# group_states PGID: the state letter of each process in the group.
group_states() { ps -e -o pgid=,stat= | awk -v g="$1" '$1 == g {print substr($2, 1, 1)}'; }
group_ps() { ps -e -o pgid=,pid=,ppid=,stat=,cmd= | awk -v g="$1" '$1 == g' | tr '\n' ';'; }

sandbox_empty() { [ -z "$(ls -A "$T/execute")" ]; }

[ -x "$S" ] || fail "no starter at $S"

# ---- /bin/echo with arguments (new syntax), output to Out ----
run echo <<EOF
ClusterId = 4
ProcId = 2
Cmd = "/bin/echo"
Arguments = "hello 'big world' it''s ''"
Iwd = "$T/iwd"
ShouldTransferFiles = "NO"
Out = "echo.out"
EOF
expect JobExitReason echo.result exited
expect ExitCode echo.result 0
expect ExitBySignal echo.result false
[ "$(cat "$T/iwd/echo.out")" = "hello big world its " ] ||
	fail "echo output: '$(cat "$T/iwd/echo.out")'"
sandbox_empty || fail "sandbox left behind: $(ls "$T/execute")"
for a in JobPid JobStartDate JobCurrentStartDate CompletionDate \
	 RemoteUserCpu RemoteSysCpu RemoteWallClockTime ImageSize \
	 ResidentSetSize CumulativeSuspensionTime JobDuration; do
	[ -n "$(attr $a "$T/echo.result")" ] || fail "echo: no $a"
done
[ "$(attr ResidentSetSize "$T/echo.result")" -gt 0 ] || fail "echo: no memory use"
grep -q "job 4.2: sandbox .* removed" "$T/echo.log" || fail "echo: log"
pass "echo with arguments, Out, result attributes, sandbox removed"

# Old-syntax Args when there is no Arguments: no quoting at all.
run args1 <<EOF
Cmd = "/bin/echo"
Args = "a  'b c'"
Iwd = "$T/iwd"
ShouldTransferFiles = "NO"
Out = "args1.out"
EOF
[ "$(cat "$T/iwd/args1.out")" = "a 'b c'" ] || fail "Args: '$(cat "$T/iwd/args1.out")'"
pass "old Args syntax"

# JOB_RENICE_INCREMENT, evaluated for the job, raises its niceness above
# the starter's; one that gives no integer raises it by 10.
base=$(nice)
_CONDOR_JOB_RENICE_INCREMENT='ReniceBy + 1' run renice <<EOF
Cmd = "/usr/bin/nice"
ReniceBy = 4
Iwd = "$T/iwd"
ShouldTransferFiles = "NO"
Out = "renice.out"
EOF
[ "$(cat "$T/iwd/renice.out")" = $((base + 5)) ] || fail "JOB_RENICE_INCREMENT: niceness $(cat "$T/iwd/renice.out"), the starter's $base"
_CONDOR_JOB_RENICE_INCREMENT='"ten"' run renice2 <<EOF
Cmd = "/usr/bin/nice"
Iwd = "$T/iwd"
ShouldTransferFiles = "NO"
Out = "renice2.out"
EOF
[ "$(cat "$T/iwd/renice2.out")" = $((base + 10 > 19 ? 19 : base + 10)) ] || fail "JOB_RENICE_INCREMENT not an integer: $(cat "$T/iwd/renice2.out")"
grep -q 'does not give an integer' "$T/renice2.log" || fail "JOB_RENICE_INCREMENT not an integer: not logged"
pass "JOB_RENICE_INCREMENT"

# ---- exit code, and a death by signal ----
run code <<EOF
Cmd = "/bin/sh"
Arguments = "-c 'exit 3'"
EOF
expect JobExitReason code.result exited
expect ExitCode code.result 3
run segv <<EOF
Cmd = "/bin/sh"
Arguments = "-c 'kill -SEGV \$\$'"
EOF
expect JobExitReason segv.result signaled
expect ExitBySignal segv.result true
expect ExitSignal segv.result 11
expect ExitReason segv.result "died on signal 11 (Segmentation fault)"
[ -z "$(attr ExitCode "$T/segv.result")" ] || fail "segv: has an ExitCode"
pass "exit code 3; death by SIGSEGV"

# ---- environment: the job's, the starter's, none of the caller's ----
KS_LEAK=1 _CONDOR_STARTER_JOB_ENVIRONMENT='"SITE=site FOO=site"' run env -slot slot1_3 7>"$T/seven" <<EOF
ClusterId = 9
ProcId = 0
Cmd = "/bin/sh"
Arguments = "-c 'env > $T/iwd/env.txt; cat \$_CONDOR_JOB_AD > $T/iwd/jobad.txt; touch \$TMPDIR/scratch_ok; ls -l /proc/\$\$/fd > $T/iwd/fds.txt'"
Environment = "FOO=bar SPACY='a b' WHERE=#CoNdOrScRaTcHdIr#/x"
Iwd = "$T/iwd"
EOF
expect JobExitReason env.result exited
E=$T/iwd/env.txt
envv() { sed -n "s/^$1=//p" "$E"; }
SPID=$(envv CONDOR_STARTER_PID)
SB=$T/execute/dir_$SPID
[ -n "$SPID" ] || fail "env: no CONDOR_STARTER_PID"
[ "$(envv FOO)" = bar ] || fail "env: FOO=$(envv FOO) (the job's must win)"
[ "$(envv SITE)" = site ] || fail "env: STARTER_JOB_ENVIRONMENT not given"
[ "$(envv SPACY)" = "a b" ] || fail "env: SPACY=$(envv SPACY)"
[ "$(envv WHERE)" = "$SB/x" ] || fail "env: WHERE=$(envv WHERE)"
[ "$(envv _CONDOR_SCRATCH_DIR)" = "$SB" ] || fail "env: _CONDOR_SCRATCH_DIR=$(envv _CONDOR_SCRATCH_DIR)"
for v in TMPDIR TMP TEMP; do
	[ "$(envv $v)" = "$SB" ] || fail "env: $v=$(envv $v)"
done
[ "$(envv _CONDOR_SLOT)" = slot1_3 ] || fail "env: _CONDOR_SLOT"
[ "$(envv BATCH_SYSTEM)" = HTCondor ] || fail "env: BATCH_SYSTEM"
[ "$(envv _CONDOR_JOB_AD)" = "$SB/.job.ad" ] || fail "env: _CONDOR_JOB_AD"
[ "$(envv _CONDOR_JOB_IWD)" = "$SB" ] || fail "env: _CONDOR_JOB_IWD (no ShouldTransferFiles: the sandbox)"
WANT_HOME=$(getent passwd "$( $ROOT && echo nobody || id -un)" | cut -d: -f6)
[ "$(envv HOME)" = "$WANT_HOME" ] || fail "env: HOME=$(envv HOME), expected $WANT_HOME"
grep -q '^KS_LEAK=' "$E" && fail "env: the starter's own environment leaked"
grep -q '^PATH=' "$E" && fail "env: PATH set (HTCondor sets none)"
grep -q '^ClusterId = 9$' "$T/iwd/jobad.txt" || fail "env: the job could not read its .job.ad"
[ -s "$T/iwd/fds.txt" ] || fail "env: no descriptor list"
grep -q seven "$T/iwd/fds.txt" && fail "env: the starter's descriptor 7 reached the job"
sandbox_empty || fail "env: sandbox left behind"
pass "environment (job, STARTER_JOB_ENVIRONMENT, starter's variables, scratch dir, job ad copy); no descriptor leaks"

run envold <<EOF
Cmd = "/bin/sh"
Arguments = "-c 'echo \$A/\$B > $T/iwd/envold.txt'"
Env = "A=1;B=two words"
EOF
[ "$(cat "$T/iwd/envold.txt")" = "1/two words" ] || fail "Env: $(cat "$T/iwd/envold.txt")"
pass "old Env syntax"

# ---- Iwd with ShouldTransferFiles = "NO", relative Cmd, In, Out = Err ----
cat > "$T/iwd/job.sh" <<'EOF'
#!/bin/sh
pwd
read line
echo "in: $line"
echo "to stderr" >&2
EOF
chmod 755 "$T/iwd/job.sh"
echo "first line of input" > "$T/iwd/in.txt"
chmod 644 "$T/iwd/in.txt"
run iwd <<EOF
Cmd = "job.sh"
Iwd = "$T/iwd"
ShouldTransferFiles = "NO"
In = "in.txt"
Out = "both.txt"
Err = "both.txt"
EOF
expect JobExitReason iwd.result exited
printf '%s\n' "$T/iwd" "in: first line of input" "to stderr" > "$T/want"
cmp -s "$T/want" "$T/iwd/both.txt" || fail "Iwd/In/Out/Err: $(cat "$T/iwd/both.txt")"
pass "Iwd with ShouldTransferFiles = NO, relative Cmd, In, Out and Err in one file"

# ---- CPU of the whole tree, and processes left behind are killed ----
# (one in the job's process group, one that left it for a session of its
# own: found as the starter's descendant all the same)
run cpu <<EOF
Cmd = "/bin/sh"
Arguments = "-c 'sh -c ''i=0; while [ \$i -lt 300000 ]; do i=\$((i+1)); done''; sleep 300 & echo \$! > $T/iwd/left.pid; setsid sh -c ''echo \$\$ > $T/iwd/away.pid; exec sleep 300'' & while [ ! -s $T/iwd/away.pid ]; do sleep 0.01; done'"
EOF
expect JobExitReason cpu.result exited
awk -v u="$(attr RemoteUserCpu "$T/cpu.result")" -v s="$(attr RemoteSysCpu "$T/cpu.result")" \
	'BEGIN { exit !(u + s > 0.05) }' || fail "cpu: the grandchild's CPU is missing"
LEFT=$(cat "$T/iwd/left.pid")
AWAY=$(cat "$T/iwd/away.pid")
kill -0 "$LEFT" 2>/dev/null && fail "cpu: the job's background sleep $LEFT survived"
kill -0 "$AWAY" 2>/dev/null && fail "cpu: the job's sleep $AWAY in its own session survived"
grep -q "killing 2 process(es) it left running" "$T/cpu.log" || fail "cpu: log"
pass "CPU of the process tree; leftover process killed"

# ---- suspend and continue ----
start susp <<EOF
Cmd = "/bin/sh"
Arguments = "-c 'echo \$\$ > $T/iwd/susp.pid; i=0; while [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done; exit 5'"
CumulativeSuspensionTime = 10
TotalSuspensions = 1
EOF
wait_for 10 test -s "$T/iwd/susp.pid" || fail "susp: the job did not start"
JP=$(cat "$T/iwd/susp.pid")
kill -TSTP "$BG"
wait_for 10 stopped_group "$JP" ||
	fail "susp: the job's processes are not all stopped: $(group_ps "$JP")"
# Stay suspended long enough to count a second.
sleep 1.2
stopped_group "$JP" || fail "susp: job woke up while suspended: $(group_ps "$JP")"
kill -CONT "$BG"
none_stopped() { ! group_states "$1" | grep -qx T; }
wait_for 10 none_stopped "$JP" ||
	fail "susp: job still stopped after continue: $(group_ps "$JP")"
finish
expect JobExitReason susp.result exited
expect ExitCode susp.result 5
CST=$(attr CumulativeSuspensionTime "$T/susp.result")
[ "$CST" -ge 11 ] && [ "$CST" -le 16 ] || fail "susp: CumulativeSuspensionTime $CST (10 before + ~1)"
expect TotalSuspensions susp.result 2
grep -q "suspended (SIGSTOP" "$T/susp.log" && grep -q "continued (continue order)" "$T/susp.log" ||
	fail "susp: log"
pass "suspend (state T) and continue; CumulativeSuspensionTime"

# ---- soft kill with KillSig ----
start soft <<EOF
Cmd = "/bin/sh"
Arguments = "-c 'trap ''echo got INT > $T/iwd/soft.txt; exit 7'' INT; echo \$\$ > $T/iwd/soft.pid; while :; do sleep 0.05; done'"
KillSig = "SIGINT"
EOF
wait_for 10 test -s "$T/iwd/soft.pid" || fail "soft: the job did not start"
kill -TERM "$BG"
finish
expect JobExitReason soft.result killed
expect ExitBySignal soft.result false
expect ExitCode soft.result 7
[ "$(cat "$T/iwd/soft.txt" 2>/dev/null)" = "got INT" ] || fail "soft: the job did not get SIGINT"
expect ExitReason soft.result "killed on the startd's soft kill order (SIGINT)"
[ -z "$(attr CompletionDate "$T/soft.result")" ] || fail "soft: a killed job has a CompletionDate"
pass "soft kill sends KillSig (SIGINT); job's own exit code kept"

# Soft kill of a suspended job: it is continued so that it can act.
start softsusp <<EOF
Cmd = "/bin/sh"
Arguments = "-c 'echo \$\$ > $T/iwd/softsusp.pid; while :; do sleep 0.05; done'"
EOF
wait_for 10 test -s "$T/iwd/softsusp.pid" || fail "softsusp: the job did not start"
JP=$(cat "$T/iwd/softsusp.pid")
kill -TSTP "$BG"
wait_for 10 stopped_group "$JP" ||
	fail "softsusp: the job's processes are not all stopped: $(group_ps "$JP")"
kill -TERM "$BG"
finish
expect JobExitReason softsusp.result killed
expect ExitSignal softsusp.result 15
pass "soft kill of a suspended job (default KillSig SIGTERM)"

# ---- hard kill of a job that ignores SIGTERM ----
start hard <<EOF
Cmd = "/bin/sh"
Arguments = "-c 'trap \"\" TERM; echo \$\$ > $T/iwd/hard.pid; while :; do sleep 0.05; done'"
EOF
wait_for 10 test -s "$T/iwd/hard.pid" || fail "hard: the job did not start"
kill -TERM "$BG"
wait_for 10 grep -q "soft kill" "$T/hard.log" || fail "hard: no soft kill logged"
kill -0 "$(cat "$T/iwd/hard.pid")" || fail "hard: the job died of an ignored SIGTERM"
kill -QUIT "$BG"
finish
expect JobExitReason hard.result killed
expect ExitSignal hard.result 9
expect ExitReason hard.result "killed on the startd's hard kill order (SIGKILL)"
sandbox_empty || fail "hard: sandbox left behind"
pass "hard kill after an ignored soft kill"

# ---- the startd gone: the job's whole family ends with the starter ----
# A stand-in for the startd starts the starter (its parent, which it
# takes for its startd without -startd-pid) and is killed with SIGKILL.  The job ignores SIGTERM and has a child in
# a session of its own; both die at once, the sandbox goes and the
# starter exits, with nobody telling it to, having written its result
# to -result FILE for the next startd (whole: no temporary file left;
# 0600).
# dead PID: the process is gone, or a zombie nobody reaps
dead() { ! [ -e "/proc/$1" ] || grep -q '^State:[[:space:]]*Z' "/proc/$1/status"; }
cat > "$T/orphan.ad" <<EOF
Cmd = "/bin/sh"
Arguments = "-c 'trap \"\" TERM; setsid sh -c ''echo \$\$ > $T/iwd/orphan_away.pid; exec sleep 300'' & echo \$\$ > $T/iwd/orphan.pid; while :; do sleep 0.05; done'"
EOF
sh -c '"$2" -job "$1/orphan.ad" -sandbox-root "$1/execute" -log "$1/orphan.log" \
	-result "$1/orphan.result" > "$1/orphan.stdout" & echo $! > "$1/orphan_starter.pid"; wait' orphan "$T" "$S" &
STANDIN=$!
wait_for 10 test -s "$T/iwd/orphan_away.pid" -a -s "$T/iwd/orphan.pid" ||
	fail "orphan: the job did not start"
SP=$(cat "$T/orphan_starter.pid")
JP=$(cat "$T/iwd/orphan.pid")
AWAY=$(cat "$T/iwd/orphan_away.pid")
ORPHANS="$SP $JP $AWAY"
kill -KILL "$STANDIN"
wait "$STANDIN" 2>/dev/null
wait_for 20 dead "$JP" || fail "orphan: the job $JP outlived its startd"
wait_for 20 dead "$AWAY" || fail "orphan: the job's child $AWAY in its own session outlived its startd"
wait_for 20 dead "$SP" || fail "orphan: the starter $SP outlived its startd"
grep -q "the startd (pid $STANDIN) went away; hard kill: SIGKILL sent" "$T/orphan.log" ||
	fail "orphan: log"
expect JobExitReason orphan.result killed
expect ExitReason orphan.result "killed (SIGKILL): its startd (pid $STANDIN) went away"
[ "$(stat -c %a "$T/orphan.result")" = 600 ] && [ ! -e "$T/orphan.result.tmp" ] &&
	[ ! -s "$T/orphan.stdout" ] || fail "orphan: the result file: $(ls -l "$T"/orphan.*)"
sandbox_empty || fail "orphan: sandbox left behind"
pass "a starter whose startd is gone kills the job's whole family and exits"

# A job that ends by itself as its startd goes has ended, not been killed:
# its starter is stopped while the job exits (so the job is not reaped)
# and its stand-in startd is killed; continued, the starter finds both
# the startd's death and the job's exit, and the exit is the end.
cat > "$T/ownend.ad" <<EOF
Cmd = "/bin/sh"
Arguments = "-c 'while [ ! -e $T/iwd/ownend.go ]; do sleep 0.05; done; exit 3'"
EOF
sh -c '"$2" -job "$1/ownend.ad" -sandbox-root "$1/execute" -log "$1/ownend.log" \
	-result "$1/ownend.result" & echo $! > "$1/ownend_starter.pid"; wait' ownend "$T" "$S" &
STANDIN=$!
wait_for 10 test -s "$T/ownend_starter.pid" || fail "ownend: no starter"
SP=$(cat "$T/ownend_starter.pid")
ORPHANS="$ORPHANS $SP"
wait_for 10 pgrep -P "$SP" || fail "ownend: the job did not start"
JP=$(pgrep -P "$SP" | head -1)
kill -STOP "$SP"
touch "$T/iwd/ownend.go"
zombie() { grep -q '^State:[[:space:]]*Z' "/proc/$1/status"; }
wait_for 10 zombie "$JP" || fail "ownend: the job did not exit"
kill -KILL "$STANDIN"
wait "$STANDIN" 2>/dev/null
kill -CONT "$SP"
wait_for 20 dead "$SP" || fail "ownend: the starter did not end"
expect JobExitReason ownend.result exited
expect ExitCode ownend.result 3
pass "a job that ends by itself as its startd goes has its end"

# A starter whose startd is gone before it could watch it runs nothing.
run nostartd -startd-pid 999999999 <<EOF
Cmd = "/bin/sh"
Arguments = "-c 'touch $T/iwd/nostartd.ran'"
EOF
# (killed, not failed: its claimer runs it again rather than hold it)
expect JobExitReason nostartd.result killed
expect ExitReason nostartd.result "the startd (pid 999999999) went away before the starter began"
[ -z "$(attr HoldReasonCode "$T/nostartd.result")$(attr ExitCode "$T/nostartd.result")" ] ||
	fail "nostartd: a hold reason or exit code for a job that never ran"
[ ! -e "$T/iwd/nostartd.ran" ] || fail "nostartd: the job ran"
sandbox_empty || fail "nostartd: sandbox left behind"
"$S" -job "$T/echo.ad" -sandbox-root "$T/execute" -startd-pid 12x > "$T/badpid.result" 2> "$T/badpid.log" ||
	fail "bad -startd-pid: starter failed"
attr ExitReason "$T/badpid.result" | grep -q -- "-startd-pid '12x' is not a process id" || fail "bad -startd-pid"
pass "no job without its startd; a bad -startd-pid"

# The result file is its startd's: a starter started by a startd that
# acts as an account (root its real uid) takes root back for the job,
# and gives the file to that account.
if $ROOT && [ "$NOBODY_UID" != none ]; then
	printf 'Cmd = "/bin/sh"\nArguments = "-c true"\n' > "$T/owned.ad"
	setpriv --ruid 0 --euid nobody -- "$S" -job "$T/owned.ad" -sandbox-root "$T/execute" \
		-log "$T/owned.log" -result "$T/owned.result" || fail "owned: the starter failed"
	expect JobExitReason owned.result exited
	[ "$(stat -c '%u %a' "$T/owned.result")" = "$NOBODY_UID 600" ] ||
		fail "owned: the result file is $(stat -c '%U %a' "$T/owned.result")"
	pass "the result file belongs to the starter's startd"
fi

# ---- jobs that cannot start ----
run nocmd <<EOF
Cmd = "/no/such/program"
Arguments = "x"
EOF
expect JobExitReason nocmd.result "start failed"
expect HoldReasonCode nocmd.result 6
expect HoldReasonSubCode nocmd.result 2
attr ExitReason "$T/nocmd.result" | grep -q "cannot execute /no/such/program (the job's Cmd).*No such file or directory" ||
	fail "nocmd: ExitReason $(attr ExitReason "$T/nocmd.result")"
[ -z "$(attr ExitCode "$T/nocmd.result")" ] || fail "nocmd: has an ExitCode"
sandbox_empty || fail "nocmd: sandbox left behind"

run noin <<EOF
Cmd = "/bin/cat"
Iwd = "$T/iwd"
ShouldTransferFiles = "NO"
In = "missing.txt"
EOF
expect JobExitReason noin.result "start failed"
expect HoldReasonCode noin.result 8
attr ExitReason "$T/noin.result" | grep -q "cannot open $T/iwd/missing.txt, the job's standard input (In)" ||
	fail "noin: ExitReason $(attr ExitReason "$T/noin.result")"

run noiwd <<EOF
Cmd = "/bin/true"
Iwd = "$T/nowhere"
ShouldTransferFiles = "NO"
EOF
expect HoldReasonCode noiwd.result 14
attr ExitReason "$T/noiwd.result" | grep -q "cannot enter the job's directory $T/nowhere (Iwd)" ||
	fail "noiwd: ExitReason $(attr ExitReason "$T/noiwd.result")"
pass "missing executable, missing In file, missing Iwd"

run badcmd <<EOF
Cmd = 5
EOF
expect JobExitReason badcmd.result "start failed"
expect ExitReason badcmd.result "job attribute Cmd = 5 is an integer, not a string"
run badargs <<EOF
Cmd = "/bin/echo"
Arguments = {"a", "b"}
EOF
attr ExitReason "$T/badargs.result" | grep -q "Arguments = .* is a list, not a string" ||
	fail "badargs: $(attr ExitReason "$T/badargs.result")"
run badquote <<EOF
Cmd = "/bin/echo"
Arguments = "a 'b"
EOF
attr ExitReason "$T/badquote.result" | grep -q "unbalanced single quote" || fail "badquote"
printf 'Cmd = "/bin/echo"\nArguments = (\n' | run badsyntax
attr ExitReason "$T/badsyntax.result" | grep -q "not a ClassAd in old syntax: line 2" || fail "badsyntax"
printf '\001\377garbage' | run binary
expect JobExitReason binary.result "start failed"
sandbox_empty || fail "bad ads: sandbox left behind"
"$S" -job "$T/none.ad" -sandbox-root "$T/execute" > "$T/noad.result" 2> "$T/noad.log" ||
	fail "missing ad: starter failed"
attr ExitReason "$T/noad.result" | grep -q "cannot open the job ad $T/none.ad" || fail "missing ad"
"$S" -sandbox-root "$T/execute" > "$T/usage.result" 2> "$T/usage.log" || fail "usage: starter failed"
attr ExitReason "$T/usage.result" | grep -q -- "-job is required" || fail "usage"
"$S" -job "$T/echo.ad" -sandbox-root "$T/nonexistent" > "$T/noroot.result" 2> "$T/noroot.log" ||
	fail "no root: starter failed"
attr ExitReason "$T/noroot.result" | grep -q "does the -sandbox-root directory exist" || fail "no root"
pass "bad ad types, bad syntax, missing ad, bad command line, missing sandbox root"

# ---- removal follows no link and undoes the job's permissions ----
mkdir -m 777 "$T/precious"
echo keep me > "$T/precious/file"
chmod 666 "$T/precious/file"
run links <<EOF
Cmd = "/bin/sh"
Arguments = "-c 'ln -s $T/precious link; ln -s $T/precious/file flink; mkdir -p d/e; touch d/e/f; chmod 000 d/e d'"
EOF
expect JobExitReason links.result exited
sandbox_empty || fail "links: sandbox left behind"
[ "$(cat "$T/precious/file" 2>/dev/null)" = "keep me" ] || fail "links: removal followed a link"
pass "sandbox removal follows no symbolic link, removes mode-000 directories"

# ---- -keep-sandbox ----
run keep -keep-sandbox <<EOF
ClusterId = 1
Cmd = "/bin/sh"
Arguments = "-c 'echo kept > kept.txt'"
EOF
KEPT=$(ls -d "$T"/execute/dir_* 2>/dev/null)
[ -n "$KEPT" ] || fail "keep: no sandbox kept"
[ "$(cat "$KEPT/kept.txt")" = kept ] || fail "keep: the job's file is not in the sandbox"
[ -f "$KEPT/.job.ad" ] || fail "keep: no .job.ad"
[ "$(stat -c %a "$KEPT")" = 700 ] || fail "keep: sandbox mode $(stat -c %a "$KEPT")"
if $ROOT; then
	[ "$(stat -c %u "$KEPT")" = "$NOBODY_UID" ] || fail "keep: sandbox owned by $(stat -c %u "$KEPT")"
fi
rm -rf "$KEPT"
pass "-keep-sandbox keeps the sandbox (mode 0700, the job's account)"

# ---- the account the job runs as ----
whoami_job() { # NAME OWNER-LINE: runs id -u as the job, prints the uid
	run "$1" <<EOF
Cmd = "/bin/sh"
Arguments = "-c 'id -u > $T/iwd/$1.uid'"
$2
EOF
	cat "$T/iwd/$1.uid"
}
if $ROOT; then
	[ "$(whoami_job ownroot 'Owner = "root"')" = "$NOBODY_UID" ] || fail "Owner root did not run as nobody"
	grep -q "Owner root is root.*running it as nobody" "$T/ownroot.log" || fail "ownroot: log"
	[ "$(whoami_job ownnone 'Owner = "no_such_user_ks"')" = "$NOBODY_UID" ] || fail "unknown Owner did not run as nobody"
	grep -q "no_such_user_ks has no account" "$T/ownnone.log" || fail "ownnone: log"
	[ "$(whoami_job ownmissing '')" = "$NOBODY_UID" ] || fail "no Owner did not run as nobody"
	NEWUSER=ksst$$
	if useradd -M -N -s /bin/sh "$NEWUSER" 2>/dev/null; then
		NU=$(id -u "$NEWUSER")
		[ "$(whoami_job ownreal "Owner = \"$NEWUSER\"")" = "$NU" ] ||
			fail "Owner $NEWUSER did not run as uid $NU"
		# Its sandbox is its own.
		run ownsb -keep-sandbox <<EOF
Owner = "$NEWUSER"
Cmd = "/bin/sh"
Arguments = "-c 'touch mine'"
EOF
		SBX=$(ls -d "$T"/execute/dir_*)
		[ "$(stat -c %u "$SBX")" = "$NU" ] && [ "$(stat -c %u "$SBX/mine")" = "$NU" ] ||
			fail "ownsb: sandbox not owned by $NEWUSER"
		rm -rf "$SBX"
		# Its supplementary groups, whether the starter looks them up
		# or the startd hands them over (-account), and the account
		# handed over is the one used
		NEWGROUP=ksstg$$
		groupadd "$NEWGROUP" && usermod -aG "$NEWGROUP" "$NEWUSER" ||
			fail "cannot add $NEWUSER to a group"
		groups_job() { # NAME [ARGS]: the job's id -G
			local name=$1; shift
			run "$name" "$@" <<EOF
Owner = "$NEWUSER"
Cmd = "/bin/sh"
Arguments = "-c 'id -G > $T/iwd/$name.groups'"
EOF
			tr ' ' '\n' < "$T/iwd/$name.groups" | sort -n | tr '\n' ' '
		}
		want=$(id -G "$NEWUSER" | tr ' ' '\n' | sort -n | tr '\n' ' ')
		case " $want" in *" $(getent group "$NEWGROUP" | cut -d: -f3) "*) ;;
		*) fail "id -G $NEWUSER lacks $NEWGROUP: $want";; esac
		[ "$(groups_job grpself)" = "$want" ] ||
			fail "groups looked up by the starter: $(cat "$T/iwd/grpself.groups"), not $want"
		spec="0:$NU:$(id -g "$NEWUSER"):$(id -G "$NEWUSER" | tr ' ' ,):$NEWUSER:/"
		[ "$(groups_job grpgiven -account "$spec")" = "$want" ] ||
			fail "groups handed over: $(cat "$T/iwd/grpgiven.groups"), not $want"
		[ "$(groups_job grpfew -account "0:$NU:$(id -g "$NEWUSER")::$NEWUSER:/")" = "$(id -g "$NEWUSER") " ] ||
			fail "an account handed over without groups kept some: $(cat "$T/iwd/grpfew.groups")"
		run badaccount -account "0:0:0::root:/root" <<EOF
Owner = "$NEWUSER"
Cmd = "/bin/true"
EOF
		grep -q "bad -account '0:0:0::root:/root'" "$T/badaccount.result" ||
			fail "a root account handed over was not refused: $(cat "$T/badaccount.result")"
		pass "user selection: root and unknown Owners run as nobody, $NEWUSER as itself, with its groups"
	else
		NEWUSER=
		pass "user selection: root and unknown Owners run as nobody (SKIP: useradd failed)"
	fi
else
	[ "$(whoami_job ownother 'Owner = "root"')" = "$(id -u)" ] || fail "non-root starter: job not run as the starter's user"
	pass "user selection: a non-root starter runs the job as itself (SKIP: root parts)"
fi

sandbox_empty || fail "sandboxes left behind: $(ls "$T/execute")"
echo "all starter tests passed"
