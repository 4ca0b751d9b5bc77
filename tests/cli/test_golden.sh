#!/usr/bin/env bash
# Golden tests of the CLI's text and JSON outputs.
# Usage: bash test_golden.sh <hetcoll-binary> <tests-dir>
# Regenerate the expected files with: HC_UPDATE_GOLDEN=1 bash test_golden.sh BIN TESTS
set -u
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$2" || exit 1 # paths below are relative to tests/, so outputs never embed absolute paths
G=cli/golden
fail=0

# name | arguments
CASES=$(cat <<'ROWS'
alltoall_caterpillar.txt|schedule alltoall --costs data/cli_costs4.txt --algo caterpillar
alltoall_caterpillar.json|schedule alltoall --costs data/cli_costs4.txt --algo caterpillar --format json
bcast_flat.json|schedule bcast --platform cli/data/plat5.json --root 0 --msg 1MiB --algo flat --format json
bcast_binomial.json|schedule bcast --platform cli/data/plat5.json --root 0 --msg 1MiB --algo binomial --format json
bcast_binomial_root2.txt|schedule bcast --platform cli/data/plat5.json --root 2 --msg 64KiB --algo binomial
ROWS
)

while IFS='|' read -r name args; do
    [ -z "$name" ] && continue
    out=$(mktemp)
    # shellcheck disable=SC2086
    "$BIN" $args >"$out" 2>"$out.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL $name: exit $rc: $(cat "$out.err")"
        fail=1
    elif [ "${HC_UPDATE_GOLDEN:-0}" = 1 ]; then
        cp "$out" "$G/$name"
        echo "updated $G/$name"
    elif [ ! -f "$G/$name" ]; then
        echo "FAIL $name: missing golden file $G/$name (run with HC_UPDATE_GOLDEN=1)"
        fail=1
    elif ! diff -u "$G/$name" "$out"; then
        echo "FAIL $name: output differs from $G/$name"
        fail=1
    else
        echo "ok   $name"
    fi
    rm -f "$out" "$out.err"
done <<<"$CASES"
exit $fail
