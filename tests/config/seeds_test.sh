#!/usr/bin/env bash
# The configuration examples of the seed documents (the HTCondor manual
# sections in ../shared/seeds) load and give the values the seeds show.
#
# Each seeds/NNN-name.conf is one example; condor_config_val reads it as the
# global configuration (CONDOR_CONFIG), run in an empty temporary directory
# with HOME set to it and no _CONDOR_ variable in its environment. Each line
# of seeds/NNN-name.expect is one check:
#
#   NAME = value   condor_config_val NAME prints exactly value
#   !NAME          NAME is not defined (exit 1, "Not defined: NAME")
#
# Blank lines and lines starting with # are ignored. In a value, \n stands
# for a newline, \t for a tab, \\ for a backslash and \s for a space (used for
# a space at either end of a value, which the line would not show); {{NAME}}
# stands for what condor_config_val NAME prints with an empty configuration
# (a detected value that depends on the machine, such as DETECTED_CORES).
#
# Prints a line per mismatch and exits 1 if there is any.
# Usage: seeds_test.sh BUILD_DIR
set -uo pipefail
build=${1:?usage: seeds_test.sh BUILD_DIR}
build=$(cd "$build" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
seeds=$here/seeds
ccv=$build/tools/condor_config_val/condor_config_val
[ -x "$ccv" ] || { echo "no condor_config_val at $ccv" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/empty.conf"
mkdir "$tmp/run"
cd "$tmp/run" || exit 2

# The environment of the runs: this one (sanitizer options and the like stay)
# without any _CONDOR_ variable (the prefix in any case).
unset_env=()
for v in $(compgen -e); do
	case ${v^^} in
	_CONDOR_*) unset_env+=(-u "$v") ;;
	esac
done

# ccv CONFIG ARGS...: condor_config_val, in $tmp/run, with CONDOR_CONFIG=CONFIG
# and HOME=$tmp/run; stdout to $tmp/out, stderr to $tmp/err; returns its status.
ccv() {
	local conf=$1
	shift
	env "${unset_env[@]}" HOME="$tmp/run" CONDOR_CONFIG="$conf" \
		"$ccv" "$@" >"$tmp/out" 2>"$tmp/err"
}

# decode VALUE: sets REPLY to VALUE with the expect-file escapes turned into
# the characters.
decode() {
	local s=$1 r= c
	if [[ $s != *'\'* ]]; then
		REPLY=$s
		return
	fi
	while [ -n "$s" ]; do
		c=${s:0:1}
		s=${s:1}
		if [ "$c" = '\' ] && [ -n "$s" ]; then
			case ${s:0:1} in
			n) c=$'\n' ;;
			t) c=$'\t' ;;
			s) c=' ' ;;
			'\') c='\' ;;
			*) c="\\${s:0:1}" ;;
			esac
			s=${s:1}
		fi
		r+=$c
	done
	REPLY=$r
}

# show VALUE: a value as an expect line would write it.
show() {
	local s=$1 lead= trail=
	s=${s//\\/\\\\}
	s=${s//$'\n'/\\n}
	s=${s//$'\t'/\\t}
	while [ "${s# }" != "$s" ]; do s=${s# }; lead+='\s'; done
	while [ "${s% }" != "$s" ]; do s=${s% }; trail+='\s'; done
	printf '%s' "$lead$s$trail"
}

# placeholders VALUE: sets REPLY to VALUE with each {{NAME}} replaced by the
# value of NAME with an empty configuration (looked up once).
declare -A detected
placeholders() {
	local s=$1 name
	while [[ $s =~ \{\{([A-Za-z0-9_.]+)\}\} ]]; do
		name=${BASH_REMATCH[1]}
		if [ -z "${detected[$name]+set}" ]; then
			if ccv "$tmp/empty.conf" "$name"; then
				detected[$name]=$(<"$tmp/out")
			else
				detected[$name]="<$name undefined>"
			fi
		fi
		s=${s//"{{$name}}"/${detected[$name]}}
	done
	REPLY=$s
}

files=0 checks=0 failed=0
fail() {
	echo "FAIL $*"
	failed=$((failed + 1))
}

shopt -s nullglob
confs=("$seeds"/*.conf)
[ ${#confs[@]} -gt 0 ] || { echo "no examples in $seeds" >&2; exit 2; }
for exp in "$seeds"/*.expect; do
	[ -e "${exp%.expect}.conf" ] || fail "$(basename "$exp"): no .conf beside it"
done

for conf in "${confs[@]}"; do
	base=$(basename "$conf" .conf)
	exp=$seeds/$base.expect
	files=$((files + 1))
	if [ ! -e "$exp" ]; then
		fail "$base.conf: no $base.expect beside it"
		continue
	fi
	# The file loads (no configuration error).
	if ! ccv "$conf" -config; then
		fail "$base.conf: does not load: $(tr '\n' ' ' <"$tmp/err")"
		continue
	fi
	n=0
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%$'\r'}
		case $line in
		'' | '#'*) continue ;;
		esac
		n=$((n + 1))
		checks=$((checks + 1))
		if [ "${line:0:1}" = '!' ]; then
			name=${line:1}
			if ccv "$conf" "$name"; then
				fail "$base: $name: expected undefined, got [$(show "$(<"$tmp/out")")]"
			elif ! grep -q "Not defined" "$tmp/err" || [ -s "$tmp/out" ]; then
				fail "$base: $name: expected undefined, got an error: $(tr '\n' ' ' <"$tmp/err")"
			fi
			continue
		fi
		if [[ $line != *' = '* ]]; then
			fail "$base.expect: bad line: $line"
			continue
		fi
		name=${line%% = *}
		want=${line#* = }
		want=${want%"${want##*[![:space:]]}"} # trailing blanks are not part of it
		placeholders "$want"
		decode "$REPLY"
		want=$REPLY
		if ccv "$conf" "$name"; then
			got=$(<"$tmp/out") # (a value never ends with a newline)
			if [ "$got" != "$want" ]; then
				fail "$base: $name: expected [$(show "$want")] got [$(show "$got")]"
			fi
		else
			fail "$base: $name: expected [$(show "$want")] got undefined: $(tr '\n' ' ' <"$tmp/err")"
		fi
	done <"$exp"
	[ $n -gt 0 ] || fail "$base.expect: no checks"
done

echo "$files examples, $checks checks, $failed failed"
[ $failed -eq 0 ]
