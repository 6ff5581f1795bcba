# lib.sh: what the pool tests share (sourced).

# Daemons started by root run as the account CONDOR_IDS names (ks_priv.h):
# the pool tests run theirs as root, in directories root made;
# tests/daemon/priv_test.sh runs a whole pool as an unprivileged account.
[ "$(id -u)" = 0 ] && export CONDOR_IDS=0.0

# wait_for SECONDS COMMAND...: polls until the command succeeds; returns 1
# when the time is up.
wait_for() {
	local until=$(( $(date +%s) + $1 )); shift
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -ge "$until" ] && return 1
		sleep 0.1
	done
}

# fail MESSAGE: says what failed, the last output ($out) and the ends of
# the daemons' logs found under $T, then exits 1.
fail() {
	echo "FAIL: $*"
	[ -n "${out:-}" ] && echo "out: $out"
	for f in $(find "$T" -name '*Log' | sort); do
		echo "== $f"
		tail -"${TAIL:-20}" "$f"
	done
	exit 1
}
