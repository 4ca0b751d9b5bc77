#!/bin/bash
# Grid benchmarks under SimGrid SMPI: hetcoll's collectives against SMPI's native ones on the
# scenarios of issue 8, one command for every table:
#   bash bench/grid/run.sh [BUILD_DIR (build)] [OUT_DIR (BUILD_DIR/grid-results)] [SCENARIOS (a b c d bp)]
# GRID_TABLES_ONLY=1: only rebuild tables.md from the .tsv files in OUT_DIR (e.g. after running
# scenarios in parallel into one OUT_DIR); GRID_TIMEOUT: seconds per smpirun (3600).
# Needs a build with SimGrid (bench/grid_bench.smpi, bin/hetcoll). Writes OUT_DIR/<s>.{xml,txt}
# (platform, hostfile), <s>.ompi.tsv / <s>.basic.tsv (raw rows of grid_bench, see its header)
# and tables.md (the Markdown tables), and prints the tables.
#
# Scenarios:
#   a  builtin:grid5000, 88 ranks (1 Gb/s everywhere, Table 3 latencies; per-pair links)
#   b  3 sites x 85-86 ranks = 256, 1 Gb/s / 50 us inside, 10 ms / 100 Mb/s backbone shared by
#      all flows between two sites
#   c  gusto-x8: the 5 GUSTO sites (000 Tables 1-2) with 8 ranks each, 100 Mb/s / 100 us
#      inside a site, the site pair's link shared by its flows
#   d  two clusters of 32 (1 Gb/s), 1 ms between them, a backbone carrying k = 4 node-rate
#      transfers (500 MB/s shared); redistribution cluster 1 -> cluster 2 with k = 4
#   bp scenario b with private (FATPIPE) inter-site links: every flow gets 100 Mb/s, which is
#      hetcoll's per-pair model; b and bp together separate model error from sharing
# Native baselines (two smpirun runs per scenario):
#   ompi   --cfg=smpi/coll-selector:ompi; alltoallv = ring, i.e. Open MPI's pairwise exchange
#          (SMPI's ompi selector maps alltoallv to `pair`, which needs a power-of-two size)
#   basic  alltoallv ompi_basic_linear (post everything at once; not at 256 ranks: SMPI needs
#          ~11 min for its 65k simultaneous flows), bcast binomial_tree, reduce binomial
# SMPI's own corrections are off (as in tests/smpi): the simulated network is the platform.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
B=$(cd "${1:-build}" && pwd)
OUT=${2:-$B/grid-results}
SCEN=${3:-a b c d bp}
HC=$B/bin/hetcoll
GB=$B/bench/grid_bench.smpi
[ -x "$GB" ] || { echo "run.sh: $GB missing (build with SimGrid: smpicc/smpirun)" >&2; exit 1; }
mkdir -p "$OUT"
SG=(--cfg=smpi/simulate-computation:no --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1
    --cfg=network/TCP-gamma:0 --cfg=network/crosstraffic:0
    --cfg=smpi/shared-malloc-blocksize:268435456 --log=root.thres:warning --log=smpi.thres:error)
OMPI=(--cfg=smpi/coll-selector:ompi --cfg=smpi/alltoall:ring --cfg=smpi/alltoallv:ring)
BASIC=(--cfg=smpi/alltoall:ring --cfg=smpi/alltoallv:ompi_basic_linear
       --cfg=smpi/bcast:binomial_tree --cfg=smpi/reduce:binomial)
# Alltoallv pair sizes are >= 64 KiB: below SMPI's smpi/send-is-detached-thresh a send
# completes at once, so every rank would inject all its messages together and the simulation
# of that many simultaneous flows takes minutes.
BCAST=bcast:64K,bcast:1M,bcast:16M,reduce:1M

run_one() { # name spec export-options ops basic-ops [grid_bench options]
    local name=$1 spec=$2 exp=$3 ops=$4 bops=$5
    shift 5
    # shellcheck disable=SC2086
    "$HC" platform export "$spec" --simgrid "$OUT/$name.xml" --hostfile "$OUT/$name.txt" $exp
    local np
    np=$(wc -l < "$OUT/$name.txt")
    local t0=$SECONDS
    timeout "${GRID_TIMEOUT:-3600}" smpirun -np "$np" -platform "$OUT/$name.xml" -hostfile "$OUT/$name.txt" \
        "${SG[@]}" "${OMPI[@]}" "$GB" --platform "$spec" --scenario "$name" --ops "$ops" \
        --label ompi "$@" > "$OUT/$name.ompi.tsv"
    timeout "${GRID_TIMEOUT:-3600}" smpirun -np "$np" -platform "$OUT/$name.xml" -hostfile "$OUT/$name.txt" \
        "${SG[@]}" "${BASIC[@]}" "$GB" --platform "$spec" --scenario "$name" --ops "$bops" \
        --label basic --no-hetcoll "$@" > "$OUT/$name.basic.tsv"
    echo "scenario $name: $np ranks, $((SECONDS - t0)) s" >&2
}

T0=$SECONDS
for s in $SCEN; do
    [ -n "${GRID_TABLES_ONLY:-}" ] && break
    case $s in
    a) run_one a builtin:grid5000 "" "a2a-uniform:64K,a2a-skewed:64K,$BCAST" \
           "a2a-uniform:64K,a2a-skewed:64K,$BCAST" ;;
    b) run_one b "$HERE/platforms/three-sites.json" --shared-backbone \
           "a2a-uniform:64K,a2a-skewed:64K,$BCAST" "$BCAST" ;;
    c) run_one c "$HERE/platforms/gusto-x8.json" --shared-backbone \
           "a2a-uniform:64K,a2a-skewed:64K,$BCAST" "a2a-uniform:64K,a2a-skewed:64K,$BCAST" ;;
    bp) run_one bp "$HERE/platforms/three-sites.json" "" \
           "a2a-uniform:64K,a2a-skewed:64K,$BCAST" "$BCAST" ;;
    d) run_one d "$HERE/platforms/two-clusters.json" "--backbone-bw 5e8" \
           "a2a-uniform:64K,a2a-skewed:64K,$BCAST,redist:1M" \
           "a2a-uniform:64K,a2a-skewed:64K,$BCAST,redist:1M" --k 4 ;;
    *) echo "run.sh: unknown scenario '$s' (a b c d bp)" >&2; exit 2 ;;
    esac
done

# Tables: join the two runs per (scenario, op, size).
{
    echo "| scen | operation | bytes | hetcoll (s) | native ompi (s) | ratio | native basic (s) | ratio | hetcoll runs | predicted (s) | model native (s) | warm-up calls | warm-up (s) |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for s in $SCEN; do
        awk -F'\t' -v OFS=' | ' '
            NR == FNR { basic[$2 "/" $3] = $5; next }
            { b = ($2 "/" $3) in basic ? basic[$2 "/" $3] : "-"
              r2 = (b != "-" && b + 0 > 0) ? sprintf("%.3f", $4 / b) : "-"
              op = $2; if (op == "redist") op = "redist (basic: brute force)"
              print "| " $1, op, $3, $4, $5, $6, b, r2, $7, $8, $10, $13, $14 " |" }' \
            "$OUT/$s.basic.tsv" "$OUT/$s.ompi.tsv"
    done
} > "$OUT/tables.md"
cat "$OUT/tables.md"
echo "total: $((SECONDS - T0)) s" >&2
