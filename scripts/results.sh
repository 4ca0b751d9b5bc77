#!/usr/bin/env bash
# Regenerate the measured tables of docs/results/ from the current build: each file carries the
# command, the machine, the date and the commit it was measured with.
#   scripts/results.sh            all tables
#   scripts/results.sh demo ...   only these (demo, bcast_auto, links)
# BUILD=dir picks the build directory (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
H=$build/bin/hetcoll
[ -x "$H" ] || { echo "results: $H not built (cmake --build --preset default)" >&2; exit 1; }
machine="$(uname -sm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# want NAME: the table NAME was asked for (all when no argument was given)
want() {
    [ $# -gt 0 ] || return 1
    [ ${#sections[@]} -eq 0 ] && return 0
    local s
    for s in "${sections[@]}"; do [ "$s" = "$1" ] && return 0; done
    return 1
}
sections=("$@")
for s in "${sections[@]}"; do
    case $s in demo | bcast_auto | links) ;; *) echo "results: unknown table '$s' (demo, bcast_auto, links)" >&2; exit 2 ;; esac
done

# header FILE TITLE COMMAND: the provenance lines of a table
header() {
    {
        echo "# $2"
        echo
        echo "- command: \`$3\`"
        echo "- machine: $machine"
        echo "- date: $(date -u +%Y-%m-%d), commit $commit"
        echo "- regenerate: \`bash scripts/results.sh\`"
        echo
    } >"$1"
}

# Every registered algorithm on the built-in platforms: the demo's own output (its legend
# explains the columns), and its summary picture.
if want demo; then
cmd="hetcoll demo --msg 1MiB --error-sigma 0.1 --seed 1"
header docs/results/demo.md "Every algorithm on the built-in platforms, 1 MiB" "$cmd"
"$H" demo --msg 1MiB --error-sigma 0.1 --seed 1 -o "$tmp/demo" >"$tmp/demo.txt"
{
    echo "The demo's output as it prints it: per problem one lower bound, per algorithm the"
    echo "predicted makespan, its replay on a network perturbed by sigma 0.1 (seed 1), the ratio to"
    echo "the bound and the comparison with the MPI default, auto's choice, then the summary."
    echo
    echo '```'
    sed "s|$tmp/demo|hetcoll-demo|" "$tmp/demo.txt"
    echo '```'
    echo
    echo "The summary picture (\`hetcoll-demo/summary.svg\`): each algorithm's predicted makespan"
    echo "divided by its problem's lower bound, the MPI default in orange, auto and its choice in"
    echo "dark blue."
    echo
    echo '![every algorithm against the bound](demo-summary.svg)'
} >>docs/results/demo.md
cp "$tmp/demo/summary.svg" docs/results/demo-summary.svg
fi

if want bcast_auto; then
# auto against each candidate on random grids: how often and by how much the default wins.
cmd="hetcoll schedule bcast --platform random:grid:clusters=C:nodes=N:seed=S --msg 1MiB --algo A"
header docs/results/bcast_auto.md "Broadcast: auto against the classic and grid heuristics on random grids" "$cmd"
{
    echo "Planned makespan (s) of each algorithm on 5 random grids (seeds 1..5, 4 clusters of 16"
    echo "nodes, pLogP off: Hockney costs), and auto's choice."
    echo
    printf '| seed |'
    algos="binomial pipeline model-best ecef ecef-la hier-auto auto"
    for a in $algos; do printf ' %s |' "$a"; done
    echo ' auto chose |'
    printf '|---|'
    for _ in $algos; do printf -- '---|'; done
    echo '---|'
    for seed in 1 2 3 4 5; do
        spec="random:grid:clusters=4:nodes=16:seed=$seed"
        printf '| %s |' "$seed"
        for a in $algos; do
            m=$("$H" schedule bcast --platform "$spec" --msg 1MiB --algo "$a" | awk '/^makespan:/ {print $2}')
            printf ' %s |' "$m"
        done
        chose=$("$H" schedule bcast --platform "$spec" --msg 1MiB | awk '/^note: *auto:/ {print $3}')
        echo " $chose |"
    done
} >>docs/results/bcast_auto.md
fi
if want links; then
# The link level: per-pair plan, flow model and link bound on the 3-site shared-uplink grid.
cmd="hetcoll schedule COLL --platform random:sites:nodes=20:interleave=1 --msg SIZE"
header docs/results/links.md "On shared links: the per-pair plan, the flow model and the link bound" "$cmd"
{
    echo "60 ranks interleaved over 3 sites, 100 Mb/s uplinks shared by both directions, 10 ms"
    echo "between sites (random:sites). auto ranks its candidates on the flow network; the plan"
    echo "is the per-pair model's makespan of the kept schedule, the bound the link (alltoall) or"
    echo "cut (bcast, reduce) bound. Flow and bound are models, not SMPI measurements."
    echo
    echo "| collective | size | kept | per-pair plan (s) | flow model (s) | link bound (s) | flow / bound |"
    echo "|---|---|---|---|---|---|---|"
    for cs in alltoall:64KiB bcast:64KiB bcast:1MiB bcast:16MiB reduce:1MiB; do
        c=${cs%%:*} m=${cs#*:}
        "$H" schedule "$c" --platform random:sites:nodes=20:interleave=1 --msg "$m" >"$tmp/l.txt"
        awk -v c="$c" -v m="$m" '
            /^makespan:/ { plan = $2 }
            /auto on the links: kept/ { for (i = 1; i <= NF; i++) if ($i == "kept") kept = $(i + 1); sub(",", "", kept) }
            /on the links \(flow model\)/ { for (i = 1; i <= NF; i++) { if ($i == "model):") flow = $(i + 1); if ($i == "bound") lb = $(i + 1); if ($i ~ /x\)$/) r = $i } }
            END { gsub(/[()]/, "", r); printf "| %s | %s | %s | %s | %s | %s | %s |\n", c, m, kept, plan, flow, lb, r }' "$tmp/l.txt"
    done
} >>docs/results/links.md
fi
echo "docs/results: $(ls docs/results | tr '\n' ' ')"
