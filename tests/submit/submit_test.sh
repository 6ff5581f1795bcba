#!/usr/bin/env bash
# submit_test.sh BUILD_DIR: what the reference cases do not cover.
# JOB_DEFAULT_REQUEST* give the requests of jobs that set none (a job's
# own win); command-line NAME=VALUE and -batch-name reach every job;
# transfer_output_remaps is a string, quoted or not; getenv takes the submitter's
# variables (all, or those a list of patterns names) under environment's; without a running schedd,
# condor_submit says it cannot find it; bad values of the policy and
# limit commands are refused with HTCondor's messages; an expression that
# does not parse, a NUL byte, a description without a queue statement and
# contradictory file transfer commands are refused, naming the line; the
# -append lines win over the description; every inline form of a queue
# statement's item list.
# The GPU limits and the custom-resource and missing-units knobs.
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
# (HTCondor 25 takes it unquoted too: only schedds before 24.5 could not)
"$S" -dry-run - remap2.sub | grep -qx 'TransferOutputRemaps="a = b"' || fail "an unquoted transfer_output_remaps"
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
# HTCondor's list: patterns without case, "!pattern" keeps names out;
# "yes" is no boolean there, but the name of a variable
printf 'executable = /bin/true
getenv = ksx*, !KSX_B
queue
' > getenv3.sub
env_line=$(KSX_A=1 KSX_B=2 OTHER=3 "$S" -dry-run - getenv3.sub | grep '^Environment=')
grep -qw KSX_A=1 <<<"$env_line" && ! grep -q 'KSX_B\|OTHER' <<<"$env_line" ||
	fail "getenv = ksx*, !KSX_B: $env_line"
printf 'executable = /bin/true
getenv = yes
queue
' > getenv4.sub
env_line=$(yes=1 KSX_A=1 "$S" -dry-run - getenv4.sub | grep '^Environment=')
[ "$env_line" = 'Environment="yes=1"' ] || fail "getenv = yes: $env_line"
# hold is read as HTCondor reads a boolean: an expression will do, a
# word will not
printf 'executable = /bin/true
hold = 2 > 1
queue
' > hold.sub
"$S" -dry-run - hold.sub | grep -qx 'JobStatus=5' || fail "hold = 2 > 1"
# bad values of the policy commands: HTCondor's message, nothing submitted
bad() { # COMMANDS MESSAGE
	printf 'executable = /bin/true\n%s\nqueue\n' "$1" > bad.sub
	out=$("$S" -dry-run - bad.sub 2>&1) && fail "accepted: $1"
	grep -qF -- "$2" <<<"$out" || fail "$1: $out"
	grep -q 'dry-run to cluster' <<<"$out" && fail "$1 made jobs: $out"
	return 0
}
bad 'success_exit_code = abc' 'ERROR: success_exit_code=abc is invalid, must eval to an integer.'
bad 'hold = yes' 'ERROR: hold=yes is invalid, must eval to a boolean.'
bad 'max_retries = lots' 'ERROR: max_retries=lots is invalid, must eval to an integer.'
bad 'retry_until = (' 'ERROR: retry_until=( is invalid, it must be an integer or boolean expression.'
bad 'concurrency_limits = 1abc' "ERROR: Invalid concurrency limit '1abc'"
bad 'concurrency_limits = a
concurrency_limits_expr = "b"' "concurrency_limits and concurrency_limits_expr can't be used together"
bad 'notification = sometimes' "Notification must be 'Never', 'Always', 'Complete', 'Start', or 'Error'"
bad 'kill_sig = TERM' 'ERROR: invalid signal TERM'
bad 'stream_output = yes' 'ERROR: stream_output=yes is invalid, must eval to a boolean.'
bad 'accounting_group = a b' 'ERROR: Invalid accounting_group: a b'
bad 'deferral_time = -5' 'deferral_time = -5 is invalid, must eval to a non-negative integer.'
bad 'universe = scheduler
deferral_time = 10' 'DeferralTime does not work for scheduler universe jobs.'
bad 'image_size = 0' 'Image Size must be positive'
bad 'dagman_job_id = -1' 'dagman_job_id=-1 is invalid, must eval to a non-negative integer.'
bad 'job_machine_attrs_history_length = -1' 'job_machine_attrs_history_length=-1 is out of bounds 0 to 2147483647'
bad 'periodic_vacate = (' 'Parse error in expression:'
# malformed if blocks: the file and line, nothing submitted
bad 'if true' 'on Line 3 of bad.sub: endif(s) not found before end-of-file'
bad 'else' 'on Line 2 of bad.sub: else without matching if'
bad 'if true
else
elif false
endif' 'on Line 4 of bad.sub: elif is not allowed after else'
bad 'if 1 + 2
endif' 'on Line 2 of bad.sub: 1 + 2 is not a valid if condition because complex conditionals are not supported'
bad 'arguments = $INT(x)
x = abc' '$INT() error: abc does not evaluate to an integer'
# an expression that does not parse is refused wherever one is wanted,
# naming the line and the parser's reason -- never kept as a string
deep=$(printf '%05000d' 0 | tr 0 '(')1$(printf '%05000d' 0 | tr 0 ')')
bad 'requirements = (((( Memory >' 'on Line 2 of bad.sub: Parse error in expression:'
grep -qF 'requirements = (((( Memory >' <<<"$out" && grep -q 'expected an expression' <<<"$out" ||
	fail "requirements message: $out"
