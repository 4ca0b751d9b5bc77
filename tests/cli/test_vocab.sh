#!/usr/bin/env bash
# One option vocabulary across the subcommands: old spellings and former algorithm names keep
# working with one deprecation note on stderr (once per run).
#   bash test_vocab.sh HETCOLL_BINARY TESTS_DIR
set -u
H=$1
D=$2
T=$(mktemp -d /tmp/hc-vocab-XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
}
# run NAME ARGS...: exit status in $rc, stdout in $T/NAME.out, stderr in $T/NAME.err
run() {
    local name=$1
    shift
    "$@" >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
}
notes() { grep -c 'is deprecated; use' "$T/$1.err"; }

# ecef-laT (differed from ecef-lat by case only) is ecef-lamax; the old name is an alias.
run new "$H" schedule bcast --platform builtin:grid5000 --msg 1MiB --algo ecef-lamax
run old "$H" schedule bcast --platform builtin:grid5000 --msg 1MiB --algo ecef-laT
[ $rc -eq 0 ] || bad "--algo ecef-laT: exit $rc: $(cat "$T/old.err")"
cmp -s "$T/new.out" "$T/old.out" || bad "--algo ecef-laT and ecef-lamax differ"
[ "$(notes old)" = 1 ] || bad "--algo ecef-laT: expected one deprecation note: $(cat "$T/old.err")"
grep -q "'ecef-laT' is deprecated; use 'ecef-lamax'" "$T/old.err" || bad "ecef-laT note: $(cat "$T/old.err")"
[ ! -s "$T/new.err" ] || bad "--algo ecef-lamax printed: $(cat "$T/new.err")"
"$H" algorithms --collective bcast | grep -q '^bcast  *ecef-lamax ' || bad "algorithms does not list ecef-lamax"
! "$H" algorithms | grep -q 'ecef-laT' || bad "algorithms still lists ecef-laT"

echo "vocabulary checks: $fail failed"
[ $fail -eq 0 ]
