#!/usr/bin/env bash
# personal_test.sh BUILD: a personal pool run by an ordinary user, as a
# new user starts HTCondor's (as root, the test makes an account for it
# and runs the pool and the commands as that account; otherwise as
# ourselves), seen through what HTCondor prints there:
#  - the schedd, master and negotiator are named "user@host", and
#    condor_q's heading says so;
#  - the pool's user is a queue superuser: condor_q's summary has no
#    "Total for user" line, only the query's and all users';
#  - condor_submit ends with the hint to follow the jobs, on stderr;
#  - a job submitted on hold has InitialJobStatus 5, NumHolds 1 and
#    NumHoldsByReason [ SubmittedOnHold = 1 ]; each hold after adds to
#    its reason's count;
#  - idle jobs show RUN_TIME 0+00:00:00 and SIZE 0.0 in -nobatch;
#  - a finished job's wall clock and CPU times are whole seconds.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/lib_pool.sh"
unset CONDOR_IDS
tools_on_path

pool_dir personal_test
if [ "$(id -u)" = 0 ]; then
	# a name no machine has; the pool's programs are copied where the
	# account can run them (the build may be in root's home)
	job_account kspersonal
	chown "$A" "$T" "$T/execute"
	mkdir "$T/bin"
	cp "$B"/master/condor_master "$B"/collector/condor_collector \
		"$B"/negotiator/condor_negotiator "$B"/schedd/condor_schedd \
		"$B"/startd/condor_startd "$B"/startd/condor_starter \
		"$B"/tools/condor_submit/condor_submit "$B"/tools/condor_q/condor_q \
		"$B"/tools/condor_status/condor_status "$B"/tools/condor_rm/condor_* \
		"$B"/tools/condor_history/condor_history "$T/bin/"
	chmod -R a+rX "$T/bin"
	run() { runuser -u "$A" -- env CONDOR_CONFIG="$CONDOR_CONFIG" PATH="$T/bin:$PATH" "$@"; }
	D=$T/bin
else
	A=$(id -un)
	run() { "$@"; }
fi
host=$(hostname)

job_pool_config <<CFG
SEC_PASSWORD_DIRECTORY = $T/passwords.d
CFG
if [ -n "${D:-}" ]; then
	sed -i -e "s|^\(MASTER\|COLLECTOR\|NEGOTIATOR\|SCHEDD\|STARTD\|STARTER\) = .*/\([a-z_]*\)$|\1 = $D/\2|" \
		"$CONDOR_CONFIG"
	chown "$A" "$CONDOR_CONFIG"
fi
# by its path, which names $T, so that the pool's cleanup finds it (as
# root, MASTER_PID is runuser's)
run "${D:-$B/master}/condor_master" -f 2>>"$T/StderrLog" &
MASTER_PID=$!
wait_for 30 run condor_q || fail "the schedd did not answer"

# --- names ---------------------------------------------------------------
has_ad() { [ -n "$(run condor_status -"$1" -af Name 2>/dev/null)" ]; }
for t in schedd master negotiator; do
	wait_for 30 has_ad "$t" || fail "no $t ad"
	got=$(run condor_status -"$t" -af Name)
	[ "$got" = "$A@$host" ] || fail "the $t is named '$got', not $A@$host"
done
echo "ok: the schedd, master and negotiator of $A's pool are $A@$host"

# --- submitting ----------------------------------------------------------
cat > "$T/held.sub" <<'SUB'
executable = /bin/sleep
arguments = 300
hold = true
queue 2
SUB
cat > "$T/idle.sub" <<'SUB'
executable = /bin/sleep
arguments = 300
requirements = false
queue 3
SUB
cat > "$T/quick.sub" <<'SUB'
executable = /bin/sh
arguments = "-c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'"
queue
SUB
chown "$A" "$T"/*.sub
cd "$T" || fail "no $T"
run condor_submit held.sub >"$T/sub.out" 2>"$T/sub.err" || fail "condor_submit held.sub: $(cat "$T/sub.err")"
out=$(cat "$T/sub.out")
C1=$(cluster_of "$out")
[ "$(cat "$T/sub.err")" = "To monitor your job(s), run: condor_watch_q -clusters $C1" ] ||
	fail "condor_submit's hint: $(cat "$T/sub.err")"
grep -q watch_q "$T/sub.out" && fail "the hint went to stdout: $out"
out=$(run condor_submit idle.sub 2>/dev/null)
C2=$(cluster_of "$out")
echo "ok: condor_submit ends with condor_watch_q's hint on stderr"

# --- held at submission --------------------------------------------------
out=$(run condor_q "$C1.0" -af InitialJobStatus NumHolds NumHoldsByReason HoldReasonCode)
[ "$out" = "5 1 [ SubmittedOnHold = 1 ] 15" ] || fail "a job submitted on hold: $out"
out=$(run condor_q "$C2.0" -af 'InitialJobStatus ?: "none"' 'NumHolds ?: 0')
[ "$out" = "none 0" ] || fail "an idle job: $out"
run condor_release "$C1.0" >/dev/null || fail "condor_release"
run condor_hold "$C1.0" >/dev/null || fail "condor_hold"
run condor_hold "$C2.0" >/dev/null || fail "condor_hold"
out=$(run condor_q "$C1.0" "$C2.0" -af NumHolds NumHoldsByReason)
[ "$out" = "2 [ SubmittedOnHold = 1; UserRequest = 1 ]
1 [ UserRequest = 1 ]" ] || fail "holds counted by reason: $out"
echo "ok: NumHolds, NumHoldsByReason and InitialJobStatus as HTCondor's schedd keeps them"

# --- condor_q ------------------------------------------------------------
out=$(run condor_q)
grep -q "^-- Schedd: $A@$host : <127.0.0.1:" <<<"$out" || fail "condor_q's heading"
sum=$(grep '^Total for' <<<"$out")
[ "$sum" = "Total for query: 5 jobs; 0 completed, 0 removed, 2 idle, 0 running, 3 held, 0 suspended 
Total for all users: 5 jobs; 0 completed, 0 removed, 2 idle, 0 running, 3 held, 0 suspended" ] ||
	fail "condor_q's summary: $sum"
out=$(run condor_q -nobatch)
row=$(grep "^ *$C2.1 " <<<"$out")
[[ "$row" == *" 0+00:00:00 I  0    0.0 sleep 300" ]] || fail "an idle job in -nobatch: '$row'"
echo "ok: condor_q of the pool's user: its heading, summary and -nobatch rows"

# --- a finished job ------------------------------------------------------
out=$(run condor_submit quick.sub 2>/dev/null)
C3=$(cluster_of "$out")
wait_for 60 in_history "$C3" 1 || fail "the quick job did not finish"
out=$(run condor_history "$C3" -af RemoteWallClockTime RemoteUserCpu RemoteSysCpu CumulativeRemoteUserCpu)
for v in $out; do
	[[ "$v" =~ ^[0-9]+\.0$ ]] || fail "a time of the finished job is not whole seconds: $out"
done
echo "ok: a finished job's wall clock and CPU times are whole seconds"
echo "all personal pool checks passed"
