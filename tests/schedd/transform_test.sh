#!/usr/bin/env bash
# transform_test.sh BUILD: the schedd's job transforms through a real
# condor_submit and condor_q -l (a master, collector and schedd on
# loopback; the jobs stay idle): COPY, RENAME and DELETE by regular
# expression with back-references, DELETE and RENAME taking attributes
# out of the job's ad (not leaving them undefined), if blocks, UNIVERSE
# taken and doing nothing, a TRANSFORM statement ending the transform;
# and the transforms that cannot be used, left out and said so, line and
# all, in SchedLog and on the schedd's standard error at start-up and at
# every reconfig.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/lib_pool.sh"
tools_on_path

pool_dir transform_test
chmod 755 "$T"
J=$T/jobs
mkdir -p "$J" && chmod 1777 "$J"
job_account ksxform

job_pool_config <<'CFG'
DAEMON_LIST = MASTER COLLECTOR SCHEDD
JOB_TRANSFORM_NAMES = Regex, Plain, Statements, BadRegex, BadWord
JOB_TRANSFORM_Regex @=end
   COPY /^Foo(.*)$/ Bar\1
   RENAME /^TMP(.+)$/i Kept\1
   DELETE /^Baz/
@end
JOB_TRANSFORM_Plain @=end
   if defined MY.OldName
      SET HadOldName = true
   else
      SET NoOldName = true
   endif
   DELETE Gone
   SET Tag = "$(MY.Label)-x"
   RENAME OldName NewName
@end
JOB_TRANSFORM_Statements @=end
   UNIVERSE scheduler
   SET FromStatements = true
   TRANSFORM 1
   SET AfterTransform = true
@end
JOB_TRANSFORM_BadRegex @=end
   SET FromBadRegex = true
   DELETE /^Foo(/
@end
JOB_TRANSFORM_BadWord = FROB Something
CFG
start_master
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"

# --- the transforms that cannot be used, at start-up -----------------------
bad_regex='ERROR: JOB_TRANSFORM_BadRegex line 2: DELETE /^Foo(/: the regular expression does not compile: missing closing parenthesis at offset 5; transform BadRegex is not used'
bad_word='ERROR: JOB_TRANSFORM_BadWord line 1: FROB is not a valid transform keyword'
said() { [ "$(grep -cF -- "$2" "$1")" -ge "$3" ]; }
for f in "$T/log/SchedLog" "$T/StderrLog"; do
	wait_for 10 said "$f" "$bad_regex" 1 || fail "$f does not say: $bad_regex"
	said "$f" "$bad_word" 1 || fail "$f does not say: $bad_word"
	said "$f" "WARNING: JOB_TRANSFORM_Statements line 4 is not read: the TRANSFORM statement at line 3 ends the transform" 1 ||
		fail "$f does not note the lines after TRANSFORM"
	said "$f" "WARNING: JOB_TRANSFORM_Statements line 1: UNIVERSE does nothing in the schedd" 1 ||
		fail "$f does not note UNIVERSE"
done
grep -q 'JOB_TRANSFORM_Statements set up as transform rule #3' "$T/log/SchedLog" ||
	fail "Statements was not set up third"
echo "ok: unusable transforms said so at start-up"

# --- a submission through them -------------------------------------------
cat > "$J/x.sub" <<'SUB'
executable = /bin/true
+FooOne = 1
+FooTwo = "two"
+tmpThing = 3
+BazA = 1
+BazB = "b"
+Gone = 5
+OldName = 6
+Label = "blue"
queue 2
SUB
out=$(as "$A" condor_submit "$J/x.sub" 2>&1) || fail "condor_submit: $out"
C=$(cluster_of "$out")
[ -n "$C" ] || fail "no cluster in: $out"
for p in 0 1; do
	ad=$(condor_q -allusers -l "$C.$p") || fail "condor_q -l $C.$p"
	out=$ad
	has() { grep -qx -- "$1" <<<"$ad" || fail "job $C.$p has no line: $1"; }
	hasnt() { grep -qi -- "^$1 = " <<<"$ad" && fail "job $C.$p still has $1: $(grep -i "^$1 = " <<<"$ad")"; true; }
	has 'BarOne = 1'
	has 'BarTwo = "two"'
	has 'FooOne = 1'
	has 'KeptThing = 3'
	hasnt tmpThing
	hasnt BazA
	hasnt BazB
	hasnt Gone
	has 'NewName = 6'
	has 'HadOldName = true'
	has 'Tag = "blue-x"'
	hasnt NoOldName
	hasnt OldName
	has 'FromStatements = true'
	has 'JobUniverse = 5'
	hasnt AfterTransform
	hasnt FromBadRegex
done
echo "ok: regular expression forms, deletions, if blocks and statements in condor_q -l"

# --- and again at reconfig -------------------------------------------------
condor_reconfig >/dev/null || fail "condor_reconfig"
for f in "$T/log/SchedLog" "$T/StderrLog"; do
	wait_for 20 said "$f" "$bad_regex" 2 || fail "$f does not say it again after reconfig: $bad_regex"
	said "$f" "$bad_word" 2 || fail "$f does not say again: $bad_word"
done
echo "ok: unusable transforms said so at reconfig"
echo "all passed"
