#!/bin/bash
# The oracle harness: hetcoll's collectives against every native SimGrid algorithm, the MPI
# libraries' selectors and the link bound, under SimGrid SMPI, on the grids of the acceptance
# points (bcast, reduce, alltoallv, redistribution). One command for the tables of
# docs/results/oracle.md (and, with ORACLE_SMPI_DEFAULTS=1, oracle-smpi-defaults.md):
#   bash bench/grid/oracle.sh [BUILD_DIR (build)] [OUT_DIR (BUILD_DIR/oracle, or
#                              BUILD_DIR/oracle-smpi-defaults with ORACLE_SMPI_DEFAULTS=1)]
# Per scenario, with one platform and one set of SMPI options (smpirun runs one at a time):
#   native-I  grid_bench --no-hetcoll with the I-th algorithm of each SimGrid list set at once
#             (--cfg=smpi/bcast:B_I --cfg=smpi/reduce:R_I --cfg=smpi/alltoallv:A_I; the lists
#             come from SimGrid itself, its selectors left out); an algorithm that crashes,
#             needs a power-of-two size or gives a wrong result (grid_bench checks every rank's
#             data after each call; SMP_linear with one rank per host re-matches the previous
#             call's duplicate segments) is skipped and named in the tables
#   sel-X     the MPI libraries' selectors: SMPI's default, --cfg=smpi/coll-selector:ompi, mpich
#             (the default run also times the redistribution's brute force, "post everything")
#   hetcoll   grid_bench's default: the runtime's `auto`, the steady state after tuning
#             (median of 3 calls once settled), under SMPI's default selector
# Every row carries grid_bench's bound_s (the link bound of the op). Writes OUT_DIR/<s>.xml/.txt
# (platform, hostfile), OUT_DIR/<s>/<run>.raw (grid_bench rows), .err (its stderr),
# OUT_DIR/<s>.tsv (scenario op bytes kind name time_s bound_s algorithm status),
# OUT_DIR/runs.tsv (per smpirun: wall and CPU seconds) and OUT_DIR/oracle.md (or
# oracle-smpi-defaults.md), and prints the summary.
# Environment:
#   ORACLE_SCENARIOS  names among "sites-i sites-b sites-uneven fattree gusto grid5000" (all by
#                     default) or NAME=SPEC for any platform spec
#   ORACLE_OPS        grid_bench ops (default: bcast 64K/1M/16M, reduce 64K/1M/16M, alltoallv
#                     uniform and skewed at 64K (and 1M on sites-i), redist:1M)
#   ORACLE_BCAST, ORACLE_REDUCE, ORACLE_ALLTOALLV  comma-separated native algorithms (default:
#                     every one SimGrid lists)
#   ORACLE_SELECTORS  default: "default ompi mpich"
#   ORACLE_SMPI_DEFAULTS=1  SimGrid's default network model (size-dependent factors, TCP window,
#                     cross-traffic) instead of corrections off; hetcoll plans with the same
#                     model (HETCOLL_FLOW_MODEL=smpi)
#   ORACLE_TABLES_ONLY=1  only rebuild OUT_DIR/<s>.tsv from the runs in OUT_DIR/<s>/ and the
#                     tables from them (after replacing a run's rows by hand, say)
#   ORACLE_RUNS=hetcoll  rerun only hetcoll's runs, keeping the native and selector runs in
#                     OUT_DIR (they do not depend on hetcoll): after a change to hetcoll
#   ORACLE_TIMEOUT    seconds per smpirun (default 1800; a run that times out loses the op it was
#                     in, the next run starts at the op after it)
#   ORACLE_OP_TIMEOUT seconds (wall) a native or selector op may take to simulate (default 60;
#                     0: no limit): the run stops, the op is marked as a timeout and the next run
#                     starts at the op after it. hetcoll's ops have only ORACLE_TIMEOUT.
#   ORACLE_CHECK=1    exit 1 when a measured time is below its link bound (the bound or the
#                     harness would be wrong) or a table column is missing
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
B=$(cd "${1:-build}" && pwd)
if [ -n "${ORACLE_SMPI_DEFAULTS:-}" ]; then
    OUT=${2:-$B/oracle-smpi-defaults}
    MD=oracle-smpi-defaults.md
else
    OUT=${2:-$B/oracle}
    MD=oracle.md
