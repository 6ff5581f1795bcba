#!/usr/bin/env bash
# version_test.sh BUILD: condor_version's output, options and errors, and
# that a daemon-facing tool's -version prints the same lines.
set -u
B=$(cd "$1" && pwd)
V=$B/tools/condor_version/condor_version
fail() { echo "FAIL: $*"; exit 1; }

out=$("$V") || fail "status $?"
[ "$(wc -l <<<"$out")" = 2 ] || fail "not two lines: '$out'"
grep -Eqx '\$CondorVersion: [0-9]+\.[0-9]+\.[0-9]+ [0-9]{4}-[0-9]{2}-[0-9]{2} .*\$' <<<"$(sed -n 1p <<<"$out")" ||
	fail "version line: '$out'"
grep -Eqx '\$CondorPlatform: [^ ]+ \$' <<<"$(sed -n 2p <<<"$out")" || fail "platform line: '$out'"
[ "$("$B/tools/condor_vacate/condor_vacate" -version)" = "$out" ] || fail "condor_vacate -version differs"

platform=$(sed -n 's/^\$CondorPlatform: \(.*\)$/\1/p' <<<"$out")
# HTCondor's split: up to the first '-' (none here), then to ' ' or '$'
[ "$("$V" -arch)" = "$platform" ] || fail "-arch: '$("$V" -arch)'"
[ "$("$V" -opsys)" = "" ] || fail "-opsys"
[ "$("$V" -o -a)" = "$(printf '\n%s' "$platform")" ] || fail "-o -a order"
[ "$("$V" -a -o)" = "$(printf '%s\n' "$platform")" ] || fail "-a -o order"

err=$("$V" -help 2>&1 >/dev/null); rc=$?
[ "$rc" = 0 ] && grep -q "^Usage: .*condor_version \[options\]" <<<"$err" || fail "-help: $rc '$err'"
err=$("$V" -version 2>&1 >/dev/null); rc=$?
[ "$rc" = 1 ] && grep -qx "ERROR: unrecognized argument: '-version'" <<<"$err" || fail "-version: $rc '$err'"
err=$("$V" foo 2>&1 >/dev/null); rc=$?
[ "$rc" = 1 ] && grep -qx "ERROR: invalid argument: 'foo'" <<<"$err" || fail "foo: $rc '$err'"
echo "ok: condor_version"
