#!/usr/bin/env bash
# schedule -> validate -> simulate -> SVG, end to end through the CLI.
# Usage: bash test_pipeline.sh <hetcoll-binary> <tests-dir>
set -u
BIN=$1
T=$2
C=$T/data/cli_costs4.txt
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail=0
check() { # message, command...
    local msg=$1
    shift
    if "$@"; then echo "ok   $msg"; else
        echo "FAIL $msg"
        fail=1
    fi
}
# shellcheck disable=SC2317
quiet() { "$@" >/dev/null; }
field() { # label file -> value after the label
    sed -n "s/^$1 *\([^ ]*\).*/\1/p" "$2" | head -n1
}

"$BIN" schedule alltoall --costs "$C" --algo caterpillar --format json >"$W/s.json"
check "schedule alltoall --format json" test -s "$W/s.json"
planned=$(sed -n 's/^ *"makespan": *\([^,]*\),*$/\1/p' "$W/s.json" | head -n1)
check "schedule JSON has a makespan ($planned)" test -n "$planned"

"$BIN" validate --schedule "$W/s.json" >"$W/v.txt" 2>&1
check "validate (structure only) accepts it" grep -q '^valid: alltoall caterpillar, P=4' "$W/v.txt"
"$BIN" validate --schedule "$W/s.json" --costs "$C" >"$W/v2.txt" 2>&1
check "validate --costs accepts it" grep -q '^valid: alltoall caterpillar' "$W/v2.txt"

"$BIN" schedule alltoall --costs "$C" --algo caterpillar >"$W/s.txt"
text_ms=$(field 'makespan:' "$W/s.txt")
"$BIN" simulate --schedule "$W/s.json" --costs "$C" --error-sigma 0 >"$W/sim0.txt"
p0=$(field 'planned makespan:' "$W/sim0.txt")
s0=$(field 'simulated makespan:' "$W/sim0.txt")
check "sigma 0 reproduces the planned makespan ($p0 = $s0 = $text_ms)" \
    test -n "$s0" -a "$p0" = "$s0" -a "$s0" = "$text_ms"

"$BIN" simulate --schedule "$W/s.json" --costs "$C" --error-sigma 0.2 --seed 5 >"$W/a.txt"
"$BIN" simulate --schedule "$W/s.json" --costs "$C" --error-sigma 0.2 --seed 5 >"$W/b.txt"
"$BIN" simulate --schedule "$W/s.json" --costs "$C" --error-sigma 0.2 --seed 6 >"$W/c.txt"
check "sigma 0.2 seed 5 twice: identical" cmp -s "$W/a.txt" "$W/b.txt"
check "another seed: different" test "$(field 'simulated makespan:' "$W/a.txt")" != \
    "$(field 'simulated makespan:' "$W/c.txt")"
"$BIN" simulate --schedule "$W/s.json" --costs "$C" --error-sigma 0.2 --seed 5 --format json \
    >"$W/a.json"
check "simulate --format json has per-event times" grep -q '"planned_start"' "$W/a.json"

"$BIN" schedule alltoall --costs "$C" --algo caterpillar --format svg -o "$W/s.svg"
"$BIN" schedule bcast --platform builtin:grid5000 --msg 1MiB --algo binomial --format svg \
    -o "$W/b.svg"
for f in "$W/s.svg" "$W/b.svg"; do
    if command -v xmllint >/dev/null 2>&1; then
        check "$(basename "$f") is well-formed XML (xmllint)" xmllint --noout "$f"
    else
        check "$(basename "$f") looks like SVG" grep -q '</svg>' "$f"
    fi
    check "$(basename "$f") has rectangles" grep -q '<rect' "$f"
done

# a tampered schedule (one duration changed) is rejected with one line naming the event
sed '0,/"end":1.0,/s//"end":1.25,/' "$W/s.json" >"$W/bad.json"
"$BIN" validate --schedule "$W/bad.json" --costs "$C" >/dev/null 2>"$W/bad.err"
check "validate rejects a tampered duration (exit 1)" test $? -eq 1
check "... with one line naming event 0" \
    test "$(wc -l <"$W/bad.err")" -eq 1 -a -n "$(grep 'event 0' "$W/bad.err")"