fi
HC=$B/bin/hetcoll
GB=$B/bench/grid_bench.smpi
SCEN=${ORACLE_SCENARIOS:-sites-i sites-b sites-uneven fattree gusto grid5000}
# the ops of a scenario: alltoallv at 1 MiB only on the main grid (sites-i), to bound the run
ops_of() {
    if [ -n "${ORACLE_OPS:-}" ]; then
        echo "$ORACLE_OPS"
        return
    fi
    local o=bcast:64K,bcast:1M,bcast:16M,reduce:64K,reduce:1M,reduce:16M,a2a-uniform:64K,a2a-skewed:64K
    [ "$1" = sites-i ] && o="$o,a2a-uniform:1M,a2a-skewed:1M"
    echo "$o,redist:1M"
}
SELS=${ORACLE_SELECTORS:-default ompi mpich}
ONLY=${ORACLE_RUNS:-all}
TMO=${ORACLE_TIMEOUT:-1800}
OPT=${ORACLE_OP_TIMEOUT:-60}
mkdir -p "$OUT"
SG=(--cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc-blocksize:268435456
    --log=root.thres:warning --log=smpi.thres:error)
if [ -n "${ORACLE_SMPI_DEFAULTS:-}" ]; then
    export HETCOLL_FLOW_MODEL=smpi
    MODE="SimGrid's default network model (size-dependent latency and bandwidth factors, TCP window, cross-traffic); hetcoll plans with the same model (HETCOLL_FLOW_MODEL=smpi)"
    CMD="ORACLE_SMPI_DEFAULTS=1 bash bench/grid/oracle.sh"
else
    SG+=(--cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 --cfg=network/TCP-gamma:0
         --cfg=network/crosstraffic:0)
    MODE="SMPI's corrections off (--cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 --cfg=network/TCP-gamma:0 --cfg=network/crosstraffic:0): the simulated network is the platform"
    CMD="bash bench/grid/oracle.sh"
fi
SGV=$(smpirun -version 2>/dev/null | head -1 | grep -o '[0-9][0-9.]*' | head -1 || true)

spec_of() { # scenario name (or NAME=SPEC) -> platform spec
    case $1 in
    *=*) echo "${1#*=}" ;;
    sites-i) echo random:sites:sites=3:nodes=21:interleave=1 ;;
    sites-b) echo random:sites:sites=3:nodes=21 ;;
    sites-uneven) echo "$HERE/platforms/sites-uneven.json" ;;
    fattree) echo "$HERE/platforms/fat-tree-3to1.json" ;;
    gusto) echo "$HERE/platforms/gusto-links.json" ;;
    grid5000) echo "$HERE/platforms/grid5000-links.json" ;;
    *) echo "oracle.sh: unknown scenario '$1' (sites-i sites-b sites-uneven fattree gusto grid5000, or NAME=SPEC)" >&2
       return 2 ;;
    esac
}
coll_of() { # op kind -> SMPI collective
    case $1 in
    bcast) echo bcast ;;
    reduce) echo reduce ;;
    a2a-*) echo alltoallv ;;
    *) echo - ;;
    esac
}
key_of() { # op (KIND:SIZE with K/M/G) -> KIND:BYTES, as grid_bench prints them
    awk -v op="$1" 'BEGIN { i = index(op, ":"); k = substr(op, 1, i - 1); s = substr(op, i + 1)
        u = substr(s, length(s)); m = 1
        if (u == "K" || u == "k") m = 1024; else if (u == "M" || u == "m") m = 1048576
        else if (u == "G" || u == "g") m = 1073741824
        if (m > 1) s = substr(s, 1, length(s) - 1)
        printf "%s:%d\n", k, int(s * m) }'
}
# SimGrid's algorithms of a collective (its "Valid algorithms" list, selectors left out).
sg_algos() {
    local d=$OUT/.list
    mkdir -p "$d"
    printf '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1"><zone id="z" routing="Full"><host id="h" speed="1Gf"/></zone></platform>\n' > "$d/p.xml"
    echo h > "$d/h.txt"
    smpirun -np 1 -platform "$d/p.xml" -hostfile "$d/h.txt" "--cfg=smpi/$1:help" /bin/true 2>&1 |
        sed -n 's/.*Valid algorithms: //p' | tr -d ' .' | tr ',' '\n' |
        grep -vxE 'default|ompi|mpich|mvapich2|impi|automatic' | paste -sd, - || true
}

