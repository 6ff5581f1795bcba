#!/usr/bin/env bash
# condor_who against a master, collector and startd on loopback: jobs run
# through claims made with ks_claim (standing in for the schedd); the
# tool finds the startd through the log directory (address files, the
# master's log) and asks it directly, and prints HTCondor's table, ads,
# -af columns and daemon table; an idle machine prints nothing; bad
# flags get their one-line errors.
# Usage: who_test.sh BUILD_DIR
set -u
B=$1
. "$(dirname "$0")/../daemon/lib.sh"
. "$(dirname "$0")/../startd/lib_startd.sh"
pool_dir kswho
WHO=$B/tools/condor_who/condor_who
ST=$B/tools/condor_status/condor_status
CL=$B/tests/startd/ks_claim
OFF=$B/tools/condor_daemonctl/condor_off
mkdir -p "$T/iwd"
# the jobs run as nobody, in a directory of the test's
chmod 755 "$T"
chmod 777 "$T/iwd"

# expect STATUS COMMAND...: runs it into $out (stdout), $errout (stderr)
# and checks its exit status, and that no sanitizer spoke.
expect() {
	local want=$1 got
	shift
	"$@" >"$T/stdout" 2>"$T/stderr"
	got=$?
	out=$(cat "$T/stdout")
	errout=$(cat "$T/stderr")
	[ "$got" = "$want" ] || fail "$* exited $got, not $want (stderr: $errout)"
	case $out$errout in *Sanitizer*) fail "$*: sanitizer report" ;; esac
}

# ---- the command line (no pool needed) ----------------------------------

