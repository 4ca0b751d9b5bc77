#!/usr/bin/env bash
# Network-information subcommands: `hetcoll cluster` and `hetcoll forecast` (issue 6).
# Usage: bash test_netinfo.sh <hetcoll-binary> <tests-dir>
set -u
BIN=$1
W=$(mktemp -d /tmp/hc-cli-netinfo-XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
check() { # description, command status (0 = ok)
    if [ "$2" -ne 0 ]; then echo "FAIL: $1"; fail=1; else echo "ok: $1"; fi
}
# expect CODE SUBSTRING ARGS...: exit code, exactly one stderr line containing SUBSTRING
expect() {
    local code=$1 sub=$2
    shift 2
    "$BIN" "$@" >/dev/null 2>"$W/err"
    local rc=$? lines
    lines=$(wc -l < "$W/err")
    if [ "$rc" -ne "$code" ] || [ "$lines" -ne 1 ] || ! grep -q -- "$sub" "$W/err"; then
        echo "FAIL: '$*' -> exit $rc (want $code), stderr: $(cat "$W/err")"
        fail=1
    else
        echo "ok: '$*' -> $code"
    fi
}

out=$("$BIN" cluster --platform builtin:grid5000 --rho 0.3)
echo "$out" | grep -q "^clusters:  6$" && echo "$out" | grep -q "same partition"
check "grid5000: 6 clusters, same partition as the built-in labels (greedy)" $?
out=$("$BIN" cluster --platform builtin:grid5000 --rho 0.3 --variant all-pairs)
echo "$out" | grep -q "^clusters:  6$" && echo "$out" | grep -q "same partition"
check "grid5000: 6 clusters (all-pairs)" $?
"$BIN" cluster --platform builtin:grid5000 --format json | grep -q '"n_clusters": 6,'
check "grid5000: json n_clusters" $?
"$BIN" cluster --platform builtin:grid5000 --rho 0.31 | grep -q "^clusters:  5$"
check "grid5000: rho 0.31 merges the two Orsay clusters" $?
"$BIN" cluster --platform builtin:gusto --write-platform "$W/g.json" --prefix site >/dev/null &&
    "$BIN" platform show "$W/g.json" | grep -q "^clusters:  3$" &&
    grep -q '"cluster": "site0"' "$W/g.json"
check "--write-platform writes loadable labels" $?

printf '# t value\n0 1.0\n1 1.1\n\n2 0.9  # comment\n3 1.0\n' > "$W/s.txt"
out=$("$BIN" forecast --series "$W/s.txt")
echo "$out" | grep -q "^3 1 " && echo "$out" | grep -q "^# adaptive"
check "forecast on a 'time value' file" $?
"$BIN" forecast --synthetic periodic --n 300 --summary --error mae | grep -q "final choice"
check "forecast --synthetic" $?

printf '1.0\n2.0\nabc\n' > "$W/bad.txt"
expect 1 "bad.txt:3" forecast --series "$W/bad.txt"
expect 1 "no values" forecast --series /dev/null
expect 1 "valid are constant" forecast --synthetic nosuch
expect 2 "exactly one" forecast
expect 1 "mse, mae" forecast --synthetic noisy --error rmse
expect 1 "rho" cluster --platform builtin:gusto --rho -1
expect 1 "latency, bandwidth" cluster --platform builtin:gusto --metric hops
expect 1 "greedy, all-pairs" cluster --platform builtin:gusto --variant x
expect 2 "missing --platform" cluster
expect 1 "nosuch" cluster --platform builtin:nosuch
expect 1 "nonexistent" cluster --platform dir:/nonexistent/dir.json
expect 1 "max-age" platform show dir:max-age=zero:/tmp/x.json
exit $fail
