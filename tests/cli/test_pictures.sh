#!/usr/bin/env bash
# Pictures a reader can use (issue 17):
#  - timing diagrams name the nodes and the clusters (bands), have a legend for the colours
#    and the makespan / bound lines, and keep the whole title and subtitle (wrapped, not cut);
#  - at 256 nodes the rows are aggregated (at most 64), the row labels never overlap and the
#    file stays small;
#  - plots give every series its own colour + dash pattern + marker, so coinciding series stay
#    visible (12 TTCC series; the all-to-all experiment's algorithms);
#  - --png writes PNG files through rsvg-convert (skipped when it is not installed), and names
#    the package when it is missing.
# Usage: bash test_pictures.sh <hetcoll-binary> <tests-dir>
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
# text of the elements of class $2 in SVG file $1, one per line
texts() { grep -o "<text class=\"$2\"[^>]*>[^<]*</text>" "$1" | sed 's/<[^>]*>//g'; }
# y coordinates of the elements of class $2
ys() { grep -o "<text class=\"$2\" [^>]*" "$1" | sed 's/.* y="\([0-9.]*\)".*/\1/'; }

# --- grid5000: names, bands, legend, title
"$BIN" demo --msg 64KiB --platform builtin:grid5000 -o "$W/g" >/dev/null 2>&1
f=$W/g/grid5000-bcast-auto.svg
check "bcast diagram written" test -s "$f"
first=$(texts "$f" row | head -1)
check "rows carry node names ($first)" test "$first" = "C1-1-0"
n_rows=$(texts "$f" row | wc -l)
check "one row label per node ($n_rows)" test "$n_rows" -eq 88
bands=$(texts "$f" band | tr '\n' ' ')
check "named cluster bands ($bands)" test "$bands" = "C1-1 C1-2 C2-1 C2-2 C2-3 C3 "
legend=$(texts "$f" legend | tr '\n' '|')
check "legend: makespan and bound lines ($legend)" bash -c "grep -q 'makespan|lower bound' <<<'$legend'"
f=$W/g/grid5000-alltoall-auto.svg
legend=$(texts "$f" legend | tr '\n' '|')
check "alltoall legend names the destination clusters ($legend)" bash -c "grep -q 'to C1-1|to C1-2' <<<'$legend'"
f=$W/g/grid5000-redistribute-auto.svg
title=$(texts "$f" title | tr '\n' ' ' | sed 's/ $//')
check "long title wrapped, not cut ($title)" bash -c "grep -q 'redistribute on grid5000: auto chose .* transfers per step, beta = .* s per step)\$' <<<'$title'"
sub=$(texts "$f" subtitle | tr '\n' ' ')
check "subtitle complete" bash -c "grep -q \"and, lighter, in the receiver's row.\" <<<\"$sub\""
for g in "$W"/g/*.svg; do
    # no text line longer than the picture (1200 px at 0.6 x font size per character)
    check "$(basename "$g"): title and subtitle lines fit" awk '
        /<text class="(title|subtitle)"/ {
            fs = $0; sub(/.*font-size="/, "", fs); sub(/".*/, "", fs)
            t = $0; sub(/^<text[^>]*>/, "", t); sub(/<\/text>.*/, "", t)
            if (10 + 0.6 * fs * length(t) > 1200) bad = 1
        } END {exit bad}' "$g"
done

# --- 256 nodes: aggregated rows, labels apart, small file
"$BIN" demo --msg 64KiB --platform random:grid:clusters=8:nodes=32:seed=3 -o "$W/r" >/dev/null 2>&1
f=$(ls "$W"/r/*-alltoall-auto.svg 2>/dev/null | head -1)
check "256-node all-to-all diagram written" test -n "$f"
if [ -n "$f" ]; then
    n=$(texts "$f" row | wc -l)
    check "256 nodes in at most 64 rows ($n)" test "$n" -ge 8 -a "$n" -le 64
    check "aggregated rows name their nodes (C0-0..C0-3)" bash -c "grep -q '>C0-0..C0-3<' '$f'"
    gap=$(ys "$f" row | sort -n | awk 'NR > 1 && (min == "" || $1 - p < min) {min = $1 - p} {p = $1} END {print min + 0}')
    check "row labels at least 7 px apart (closest: $gap px)" awk -v g="$gap" 'BEGIN {exit !(g >= 7)}'
    check "cluster bands C0..C7" test "$(texts "$f" band | tr '\n' ' ')" = "C0 C1 C2 C3 C4 C5 C6 C7 "
    kb=$(du -k "$f" | cut -f1)
    check "256-node all-to-all diagram under 1 MB ($kb KB)" test "$kb" -lt 1024
fi

# --- plots: distinct styles
"$BIN" experiment ttcc --nodes 10,20 --trials 2 -o "$W/t" >/dev/null 2>&1
f=$W/t/ttcc_time_nodes.svg
n=$(grep -c '<polyline' "$f")
styles=$(grep -o '<polyline[^>]*' "$f" | sed 's/ points=.*//; s/stroke-width="[^"]*"//' | sort -u | wc -l)
check "ttcc plot: 12 series, 12 distinct colour+dash styles ($n, $styles)" test "$n" -eq 12 -a "$styles" -eq 12
if "$BIN" experiment alltoall --workload small --procs 6,8 --trials 2 -o "$W/a" >/dev/null 2>&1; then
    f=$W/a/alltoall_small_time.svg
    n=$(grep -c '<polyline' "$f")
    styles=$(grep -o '<polyline[^>]*' "$f" | sed 's/ points=.*//; s/stroke-width="[^"]*"//' | sort -u | wc -l)
    dashes=$(grep -o '<polyline[^>]*' "$f" | grep -o 'stroke-dasharray="[^"]*"' | sort -u | wc -l)
    check "alltoall plot: $n series, $styles distinct styles, $dashes dash patterns" test "$n" -eq "$styles" -a "$dashes" -ge 3
    shapes=$(grep -cE '<(rect x|polygon|path d)' "$f")
    check "alltoall plot: markers of several shapes" test "$shapes" -gt 0
else
    check "experiment alltoall runs" false
fi

# --- PNG
if command -v rsvg-convert >/dev/null 2>&1; then
    "$BIN" demo --msg 64KiB --platform builtin:gusto -o "$W/p" --png >/dev/null 2>&1
    n_svg=$(find "$W/p" -name '*.svg' | wc -l)
    n_png=$(find "$W/p" -name '*.png' | wc -l)
    check "demo --png: one PNG per SVG ($n_png / $n_svg)" test "$n_png" -eq "$n_svg" -a "$n_png" -gt 0
    check "summary.png is a PNG" bash -c "head -c 8 '$W/p/summary.png' | od -An -c | grep -q 'P   N   G'"
    "$BIN" experiment ttcc --nodes 10 --trials 2 -o "$W/tp" --png >/dev/null 2>&1
    check "experiment ttcc --png" test -s "$W/tp/ttcc_delay.png"
else
    echo "skip --png (rsvg-convert is not installed: Debian package librsvg2-bin)"
fi
mkdir "$W/empty"
PATH="$W/empty" "$BIN" demo --png -o "$W/q" >/dev/null 2>"$W/e.txt"
rc=$?
check "--png without rsvg-convert: exit 1 naming librsvg2-bin ($rc: $(cat "$W/e.txt"))" bash -c "test $rc -eq 1 && grep -q librsvg2-bin '$W/e.txt' && test \$(wc -l <'$W/e.txt') -eq 1"
exit $fail
