#!/usr/bin/env bash
# authz_pool_test.sh BUILD: the authorization levels on a real pool (a
# master, collector, startd and schedd on loopback).
#  - ALLOW_ADVERTISE_STARTD/SCHEDD/MASTER = * let the slot, schedd and
#    master ads in (the explicit lists are read);
#  - a token limited to WRITE may READ (condor_status, condor_q), a token
#    limited to DAEMON may not ADVERTISE_STARTD, one limited to
#    ADVERTISE_STARTD may;
#  - DENY_ADVERTISE_STARTD keeps the slot ads out while the schedd's and
#    master's come in, and so does a DENY_ADVERTISE_STARTD that cannot be
#    read (a reference loop), which the collector's log names.
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../daemon/lib.sh"
. "$here/../startd/lib_startd.sh"
. "$here/../schedd/lib_pool.sh"
tools_on_path
ADV=$B/tools/condor_advertise/condor_advertise
TOK=$B/tools/condor_token_create/condor_token_create

pool_dir ksauthz
# pool CONFIG_LINES: a master, collector, startd and schedd, then the lines
pool() {
	startd_config <<CFG
SCHEDD = $B/schedd/condor_schedd
DAEMON_LIST = MASTER COLLECTOR STARTD SCHEDD
MASTER_UPDATE_INTERVAL = 1
SCHEDD_INTERVAL = 1
COLLECTOR_DEBUG = D_FULLDEBUG D_COMMAND D_SECURITY
$1
CFG
	start_master
}
has() { condor_status "$@" -af Name | grep -q .; }
denied_startd() { grep -q "PERMISSION DENIED to .* access level ADVERTISE_STARTD" "$T/log/CollectorLog"; }

# The explicit ADVERTISE lists let every daemon's ad in.
pool 'ALLOW_ADVERTISE_STARTD = *
ALLOW_ADVERTISE_SCHEDD = *
ALLOW_ADVERTISE_MASTER = *'
wait_for 20 has || fail "ALLOW_ADVERTISE_STARTD = * kept the slot ads out"
wait_for 20 has -schedd || fail "ALLOW_ADVERTISE_SCHEDD = * kept the schedd ad out"
wait_for 20 has -master || fail "ALLOW_ADVERTISE_MASTER = * kept the master ad out"
grep -q "PERMISSION DENIED" "$T/log/CollectorLog" && fail "an update was refused"
echo "ok: ALLOW_ADVERTISE_STARTD/SCHEDD/MASTER = * let the ads in"

# Tokens over TCP (the Unix-domain sockets hidden from the tools): a
# token's levels and the levels they imply.
mkdir -p "$T/tokens" && chmod 700 "$T/tokens"
export _CONDOR_DAEMON_SOCKET_DIR=$T/nowhere _CONDOR_SEC_TOKEN_DIRECTORY=$T/tokens
"$TOK" -identity bob@example.org -authz WRITE -file "$T/tokens/w" || fail "token"
out=$(condor_status -af Name 2>&1) || fail "a WRITE token may not READ the collector"
echo "$out" | grep -q slot1 || fail "WRITE token's query: $out"
out=$(condor_q -allusers -af ClusterId 2>&1) || fail "a WRITE token may not READ the schedd (condor_q)"
grep -q "authenticated bob@example.org from 127.0.0.1 with TOKEN" "$T/log/CollectorLog" || fail "bob not authenticated by token"
rm "$T/tokens/w"
printf 'MyType = "Machine"\nName = "tok@host5"\n' > "$T/tok"
"$TOK" -identity "$(id -un)@example.org" -authz DAEMON -file "$T/tokens/d" || fail "token"
out=$("$ADV" UPDATE_STARTD_AD "$T/tok" 2>&1) && fail "a DAEMON token advertised a slot: $out"
echo "$out" | grep -q "does not grant ADVERTISE_STARTD" || fail "DAEMON token's refusal: $out"
rm "$T/tokens/d"
"$TOK" -identity "$(id -un)@example.org" -authz ADVERTISE_STARTD -file "$T/tokens/s" || fail "token"
out=$("$ADV" UPDATE_STARTD_AD "$T/tok" 2>&1) || fail "an ADVERTISE_STARTD token was refused: $out"
wait_for 5 sh -c 'condor_status -af Name | grep -q tok@host5' || fail "the token's slot ad is not in"
rm "$T/tokens/s"
unset _CONDOR_DAEMON_SOCKET_DIR _CONDOR_SEC_TOKEN_DIRECTORY
echo "ok: token scopes grant the levels they imply"
stop_pool

# DENY keeps the slot ads out; the schedd's and master's still come in.
pool 'ALLOW_ADVERTISE_STARTD = *
ALLOW_ADVERTISE_SCHEDD = *
ALLOW_ADVERTISE_MASTER = *
DENY_ADVERTISE_STARTD = *'
wait_for 20 has -schedd || fail "no schedd ad"
wait_for 20 has -master || fail "no master ad"
wait_for 20 denied_startd || fail "the startd's update was not refused"
grep -q "access level ADVERTISE_STARTD: .* is in DENY_ADVERTISE_STARTD" "$T/log/CollectorLog" || fail "refusal does not name DENY_ADVERTISE_STARTD"
has && fail "DENY_ADVERTISE_STARTD = * let a slot ad in: $(condor_status -af Name)"
echo "ok: DENY_ADVERTISE_STARTD keeps the slot ads out"
stop_pool

# A DENY list that cannot be read refuses everyone; the log says why.
pool 'ALLOW_ADVERTISE_STARTD = *
ALLOW_ADVERTISE_SCHEDD = *
DENY_ADVERTISE_STARTD = $(NOT_THESE)
NOT_THESE = 10.9.9.9 $(DENY_ADVERTISE_STARTD)'
wait_for 20 has -schedd || fail "no schedd ad"
wait_for 20 denied_startd || fail "the startd's update was not refused"
has && fail "an unreadable DENY_ADVERTISE_STARTD let a slot ad in: $(condor_status -af Name)"
grep -qF 'DENY_ADVERTISE_STARTD cannot be read: $(NOT_THESE) refers to itself (NOT_THESE -> DENY_ADVERTISE_STARTD -> NOT_THESE); as a DENY list it refuses everyone' "$T/log/CollectorLog" ||
	fail "the unreadable list is not logged"
echo "ok: a DENY list that cannot be read keeps the slot ads out"
