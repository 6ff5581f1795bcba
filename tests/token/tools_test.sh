#!/usr/bin/env bash
# condor_token_create and condor_token_list, run as a user would: output,
# files written, error messages and exit codes; every token made is
# checked by crosscheck.py, an independent rendering of HTCondor's
# signing scheme.
#
# Runs in a temporary directory with CONDOR_CONFIG pointing at a config
# file there and HOME set to it; no _CONDOR_ variable is passed on.
# Usage: tools_test.sh CONDOR_TOKEN_CREATE CONDOR_TOKEN_LIST PYTHON
set -uo pipefail
create=${1:?usage: tools_test.sh CREATE LIST PYTHON}
list=${2:?}
py=${3:?}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2

for v in $(compgen -e); do
	case ${v^^} in _CONDOR_*) unset "$v" ;; esac
done
export HOME=$tmp/home CONDOR_CONFIG=$tmp/condor_config
mkdir -p "$HOME"
cat >"$CONDOR_CONFIG" <<CONF
TRUST_DOMAIN = pool.example
SEC_PASSWORD_DIRECTORY = $tmp/passwords.d
SEC_TOKEN_SYSTEM_DIRECTORY = $tmp/system-tokens.d
CONF
if [ "$(id -u)" = 0 ]; then tokdir=$tmp/system-tokens.d; else tokdir=$HOME/.condor/tokens.d; fi

failures=0 checks=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect WANT_RC PATTERN CMD...: exit code WANT_RC and PATTERN (grep -E)
# in stdout+stderr.
expect() {
	local want=$1 pat=$2
	shift 2
	checks=$((checks + 1))
	out=$("$@" 2>&1)
	local rc=$?
	[ "$rc" = "$want" ] || { fail "$* exited $rc, not $want: $out"; return; }
	[ -z "$pat" ] || grep -Eq -- "$pat" <<<"$out" || fail "$*: no /$pat/ in: $out"
}
payload() { # the payload JSON of a token
	"$py" -c 'import base64,sys; p=sys.argv[1].split(".")[1]; print(base64.urlsafe_b64decode(p+"="*(-len(p)%4)).decode())' "$1"
}
newkey() { # newkey PATH: 64 random bytes, mode 0600
	mkdir -p -m 700 "$(dirname "$1")"
	head -c 64 /dev/urandom >"$1" && chmod 600 "$1"
}
mode() { stat -c %a "$1"; }

# Usage errors: exit 1.
expect 1 'Usage:' "$create"
expect 1 'Usage:' "$create" -help
expect 1 'Usage:' "$create" -identity
expect 1 'unknown option: -bogus' "$create" -identity a@b -bogus
expect 1 '-identity needs' "$create" -key POOL -identity
expect 1 'identity USER@DOMAIN is required' "$create" -key POOL -lifetime 5
expect 1 "invalid identity 'nobody'" "$create" -identity nobody
expect 1 "invalid -lifetime 'abc'" "$create" -identity a@b -lifetime abc
expect 1 "invalid -lifetime '-5'" "$create" -identity a@b -lifetime -5
expect 1 "invalid -lifetime '10x'" "$create" -identity a@b -lifetime 10x
expect 1 "invalid key name" "$create" -identity a@b -key ../POOL
expect 1 'unknown option: -i$' "$create" -i a@b -k POOL   # -identity needs -id

# No key: exit 2, saying which file.
expect 2 "cannot read signing key POOL: .*passwords.d/POOL" "$create" -identity a@b

# The pool key: a token on stdout, signed as HTCondor signs.
newkey passwords.d/POOL
expect 0 '' "$create" -identity alice@pool.example
tok=$out
[ "$(wc -l <<<"$tok")" = 1 ] || fail "stdout is not one line: $tok"
checks=$((checks + 1))
"$py" "$here/crosscheck.py" verify passwords.d/POOL POOL "$tok" >/dev/null ||
	fail "crosscheck refuses $tok"
p=$(payload "$tok")
grep -Eq '^\{"iat":[0-9]+,"iss":"pool.example","jti":"[0-9a-f]{32}","sub":"alice@pool.example"\}$' <<<"$p" ||
	fail "payload: $p"
