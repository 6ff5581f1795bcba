#!/usr/bin/env bash
# xfer_test.sh BUILD: file transfer on a personal pool whose startd is on
# another file system domain (STARTD.FILESYSTEM_DOMAIN = exec.example),
# so that jobs run in the starter's sandbox: the executable, In and
# transfer_input_files (a file and a directory's contents) go to the
# sandbox; Out, Err, the files the job makes (and a remapped one) come
# back into Iwd, owned by the job's owner; a missing input file holds the
# job with code 13.  As root the job belongs to a temporary account.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/lib_pool.sh"
tools_on_path

pool_dir xfer_test
chmod 755 "$T"
job_account ksxfer
J=$T/jobs
mkdir -p "$J" && chown "$A" "$J" && chmod 700 "$J"

job_pool_config <<CFG
NUM_CPUS = 2
FILESYSTEM_DOMAIN = submit.example
STARTD.FILESYSTEM_DOMAIN = exec.example
CFG

start_master
wait_for 20 sh -c 'condor_status -af FileSystemDomain | grep -q exec.example' || fail "no slot"
wait_for 20 sh -c 'condor_status -schedd -af Name | grep -q .' || fail "no schedd ad"

# the job reads its inputs from its working directory (the sandbox) and
# writes outputs there; it must not see Iwd
as "$A" sh -c "cat > '$J/job.sh'" <<'SH'
#!/bin/sh
case "$PWD" in */jobs) echo "ran in Iwd" >&2; exit 9;; esac
read line
echo "stdin: $line"
echo "input: $(cat data.txt)"
echo "deep: $(cat sub/deep.txt)"
echo "error text" >&2
tr a-z A-Z < data.txt > result.txt
echo "remapped" > remap.me
mkdir -p newdir && echo x > newdir/ignored
exit 3
SH
as "$A" sh -c "
chmod 755 '$J/job.sh'
echo hello > '$J/data.txt'
echo from-stdin > '$J/in.txt'
mkdir -p '$J/tree/sub' && echo deep > '$J/tree/sub/deep.txt'
mkdir -p '$J/outs'
"
as "$A" sh -c "cat > '$J/x.sub'" <<SUB
executable = job.sh
initialdir = $J
input = in.txt
output = out.txt
error = outs/err.txt
transfer_input_files = data.txt, tree/
# condor_submit does not know transfer_output_remaps yet: the attribute
+TransferOutputRemaps = "remap.me = outs/remapped.txt"
log = x.log
queue
SUB
out=$(cd "$J" && as "$A" condor_submit x.sub) || fail "condor_submit: $out"
C=$(cluster_of "$out")
wait_for 60 in_history "$C" 1 || { condor_q -allusers -l "$C" >&2; fail "the transfer job did not finish"; }
[ "$(condor_history -af ExitCode -constraint "ClusterId == $C")" = 3 ] || fail "exit code"
grep -q "^stdin: from-stdin$" "$J/out.txt" || fail "stdout: $(cat "$J/out.txt")"
grep -q "^input: hello$" "$J/out.txt" || fail "input file: $(cat "$J/out.txt")"
grep -q "^deep: deep$" "$J/out.txt" || fail "directory contents: $(cat "$J/out.txt")"
[ "$(cat "$J/outs/err.txt")" = "error text" ] || fail "stderr"
[ "$(cat "$J/result.txt")" = HELLO ] || fail "result.txt"
[ "$(cat "$J/outs/remapped.txt")" = remapped ] || fail "remap"
[ ! -e "$J/newdir" ] || fail "a new directory came back without being named"
[ ! -e "$J/data.txt.1" ] || true
for f in out.txt outs/err.txt result.txt outs/remapped.txt; do
	[ "$(stat -c %U "$J/$f")" = "$A" ] || fail "$f belongs to $(stat -c %U "$J/$f")"
done
sent=$(condor_history -af BytesSent -constraint "ClusterId == $C")
recvd=$(condor_history -af BytesRecvd -constraint "ClusterId == $C")
awk -v s="$sent" -v r="$recvd" 'BEGIN { exit !(s > 0 && r > 0) }' || fail "BytesSent $sent BytesRecvd $recvd"
# the file transfer events (040) around the run, as HTCondor's shadow
# writes them
seq=$(awk '$1 == "040" {print $1 ":" $5 "-" $7; next} /^0[0-9][0-9] / {print $1}' "$J/x.log" | tr '\n' ' ')
[ "$seq" = "000 040:Started-input 040:Finished-input 001 040:Started-output 040:Finished-output 005 " ] ||
	fail "events: $seq"
grep -A1 'Started transferring input files' "$J/x.log" | grep -q $'^\tTransferring to host: <' ||
	fail "040 without the host: $(grep -A1 'Started transferring input' "$J/x.log")"
for a in TransferInStarted TransferInFinished TransferOutStarted TransferOutFinished; do
	[ -n "$(condor_history -af $a -constraint "ClusterId == $C")" ] || fail "no $a"
done
[ "$(condor_history -af NumInputTransferStarts NumOutputTransferStarts -constraint "ClusterId == $C")" = "1 1" ] ||
	fail "transfer starts: $(condor_history -af NumInputTransferStarts NumOutputTransferStarts -constraint "ClusterId == $C")"
echo "ok: input and output transfer, owner $A; 040 events"

# transfer_output_files names what comes back
as "$A" sh -c "cat > '$J/y.sub'" <<SUB
executable = /bin/sh
transfer_executable = false
arguments = "-c 'echo a > a.txt; echo b > b.txt; mkdir d; echo c > d/c.txt'"
initialdir = $J
should_transfer_files = YES
transfer_output_files = a.txt, d
queue
SUB
out=$(cd "$J" && as "$A" condor_submit y.sub) || fail "condor_submit: $out"
C=$(cluster_of "$out")
wait_for 60 in_history "$C" 1 || fail "the transfer_output_files job did not finish"
[ "$(cat "$J/a.txt")" = a ] || fail "a.txt"
[ ! -e "$J/b.txt" ] || fail "b.txt came back unasked"
[ "$(cat "$J/d/c.txt")" = c ] || fail "d/c.txt"
echo "ok: transfer_output_files"

# a missing input file holds the job with code 13
as "$A" sh -c "cat > '$J/z.sub'" <<SUB
executable = job.sh
initialdir = $J
transfer_input_files = missing.txt
queue
SUB
out=$(cd "$J" && as "$A" condor_submit z.sub) || fail "condor_submit: $out"
C=$(cluster_of "$out")
wait_for 60 status_is "$C.0" 5 || fail "the job with a missing input was not held"
code=$(condor_q -allusers "$C.0" -af HoldReasonCode HoldReasonSubCode)
[ "$code" = "13 2" ] || fail "hold code: $code"
reason=$(condor_q -allusers "$C.0" -af HoldReason)
grep -q "^Transfer input files failure at access point .* Details: reading from file $J/missing.txt: (errno 2) No such file or directory$" <<<"$reason" || fail "hold reason: $reason"
echo "ok: missing input holds with code 13"
