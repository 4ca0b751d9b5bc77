#!/usr/bin/env bash
# `hetcoll demo` tells the truth (issue 17):
#  - ONE lower bound per problem: every row's "x bound" is its predicted makespan / that bound;
#  - "simulated" replays on a perturbed network (default sigma 0.1, seed 1, both printed): it
#    differs from "predicted", is reproducible with the same seed and changes with another;
#    with --error-sigma 0 it equals "predicted";
#  - no column of "yes": the validity check is stated once (Checks: ..., exit 1 on failure);
#  - a legend, the MPI default's row and a "vs MPI default" comparison consistent with the
#    numbers, auto's choice marked (and equal to auto's prediction), one summary line per
#    platform and collective;
#  - pictures: summary.svg and auto's diagrams only by default (--svg all: one per schedule,
#    --svg none: nothing), all well-formed.
# Usage: bash test_demo.sh <hetcoll-binary> <tests-dir>
set -u
BIN=$1
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail=0
check() { # check "what" command...
    if "${@:2}"; then echo "ok   $1"; else
        echo "FAIL $1"
        fail=1
    fi
}

"$BIN" demo --msg 64KiB -o "$W/demo" >"$W/out.txt" 2>"$W/err.txt"
rc=$?
cat "$W/out.txt"
# a table row: name, predicted, simulated, x bound
ROW='^  [a-zA-Z+-]+ +[0-9.e+-]+ +[0-9.e+-]+ +[0-9.]+x '
# wrapped lines (indented by 4) joined to the line they continue
join() { awk '/^    [^ ]/ && prev != "" {sub(/^ +/, " "); prev = prev $0; next} {if (NR > 1) print prev; prev = $0} END {print prev}' "$1"; }
join "$W/out.txt" >"$W/joined.txt"
check "demo exits 0 ($rc: $(head -c 300 "$W/err.txt"))" test $rc -eq 0
check "sigma and seed printed" grep -q "error sigma 0.1, seed 1" "$W/out.txt"
for col in "predicted" "simulated" "x bound" "vs MPI default" "auto's choice" "Checks:"; do
    check "legend explains '$col'" grep -q "$col" "$W/out.txt"
done
check "no 'valid' column of yes" bash -c "! grep -Eq '^ +[a-z-]+ .* yes\$' '$W/out.txt'"
check "the checks are reported once" grep -Eq '^Checks: [0-9]+ schedules, [0-9]+ valid, [0-9]+ replays without perturbation equal to the prediction, 0 failed' "$W/out.txt"