h=$(payload "x.${tok%%.*}")
[ "$h" = '{"alg":"HS256","kid":"POOL"}' ] || fail "header: $h"

# Lifetime and authorization limits; abbreviated options.
expect 0 '' "$create" -id bob@pool.example -l 600 -a READ -authz ADVERTISE_STARTD
p=$(payload "$out")
"$py" - "$p" <<'PY' || fail "lifetime/scope payload: $p"
import json, sys
c = json.loads(sys.argv[1])
assert list(c) == ["exp", "iat", "iss", "jti", "scope", "sub"], list(c)
assert c["exp"] - c["iat"] == 600
assert c["scope"] == "condor:/READ condor:/ADVERTISE_STARTD"
PY
grep -q 'condor:\\/READ' <<<"$p" || fail "'/' not escaped as HTCondor does: $p"

# A named key from SEC_PASSWORD_DIRECTORY.
expect 2 'cannot read signing key other' "$create" -identity a@b -key other
newkey passwords.d/other
expect 0 '' "$create" -identity a@b -key other
checks=$((checks + 1))
"$py" "$here/crosscheck.py" verify passwords.d/other other "$out" >/dev/null ||
	fail "crosscheck refuses the 'other' token"
[ "$(payload "x.${out%%.*}")" = '{"alg":"HS256","kid":"other"}' ] || fail "kid other"

# A key others may read is refused, as HTCondor does.
chmod 644 passwords.d/other
expect 2 'must not be accessible' "$create" -identity a@b -key other
chmod 600 passwords.d/other

# -token: into the token directory, private; -debug says where.
expect 0 "token written to $tokdir/mine" "$create" -identity carol@pool.example -token mine -debug
[ "$(mode "$tokdir/mine")" = 600 ] || fail "token file mode $(mode "$tokdir/mine")"
[ "$(mode "$tokdir")" = 700 ] || fail "token dir mode $(mode "$tokdir")"
[ "$(wc -l <"$tokdir/mine")" = 1 ] || fail "token file is not one line"
grep -q 'passwords\|POOL' <<<"$(payload "$(cat "$tokdir/mine")")" && fail "key name leaked"
expect 1 'not a plain file name' "$create" -identity a@b -token ../escape
[ -e "$tmp/escape" ] && fail "-token ../escape wrote outside"
# -file: anywhere.
expect 1 "cannot write token to $tmp/out/../dave.tok" "$create" -identity dave@pool.example -file "$tmp/out/../dave.tok"
[ ! -e "$tmp/dave.tok" ] || fail "-file through a missing directory"
expect 0 '' "$create" -identity dave@pool.example -file "$tmp/dave.tok"
[ "$(mode "$tmp/dave.tok")" = 600 ] || fail "-file mode"
# Nothing secret on stderr with -debug.
expect 0 '' "$create" -identity eve@pool.example -debug
sig=${out##*.}
[ "$(grep -c -- "$sig" <<<"$out")" = 1 ] || fail "signature printed more than once"

# condor_token_list: header, payload and file of each token.
expect 0 "^Header: \{\"alg\":\"HS256\",\"kid\":\"POOL\"\} Payload: \{.*\"sub\":\"carol@pool.example\"\} File: $tokdir/mine$" "$list"
grep -q "${tok##*.}" <<<"$out" && fail "token_list shows a signature"
printf '# comment\n\ngarbage\n%s\n' "$(cat "$tmp/dave.tok")" >"$tmp/multi"
expect 0 'sub":"dave@pool.example"\} File: .*/multi$' "$list" -file "$tmp/multi"
[ "$(wc -l <<<"$out")" = 1 ] || fail "token_list printed non-tokens: $out"
mkdir -p "$tmp/d" && cp "$tmp/dave.tok" "$tmp/d/b" && cp "$tokdir/mine" "$tmp/d/a" && cp "$tmp/d/a" "$tmp/d/.hidden"
expect 0 '' "$list" -dir "$tmp/d"
[ "$(grep -c Header <<<"$out")" = 2 ] || fail "token_list -dir: $out"
expect 0 'Usage:' "$list" -help
expect 1 'unknown option' "$list" -bogus
expect 0 '' "$list" -dir "$tmp/none"

echo "token_tools: $checks checks, $failures failures"
[ "$failures" = 0 ]
