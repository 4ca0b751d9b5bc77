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

# Experiments: -o/--output DIR (--out deprecated), --nodes (--procs, --n deprecated): the same
# results, one note per old spelling and run.
exp_same() { # name, new arguments, old arguments, expected notes [names: compare file names only,
    # for experiments whose CSV holds measured times]
    local name=$1 new=$2 old=$3 want=$4
    rm -rf "$T/e1" "$T/e2"
    "$H" experiment $name $new "$T/e1" >/dev/null 2>"$T/e1.err" || bad "experiment $name $new: $(grep -v '%' "$T/e1.err" | head -2)"
    "$H" experiment $name $old "$T/e2" >/dev/null 2>"$T/e2.err" || bad "experiment $name $old: $(grep -v '%' "$T/e2.err" | head -2)"
    if [ "${5:-}" = names ]; then
        [ -n "$(ls "$T/e1")" ] && [ "$(ls "$T/e1")" = "$(ls "$T/e2")" ] || bad "experiment $name: '$new' and '$old' wrote different files"
    else
        diff -r "$T/e1" "$T/e2" >/dev/null || bad "experiment $name: '$new' and '$old' wrote different files"
    fi
    [ "$(grep -c 'is deprecated' "$T/e1.err")" = 0 ] || bad "experiment $name $new: a deprecation note"
    [ "$(grep -c 'is deprecated' "$T/e2.err")" = "$want" ] || bad "experiment $name $old: expected $want notes: $(grep deprecated "$T/e2.err")"
}
exp_same grid-bcast "--clusters 2..4 --trials 3 -o" "--clusters 2..4 --trials 3 --out" 1
exp_same grid-bcast "--clusters 2..4 --trials 3 --output" "--clusters 2..4 --trials 3 --out $T/zz --out" 1
exp_same reduce "--nodes 5..6 --classes 2 --trials 2 -o" "--procs 5..6 --classes 2 --trials 2 --out" 2 names
exp_same alltoall "--workload small --nodes 4 --trials 2 --algos caterpillar -o" "--workload small --procs 4 --trials 2 --algos caterpillar --out" 2 names
exp_same redistribute "--nodes 4 --weights small --trials 2 --k 1..2 -o" "--n 4 --weights small --trials 2 --k 1..2 --out" 2
exp_same ttcc "--nodes 10 --trials 2 --error-sigma 0,0.2 -o" "--nodes 10 --trials 2 --sigma 0,0.2 --out" 2
# demo: -o/--output (--out deprecated): the same tables
rm -rf "$T/d1" "$T/d2"
"$H" demo --msg 64KiB --platform builtin:gusto --svg none -o "$T/d1" >"$T/d1.txt" 2>"$T/d1.err" || bad "demo -o: $(head -2 "$T/d1.err")"
"$H" demo --msg 64KiB --platform builtin:gusto --svg none --out "$T/d2" >"$T/d2.txt" 2>"$T/d2.err" || bad "demo --out: $(head -2 "$T/d2.err")"
sed "s#$T/d1#DIR#g" "$T/d1.txt" >"$T/d1.s"
sed "s#$T/d2#DIR#g" "$T/d2.txt" >"$T/d2.s"
cmp -s "$T/d1.s" "$T/d2.s" && [ "$(grep -c 'is deprecated' "$T/d1.err")" = 0 ] &&
    [ "$(grep -c 'is deprecated' "$T/d2.err")" = 1 ] || bad "demo -o and --out differ, or the notes are wrong"
run nodir "$H" experiment grid-bcast --trials 2
[ $rc -eq 2 ] && grep -q -- '-o/--output DIR is required' "$T/nodir.err" || bad "experiment without -o: $(cat "$T/nodir.err")"

# forecast: -s is --schedule elsewhere, so --series loses it (noted); --n is now --length.
printf '1\n2\n4\n3\n' >"$T/series.txt"
run fs_new "$H" forecast --series "$T/series.txt"
run fs_old "$H" forecast -s "$T/series.txt"
cmp -s "$T/fs_new.out" "$T/fs_old.out" || bad "forecast -s and --series differ"
[ "$(notes fs_old)" = 1 ] && grep -q 'forecast -s is deprecated; use --series' "$T/fs_old.err" || bad "forecast -s note: $(cat "$T/fs_old.err")"
[ ! -s "$T/fs_new.err" ] || bad "forecast --series printed: $(cat "$T/fs_new.err")"
run fl_new "$H" forecast --synthetic noisy --length 50 --summary
run fl_old "$H" forecast --synthetic noisy --n 50 --summary
cmp -s "$T/fl_new.out" "$T/fl_old.out" && [ "$(notes fl_old)" = 1 ] || bad "forecast --n: $(cat "$T/fl_old.err")"
# validate and simulate: -s is --schedule
"$H" schedule alltoall --costs "$D/data/cli_costs4.txt" --algo caterpillar --format json -o "$T/s.json"
run vs "$H" validate -s "$T/s.json" --costs "$D/data/cli_costs4.txt"
[ $rc -eq 0 ] || bad "validate -s: $(cat "$T/vs.err")"

# Bandwidths take units like sizes: 100MB/s = 1e8 B/s.
same "--speed units" "schedule redistribute --traffic $D/cli/data/traffic3x2.txt --k 2 --speed 1e8 --beta 0.01" \
    "schedule redistribute --traffic $D/cli/data/traffic3x2.txt --k 2 --speed 100MB/s --beta 0.01"

echo "vocabulary checks: $fail failed"
[ $fail -eq 0 ]