# sizes: the suffixes mean what they say
"$BIN" schedule bcast --platform "$T/cli/data/plat5.json" --msg 1MiB --algo flat >"$W/m1.txt"
"$BIN" schedule bcast --platform "$T/cli/data/plat5.json" --msg 1048576 --algo flat >"$W/m2.txt"
"$BIN" schedule bcast --platform "$T/cli/data/plat5.json" --msg 1MB --algo flat >"$W/m3.txt"
"$BIN" schedule bcast --platform "$T/cli/data/plat5.json" --msg 1000000 --algo flat >"$W/m4.txt"
check "--msg 1MiB = 1048576" cmp -s "$W/m1.txt" "$W/m2.txt"
check "--msg 1MB = 1000000" cmp -s "$W/m3.txt" "$W/m4.txt"
check "--msg 1MB != 1MiB" test "$(field 'makespan:' "$W/m1.txt")" != "$(field 'makespan:' "$W/m3.txt")"

# every JSON output parses, when jq is around
if command -v jq >/dev/null 2>&1; then
    check "schedule JSON parses (jq)" quiet jq -e '.events | length == 12' "$W/s.json"
    check "simulation JSON parses (jq)" quiet jq -e '.events | length == 12' "$W/a.json"
fi

# bcast and reduce through the same path
"$BIN" schedule bcast --platform "$T/cli/data/plat5.json" --msg 1MiB --algo flat --format json \
    >"$W/bc.json"
check "bcast schedule validates against its platform" \
    quiet "$BIN" validate --schedule "$W/bc.json" --platform "$T/cli/data/plat5.json"
"$BIN" simulate --schedule "$W/bc.json" --platform "$T/cli/data/plat5.json" >"$W/bsim.txt"
check "bcast replay (message size from the schedule) = plan" \
    test "$(field 'planned makespan:' "$W/bsim.txt")" = "$(field 'simulated makespan:' "$W/bsim.txt")"

# Every registered algorithm through the CLI: schedule -> validate against the problem ->
# replay with sigma 0 = the planned makespan.
declare -A PROBLEM=(
    [alltoall]="--costs $C"
    [bcast]="--platform $T/cli/data/plat5.json --msg 1MiB"
    [reduce]="--times 3,1,1,2,2"
    [redistribute]="--traffic $T/cli/data/traffic3x2.txt --k 2 --speed 1e6 --beta 0.1"
)
for coll in alltoall bcast reduce redistribute; do
    for algo in $("$BIN" algorithms --collective "$coll" | awk 'NR > 1 {print $2}'); do
        out=$W/$coll-$algo.json
        # shellcheck disable=SC2086
        if ! "$BIN" schedule "$coll" ${PROBLEM[$coll]} --algo "$algo" --time-limit 5 \
            --format json -o "$out" 2>"$W/err"; then
            echo "FAIL schedule $coll $algo: $(cat "$W/err")"
            fail=1
            continue
        fi
        # shellcheck disable=SC2086
        check "$coll $algo validates" quiet "$BIN" validate --schedule "$out" ${PROBLEM[$coll]}
        # shellcheck disable=SC2086
        "$BIN" simulate --schedule "$out" ${PROBLEM[$coll]} >"$W/sim.txt" 2>&1
        check "$coll $algo replay = plan" test "$(field 'planned makespan:' "$W/sim.txt")" = \
            "$(field 'simulated makespan:' "$W/sim.txt")" -a -n "$(field 'planned makespan:' "$W/sim.txt")"
        # shellcheck disable=SC2086
        "$BIN" schedule "$coll" ${PROBLEM[$coll]} --algo "$algo" --time-limit 5 --format svg \
            -o "$W/x.svg" 2>/dev/null
        if command -v xmllint >/dev/null 2>&1; then
            check "$coll $algo SVG is well-formed" xmllint --noout "$W/x.svg"
        fi
    done
done
exit $fail
