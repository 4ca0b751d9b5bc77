#!/bin/bash
# Model accuracy under SimGrid SMPI: every registered algorithm of every collective, forced in
# the MPI runtime, on six link-level platforms, at 64 KiB, 1 MiB and 16 MiB; the runtime's
# prediction (the flow model of the runtime's execution, hc_comm_last_predicted) against the
# time SMPI measured. One command for the table of docs/results/accuracy.md:
#   bash bench/grid/accuracy.sh [BUILD_DIR (build)] [OUT_DIR (BUILD_DIR/accuracy)] [PLATFORMS]
# PLATFORMS: a subset of "sites-i sites-b fattree gusto grid5000 backbone" (all by default).
# SMPI's corrections are off (--cfg=smpi/bw-factor:0:1, lat-factor:0:1, TCP-gamma:0,
# crosstraffic:0): the simulated network is the platform, as in the flow model's defaults.
# TTCC (two trees) is left out: the flow model does not replay it. Writes OUT_DIR/<p>.tsv
# (grid_bench rows), OUT_DIR/accuracy.md (the tables) and prints the summary.
# Environment: ACC_SIZES (default "64K 1M 16M"); ACC_CHECK="MEDIAN MAX" (percent): exit 1
# when the median or the largest |error| is above them (the CTest smpi/accuracy).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
B=$(cd "${1:-build}" && pwd)
OUT=${2:-$B/accuracy}
PLATS=${3:-sites-i sites-b fattree gusto grid5000 backbone}
HC=$B/bin/hetcoll
GB=$B/bench/grid_bench.smpi
[ -x "$GB" ] || { echo "accuracy.sh: $GB missing (build with SimGrid: smpicc/smpirun)" >&2; exit 1; }
mkdir -p "$OUT"
SG=(--cfg=smpi/simulate-computation:no --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1
    --cfg=network/TCP-gamma:0 --cfg=network/crosstraffic:0
    --cfg=smpi/shared-malloc-blocksize:268435456 --log=root.thres:warning --log=smpi.thres:error)
ALGOS=$("$HC" algorithms | awk 'NR > 1 && $2 != "ttcc" && $2 != "auto" {print $2}' | paste -sd, -)
SIZES=${ACC_SIZES:-64K 1M 16M}
ops() { # the operations of a platform: every collective at every size
    local o="" s
    for s in $SIZES; do o="$o,bcast:$s,reduce:$s,a2a-uniform:$s"; done
    o="$o,a2a-skewed:64K,a2a-skewed:1M"
    [ "${1:-}" = redist ] && for s in $SIZES; do o="$o,redist:$s"; done
    echo "${o#,}"
}
T0=$SECONDS
for p in $PLATS; do
    case $p in
    sites-i) spec=random:sites:sites=3:nodes=8:interleave=1; o=$(ops) ;;
    sites-b) spec=random:sites:sites=3:nodes=8; o=$(ops redist) ;;
    fattree) spec=$HERE/platforms/fat-tree-3to1.json; o=$(ops redist) ;;
    gusto) spec=$HERE/platforms/gusto-links.json; o=$(ops redist) ;;
    grid5000) spec=$HERE/platforms/grid5000-links.json; o=$(ops redist) ;;
    backbone) spec=$HERE/platforms/two-clusters-backbone.json; o=$(ops redist) ;;
    *) echo "accuracy.sh: unknown platform '$p'" >&2; exit 2 ;;
    esac
    "$HC" platform export "$spec" --simgrid "$OUT/$p.xml" --hostfile "$OUT/$p.txt"
    np=$(wc -l < "$OUT/$p.txt")
    t=$SECONDS
    timeout "${ACC_TIMEOUT:-3600}" smpirun -np "$np" -platform "$OUT/$p.xml" -hostfile "$OUT/$p.txt" \
        "${SG[@]}" "$GB" --platform "$spec" --scenario "$p" --ops "$o" --algos "$ALGOS" \
        --no-native --reps 1 > "$OUT/$p.tsv"
    echo "accuracy: $p ($np ranks): $((SECONDS - t)) s" >&2
done
# Tables: error = (predicted - measured) / measured.
{
    echo "| platform | collective | bytes | algorithm | SMPI (s) | predicted (s) | error |"
    echo "|---|---|---|---|---|---|---|"
    for p in $PLATS; do
        awk -F'\t' -v OFS=' | ' '{ printf "| %s | %s | %s | %s | %.4g | %.4g | %+.1f %% |\n",
            $1, $2, $3, $12, $4, $8, 100 * ($8 - $4) / $4 }' "$OUT/$p.tsv"
    done
} > "$OUT/accuracy.md"
# Summary: the median and the largest |error| (mawk has no asort: sort the errors first).
for p in $PLATS; do cat "$OUT/$p.tsv"; done |
    awk -F'\t' '{ e = ($8 - $4) / $4; printf "%.6f\t%s %s %s %s\n", e < 0 ? -e : e, $1, $2, $3, $12 }' |
    sort -g | awk -F'\t' '{ e[++n] = $1; w[n] = $2; within += $1 <= 0.10 }
        END { med = n % 2 ? e[(n + 1) / 2] : (e[n / 2] + e[n / 2 + 1]) / 2
              printf "accuracy: %d cells, median |error| %.1f %%, max %.1f %% (%s), %d within 10 %%\n",
                  n, 100 * med, 100 * e[n], w[n], within }' | tee "$OUT/summary.txt"
echo "accuracy: total $((SECONDS - T0)) s" >&2
if [ -n "${ACC_CHECK:-}" ]; then
    read -r want_med want_max <<<"$ACC_CHECK"
    awk -v m="$want_med" -v x="$want_max" '{ med = $6 + 0; mx = $9 + 0
        if (med > m || mx > x) { printf "accuracy: FAIL: median %s %% (<= %s), max %s %% (<= %s)\n", med, m, mx, x; exit 1 } }' \
        "$OUT/summary.txt"
fi
