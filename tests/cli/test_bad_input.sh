#!/usr/bin/env bash
# Table-driven bad-input test: each row is "expected exit code | expected stderr substring |
# arguments" (@T@ = the tests directory). Every case must fail with that code, print exactly
# ONE line on stderr containing the substring, and not crash (exit code < 128).
# Usage: bash test_bad_input.sh <hetcoll-binary> <tests-dir>
set -u
BIN=$1
T=$2
B=$T/data/bad
fail=0
n=0

ROWS=$(cat <<'TABLE'
1|malformed.json|schedule alltoall --platform @T@/data/bad/malformed.json --msg 1KiB
1|truncated.json|schedule alltoall --platform @T@/data/bad/truncated.json --msg 1KiB
1|not_object.json|platform show @T@/data/bad/not_object.json
1|format|platform show @T@/data/bad/format_wrong.json
1|costs_4x5.txt|schedule alltoall --costs @T@/data/bad/costs_4x5.txt --algo caterpillar
1|costs_ragged.txt|schedule alltoall --costs @T@/data/bad/costs_ragged.txt
1|costs_nan.txt|schedule alltoall --costs @T@/data/bad/costs_nan.txt
1|costs_inf.txt|schedule alltoall --costs @T@/data/bad/costs_inf.txt
1|costs_negative.txt|schedule alltoall --costs @T@/data/bad/costs_negative.txt
1|costs_not_number.txt|schedule alltoall --costs @T@/data/bad/costs_not_number.txt
1|shape_rows.json|schedule alltoall --platform @T@/data/bad/shape_rows.json --msg 1KiB
1|shape_cols.json|schedule bcast --platform @T@/data/bad/shape_cols.json --msg 1KiB --algo flat
1|latency|schedule alltoall --platform @T@/data/bad/latency_negative.json --msg 1KiB
1|latency|schedule alltoall --platform @T@/data/bad/latency_zero.json --msg 1KiB
1|latency|schedule alltoall --platform @T@/data/bad/latency_nan.json --msg 1KiB
1|latency|schedule alltoall --platform @T@/data/bad/latency_inf.json --msg 1KiB
1|latency|platform show @T@/data/bad/latency_string.json
1|bandwidth|schedule alltoall --platform @T@/data/bad/bandwidth_negative.json --msg 1KiB
1|bandwidth|schedule alltoall --platform @T@/data/bad/bandwidth_zero.json --msg 1KiB
1|bandwidth|schedule alltoall --platform @T@/data/bad/bandwidth_nan.json --msg 1KiB
1|bandwidth|schedule bcast --platform @T@/data/bad/bandwidth_inf.json --msg 1KiB --algo flat
1|bandwidth|platform export @T@/data/bad/cluster_inter_bandwidth_zero.json
1|latency|platform show @T@/data/bad/cluster_latency_negative.json
1|plat1.json|schedule alltoall --platform @T@/cli/data/plat1.json --msg 1KiB
1|plat1.json|schedule bcast --platform @T@/cli/data/plat1.json --msg 1KiB --algo flat
1|caterpillar|schedule alltoall --costs @T@/data/cli_costs4.txt --algo nosuch
1|binomial|schedule bcast --platform builtin:gusto --msg 1KiB --algo nosuch
1|gusto|schedule alltoall --platform builtin:nosuch --msg 1KiB
1|grid5000|platform show builtin:nosuch
1|empty.json|schedule alltoall --platform @T@/data/bad/empty.json --msg 1KiB
1|blank.json|platform show @T@/data/bad/blank.json
1|empty.txt|schedule alltoall --costs @T@/cli/data/empty.txt
1|nonexistent.json|schedule alltoall --platform @T@/nonexistent.json --msg 1KiB
1|nonexistent.txt|schedule alltoall --costs @T@/nonexistent.txt
1|data|schedule alltoall --costs @T@/cli/data
1|nonexistent.json|validate --schedule @T@/nonexistent.json
1|schedule_malformed.json|validate --schedule @T@/cli/data/schedule_malformed.json
1|empty.txt|simulate --schedule @T@/cli/data/empty.txt --costs @T@/data/cli_costs4.txt
1|times_ragged.txt|schedule redistribute --times @T@/cli/data/times_ragged.txt --k 1 --beta 1 --algo ggp
1|costs_4x5.txt|schedule alltoall --platform builtin:gusto --sizes @T@/data/bad/costs_4x5.txt
1|sizes_fraction.txt|schedule redistribute --traffic @T@/data/bad/sizes_fraction.txt --k 1 --speed 1e6 --beta 1 --algo ggp
1|t(1)|schedule reduce --times 1,0,2 --algo snf
1|12XB|schedule alltoall --platform builtin:gusto --msg 12XB
1|-1|schedule alltoall --platform builtin:gusto --msg -1
2|--bogus|schedule alltoall --costs @T@/data/cli_costs4.txt --bogus
2|--bogus|validate --bogus
2|--bogus|simulate --bogus
2|--bogus|algorithms --bogus
2|--bogus|platform --bogus show builtin:gusto
2|--bogus|demo --bogus
2|--bogus|--bogus
2|needs an argument|schedule alltoall --costs
2|nosuchcmd|nosuchcmd
2|broadcast|schedule broadcast --platform builtin:gusto --msg 1KiB
1|yaml|schedule alltoall --costs @T@/data/cli_costs4.txt --format yaml
2|--msg|schedule alltoall --platform builtin:gusto
2|--schedule|validate
1|--slow|simulate --schedule x.json --costs @T@/data/cli_costs4.txt --slow 3
1|--error-sigma|simulate --schedule x.json --costs @T@/data/cli_costs4.txt --error-sigma -1
1|--root|schedule bcast --platform builtin:gusto --msg 1KiB --algo flat --root x
2|--beta|schedule redistribute --traffic @T@/cli/data/traffic3x2.txt --k 1 --speed 1e6 --algo ggp
2|--k|schedule redistribute --times @T@/cli/data/traffic3x2.txt --beta 1 --algo ggp
2|frobnicate|platform frobnicate builtin:gusto
1|root|schedule bcast --platform builtin:gusto --msg 1KiB --algo flat --root 99
1|sent twice|validate --schedule @T@/cli/data/schedule_overlap.json
1|at least 2 nodes|schedule reduce --times 5 --algo snf
1|1,nan|schedule reduce --times 1,nan --algo snf
1|1,inf|schedule reduce --times 1,inf --algo snf
1|sent twice|validate --schedule @T@/cli/data/schedule_overlap.json --costs @T@/cli/data/costs2.txt
1|nodes|validate --schedule @T@/cli/data/schedule_overlap.json --costs @T@/data/cli_costs4.txt
1|cannot create|schedule alltoall --costs @T@/data/cli_costs4.txt -o /nonexistent-dir/out.json
1|--trials|experiment grid-bcast --trials 0 -o /nonexistent-dir/x
1|--seed|experiment reduce --seed x -o /nonexistent-dir/x
1|--nodes|experiment alltoall --nodes 1 -o /nonexistent-dir/x
1|--nodes|experiment redistribute --nodes 0 -o /nonexistent-dir/x
2|-o/--output DIR is required|experiment grid-bcast --trials 2
2|unexpected argument|experiment grid-bcast -o /nonexistent-dir/x extra
2|unknown experiment|experiment bogus
1|unknown collective|algorithms --collective bogus
2|unknown collective|schedule bogus --times 1,2
1|--length|forecast --synthetic step --length 1
1|--speed|schedule redistribute --traffic @T@/cli/data/traffic3x2.txt --k 2 --speed fast --beta 1
1|--root|schedule bcast --platform builtin:gusto --msg 1KiB --root x
1|--root any|schedule bcast --platform builtin:gusto --msg 1KiB --root any
1|--time-limit|schedule reduce --times 1,2 --time-limit -1
1|--rho|cluster --platform builtin:gusto --rho -1
2|missing --platform|cluster
2|unknown action|platform bogus
2|needs an argument|platform show --platform
1|--backbone-bw|platform export builtin:gusto --simgrid /nonexistent-dir/x.xml --backbone-bw 0
1|ramp|schedule bcast --platform builtin:gusto --msg 1MiB --algo multitree --ramp 65
1|site-trees|schedule bcast --platform builtin:gusto --msg 1MiB --algo multitree --site-trees 3
1|tail-direct|schedule bcast --platform builtin:gusto --msg 1MiB --algo multitree --tail-direct -4
1|alternate|schedule bcast --platform builtin:gusto --msg 1MiB --algo multitree --alternate 5x
1|more than 524288|schedule alltoall --platform builtin:grid5000 --msg 1MiB --algo pieces --segment 1KiB
TABLE
)

while IFS='|' read -r code substr args; do
    [ -z "$code" ] && continue
    n=$((n + 1))
    args=${args//@T@/$T}
    err=$(mktemp)
    # shellcheck disable=SC2086
    "$BIN" $args >/dev/null 2>"$err"
    rc=$?
    lines=$(wc -l <"$err")
    msg=$(head -c 400 "$err")
    if [ $rc -ge 128 ]; then
        echo "FAIL [$args]: crashed (exit $rc): $msg"
        fail=1
    elif [ $rc -ne "$code" ]; then
        echo "FAIL [$args]: exit $rc, expected $code: $msg"
        fail=1
    elif [ "$lines" -ne 1 ]; then
        echo "FAIL [$args]: stderr has $lines lines, expected 1: $msg"
        fail=1
    elif ! grep -qF -- "$substr" "$err"; then
        echo "FAIL [$args]: stderr lacks '$substr': $msg"
        fail=1
    else
        echo "ok   [$code] $msg"
    fi
    rm -f "$err"
done <<<"$ROWS"
echo "$n cases"
[ -d "$B" ] || echo "note: $B is missing"
exit $fail
