# compare_case.sh, sourced by the command-case runners: compare_case
# EXPECTED NAME RC WANT_RC OUT ERR compares a case's exit status RC with
# WANT_RC, its stdout (file OUT) with EXPECTED/NAME.out and its stderr
# (file ERR) with NAME.err, or only its first lines with NAME.errhead (no
# file: stderr must be empty).  Prints what differs; returns 1 if
# anything does.
compare_case() {
	local exp=$1 name=$2 rc=$3 want_rc=$4 out=$5 err=$6 fail=0
	if [ "$rc" != "$want_rc" ]; then
		echo "exit status $rc, expected $want_rc"
		fail=1
	fi
	if ! diff -u "$exp/$name.out" "$out"; then
		echo "stdout differs from expected/$name.out"
		fail=1
	fi
	if [ -f "$exp/$name.err" ]; then
		diff -u "$exp/$name.err" "$err" || { echo "stderr differs"; fail=1; }
	elif [ -f "$exp/$name.errhead" ]; then
		local n
		n=$(wc -l <"$exp/$name.errhead")
		head -n "$n" "$err" | diff -u "$exp/$name.errhead" - ||
			{ echo "stderr differs"; fail=1; }
	elif [ -s "$err" ]; then
		echo "unexpected stderr:"; cat "$err"; fail=1
	fi
	return $fail
}
