#!/usr/bin/env bash
# submit_vectors.sh PYTHON RUN_PY CONDOR_SUBMIT FILE: the reference's
# condor_submit -dry-run cases, all of which must pass.  The reference ran
# them as user kbuser (nice_user's AcctGroupUser names the submitter): as
# root this makes a system account of that name for the run (and removes
# it); as another user it skips (exit 77), since one case cannot match.
set -u
py=$1 run=$2 submit=$3 file=$4
user=kbuser
made=
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: the cases ran as user $user; run as root to check them"
	exit 77
fi
if ! id "$user" >/dev/null 2>&1; then
	useradd -M -r -s /usr/sbin/nologin "$user" || { echo "FAIL cannot add user $user"; exit 1; }
	made=1
fi
trap '[ -n "$made" ] && userdel "$user" 2>/dev/null' EXIT
out=$(SUBMITVEC_USER=$user "$py" "$run" check "$submit" "$file" 2>&1)
echo "$out"
last=$(echo "$out" | tail -1)
n=$(echo "$last" | sed -n 's/^passed \([0-9]*\) of \([0-9]*\)$/\1 \2/p')
[ -n "$n" ] && [ "${n% *}" = "${n#* }" ]
