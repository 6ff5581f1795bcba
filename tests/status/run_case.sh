#!/bin/bash
# run_case.sh BINARY DIR NAME: runs the case NAME of DIR/cases.txt (its
# arguments, from DIR/ads, as "condor_status") and compares the exit
# status, stdout with DIR/expected/NAME.out and stderr with NAME.err (or
# only its first lines with NAME.errhead; no file: stderr must be empty).
set -u
. "$(dirname "$0")/../support/compare_case.sh"
bin=$1 dir=$2 name=$3
line=$(grep -E "^$name[[:space:]]" "$dir/cases.txt")
[ -n "$line" ] || { echo "no case $name in $dir/cases.txt"; exit 1; }
want_rc=$(echo "$line" | awk '{print $2}')
args=$(echo "$line" | sed -E 's/^[^[:space:]]+[[:space:]]+[^[:space:]]+[[:space:]]*//')
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$dir/ads" || exit 1
# a fixed zone for dates, no configuration files, no DNS
TZ=UTC CONDOR_CONFIG=ONLY_ENV _CONDOR_NO_DNS=true \
	eval "(exec -a condor_status \"\$bin\" $args)" >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
compare_case "$dir/expected" "$name" "$rc" "$want_rc" "$tmp/out" "$tmp/err"