expect 1 "$WHO" -bogus
[ "$errout" = "Error: -bogus is not a valid argument" ] || fail "bad flag: $errout"
[ -z "$out" ] || fail "bad flag wrote to stdout: $out"
# "-v" is too short for -verbose, as in HTCondor
expect 1 "$WHO" -v
[ "$errout" = "Error: -v is not a valid argument" ] || fail "-v: $errout"
expect 1 "$WHO" somehost
[ "$errout" = "Error: somehost is not a valid argument; condor_who takes no names (use -address to ask another startd)" ] || fail "a name: $errout"
expect 1 "$WHO" -jobs
[ "$errout" = "Error: -jobs is not supported by kestrel's condor_who; the startd does not give out job ads; use -long" ] || fail "-jobs: $errout"
expect 1 "$WHO" -quick
echo "$errout" | grep -qx "Error: -quick is not supported by kestrel's condor_who; .*" || fail "-quick: $errout"
expect 1 "$WHO" -address
[ "$errout" = "Error: Argument -address requires a host address" ] || fail "-address: $errout"
# abbreviations as HTCondor's: "-log" is -logdir, "-lo" -long; "--long"
# is not a flag at all
expect 1 "$WHO" -log
[ "$errout" = "Error: Argument -log requires a directory" ] || fail "-log: $errout"
expect 1 "$WHO" --long
[ "$errout" = "Error: --long is not a valid argument" ] || fail "--long: $errout"
expect 1 "$WHO" -lo -addr
[ "$errout" = "Error: Argument -addr requires a host address" ] || fail "-lo -addr: $errout"
expect 1 "$WHO" -logdir -long
[ "$errout" = "Error: Argument -logdir requires a directory" ] || fail "-logdir: $errout"
expect 1 "$WHO" -af
[ "$errout" = 'Error: Argument -af requires at least one attribute parameter
Use "condor_who -help" for details' ] || fail "-af: $errout"
expect 1 "$WHO" -af 'a +* b'
echo "$errout" | head -1 | grep -qx "ERROR: could not parse -af option" || fail "-af bad: $errout"
expect 1 "$WHO" -constraint 'x ==('
[ "$errout" = "Error: could not parse constraint x ==(" ] || fail "-constraint: $errout"
expect 1 "$WHO" -format '%s'
[ "$errout" = "Error: -format requires two other arguments" ] || fail "-format: $errout"
# -help: the usage on stderr, and status 1, as HTCondor's
expect 1 "$WHO" -help
echo "$errout" | head -1 | grep -qx "Usage: condor_who \[help-opt\] \[addr-opt\] \[display-opt\]" || fail "-help: $errout"

# ---- a pool -------------------------------------------------------------

write_config() {
	startd_config <<CFG
RUNBENCHMARKS = false
$(cat)
CFG
}
write_config <<'CFG'
use FEATURE : StaticSlots
NUM_CPUS = 2
MEMORY = 2048
CFG
start_master
wait_for 20 sh -c "[ \$('$ST' -af State | grep -c Unclaimed) = 2 ]" ||
	fail "slots not free: $("$ST" -af Name State 2>&1)"
H=$("$ST" -af Machine | head -1)
[ -n "$H" ] || fail "no Machine in the slot ads"
A=$(addr)

# An idle machine: HTCondor's condor_who prints nothing at all.
expect 0 "$WHO"
[ -z "$out$errout" ] || fail "idle machine: '$out' '$errout'"
expect 0 "$WHO" -long
[ -z "$out$errout" ] || fail "idle machine, -long: '$out' '$errout'"

# -daemons: the master's knowledge of its daemons, each asked for its PPID
# and program.
SPID=$(pgrep -P "$MASTER_PID" -f condor_startd)
CPID=$(pgrep -P "$MASTER_PID" -f condor_collector)
expect 0 "$WHO" -daemons
[ "$(echo "$out" | sed -n 2p)" = "LOG directory \"$T/log\"" ] || fail "-daemons: $out"
echo "$out" | grep -qx "Daemon       Alive  PID    PPID   Exit   Addr                     Executable" || fail "-daemons heading: $out"
echo "$out" | grep -qx -e "------       -----  ---    ----   ----   ----                     ----------" || fail "-daemons rule: $out"
row=$(echo "$out" | grep "^Startd ")
[ "$(echo "$row" | tr -s ' ')" = "Startd yes $SPID $MASTER_PID no $A $B/startd/condor_startd" ] || fail "-daemons startd: $row"
row=$(echo "$out" | grep "^Collector ")
[ "$(echo "$row" | tr -s ' ' | cut -d' ' -f1-5)" = "Collector yes $CPID $MASTER_PID no" ] || fail "-daemons collector: $row"
row=$(echo "$out" | grep "^Master ")
[ "$(echo "$row" | tr -s ' ' | cut -d' ' -f1-3)" = "Master yes $MASTER_PID" ] || fail "-daemons master: $row"
# the columns as HTCondor's printf lays them out
printf -v want '%-12s %-6s %-6s %-6s %-6s %-24s %s' Startd yes "$SPID" "$MASTER_PID" no "$A" "$B/startd/condor_startd"
echo "$out" | grep -qxF "$want" || fail "-daemons layout: $out"

# A job on slot2: the table shows its owner, slot, id, and live pid.
cat > "$T/job.sh" <<'SH'
#!/bin/sh
while :; do sleep 0.2; done
SH
chmod 755 "$T/job.sh"
cat > "$T/a.ad" <<AD
Owner = "nobody"
ClusterId = 7
ProcId = 3
JobUniverse = 5
Cmd = "/bin/sh"
Arguments = "$T/job.sh"
Iwd = "$T/iwd"
ShouldTransferFiles = "NO"
AD
start_job slot2 "$T/a.ad" a
# the first table that has the job (the slot is Claimed/Busy at once, its
# pid as soon as the job has one, its run time once it has run a second,
# as HTCondor's startd publishes TotalJobRunTime only above 0)
wait_for 15 sh -c "'$WHO' | grep -q ' $JP '" || fail "the job never showed: $("$WHO" 2>&1)"
wait_for 15 sh -c "'$WHO' -af TotalJobRunTime | grep -qE '^[0-9]+\$'" || fail "no TotalJobRunTime: $("$WHO" -long 2>&1)"
expect 0 "$WHO"
[ -z "$errout" ] || fail "table: stderr $errout"
[ "$(echo "$out" | sed -n 1p)" = "" ] || fail "table: no blank line first: $out"
[ "$(echo "$out" | sed -n 2p)" = "--Startd : $H has 1 job(s) running:" ] || fail "table banner: $out"
head=$(echo "$out" | sed -n 3p)
row=$(echo "$out" | sed -n 4p)
[ "$(sed -n 5p "$T/stdout")" = "" ] && [ "$(wc -l < "$T/stdout")" = 5 ] || fail "table: not one row then a blank line: $out"
[ "$(echo "$head" | tr -s ' ' | sed 's/ $//')" = "OWNER CLIENT SLOT JOB RUNTIME PID JOB_DIR" ] || fail "headings: $head"
set -- $row
[ "$1" = nobody ] || fail "OWNER: $row"
[ "$3" = 2 ] || fail "SLOT: $row"
[ "$4" = 7.3 ] || fail "JOB: $row"
echo "$5" | grep -qE '^[0-9]+\+[0-9]{2}:[0-9]{2}:[0-9]{2}$' || fail "RUNTIME: $row"
[ "$6" = "$JP" ] || fail "PID: $row (the job is $JP)"
kill -0 "$6" 2>/dev/null || fail "PID $6 is not alive"
[ "$(ps -o ppid= -p "$6" | tr -d ' ')" = "$SP" ] || fail "PID $6 is not the starter's child"
if [ "$(id -u)" = 0 ]; then
	[ "$7" = "$T/iwd" ] || fail "JOB_DIR: $row"
fi
# every column starts under its heading (RUNTIME's value is right-aligned
# in it, as "%3d+..." makes it)
cols="OWNER CLIENT SLOT JOB PID"
[ "$(id -u)" = 0 ] && cols="$cols JOB_DIR"
for h in $cols; do
	col=$(awk -v h="$h" 'BEGIN { FS = "\n" } { i = index(" " $0 " ", " " h " "); print i }' <<<"$head")
	[ "${row:$((col - 1)):1}" != " " ] && { [ "$col" = 1 ] || [ "${row:$((col - 2)):1}" = " " ]; } || fail "column $h not aligned:
$head
$row"
done

# -long: the slot ad whole, with what HTCondor's startd publishes for
# condor_who (JobPid, StarterPid, TotalJobRunTime).
expect 0 "$WHO" -long
for want in "Name = \"slot2@$H\"" 'JobId = "7.3"' "JobPid = $JP" "StarterPid = $SP" 'RemoteOwner = "nobody"' 'State = "Claimed"'; do
	echo "$out" | grep -qxF "$want" || fail "-long: no '$want' in: $out"
done
echo "$out" | grep -qE '^TotalJobRunTime = [0-9]+$' || fail "-long: no TotalJobRunTime: $out"
[ "$(echo "$out" | grep -c '^Name = ')" = 1 ] || fail "-long: not one ad: $out"
[ "$(tail -1 "$T/stdout")" = "" ] || fail "-long: no blank line after the ad"

# -af, -format, and condor_who's own -af columns.
expect 0 "$WHO" -af Name JobId JobPid
[ "$out" = "slot2@$H 7.3 $JP" ] || fail "-af: $out"
expect 0 "$WHO" -af:h Name JobId
[ "$(echo "$out" | sed -n 2p)" = "--Startd : $H has 1 job(s) running:" ] || fail "-af:h banner: $out"
[ "$(echo "$out" | sed -n 3p | tr -s ' ' | sed 's/ $//')" = "Name JobId" ] || fail "-af:h headings: $out"
[ "$(echo "$out" | sed -n 4p | tr -s ' ' | sed 's/ $//')" = "slot2@$H 7.3" ] || fail "-af:h row: $out"
expect 0 "$WHO" -format '%d\n' JobPid -format '%s\n' RemoteOwner
[ "$out" = "$JP
nobody" ] || fail "-format: $out"
expect 0 "$WHO" -af '#PID' '#PROGRAM' '#SLOT'
[ "$(echo "$out" | tr -s ' ' | sed 's/^ //; s/ $//')" = "$JP /bin/sh $T/job.sh 2" ] || fail "-af #PID #PROGRAM #SLOT: $out"
expect 0 "$WHO" -af 'JobId' '#RUNTIME'
echo "$out" | grep -qE '^7\.3 +[0-9]+\+[0-9]{2}:[0-9]{2}:[0-9]{2} *$' || fail "-af #RUNTIME: $out"

# Constraints and limits go to the startd with the query.
expect 0 "$WHO" -constraint 'SlotID == 1'
[ -z "$out" ] || fail "-constraint SlotID == 1: $out"
expect 0 "$WHO" -constraint 'SlotID == 2' -af Name
[ "$out" = "slot2@$H" ] || fail "-constraint SlotID == 2: $out"

# Other ways to the startd: -address, -logdir; a dead address fails.
expect 0 "$WHO" -address "$A" -af JobId
[ "$out" = "7.3" ] || fail "-address (asked once though LOG names it too): $out"
expect 0 "$WHO" -logdir "$T/log" -af JobId
[ "$out" = "7.3" ] || fail "-logdir: $out"
expect 1 "$WHO" -address '<127.0.0.1:1>' -logdir "$T/iwd"
[ "$(echo "$errout" | head -1)" = "Error: communication error" ] || fail "dead address: $errout"
[ -z "$out" ] || fail "dead address wrote: $out"

# -verbose: the log directory's table, then the startd asked.
expect 0 "$WHO" -verbose
[ "$(echo "$out" | sed -n 2p)" = "LOG directory \"$T/log\"" ] || fail "-verbose: $out"
echo "$out" | grep -qx "Daemon       PID      Exit       Addr                     Log, Log.Old" || fail "-verbose heading: $out"
echo "$out" | grep -q "^Startd       $SPID  *$A StartLog, $" || fail "-verbose startd: $out"
echo "$out" | grep -qxF "querying addr = $A" || fail "-verbose: no querying line: $out"
echo "$out" | grep -q "^nobody .* $JP " || fail "-verbose: no job row: $out"

# A second job, in a dynamic slot of a partitionable slot, shows as 1_1.
stop_pool
write_config </dev/null
start_master
wait_for 20 sh -c "'$ST' -af SlotType State | grep -qx 'Partitionable Unclaimed'" ||
	fail "pslot not free: $("$ST" -af Name State 2>&1)"
sed -e 's/^ClusterId = .*/ClusterId = 12/' -e 's/^ProcId = .*/ProcId = 0/' "$T/a.ad" > "$T/d.ad"
printf 'RequestCpus = 1\nRequestMemory = 128\n' >> "$T/d.ad"
out=$("$CL" "$(addr)" REQUEST_CLAIM "$(claim_id slot1)" "$T/d.ad") || fail "pslot claim: $out"
DID=$(echo "$out" | sed -n 's/^ClaimId = "\(.*\)"$/\1/p')
"$CL" "$(addr)" ACTIVATE_CLAIM "$DID" "$T/d.ad" > "$T/d.out" 2>&1 &
wait_for 15 sh -c "'$WHO' -af '#SLOT' JobId JobPid | grep -qE '^1_1 +12\.0 [0-9]+$'" || fail "dynamic slot: $("$WHO" -af '#SLOT' JobId JobPid 2>&1)"
expect 0 "$WHO"
echo "$out" | sed -n 4p | grep -qE '^nobody +localhost +1_1 +12\.0 ' || fail "dynamic slot row: $out"

# The job ends and its claim goes: the machine is idle again, and
# condor_who says nothing.  (kestrel's startd keeps JobId in the ad of a
# slot whose claim outlives its job, where HTCondor's drops it when the
# starter exits; hence the release.)
"$CL" "$(addr)" DEACTIVATE_CLAIM_FORCIBLY "$DID" >/dev/null 2>&1
wait_for 15 grep -q '^JobExitReason = ' "$T/d.out" || fail "the job did not end: $(cat "$T/d.out")"
"$CL" "$(addr)" RELEASE_CLAIM "$DID" >/dev/null 2>&1 || fail "release the dynamic slot"
wait_for 15 sh -c "[ -z \"\$('$WHO')\" ]" || fail "after the job: $("$WHO" 2>&1)"

# The master's knowledge: a startd turned off shows as exited, and is not
# asked.
SPID=$(pgrep -P "$MASTER_PID" -f condor_startd)
"$OFF" -daemon startd >/dev/null 2>&1 || fail "condor_off -daemon startd"
wait_for 15 grep -q "The STARTD (pid $SPID) exited with status " "$T/log/MasterLog" || fail "the startd did not stop"
# its status as the master saw it (a sanitizer's report changes it)
st() { sed -n "s/^.* The $1 (pid [0-9]*) exited with status \([0-9]*\)$/\1/p" "$T/log/MasterLog" | tail -1; }
expect 0 "$WHO" -daemons
row=$(echo "$out" | grep "^Startd ")
[ "$(echo "$row" | tr -s ' ' | cut -d' ' -f1-5)" = "Startd no no no $(st STARTD)" ] || fail "-daemons, startd off: $row"
expect 0 "$WHO"
[ -z "$out$errout" ] || fail "startd off: '$out' '$errout'"

# The whole pool stops: the master's log says so (its pid from its
# banner), nothing is asked, nothing runs.
M=$MASTER_PID
kill -TERM "$M"
wait "$M"
MASTER_PID=
expect 0 "$WHO" -daemons
[ -z "$errout" ] || fail "-daemons, pool stopped: stderr $errout"
for d in Master:0 Collector:"$(st COLLECTOR)" Startd:"$(st STARTD)"; do
	row=$(echo "$out" | grep "^${d%%:*} ")
	[ "$(echo "$row" | tr -s ' ' | cut -d' ' -f1-5)" = "${d%%:*} no no no ${d#*:}" ] || fail "-daemons, pool stopped: $out"
done
expect 0 "$WHO" -verbose
echo "$out" | grep -q "^Master       $M  *0  " || fail "-verbose, pool stopped: $out"
echo "$out" | grep -qx "querying addr = NULL" || fail "-verbose, pool stopped: no local query: $out"
expect 0 "$WHO"
[ -z "$out$errout" ] || fail "pool stopped: '$out' '$errout'"
echo PASS