RUNS=$OUT/runs.tsv
# grid_bench under smpirun: run_gb SCENARIO RUN OPS [SMPI --cfg options] -- [grid_bench options]. Rows go to OUT/<s>/<run>.raw; when a run fails the op it
# was in (the first without a row) is recorded in OUT/<s>/<run>.fail with the reason, and the
# run restarts at the op after it.
run_gb() {
    local s=$1 run=$2 ops=$3
    shift 3
    local cfg=() gbo=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do cfg+=("$1"); shift; done
    shift
    gbo=("$@")
    local raw=$OUT/$s/$run.raw fail=$OUT/$s/$run.fail err=$OUT/$s/$run.err
    : > "$raw"
    : > "$fail"
    : > "$err"
    local np spec
    np=$(wc -l < "$OUT/$s.txt")
    spec=${SPEC[$s]}
    while [ -n "$ops" ]; do
        local rc=0 tf=$OUT/$s/.run t0 pid since=$SECONDS last=-1 n killed=0
        t0=$(date +%s.%N)
        times > "$tf.t0" # CPU of the waited-for children so far (the smpiruns)
        timeout "$TMO" nice -n 10 smpirun -np "$np" -platform "$OUT/$s.xml" -hostfile "$OUT/$s.txt" \
            "${SG[@]}" "${cfg[@]}" "$GB" --platform "$spec" --scenario "$s" --ops "$ops" \
            "${gbo[@]}" > "$tf.out" 2>> "$err" &
        pid=$!
        # OPT > 0: stop the run when no row came for OPT seconds (an op that takes too long to
        # simulate; grid_bench prints a row per op)
        while [ "$OPT" -gt 0 ] && kill -0 "$pid" 2>/dev/null; do
            sleep 0.2
            n=$(wc -l < "$tf.out")
            [ "$n" != "$last" ] && last=$n since=$SECONDS
            if [ $((SECONDS - since)) -ge "$OPT" ]; then
                kill -TERM "$pid" 2>/dev/null || true # timeout passes it to smpirun's group
                killed=1
                break
            fi
        done
        wait "$pid" || rc=$?
        [ $killed -eq 1 ] && rc=125
        times > "$tf.t1"
        # grid_bench's rows (15 fields); smpirun's own messages to the log
        awk -F'\t' 'NF == 15' "$tf.out" >> "$raw"
        awk -F'\t' 'NF != 15' "$tf.out" >> "$err"
        # wall and CPU seconds (a run stopped by the op timeout: its wall, its CPU is not reaped)
        local wall cpu
        wall=$(echo "$t0 $(date +%s.%N)" | awk '{ print $2 - $1 }')
        cpu=$(cat "$tf.t0" "$tf.t1" | awk 'function s(x) { split(x, a, "m"); return a[1] * 60 + a[2] }
                NR == 2 || NR == 4 { c[NR] = s($1) + s($2) } END { print c[4] - c[2] }')
        [ $killed -eq 1 ] && cpu=$wall
        printf '%s\t%s\t%s\t%d\t%.1f\t%.1f\n' "$s" "$run" "$ops" "$rc" "$wall" "$cpu" >> "$RUNS"
        # the first op without a row failed (also after exit 0: SMPI exits 0 on a deadlock); the
        # rest run again
        local rest="" failed="" op
        for op in ${ops//,/ }; do
            if [ -z "$failed" ]; then
                local k
                k=$(key_of "$op")
                awk -F'\t' -v k="$k" '$2 ":" $3 == k { f = 1 } END { exit !f }' "$raw" && continue
                failed=$op
            else
                rest="$rest,$op"
            fi
        done
        if [ -z "$failed" ]; then
            [ $rc -eq 0 ] || echo "oracle.sh: $s/$run: smpirun exit $rc with every row written" >&2
            break
        fi
        local why
        # grid_bench's result check (the last one since the last restart)
        local wrong
        wrong=$(awk '/^--- restart/ { w = "" } /grid_bench: wrong result: / { sub(/.*grid_bench: wrong result: /, ""); w = $0 }
                     END { print w }' "$err" | cut -c1-100 | tr '\t|' '  ')
        if [ -n "$wrong" ]; then
            why="wrong result ($wrong)"
        elif [ $rc -eq 124 ]; then
            why="timeout (run over ${TMO} s)"
        elif [ $rc -eq 125 ]; then
            why="timeout (over ${OPT} s of simulation)"
        elif grep -q 'power of two\|power of 2' "$err"; then
            why="needs a power-of-two size"
        elif grep -q 'Segmentation fault' "$err"; then
            why="crashes (segmentation fault)"
        else
            why=$(sed -n 's/.*CRITICAL\] *//p' "$err" | head -1 | cut -c1-100 | tr '\t|' '  ')
            why="fails (exit $rc${why:+: $why})"
        fi
        printf '%s\t%s\n' "$(key_of "$failed")" "$why" >> "$fail"
        echo "oracle.sh: $s/$run: $failed $why" >&2
        echo "--- restart after $failed" >> "$err"
        ops=${rest#,}
    done
}

# Assemble OUT/<s>.tsv from the runs: scenario op bytes kind name time_s bound_s algorithm status
assemble() {
    local s=$1 f run
    {
        # hetcoll's run first: a row's bound is the first one read, and with ORACLE_RUNS=hetcoll
        # that run is the newest
        for f in $(ls "$OUT/$s"/hetcoll.raw "$OUT/$s"/sel-*.raw 2>/dev/null; ls -v "$OUT/$s"/native-*.raw 2>/dev/null); do
            run=$(basename "$f" .raw)
            case $run in
            hetcoll) awk -F'\t' -v OFS='\t' '{ print $1, $2, $3, "hetcoll", "hetcoll", $4, $15, $7, "ok" }' "$f"
                     awk -F'\t' -v OFS='\t' -v s="$s" '{ split($1, k, ":"); print s, k[1], k[2], "hetcoll", "hetcoll", "nan", "nan", "-", $2 }' "${f%.raw}.fail" ;;
            sel-*) awk -F'\t' -v OFS='\t' -v n="${run#sel-}" '{ print $1, $2, $3, $2 == "redist" ? "brute" : "selector",
                         $2 == "redist" ? "post everything" : n, $5, $15, "-", "ok" }' "$f"
                   awk -F'\t' -v OFS='\t' -v s="$s" -v n="${run#sel-}" '{ split($1, k, ":"); print s, k[1], k[2], k[1] == "redist" ? "brute" : "selector",
                         k[1] == "redist" ? "post everything" : n, "nan", "nan", "-", $2 }' "${f%.raw}.fail" ;;
            native-*) # the algorithms of this run: OUT/<s>/native-I.algos (collective name)
                awk -F'\t' -v OFS='\t' -v s="$s" 'FNR == NR { a[$1] = $2; next }
                    FILENAME ~ /\.raw$/ { c = $2 ~ /^a2a/ ? "alltoallv" : $2
                        print $1, $2, $3, "native", a[c], $5, $15, "-", "ok"; next }
                    { split($1, k, ":"); c = k[1] ~ /^a2a/ ? "alltoallv" : k[1]
                      print s, k[1], k[2], "native", a[c], "nan", "nan", "-", $2 }' \
                    "${f%.raw}.algos" "$f" "${f%.raw}.fail" ;;
            esac
        done
    } > "$OUT/$s.tsv"
}

