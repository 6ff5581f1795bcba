#!/usr/bin/env bash
# submit_pool_test.sh BUILD: condor_submit's job ads as a personal pool
# queues and runs them.  The ad in the queue (condor_q -l) holds every
# attribute -dry-run prints for the same description, with the values it
# prints (one code makes both), but for what the schedd sets itself:
# Owner (undefined from condor_submit) is the submitter, User
# owner@UID_DOMAIN.  A should_transfer_files = NO job carries its
# FileSystemDomain, so it matches a slot of the same domain and runs in
# its Iwd; the schedd counts its start and completion over the zeros
# condor_submit sent.  A description with an expression that does not
# parse, or with a NUL byte, is refused and queues nothing.  As root the
# jobs belong to a temporary account.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path

pool_dir submit_pool_test
chmod 755 "$T"
job_account kssubpool
J=$T/jobs
mkdir -p "$J" && chown "$A" "$J" && chmod 755 "$J"

job_pool_config <<CFG
NUM_CPUS = 1
UID_DOMAIN = submit.example
FILESYSTEM_DOMAIN = shared.example
CFG

start_master
wait_for 20 sh -c 'condor_status -af FileSystemDomain | grep -qx shared.example' || fail "no slot"
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"

# one description, dry-run and submitted (held, so that it stays as it
# was queued)
as "$A" sh -c "cat > '$J/held.sub'" <<SUB
executable = /bin/true
initialdir = $J
hold = true
+KsTag = "one path"
queue
SUB
before=$(date +%s)
dry=$(cd "$J" && as "$A" condor_submit -dry-run - held.sub) || fail "dry-run: $dry"
out=$(cd "$J" && as "$A" condor_submit held.sub) || fail "condor_submit: $out"
C=$(cluster_of "$out")
[ -n "$C" ] || fail "no cluster: $out"
q=$(condor_q -allusers -l "$C.0") || fail "condor_q -l: $q"
# (spaces aside: condor_q -l writes "Name = value")
qn=$(sed 's/ = /=/' <<<"$q" | tr -d ' ')
n=0
while IFS= read -r line; do
	[ "$line" = . ] && break
	case $line in *=*) ;; *) continue ;; esac
	case ${line%%=*} in ClusterId | ProcId | Owner | QDate) continue ;; esac
	grep -qxF -- "$(tr -d ' ' <<<"$line")" <<<"$qn" || fail "the queued ad differs from -dry-run's at: $line"
	n=$((n + 1))
done < <(sed 1d <<<"$dry")
[ "$n" -gt 50 ] || fail "only $n attributes compared: $dry"
for a in 'MyType="Job"' 'TargetType="Machine"' 'JobSubmitMethod=0' 'NumJobStarts=0' \
	'RemoteWallClockTime=0.0' 'ExitBySignal=false' 'JobSubmitFile="held.sub"' \
	'FileSystemDomain="shared.example"' 'KsTag="onepath"' "Owner=\"$A\"" \
	"User=\"$A@submit.example\""; do
	grep -qxF "$a" <<<"$qn" || fail "condor_q -l lacks $a: $q"
done
for a in ExecutableSize ImageSize DiskUsage TransferInputSizeMB; do
	grep -qx "$a=[1-9][0-9]*" <<<"$qn" || fail "condor_q -l: no $a: $q"
done
grep -q '^Requirements=.*TARGET.FileSystemDomain==MY.FileSystemDomain' <<<"$qn" ||
	fail "Requirements: $(grep '^Requirements' <<<"$q")"
qdate=$(sed -n 's/^QDate=//p' <<<"$qn")
[ "$qdate" -ge "$before" ] && [ "$qdate" -le "$(date +%s)" ] || fail "QDate $qdate"
echo "ok: the queued ad is the dry-run's ($n attributes), with the schedd's Owner and User"

# should_transfer_files = NO: the job's FileSystemDomain meets the
# slot's, and it runs in its Iwd
as "$A" sh -c "cat > '$J/shared.sub'" <<SUB
executable = /bin/sh
arguments = "-c 'pwd > where.txt'"
initialdir = $J
should_transfer_files = NO
log = shared.log
queue
SUB
out=$(cd "$J" && as "$A" condor_submit shared.sub) || fail "condor_submit: $out"
C2=$(cluster_of "$out")
wait_for 60 in_history "$C2" 1 || {
	condor_q -allusers -l "$C2" >&2
	fail "the should_transfer_files = NO job did not run"
}
[ "$(cat "$J/where.txt")" = "$J" ] || fail "ran in $(cat "$J/where.txt"), not $J"
h=$(condor_history -af NumJobStarts NumJobCompletions ExitCode ExitBySignal FileSystemDomain \
	-constraint "ClusterId == $C2")
