#!/usr/bin/env bash
# `hetcoll demo`: exit 0, every row valid, one well-formed SVG per schedule.
# Usage: bash test_demo.sh <hetcoll-binary> <tests-dir>
set -u
BIN=$1
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail=0
"$BIN" demo --msg 64KiB --out "$W/demo" >"$W/out.txt" 2>"$W/err.txt"
rc=$?
cat "$W/out.txt"
if [ $rc -ne 0 ]; then
    echo "FAIL demo exited $rc: $(cat "$W/err.txt")"
    fail=1
fi
bad=$(sed -n '/^platform /,/^$/p' "$W/out.txt" | awk 'NR > 1 && NF > 0 && $NF != "yes"' | wc -l)
svgs=$(find "$W/demo" -name '*.svg' | wc -l)
echo "rows not valid: $bad, SVG files: $svgs"
[ "$bad" -eq 0 ] || fail=1
for coll in alltoall bcast reduce redistribute; do
    n_algo=$("$BIN" algorithms --collective "$coll" | awk 'NR > 1' | wc -l)
    n_rows=$(awk -v c="$coll" '$2 == c' "$W/out.txt" | wc -l)
    # grid5000 and gusto: every registered algorithm appears once per platform
    if [ "$n_rows" -ne $((2 * n_algo)) ]; then
        echo "FAIL $coll: $n_rows rows, expected $((2 * n_algo))"
        fail=1
    fi
done
[ "$svgs" -gt 0 ] || fail=1
if command -v xmllint >/dev/null 2>&1; then
    for f in "$W"/demo/*.svg; do
        xmllint --noout "$f" || {
            echo "FAIL $f is not well-formed"
            fail=1
        }
    done
fi
exit $fail