bad '+Foo = [[[[' 'on Line 2 of bad.sub: Parse error in expression:'
grep -qF 'Foo = [[[[' <<<"$out" || fail "+Foo message: $out"
bad "+Deep = $deep" 'nested too deeply'
bad "requirements = $deep" 'on Line 2 of bad.sub: Parse error in expression:'
for cmd in 'periodic_remove = (' 'periodic_release = 1 +' 'on_exit_hold = [' \
	'rank = Memory >' 'MY.Foo = )' 'my.bar = 1 ++' 'concurrency_limits_expr = (' \
	'request_cpus = (' 'request_foo = (' 'leave_in_queue = (' \
	'job_max_vacate_time = (' 'next_job_start_delay = ['; do
	bad "$cmd" 'on Line 2 of bad.sub: Parse error in expression:'
done
bad 'request_gpus = 1
require_gpus = (' 'on Line 3 of bad.sub: Parse error in expression:'
# (the description's own lines, whatever the command line adds)
printf 'executable = /bin/true\nrank = (\nqueue\n' > bad.sub
out=$("$S" -dry-run - -a 'x = 1' -a 'y = 2' n=1 bad.sub 2>&1) && fail "rank = ( with -a"
grep -q 'on Line 2 of bad.sub: Parse error' <<<"$out" || fail "line with -a: $out"
printf 'executable = /bin/true\nqueue\n' > ok.sub
out=$("$S" -dry-run - -a 'x = 1' -a 'bogus line' ok.sub 2>&1) && fail "a bad -append line was taken"
grep -qF 'on Line 2 of the -append lines: syntax error: bogus line' <<<"$out" || fail "-append error: $out"
# -append wins over the description, and -batch-name over both
printf 'executable = /bin/true\narguments = file\nbatch_name = file\nqueue\n' > ap.sub
out=$("$S" -dry-run - -a 'arguments = append' -batch-name cli ap.sub) || fail "ap.sub: $out"
grep -qx 'Args="append"' <<<"$out" && grep -qx 'JobBatchName="cli"' <<<"$out" || fail "-append order: $out"
# +Attr with nothing after '=' is undefined, as in HTCondor
printf 'executable = /bin/true\n+Empty =\nqueue\n' > empty.sub
"$S" -dry-run - empty.sub | grep -qx 'Empty=undefined' || fail "+Empty ="
# a NUL byte: the line that holds it, nothing made
printf 'executable = /bin/true\n\0queue\n' > nul.sub
out=$("$S" -dry-run - nul.sub 2>&1) && fail "a description with a NUL byte was taken: $out"
grep -qF 'on Line 2 of nul.sub: the line holds a NUL byte' <<<"$out" || fail "NUL: $out"
grep -q 'dry-run to cluster' <<<"$out" && fail "NUL made jobs: $out"
printf 'executable = /bin/true\nqueue\n\0' > nul2.sub
out=$("$S" -dry-run - nul2.sub 2>&1) && fail "a NUL after the queue statement was taken: $out"
grep -qF 'on Line 3 of nul2.sub: the line holds a NUL byte' <<<"$out" || fail "NUL at the end: $out"
# no queue statement: refused; only empty ones: a warning, no job
printf 'executable = /bin/true\n' > noq.sub
out=$("$S" -dry-run - noq.sub 2>&1) && fail "a description without queue was taken"
grep -qF 'ERROR: "noq.sub" doesn'"'"'t contain any "queue" commands -- no jobs queued' <<<"$out" || fail "no queue: $out"
for q in 'queue 0' 'queue x in ()'; do
	printf 'executable = /bin/true\n%s\n' "$q" > q0.sub
	out=$("$S" -dry-run - q0.sub 2>&1) || fail "$q: $out"
	grep -qF 'WARNING: "q0.sub" has only empty "queue" commands -- no jobs queued' <<<"$out" &&
		grep -qx '0 job(s) dry-run to cluster 1.' <<<"$out" || fail "$q: $out"
done
# names: a macro's as HTCondor's reader takes one, a job attribute's as
# a ClassAd can hold it
bad 'foo bar = 3' 'on Line 2 of bad.sub: Illegal Identifier: <foo bar>'
bad '+Foo Bar = 1' 'on Line 2 of bad.sub: Foo Bar is not a valid attribute name'
bad 'MY.a.b = 1' 'on Line 2 of bad.sub: a.b is not a valid attribute name'
out=$("$S" -dry-run - 'a b=1' ok.sub 2>&1) && fail "a bad NAME=VALUE name was taken"
grep -qF 'on Line 1 of the command line: Illegal Identifier: <a b>' <<<"$out" || fail "NAME=VALUE: $out"
# an executable that expands to nothing is none; an empty file and a
# directory are no program
bad 'executable = $(nothing)' "No 'executable' parameter was provided"
: > empty.sh
bad "executable = $T/empty.sh" "Executable file $T/empty.sh has zero length"
bad "executable = $T" "Executable file $T is a directory, not a program"
# file transfer as HTCondor checks it
bad 'should_transfer_files = maybe' 'invalid value (maybe) for ShouldTransferFiles.'
bad 'when_to_transfer_output = later' 'invalid value (later) for WhenToTransferOutput.'
bad 'should_transfer_files = NO
transfer_input_files = a.txt' 'you specified files you want Condor to transfer via "transfer_input_files", but you disabled should_transfer_files.'
bad 'should_transfer_files = NO
when_to_transfer_output = ON_EXIT' 'WhenToTransferOutput specified as ON_EXIT yet ShouldTransferFiles defined as NO.'
bad 'should_transfer_files = IF_NEEDED
when_to_transfer_output = ON_EXIT_OR_EVICT' 'are incompatible'
bad 'should_transfer_files = NO
transfer_executable = true' 'You explicitly requested that the executable be transfered'
printf 'executable = /bin/true\nwhen_to_transfer_output = ON_EXIT_OR_EVICT\nqueue\n' > evict.sub
"$S" -dry-run - evict.sub | grep -qx 'ShouldTransferFiles="YES"' || fail "ON_EXIT_OR_EVICT makes the default YES"
# the base job ad's knobs: SUBMIT_ATTRS / SUBMIT_EXPRS (a +name after
# every command, the description's own +attr after it), DEFAULT_RANK
# plus APPEND_RANK, APPEND_REQUIREMENTS after the user's, the owner only
# when SUBMIT_SHOULD_SET_LOCAL_OWNER asks; the sizes measured from the
# files (3000 bytes of executable, 2000 of input and 5000 in a directory)
cat > base.conf <<'CFG'
SUBMIT_ATTRS = KsOne, +KsForced, +KsMine
SUBMIT_EXPRS = KsTwo
KsOne = 1 + 2
KsTwo = "two"
KsForced = "forced"
KsMine = "config"
DEFAULT_RANK = Memory
APPEND_RANK = 10
APPEND_REQUIREMENTS = TARGET.KsOk
FILESYSTEM_DOMAIN = fs.example
CFG
head -c 3000 /dev/zero > exe.sh && chmod +x exe.sh
head -c 2000 /dev/zero > in1 && mkdir -p dir && head -c 5000 /dev/zero > dir/x
printf 'executable = exe.sh\ntransfer_input_files = in1, dir\n+KsMine = "mine"\nrequirements = Memory > 1\nqueue 2\n' > base.sub
out=$(CONDOR_CONFIG=$T/base.conf "$S" -dry-run - base.sub 2>&1) || fail "base.sub: $out"
for want in 'KsOne=1 + 2' 'KsTwo="two"' 'KsForced="forced"' 'KsMine="mine"' 'Rank=(Memory) + (10)' \
	'Owner=undefined' 'MyType="Job"' 'TargetType="Machine"' 'JobSubmitMethod=0' 'NumJobStarts=0' \
	'JobSubmitFile="base.sub"' 'ExecutableSize=3' 'ImageSize=3' 'DiskUsage=10' \
	'TransferInputSizeMB=1' 'FileSystemDomain="fs.example"'; do
	grep -qxF "$want" <<<"$out" || fail "base ad: no $want: $out"
done
grep -q '^Requirements=(Memory > 1) && (TARGET.KsOk) && (TARGET.Arch' <<<"$out" || fail "APPEND_REQUIREMENTS: $out"
grep -q '^QDate=[0-9]*$' <<<"$out" && [ "$(grep -c '^QDate=' <<<"$out")" = 1 ] || fail "one QDate for both jobs: $out"
printf 'SUBMIT_SHOULD_SET_LOCAL_OWNER = true\n' > owner.conf
CONDOR_CONFIG=$T/owner.conf "$S" -dry-run - base.sub | grep -qx "Owner=\"$(id -un)\"" ||
	fail "SUBMIT_SHOULD_SET_LOCAL_OWNER"
printf 'SUBMIT_ATTRS = +KsBad\nKsBad = [[\n' > badattr.conf
out=$(CONDOR_CONFIG=$T/badattr.conf "$S" -dry-run - base.sub 2>&1) && fail "a +name of SUBMIT_ATTRS that does not parse was taken"
grep -qF 'in the configuration (SUBMIT_ATTRS): Parse error in expression:' <<<"$out" || fail "SUBMIT_ATTRS error: $out"
# standard input has no JobSubmitFile
"$S" -dry-run - - < base.sub | grep -q '^JobSubmitFile=' && fail "JobSubmitFile for standard input"
# $(SUBMIT_FILE) is the name given; standard input has none
printf 'executable = /bin/true\narguments = [$(SUBMIT_FILE)]\nqueue\n' > sf.sub
"$S" -dry-run - sf.sub | grep -qx 'Args="\[sf.sub\]"' || fail "SUBMIT_FILE"
"$S" -dry-run - - < sf.sub | grep -qx 'Args="\[\]"' || fail "SUBMIT_FILE of stdin"
# (a warning only: the accounting group wins over nice_user)
printf 'executable = /bin/true\nnice_user = true\naccounting_group = g\nqueue\n' > nice.sub
out=$("$S" -dry-run - nice.sub 2>&1) || fail "nice_user with a group: $out"
grep -q 'WARNING: nice_user conflicts with accounting_group' <<<"$out" || fail "nice warning: $out"
grep -qx 'AcctGroup="g"' <<<"$out" || fail "nice_user took the group: $out"
# SUBMIT_GENERATE_CUSTOM_RESOURCE_REQUIREMENTS = false keeps the GPUs
# clause only; SUBMIT_REQUEST_MISSING_UNITS = error refuses a
# gpus_minimum_memory without a unit (warn: a warning)
printf 'executable = /bin/true\nrequirements = TARGET.X == 1\nrequest_gpus = 1\nrequest_foo = 2\ngpus_minimum_memory = 100\nqueue\n' > gpu.sub
printf 'SUBMIT_GENERATE_CUSTOM_RESOURCE_REQUIREMENTS = false\n' > knobs.conf
out=$(CONDOR_CONFIG=$T/knobs.conf "$S" -dry-run - gpu.sub 2>&1) || fail "gpu.sub: $out"
grep -q '^Requirements=.*(countMatches(MY.RequireGPUs,TARGET.AvailableGPUs) >= RequestGPUs)' <<<"$out" || fail "GPUs clause: $out"
grep -q '^Requirements=.*TARGET.foo' <<<"$out" && fail "custom clause despite the knob: $out"
grep -qx 'GPUsMinMemory=100' <<<"$out" || fail "gpus_minimum_memory: $out"
printf 'SUBMIT_REQUEST_MISSING_UNITS = error\n' > knobs.conf
out=$(CONDOR_CONFIG=$T/knobs.conf "$S" -dry-run - gpu.sub 2>&1) && fail "a bare gpus_minimum_memory was taken"
grep -qF 'gpus_minimum_memory=100 defaults to megabytes, but must contain a units suffix (i.e K, M, or B)' <<<"$out" || fail "units error: $out"
printf 'SUBMIT_REQUEST_MISSING_UNITS = warn\n' > knobs.conf
out=$(CONDOR_CONFIG=$T/knobs.conf "$S" -dry-run - gpu.sub 2>&1) || fail "units warning failed: $out"
grep -qF 'WARNING: gpus_minimum_memory=100 defaults to megabytes, but should contain a units suffix' <<<"$out" || fail "units warning: $out"
grep -q '^Requirements=.*(TARGET.foo >= Requestfoo)' <<<"$out" || fail "custom clause: $out"
out=$("$S" job.sub 2>&1) && fail "submitted without a schedd: $out"
echo "$out" | grep -q "Can't find address of local schedd" || fail "no schedd: $out"
out=$("$S" -bogus job.sub 2>&1) && fail "a bad flag was accepted"
echo "$out" | grep -q "Unknown argument '-bogus'" || fail "bad flag: $out"
out=$("$S" -interactive job.sub 2>&1) && fail "-interactive was accepted: $out"
grep -qF -- "-interactive is an HTCondor option that kestrel's condor_submit does not support (interactive jobs" <<<"$out" ||
	fail "-interactive: $out"
out=$("$S" -spool job.sub 2>&1) && fail "-spool was accepted: $out"
grep -qF -- "-spool is an HTCondor option that kestrel's condor_submit does not support" <<<"$out" ||
	fail "-spool: $out"
# Every inline form of an item list, qualifiers and slices, as HTCondor's
# submit reads them: Arguments shows each job's variables and $(ItemIndex).
mkdir -p items && touch items/f1.dat items/f2.dat items/f3.dat && mkdir items/d1
cat > items/q.sub <<'SUB'
executable = /bin/true
arguments = "$(a)|$(b)|$(ItemIndex)"
queue a b from ( x1 y1
  x2, y2 rest
# a comment, and an empty line

)
queue a, b from (p q r)
queue 2 a in [1:3] (u v w z)
queue a in (
 one, two
 three
)
queue a in s t
queue a matching files *.dat
queue a matching [::2] (*.dat)
queue a matching dirs (d*)
queue a b from -
SUB
out=$(cd items && printf 'c1 c2\nd1\n' | "$S" -dry-run - q.sub 2>&1) || fail "inline item lists: $out"
got=$(sed -n 's/^Arguments="\(.*\)"$/\1/p' <<<"$out" | tr '\n' ' ')
want="x1|y1|0 x2|y2 rest|1 p|q r|0 v||1 v||1 w||2 w||2 one||0 two||1 three||2 s||0 t||1 "
want+="f1.dat||0 f2.dat||1 f3.dat||2 f1.dat||0 f3.dat||2 d1||0 c1|c2|0 d1||1 "
[ "$got" = "$want" ] || fail "inline item lists: got [$got]"
printf 'executable = /bin/true\nqueue a from (\n x\n' > items/open.sub
out=$("$S" -dry-run - items/open.sub 2>&1) && fail "an item list without its ) was taken"
grep -qF "Reached end of file without finding closing brace ')' for Queue command on line 2" <<<"$out" ||
	fail "unclosed list: $out"
printf 'executable = /bin/true\nqueue a in [1:x] (u v)\n' > items/slice.sub
out=$("$S" -dry-run - items/slice.sub 2>&1) && fail "a bad slice was taken"
grep -qF "Invalid [::] statement" <<<"$out" || fail "bad slice: $out"
printf 'executable = /bin/true\nqueue a from ls |\n' > items/cmd.sub
out=$("$S" -dry-run - items/cmd.sub 2>&1) && fail "queue from a command was taken"
grep -qF "queue from a command is not supported" <<<"$out" || fail "from a command: $out"
echo "submit_test: all checks passed"