[ "$h" = "1 1 0 false shared.example" ] || fail "history: $h"
echo "ok: a should_transfer_files = NO job matched, ran in its Iwd, counted by the schedd"

# refused descriptions queue nothing
jobs_now() { condor_q -allusers -af ClusterId ProcId | wc -l; }
had=$(jobs_now)
as "$A" sh -c "printf 'executable = /bin/true\ninitialdir = $J\nrequirements = (((( Memory >\nqueue 3\n' > '$J/bad.sub'"
out=$(cd "$J" && as "$A" condor_submit bad.sub 2>&1) && fail "a requirements that does not parse was submitted: $out"
grep -q 'on Line 3 of bad.sub: Parse error in expression' <<<"$out" || fail "bad requirements: $out"
as "$A" sh -c "printf 'executable = /bin/true\ninitialdir = $J\n\0queue\n' > '$J/nul.sub'"
out=$(cd "$J" && as "$A" condor_submit nul.sub 2>&1) && fail "a description with a NUL byte was submitted: $out"
grep -q 'on Line 3 of nul.sub: the line holds a NUL byte' <<<"$out" || fail "NUL: $out"
grep -q 'Submitting job' <<<"$out" && fail "NUL: submitting: $out"
[ "$(jobs_now)" = "$had" ] || fail "a refused description queued jobs: $(condor_q -allusers -af ClusterId ProcId)"
echo "ok: refused descriptions queue nothing"

# HTCondor's submission limits, counted as its schedd counts them: the
# whole queue, the owner's jobs, one submission's; a refused submission
# queues nothing and says which limit, as HTCondor's condor_submit does.
# reconfig_schedd: condor_reconfig, and the schedd has read the file
reconfig_schedd() {
	local n
	n=$(grep -c '^.* reconfigured$' "$T/log/SchedLog")
	condor_reconfig >/dev/null || fail "condor_reconfig"
	wait_for 20 sh -c "[ \$(grep -c '^.* reconfigured\$' '$T/log/SchedLog') -gt $n ]" ||
		fail "the schedd did not reconfigure"
}
# limited N: submits N held jobs as $A
limited() {
	as "$A" sh -c "printf 'executable = /bin/true\ninitialdir = $J\nhold = true\nqueue $1\n' > '$J/n.sub'"
	out=$(cd "$J" && as "$A" condor_submit n.sub 2>&1)
}
had=$(jobs_now)
cat >> "$CONDOR_CONFIG" <<CFG
MAX_JOBS_PER_SUBMISSION = 4
MAX_JOBS_PER_OWNER = $((had + 6))
MAX_JOBS_SUBMITTED = $((had + 8))
CFG
reconfig_schedd
limited 5 && fail "5 jobs in one submission were taken: $out"
grep -qzF $'ERROR: Failed to create proc\nNumber of submitted jobs would exceed MAX_JOBS_PER_SUBMISSION' <<<"$out" ||
	fail "MAX_JOBS_PER_SUBMISSION: $out"
[ "$(jobs_now)" = "$had" ] || fail "a refused submission queued jobs"
limited 4 || fail "4 jobs: $out"
limited 3 && fail "the owner's jobs past MAX_JOBS_PER_OWNER were taken: $out"
grep -qF 'Number of submitted jobs would exceed MAX_JOBS_PER_OWNER' <<<"$out" || fail "MAX_JOBS_PER_OWNER: $out"
limited 2 || fail "the owner's last 2 jobs: $out"
[ "$(jobs_now)" = $((had + 6)) ] || fail "jobs after the owner's limit: $(jobs_now)"
cat >> "$CONDOR_CONFIG" <<CFG
MAX_JOBS_PER_OWNER = 1000
MAX_JOBS_SUBMITTED = $((had + 6))
CFG
reconfig_schedd
limited 1 && fail "a job past MAX_JOBS_SUBMITTED was taken: $out"
grep -qzF "ERROR: MAX_JOBS_SUBMITTED exceeded. Current=$((had + 6)), Limit=$((had + 6))"$'\nNumber of submitted jobs would exceed MAX_JOBS_SUBMITTED' <<<"$out" ||
	fail "MAX_JOBS_SUBMITTED: $out"
[ "$(jobs_now)" = $((had + 6)) ] || fail "a job past MAX_JOBS_SUBMITTED was queued"
echo "ok: MAX_JOBS_PER_SUBMISSION, MAX_JOBS_PER_OWNER and MAX_JOBS_SUBMITTED refuse as HTCondor's schedd does"
echo "submit_pool_test: all checks passed"