# Per problem block: lower bound line, rows. awk checks, per block:
#   x bound = predicted / bound (3 decimals), one "<- auto's choice" whose predicted equals
#   auto's, "vs MPI default" = MPI default's predicted / predicted, at least one simulated
#   differing from predicted.
awk '
function flush() {
    if (!inblock) return
    if (nchoice != 1) { print "FAIL " blk ": " nchoice " rows marked as auto'"'"'s choice"; bad = 1 }
    else if (choice_pred != auto_pred) { print "FAIL " blk ": auto " auto_pred " but its choice " choice_pred; bad = 1 }
    if (mpi != "") for (a in vs) {
        split(vs[a], v, " "); f = v[1]; sub(/x$/, "", f)
        want = v[2] == "faster" ? mpi / pred[a] : pred[a] / mpi
        if (f - want > 0.006 || want - f > 0.006) { print "FAIL " blk " " a ": vs MPI " vs[a] ", computed " want; bad = 1 }
    }
    if (coll == "alltoall" || coll == "bcast") if (mpi == "") { print "FAIL " blk ": no MPI default row"; bad = 1 }
    blocks++
    inblock = 0
}
/^== / { plat = $2; sub(":", "", plat) }
/^[a-z]+, lower bound / {
    flush(); inblock = 1; coll = $1; sub(",", "", coll); blk = plat " " coll
    lb = $4
    nchoice = 0; mpi = ""; delete vs; delete pred; next
}
inblock && /^  algorithm/ { next }
inblock && $0 ~ row {
    a = $1; p = $2; s = $3; x = $4; sub(/x$/, "", x)
    pred[a] = p; rows++
    if (lb + 0 > 0) { r = p / lb; if (r - x > 0.0006 || x - r > 0.0006) { print "FAIL " blk " " a ": x bound " x ", predicted/bound " r; bad = 1 } }
    if (s != p) differ++
    if ($0 ~ /MPI default *$/ || $5 == "MPI") mpi = p
    else if ($6 == "faster" || $6 == "slower") vs[a] = $5 " " $6
    if (a == "auto") auto_pred = p
    if ($0 ~ /<- auto.s choice/) { nchoice++; choice_pred = p }
    next
}
inblock && !/^  / { flush() }
END {
    flush()
    if (blocks != 8) { print "FAIL " blocks " problem blocks, expected 8"; bad = 1 }
    if (differ == 0) { print "FAIL simulated equals predicted in every row at sigma 0.1"; bad = 1 }
    print "checked " rows " rows in " blocks " blocks, " differ " simulated != predicted"
    exit bad
}' row="$ROW" "$W/joined.txt" || fail=1

# every registered algorithm appears once per platform
for coll in alltoall bcast reduce redistribute; do
    n_algo=$("$BIN" algorithms --collective "$coll" | awk 'NR > 1' | wc -l)
    n_rows=$(awk -v c="$coll," -v row="$ROW" '$1 == c {b = 1; next} /^$/ {b = 0} b && $0 ~ row {n++} END {print n + 0}' "$W/joined.txt")
    check "$coll: $n_rows rows = 2 x $n_algo algorithms" test "$n_rows" -eq $((2 * n_algo))
done
n_sum=$(grep -cE '^  (alltoall|bcast|reduce|redistribute) 64 KiB on (grid5000|gusto): auto chose ' "$W/joined.txt")
check "8 summary lines ($n_sum)" test "$n_sum" -eq 8
check "bcast summary compares with the MPI default" grep -Eq '^  bcast 64 KiB on grid5000: auto chose [a-zA-Z+-]+, .* the lower bound, [0-9.]+x (faster|slower) than the MPI default \(binomial' "$W/joined.txt"

# pictures: summary + one diagram per problem, small
n_svg=$(find "$W/demo" -name '*.svg' | wc -l)
check "default pictures: summary.svg + 8 diagrams ($n_svg)" test "$n_svg" -eq 9
check "summary.svg written" test -s "$W/demo/summary.svg"
kb=$(du -sk "$W/demo" | cut -f1)
check "default pictures under 6 MB ($kb KB)" test "$kb" -lt 6000
if command -v xmllint >/dev/null 2>&1; then
    for f in "$W"/demo/*.svg; do
        check "$(basename "$f") well-formed" xmllint --noout "$f"
    done
fi

# reproducible with a seed, different with another, exact with sigma 0
"$BIN" demo --msg 64KiB --platform builtin:gusto --svg none -o "$W/n1" >"$W/s1.txt" 2>&1
"$BIN" demo --msg 64KiB --platform builtin:gusto --svg none -o "$W/n2" >"$W/s2.txt" 2>&1
"$BIN" demo --msg 64KiB --platform builtin:gusto --svg none --seed 9 >"$W/s9.txt" 2>&1
check "same seed, same output" cmp -s "$W/s1.txt" "$W/s2.txt"
check "another seed changes the replays" bash -c "! cmp -s <(sed 1d '$W/s1.txt') <(sed 1d '$W/s9.txt')"
check "--seed is printed" grep -q "seed 9" "$W/s9.txt"
check "--svg none writes nothing" test ! -e "$W/n1"
"$BIN" demo --msg 64KiB --platform builtin:gusto --svg none --error-sigma 0 >"$W/s0.txt" 2>&1
check "sigma 0: simulated = predicted" awk -v row="$ROW" '$0 ~ row {n++; if ($2 != $3) bad = 1} END {exit bad || n < 30}' "$W/s0.txt"

# --svg all: one diagram per schedule + the summary
"$BIN" demo --msg 64KiB --platform builtin:gusto --svg all -o "$W/all" >"$W/a.txt" 2>&1
n_rows=$(awk -v row="$ROW" '$0 ~ row {n++} END {print n}' "$W/a.txt")
n_svg=$(find "$W/all" -name '*.svg' | wc -l)
check "--svg all: $n_svg files = $n_rows schedules + summary" test "$n_svg" -eq $((n_rows + 1))

# bad values: exit 1, one line
for args in "--svg bogus" "--error-sigma -1" "--seed x"; do
    # shellcheck disable=SC2086
    "$BIN" demo $args >/dev/null 2>"$W/e.txt"
    rc=$?
    check "demo $args: exit 1, one line ($rc)" test $rc -eq 1 -a "$(wc -l <"$W/e.txt")" -eq 1
done
exit $fail
