#!/bin/bash
# run_case.sh DIR NAME PROG=PATH...: runs the case NAME of DIR/cases.txt
# ("NAME STATUS PROGRAM ARGS...") in DIR/ads, as PROGRAM (the PATH given
# for it), and compares the exit status, stdout with DIR/expected/NAME.out
# and stderr with NAME.err (or only its first lines with NAME.errhead; no
# file: stderr must be empty).
set -u
. "$(dirname "$0")/../support/compare_case.sh"
dir=$1 name=$2
shift 2
line=$(grep -E "^$name[[:space:]]" "$dir/cases.txt")
[ -n "$line" ] || { echo "no case $name in $dir/cases.txt"; exit 1; }
want_rc=$(echo "$line" | awk '{print $2}')
prog=$(echo "$line" | awk '{print $3}')
args=$(echo "$line" | sed -E 's/^[^[:space:]]+[[:space:]]+[^[:space:]]+[[:space:]]+[^[:space:]]+[[:space:]]*//')
bin=
for p in "$@"; do
	[ "${p%%=*}" = "$prog" ] && bin=${p#*=}
done
[ -n "$bin" ] || { echo "no program $prog given"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$dir/ads" || exit 1
# a fixed zone for dates, no configuration files, no DNS
TZ=UTC CONDOR_CONFIG=ONLY_ENV _CONDOR_NO_DNS=true \
	eval "(exec -a $prog \"\$bin\" $args)" >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
# a title of jobs that carry no ServerTime shows the time now
if grep -q '@ <now>$' "$dir/expected/$name.out"; then
	sed -E -i 's|^(-- .*) @ [0-9]{2}/[0-9]{2}/[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$|\1 @ <now>|' "$tmp/out"
fi
compare_case "$dir/expected" "$name" "$rc" "$want_rc" "$tmp/out" "$tmp/err"

