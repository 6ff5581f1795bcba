#!/usr/bin/env bash
# submit_test.sh BUILD_DIR: what the reference cases do not cover.
# JOB_DEFAULT_REQUEST* give the requests of jobs that set none (a job's
# own win); command-line NAME=VALUE and -batch-name reach every job;
# transfer_output_remaps is a quoted string; getenv takes the submitter's
# variables (all, or those a list of patterns names) under environment's; without a running schedd,
# condor_submit says it cannot find it.
set -u
S=$1/tools/condor_submit/condor_submit
T=$(mktemp -d /tmp/kssubmit.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$T"
cat > condor_config <<'CFG'
JOB_DEFAULT_REQUESTMEMORY = 512
JOB_DEFAULT_REQUESTCPUS = 2
JOB_DEFAULT_REQUESTDISK = 4096
CFG
export CONDOR_CONFIG=$T/condor_config
printf 'executable = /bin/true\nqueue\nrequest_memory = 64\nqueue\n' > job.sub
out=$("$S" -dry-run - -batch-name night tag=blue job.sub) || fail "dry-run: $out"
[ "$(echo "$out" | grep -c '^RequestMemory=512$')" = 1 ] || fail "JOB_DEFAULT_REQUESTMEMORY: $out"
echo "$out" | grep -qx 'RequestMemory=64' || fail "a job's own request_memory: $out"
echo "$out" | grep -qx 'RequestCpus=2' || fail "JOB_DEFAULT_REQUESTCPUS: $out"
echo "$out" | grep -qx 'RequestDisk=4096' || fail "JOB_DEFAULT_REQUESTDISK: $out"
echo "$out" | grep -qx 'JobBatchName="night"' || fail "-batch-name: $out"
echo "$out" | tail -1 | grep -qx '2 job(s) dry-run to cluster 1.' || fail "summary: $out"
printf 'executable = /bin/true\narguments = $(tag)\nqueue\n' > tag.sub
"$S" -dry-run - tag=blue tag.sub | grep -qx 'Args="blue"' || fail "NAME=VALUE on the command line"
printf 'executable = /bin/true\ntransfer_output_remaps = "a = b/a; c = d"\nqueue\n' > remap.sub
"$S" -dry-run - remap.sub | grep -qx 'TransferOutputRemaps="a = b/a; c = d"' || fail "transfer_output_remaps"
printf 'executable = /bin/true\ntransfer_output_remaps = a = b\nqueue\n' > remap2.sub
out=$("$S" -dry-run - remap2.sub 2>&1) && fail "an unquoted transfer_output_remaps was taken"
echo "$out" | grep -q 'transfer_output_remaps must be a quoted string, not: a = b' || fail "remaps error: $out"
printf 'executable = /bin/true\ngetenv = KSX*\nenvironment = "KSX_B=mine"\nqueue\n' > getenv.sub
out=$(KSX_A=1 KSX_B=2 OTHER=3 "$S" -dry-run - getenv.sub)
# (the order is the environment's own)
env_line=$(echo "$out" | grep '^Environment=')
for want in KSX_A=1 KSX_B=mine; do
	grep -qw "$want" <<<"$env_line" || fail "getenv with a pattern: $out"
done
grep -q 'OTHER\|KSX_B=2' <<<"$env_line" && fail "getenv took too much: $out"
printf 'executable = /bin/true\ngetenv = true\nqueue\n' > getenv2.sub
KSX_ALL=yes "$S" -dry-run - getenv2.sub | grep -q '^Environment=".*KSX_ALL=yes' || fail "getenv = true"
out=$("$S" job.sub 2>&1) && fail "submitted without a schedd: $out"
echo "$out" | grep -q "Can't find address of local schedd" || fail "no schedd: $out"
out=$("$S" -bogus job.sub 2>&1) && fail "a bad flag was accepted"
echo "$out" | grep -q "Unknown argument '-bogus'" || fail "bad flag: $out"
echo "submit_test: all checks passed"
