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

# --sizes, --times, --costs, --traffic: one rule. @FILE, or a value naming an existing file, is a
# file; anything else is inline (',' between values, ';' between rows).
same() { # description, then two argument strings that must give the same output
    local what=$1 a=$2 b=$3
    "$H" $a >"$T/a.out" 2>"$T/a.err" && "$H" $b >"$T/b.out" 2>"$T/b.err" && cmp -s "$T/a.out" "$T/b.out" ||
        bad "$what: '$a' and '$b' differ: $(cat "$T/a.err" "$T/b.err" | head -2)"
}
printf '0 1048576 1024\n65536 0 1000\n5 6 0\n' >"$T/sizes.txt"
"$H" platform export random:uniform:P=3 -o "$T/p3.json"
same "--sizes" "schedule alltoall --platform $T/p3.json --sizes $T/sizes.txt" \
    "schedule alltoall --platform $T/p3.json --sizes 0,1MiB,1KiB;64KiB,0,1kB;5,6,0"
same "--sizes @FILE" "schedule alltoall --platform $T/p3.json --sizes $T/sizes.txt" \
    "schedule alltoall --platform $T/p3.json --sizes @$T/sizes.txt"
printf '3\n1\n1\n2\n' >"$T/times.txt"
same "reduce --times (a column file)" "schedule reduce --times 3,1,1,2" "schedule reduce --times $T/times.txt"
printf '3 1 1 2\n' >"$T/times_row.txt"
same "reduce --times (a row file)" "schedule reduce --times 3,1,1,2" "schedule reduce --times @$T/times_row.txt"
printf '1 2\n3 4\n' >"$T/rt.txt"
same "redistribute --times" "schedule redistribute --times $T/rt.txt --k 1 --beta 0.5" \
    "schedule redistribute --times 1,2;3,4 --k 1 --beta 0.5"
same "redistribute --traffic" "schedule redistribute --traffic $D/cli/data/traffic3x2.txt --k 2 --speed 1e8 --beta 0.01" \
    "schedule redistribute --traffic 1MB,0;500kB,2MB;0,750000 --k 2 --speed 1e8 --beta 0.01"
same "--costs" "schedule alltoall --costs $D/data/cli_costs4.txt --algo caterpillar" \
    "schedule alltoall --costs @$D/data/cli_costs4.txt --algo caterpillar"
run missing "$H" schedule reduce --times "$T/nothere.txt"
[ $rc -eq 1 ] && [ "$(wc -l <"$T/missing.err")" = 1 ] && grep -q "nothere.txt' is neither an existing file nor inline" "$T/missing.err" ||
    bad "--times missing file: exit $rc: $(cat "$T/missing.err")"
run ragged "$H" schedule alltoall --costs "0,1;1,0,2"
[ $rc -eq 1 ] && grep -q "row 2 of '0,1;1,0,2' has a different number of values" "$T/ragged.err" || bad "ragged inline: $(cat "$T/ragged.err")"
run r2 "$H" schedule reduce --times "1,2;3,4"
[ $rc -eq 1 ] && grep -q "one send time per node" "$T/r2.err" || bad "reduce --times matrix: $(cat "$T/r2.err")"

echo "vocabulary checks: $fail failed"
[ $fail -eq 0 ]