declare -A SPEC=()
scen_names=""
for s in $SCEN; do
    SPEC[${s%%=*}]=$(spec_of "$s")
    scen_names="$scen_names ${s%%=*}"
done
T0=$SECONDS
for s in $scen_names; do
    [ -n "${ORACLE_TABLES_ONLY:-}" ] && break
    spec=${SPEC[$s]}
    OPS=$(ops_of "$s")
    if [ "$ONLY" = hetcoll ]; then
        # keep the native and selector runs (hetcoll does not change them)
        [ -d "$OUT/$s" ] || { echo "oracle.sh: ORACLE_RUNS=hetcoll: no earlier runs of $s in $OUT" >&2; exit 1; }
        sed -i "/^$s\thetcoll\t/d" "$RUNS" 2>/dev/null || true
    else
        rm -rf "${OUT:?}/$s"
        mkdir -p "$OUT/$s"
        sed -i "/^$s\t/d" "$RUNS" 2>/dev/null || true
    fi
    "$HC" platform export "$spec" --simgrid "$OUT/$s.xml" --hostfile "$OUT/$s.txt"
    ts=$SECONDS
    # the native algorithms of the collectives the ops use
    declare -A L=()
    for c in bcast reduce alltoallv; do
        uses=0
        for op in ${OPS//,/ }; do [ "$(coll_of "${op%%:*}")" = "$c" ] && uses=1; done
        [ $uses -eq 1 ] || { L[$c]=""; continue; }
        var=ORACLE_${c^^}
        L[$c]=${!var:-$(sg_algos "$c")}
    done
    n=0
    for c in bcast reduce alltoallv; do
        k=$(awk -F, '{ print $0 == "" ? 0 : NF }' <<<"${L[$c]}")
        [ "$k" -gt "$n" ] && n=$k
    done
    [ "$ONLY" = hetcoll ] && n=0
    for ((i = 0; i < n; i++)); do
        cfg=()
        ops=""
        : > "$OUT/$s/native-$i.algos"
        for c in bcast reduce alltoallv; do
            a=$(awk -F, -v i=$((i + 1)) '{ print $i }' <<<"${L[$c]}")
            [ -n "$a" ] || continue
            cfg+=("--cfg=smpi/$c:$a")
            printf '%s\t%s\n' "$c" "$a" >> "$OUT/$s/native-$i.algos"
            for op in ${OPS//,/ }; do [ "$(coll_of "${op%%:*}")" = "$c" ] && ops="$ops,$op"; done
        done
        # allreduce pinned to recursive doubling: SMPI's default one runs the configured reduce
        # and bcast, and grid_bench's timing uses it (the common start, the max over ranks)
        [ -n "$ops" ] && run_gb "$s" "native-$i" "${ops#,}" "${cfg[@]}" --cfg=smpi/allreduce:rdb \
            -- --no-hetcoll
    done
    for x in $([ "$ONLY" = hetcoll ] || echo "$SELS"); do
        cfg=()
        [ "$x" = default ] || cfg=("--cfg=smpi/coll-selector:$x")
        ops=$OPS
        [ "$x" = default ] || ops=$(echo "$OPS" | tr ',' '\n' | { grep -v '^redist:' || true; } | paste -sd, -)
        [ -n "$ops" ] && run_gb "$s" "sel-$x" "$ops" "${cfg[@]}" -- --no-hetcoll
    done
    OPT=0 run_gb "$s" hetcoll "$OPS" -- --no-native
    assemble "$s"
    echo "oracle: $s ($(wc -l < "$OUT/$s.txt") ranks): $((SECONDS - ts)) s" >&2
    unset L
done

if [ -n "${ORACLE_TABLES_ONLY:-}" ]; then
    for s in $scen_names; do [ -d "$OUT/$s" ] && assemble "$s"; done
fi

# ---- tables ----
ALL=()
for s in $scen_names; do [ -f "$OUT/$s.tsv" ] && ALL+=("$OUT/$s.tsv"); done
[ ${#ALL[@]} -gt 0 ] || { echo "oracle.sh: no OUT/<scenario>.tsv in $OUT" >&2; exit 1; }
# One row per (scenario, op, bytes); verdict against the acceptance points.
ROWS=$OUT/rows.tsv
awk -F'\t' -v OFS='\t' '
    function r(x, y) { return (x == "" || y == "" || x == "nan" || y == "nan" || y + 0 <= 0) ? "" : x / y }
    function f(x) { return x == "" ? "-" : sprintf("%.2f", x) }
    function t(x) { return (x == "" || x == "-" || x == "nan") ? "-" : sprintf("%.4g", x) }
    $9 != "ok" { next }
    { k = $1 SUBSEP $2 SUBSEP $3
      if (!(k in seen)) { seen[k] = 1; order[++n] = k; sc[k] = $1; op[k] = $2; by[k] = $3 }
      if ($7 != "nan" && !(k in bound)) bound[k] = $7
      if ($4 == "native" && (!(k in best) || $6 + 0 < best[k])) { best[k] = $6; bestn[k] = $5 }
      if ($4 == "selector") sel[k, $5] = $6
      if ($4 == "brute") brute[k] = $6
      if ($4 == "hetcoll") { het[k] = $6; algo[k] = $8 } }
    END {
      for (i = 1; i <= n; i++) {
          k = order[i]; o = op[k]; b = by[k] + 0
          h = (k in het) ? het[k] : ""
          nat = o == "redist" ? ((k in brute) ? brute[k] : "") : ((k in best) ? best[k] : "")
          natn = o == "redist" ? "post everything" : ((k in best) ? bestn[k] : "-")
          lb = (k in bound) ? bound[k] : ""
          hn = r(h, nat); hb = r(h, lb)
          # the worst ratio to a selector (redist: to the brute force)
          hs = ""; sd = "-"; so = "-"; sm = "-"
          if ((k, "default") in sel) sd = sel[k, "default"]
          if ((k, "ompi") in sel) so = sel[k, "ompi"]
          if ((k, "mpich") in sel) sm = sel[k, "mpich"]
          for (kk in sel) { split(kk, q, SUBSEP); if (q[1] SUBSEP q[2] SUBSEP q[3] != k) continue
              x = r(h, sel[kk]); if (x != "" && (hs == "" || x > hs)) hs = x }
          if (o == "redist") hs = hn
          why = ""
          if (h == "") why = "hetcoll failed"
          else {
              if (o == "bcast" && b >= 1048576) {
                  if (hb != "" && hb > 1.2) why = why sprintf("; %.2fx bound > 1.2", hb)
                  if (hn != "" && hn > 0.25) {
                      can = ""
                      if (lb != "" && lb >= 0.25 * nat)
                          can = sprintf(" (bound %.2fx native: no schedule can)", r(lb, nat))
                      why = why sprintf("; %.2fx native > 0.25%s", hn, can) } }
              if (o == "bcast" && b < 1048576) {
                  if (hn != "" && hn > 1) why = why sprintf("; %.2fx native > 1", hn)
                  if (hb != "" && hb > 2) why = why sprintf("; %.2fx bound > 2", hb) }
              if (o == "reduce" && b == 1048576 && hb != "" && hb > 1.3)
                  why = why sprintf("; %.2fx bound > 1.3", hb)
              if (o ~ /^a2a/ && hb != "" && hb > 1.05) why = why sprintf("; %.2fx bound > 1.05", hb)
              if (o == "redist" && hn != "" && hn > 0.9 && !(lb != "" && lb >= 0.9 * nat))
                  why = why sprintf("; %.2fx brute force > 0.9 (bound %.2fx)", hn, r(lb, nat))
              if (hs != "" && hs > 1.05) why = why sprintf("; %.2fx %s > 1.05", hs, o == "redist" ? "brute force" : "selector")
          }
          v = why == "" ? "PASS" : "FAIL" why
          sub(/^FAIL; /, "FAIL: ", v)
          if (v == "PASS" && o == "redist" && hn > 0.9) v = "PASS (bound)"
          print sc[k], o, by[k], natn, t(nat), t(sd), t(so), t(sm), t(h), (k in algo) ? algo[k] : "-", t(lb), f(hn), f(hb), f(hs), v
      } }' "${ALL[@]}" > "$ROWS"
# bound violations: a measured time below its op's bound
VIOL=$OUT/violations.tsv
awk -F'\t' -v OFS='\t' '$9 == "ok" && $6 != "nan" && $7 != "nan" && $6 + 0 < ($7 + 0) * (1 - 1e-6) { print }' "${ALL[@]}" > "$VIOL"
size_h() { awk '{ b = $1 + 0; if (b >= 1048576 && b % 1048576 == 0) printf "%d MiB", b / 1048576
    else if (b >= 1024 && b % 1024 == 0) printf "%d KiB", b / 1024; else printf "%d B", b }' <<<"$1"; }
{
    echo "# Oracle: hetcoll against every native SimGrid algorithm, the MPI selectors and the link bound"
    echo
    echo "Generated by \`$CMD\` (writes \`build/${MD%.md}/$MD\`; SimGrid ${SGV:-?}, $MODE)."
    echo
    echo "Per scenario, under the same SMPI options: every native algorithm SimGrid lists for the"
    echo "collective (\`--cfg=smpi/bcast:NAME\`, \`smpi/reduce:NAME\`, \`smpi/alltoallv:NAME\`, one call"
    echo "after an untimed one; SMPI's natives are deterministic), the MPI libraries' selectors (SMPI's"
    echo "default, \`--cfg=smpi/coll-selector:ompi\`, \`mpich\`) and hetcoll (\`grid_bench\`'s default: the"
    echo "runtime's \`auto\`, the median of 3 calls once it settled, i.e. the steady state after tuning,"
    echo "under SMPI's default selector). Times are simulated seconds from a common start to the last"
    echo "rank's end. *bound*: grid_bench's \`bound_s\`, a lower bound on any schedule on the platform's"
    echo "links: broadcast the cut bound tightened by the sites LP (\`hc_flows_bcast_bound_model\`: a"
    echo "site forwards only bytes that reached it, and under SimGrid's defaults each message's bytes"
    echo "flow after its size class's latency at its class's rate), reduction the same for the"
    echo "reduction (\`hc_flows_reduce_bound_model\`), alltoallv and redistribution"
    echo "\`hc_flows_bound_model\` on the op's byte matrix (its LP sees, under SimGrid's defaults, each"
    echo "size class's latency and rate apart)."
    if [ -n "${ORACLE_SMPI_DEFAULTS:-}" ]; then
        echo "Under SimGrid's default network model: the same bounds on the platform with every latency"
        echo "x 1.61075 and every capacity x 1.08739 (\`hc_flows_bound_platform\`: the factors of the"
        echo "most favourable message sizes, 1411 to 3468 B and 5761 to 9360 B), a shared link crossed"
        echo "both ways by every route across it / 1.05 (the cross-traffic), a lower bound under that"
        echo "model; the plain bound is not one there (8 KiB messages move 1.087 bytes per unit of"
        echo "capacity)."
    fi
    echo "*het/native*, *het/bound*: hetcoll over the best native and over the bound; *het/sel worst*:"
    echo "the largest of hetcoll over each selector (redistribution: over the brute force, every"
    echo "Isend/Irecv posted at once); *hetcoll runs*: what the runtime ran once settled (\`native\`:"
    echo "the MPI library's own collective). Verdict against the acceptance points:"
    echo "bcast >= 1 MiB <= 1.2x bound and <= 0.25x best native; bcast 64 KiB <= best native and"
    echo "<= 2x bound; reduce 1 MiB <= 1.3x bound; alltoallv <= 1.05x bound; redistribution <= 0.9x"
    echo "brute force, unless the bound is >= 0.9x the brute force (no schedule can be 10 % faster:"
    echo "*PASS (bound)*); everywhere <= 1.05x every selector. Where the bound itself is above a"
    echo "quarter of the best native broadcast, the verdict says so (*no schedule can*)."
    echo
    echo "Scenarios: **sites-i** \`random:sites:sites=3:nodes=21:interleave=1\` (63 ranks; split-duplex"
    echo "1 Gb/s NICs, one 100 Mb/s, 5 ms uplink per site shared by both directions: 10 ms between"
    echo "sites; rank r on site r mod 3); **sites-b** the same with blocked ranks; **sites-uneven**"
    echo "bench/grid/platforms/sites-uneven.json (the same links, sites of 24, 20 and 12 nodes, ranks"
    echo "round-robin); **fattree** fat-tree-3to1.json (4 racks of 6, 3:1 oversubscribed split-duplex"
    echo "rack uplinks); **gusto** gusto-links.json (5 sites of 4, shared site uplinks, the GUSTO"
    echo "paths); **grid5000** grid5000-links.json (3 sites of 8, shared 10 Gb/s uplinks). Operations:"
    echo "bcast and reduce (root 0; reduce MPI_SUM on doubles), a2a-uniform (alltoallv, SIZE per"
    echo "pair), a2a-skewed (ranks r % 5 == 0 send 10 x SIZE), redist (cluster 0 -> cluster 1, pair"
    echo "(i, j) SIZE x (1 + (7i + 13j) mod 4) / 2; hetcoll's KPBS against the brute force)."
    echo
    echo "To bound the run (its cost is the last table): one call per native algorithm (they are"
    echo "deterministic), alltoallv at 1 MiB on sites-i only, and a native or"
    echo "selector op whose simulation takes more than ${OPT} s of wall time is stopped (listed under"
    echo "*Skipped native algorithms*; the pipelined broadcasts with small segments at 16 MiB)."
    echo "Native runs pin \`--cfg=smpi/allreduce:rdb\`: SMPI's default allreduce runs the configured"
    echo "reduce and bcast, and the harness's timing uses an allreduce."
    echo "Every call's result is checked on every rank (each call its own data pattern; alltoallv"
    echo "at 1 MiB, above 32 MiB per rank, unchecked): a native algorithm that gives a wrong result"
    echo "is listed under *Skipped native algorithms* and is not a best native."
    echo
    echo "## Summary"
    echo
    awk -F'\t' 'function sz(b) { b += 0; return b >= 1048576 ? b / 1048576 " MiB" : b >= 1024 ? b / 1024 " KiB" : b " B" }
        { c = $2 " " sz($3); if (!(c in n)) nm[++m] = c; n[c]++; tot++
          if ($15 ~ /^PASS/) { p[c]++; tp++ } else f[c] = f[c] (f[c] ? ", " : "") $1 }
        END { printf "**%d of %d rows pass** the acceptance points.\n\n", tp, tot
              print "| operation | rows | pass | fail | failing scenarios |"; print "|---|---|---|---|---|"
              for (i = 1; i <= m; i++) { c = nm[i]
                  printf "| %s | %d | %d | %d | %s |\n", c, n[c], p[c] + 0, n[c] - p[c], f[c] ? f[c] : "-" } }' "$ROWS"
    echo
    nv=$(wc -l < "$VIOL")
    if [ "$nv" -eq 0 ]; then
        echo "Every measured time is at or above its link bound."
    else
        echo "**$nv measured times are below their link bound** (scenario, op, bytes, kind, name, time, bound):"
        echo
        awk -F'\t' '{ printf "- %s %s %s %s %s: %.4g s < %.4g s\n", $1, $2, $3, $4, $5, $6, $7 }' "$VIOL"
    fi
    echo
    echo "## Per scenario and operation"
    echo
    echo "| scenario | op | bytes | best native | native (s) | default (s) | ompi (s) | mpich (s) | hetcoll (s) | hetcoll runs | bound (s) | het/native | het/bound | het/sel worst | verdict |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    while IFS=$'\t' read -r sc op by rest; do
        printf '| %s | %s | %s | %s |\n' "$sc" "$op" "$(size_h "$by")" "${rest//$'\t'/ | }"
    done < "$ROWS"
    echo
    echo "## Skipped native algorithms"
    echo
    awk -F'\t' '$9 != "ok" { w = $1 SUBSEP $4 SUBSEP $5 SUBSEP $9
            if (!(w in seen)) { seen[w] = 1; o[++n] = w }; sz[w] = sz[w] (sz[w] ? ", " : "") $2 ":" $3 }
        END { if (!n) print "None: every algorithm ran every op."
              for (i = 1; i <= n; i++) { split(o[i], q, SUBSEP)
                  printf "- %s: %s %s %s (%s)\n", q[1], q[2], q[3], q[4], sz[o[i]] } }' "${ALL[@]}"
    echo
    echo "## Every native algorithm (simulated seconds)"
    for c in bcast reduce alltoallv; do
        cols=$(awk -F'\t' -v c="$c" '$4 == "native" { x = $2 ~ /^a2a/ ? "alltoallv" : $2
                  if (x == c && !(($2 ":" $3) in s)) { s[$2 ":" $3] = 1; printf "%s%s:%s", n++ ? " " : "", $2, $3 } }' "${ALL[@]}")
        [ -n "$cols" ] || continue
        echo
        printf '| scenario | %s algorithm |' "$c"
        for k in $cols; do printf ' %s %s |' "${k%%:*}" "$(size_h "${k#*:}")"; done
        echo
        printf '|---|---|'
        for k in $cols; do printf -- '---|'; done
        echo
        awk -F'\t' -v c="$c" -v cols="$cols" '
            BEGIN { nc = split(cols, K, " ") }
            $4 == "native" { x = $2 ~ /^a2a/ ? "alltoallv" : $2; if (x != c) next
                r = $1 SUBSEP $5; if (!(r in seen)) { seen[r] = 1; o[++n] = r }
                v[r, $2 ":" $3] = $9 == "ok" ? sprintf("%.4g", $6) : ($9 ~ /power/ ? "pow2" : ($9 ~ /timeout/ ? "timeout" : ($9 ~ /wrong/ ? "wrong" : "crash"))) }
            END { for (i = 1; i <= n; i++) { split(o[i], q, SUBSEP); printf "| %s | %s |", q[1], q[2]
                      for (j = 1; j <= nc; j++) printf " %s |", (o[i], K[j]) in v ? v[o[i], K[j]] : "-"
                      print "" } }' "${ALL[@]}"
    done
    echo
    echo "## Cost of the run"
    echo
    awk -F'\t' -v s=" $scen_names " 'index(s, " " $1 " ") { n[$1]++; tn++; w[$1] += $5; c[$1] += $6; if (!($1 in o)) { o[$1] = ++m; nm[m] = $1 } tw += $5; tc += $6 }
        END { print "| scenario | smpiruns | wall (s) | CPU (s) |"; print "|---|---|---|---|"
              for (i = 1; i <= m; i++) printf "| %s | %d | %.0f | %.0f |\n", nm[i], n[nm[i]], w[nm[i]], c[nm[i]]
              printf "| total | %d | %.0f | %.0f |\n", tn, tw, tc }' "$RUNS" 2>/dev/null || true
} > "$OUT/$MD"
# the summary on stdout
sed -n '/^## Summary/,/^## Per scenario/p' "$OUT/$MD" | sed '$d'
awk -F'\t' '$15 !~ /^PASS/ { printf "  %s %s %s: %s\n", $1, $2, $3, $15 }' "$ROWS"
echo "oracle: $OUT/$MD, total $((SECONDS - T0)) s" >&2
if [ -n "${ORACLE_CHECK:-}" ]; then
    bad=0
    [ -s "$VIOL" ] && { echo "oracle: FAIL: $(wc -l < "$VIOL") measured times below the link bound" >&2; bad=1; }
    grep -q '^| scenario | op | bytes | best native | native (s) | default (s) | ompi (s) | mpich (s) | hetcoll (s) | hetcoll runs | bound (s) | het/native | het/bound | het/sel worst | verdict |$' "$OUT/$MD" ||
        { echo "oracle: FAIL: the table header is not the expected one" >&2; bad=1; }
    exit $bad
fi
