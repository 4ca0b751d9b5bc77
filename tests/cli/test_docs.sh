#!/usr/bin/env bash
# The docs' worked example is the real code: docs/architecture.md shows a classic broadcast added
# with one file and one row; the listing must be that file (at most 60 lines), the row must be in
# algos.def, and the CLI must run it.
# Usage: test_docs.sh <hetcoll-binary> <tests-dir>
set -euo pipefail
H=$1
root=$(cd "$2/.." && pwd)
doc=$root/docs/architecture.md
file=$root/src/sched/bcast_seg_flat.c
fail=0
# the C block that starts with the file's first line
awk '/^```c$/ { inblk = 1; buf = ""; next } /^```$/ { if (inblk && buf ~ /^\/\* `segmented-flat`/) printf "%s", buf; inblk = 0; next } inblk { buf = buf $0 "\n" }' "$doc" >"${TMPDIR:-/tmp}/hc_doc_example.$$"
if ! cmp -s "${TMPDIR:-/tmp}/hc_doc_example.$$" "$file"; then
    fail=$((fail + 1)); echo "FAIL: docs/architecture.md's listing differs from src/sched/bcast_seg_flat.c"
    diff "${TMPDIR:-/tmp}/hc_doc_example.$$" "$file" | head -10
fi
rm -f "${TMPDIR:-/tmp}/hc_doc_example.$$"
[ "$(wc -l <"$file")" -le 60 ] || { fail=$((fail + 1)); echo "FAIL: the example has more than 60 lines"; }
row=$(grep '^HC_BCAST_CLASSIC(bcast_seg_flat,' "$root/src/sched/algos.def" || true)
[ -n "$row" ] || { fail=$((fail + 1)); echo "FAIL: no algos.def row for bcast_seg_flat"; }
grep -qF "$row" "$doc" || { fail=$((fail + 1)); echo "FAIL: docs/architecture.md does not show the algos.def row"; }
"$H" schedule bcast --platform builtin:grid5000 --msg 1MiB --algo segmented-flat --format json >/dev/null ||
    { fail=$((fail + 1)); echo "FAIL: hetcoll schedule bcast --algo segmented-flat"; }
[ "$(wc -l <"$doc")" -le 200 ] || { fail=$((fail + 1)); echo "FAIL: docs/architecture.md has more than 200 lines"; }
echo "docs checks: $fail failed"
[ $fail -eq 0 ]
