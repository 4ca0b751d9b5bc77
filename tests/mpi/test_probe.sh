#!/bin/bash
# MPI probe and monitor tests: test_probe.sh MPIRUN HETCOLL_MPI HETCOLL CHECK NP
# - full probe: JSON loads as a platform with positive finite values; P(P-1)/2 latency and
#   P(P-1) gap measurements;
# - clustered probe: fewer gap measurements than full mode, and at most C(C-1)+C;
# - the summary compares with full mode ("full mode would need") in clustered mode only;
# - `hetcoll probe` (the main CLI) execs hetcoll-mpi; without mpirun (one rank) probe and
#   monitor refuse with one clear line and exit 1, writing nothing;
# - the link probe (--links) on one host: one site, a valid platform, a report in links mode;
# - monitor: the quick link-probe epoch 1, then 3 pLogP epochs: the directory file loads with
#   errors and epoch 4; while a slow pLogP probe runs, the file already holds epoch 1.
set -u
MPIRUN=$1 TOOL=$2 CLI=$3 CHECK=$4 NP=$5
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1 ASAN_OPTIONS=detect_leaks=0
T=$(mktemp -d /tmp/hc-mpi-probe-XXXXXX)
trap 'rm -rf "$T"' EXIT
# Open MPI's session directory under this test's own directory: two mpiruns starting at the
# same moment in one TMPDIR can race on creating it ("mkdir ... File exists", orte_init fails).
export TMPDIR="$T"
fail() { echo "FAIL: $*"; exit 1; }
field() { grep -o "\"$2\": [0-9]*" "$1" | grep -o '[0-9]*$'; }
ARGS="--sizes 1,1KiB,64KiB --reps 5 --gap-msgs 4 --gap-trials 2"

timeout 240 "$MPIRUN" -np "$NP" "$TOOL" probe $ARGS --mode full -o "$T/full.json" \
    --report "$T/full.rep" 2> "$T/full.err" || fail "full probe"
grep -q "mode=full" "$T/full.err" || fail "no summary line: $(head -c 300 "$T/full.err")"
grep -q "full mode would need" "$T/full.err" && fail "full mode compares itself with full mode"
"$CHECK" platform "$T/full.json" "$NP" || fail "full probe platform"
[ "$(field "$T/full.rep" latency_measurements)" -eq $((NP * (NP - 1) / 2)) ] || fail "latency count"
[ "$(field "$T/full.rep" gap_measurements)" -eq $((NP * (NP - 1))) ] || fail "full gap count"
# Round-robin tournament: P-1 rounds (P even) or P rounds (P odd).
R=$(field "$T/full.rep" latency_rounds)
[ "$R" -le "$NP" ] || fail "too many rounds ($R)"

# On one host every link is alike: a generous tolerance gives one logical cluster whatever the
# oversubscription noise; then only C(C-1)+C gap measurements are needed.
timeout 240 "$MPIRUN" -np "$NP" "$TOOL" probe $ARGS --mode clustered --rho 20 \
    -o "$T/cl.json" --report "$T/cl.rep" 2> "$T/cl.err" || fail "clustered probe"
grep -q "(full mode would need $((NP * (NP - 1))))" "$T/cl.err" || fail "clustered summary: $(cat "$T/cl.err")"
"$CHECK" platform "$T/cl.json" "$NP" || fail "clustered probe platform"
G=$(field "$T/cl.rep" gap_measurements) C=$(field "$T/cl.rep" clusters)
[ "$G" -lt $((NP * (NP - 1))) ] || fail "clustered mode used $G measurements, full $((NP * (NP - 1)))"
[ "$G" -le $((C * (C - 1) + C)) ] || fail "clustered mode used $G > C(C-1)+C with C=$C"
# Default tolerance too (noise may split the host into several clusters; the bound holds).
timeout 240 "$MPIRUN" -np "$NP" "$TOOL" probe $ARGS --mode clustered -o "$T/cl2.json" \
    --report "$T/cl2.rep" || fail "clustered probe (rho 0.3)"
"$CHECK" platform "$T/cl2.json" "$NP" || fail "clustered probe platform (rho 0.3)"
G=$(field "$T/cl2.rep" gap_measurements) C=$(field "$T/cl2.rep" clusters)
[ "$G" -le $((C * (C - 1) + C)) ] || fail "clustered mode used $G > C(C-1)+C with C=$C"

# Through the main CLI.
timeout 240 "$MPIRUN" -np "$NP" "$CLI" probe $ARGS -o "$T/cli.json" || fail "hetcoll probe"
"$CHECK" platform "$T/cli.json" "$NP" || fail "hetcoll probe platform"
"$CLI" cluster --platform "$T/cli.json" --rho 20 >/dev/null || fail "hetcoll cluster on probe output"

# One rank (no mpirun) measures nothing: a clear line, exit 1, no file.
for cmd in "probe -o $T/one.json" "monitor --directory $T/one.json"; do
    rc=0
    timeout 60 "$CLI" $cmd > /dev/null 2> "$T/one.err" || rc=$?
    [ "$rc" -eq 1 ] || fail "'hetcoll $cmd' on one rank: exit $rc, want 1"
    grep -q "needs at least 2 ranks: run it under mpirun -np N" "$T/one.err" ||
        fail "'hetcoll $cmd' on one rank: $(cat "$T/one.err")"
    [ -e "$T/one.json" ] && fail "'hetcoll $cmd' on one rank wrote a file"
done

# The link probe on one host: one site (ranks on one host are one site), a NIC per rank.
timeout 240 "$MPIRUN" -np "$NP" "$TOOL" probe --links -o "$T/links.json" \
    --report "$T/links.rep" 2> "$T/links.err" || fail "link probe: $(cat "$T/links.err")"
"$CHECK" platform "$T/links.json" "$NP" || fail "link probe platform"
grep -q '"mode": "links", "clusters": 1' "$T/links.rep" || fail "link probe report: $(head -c 300 "$T/links.rep")"
grep -q "mode=links sites=1" "$T/links.err" || fail "link probe summary: $(cat "$T/links.err")"
grep -q '"format": "hetcoll-platform/2"' "$T/links.json" || fail "link probe wrote no links"
# A bad value: one line naming it, exit 1; a wrong command-line shape: exit 2.
bad() { # WANT_RC MESSAGE ARGS...
    local want=$1 msg=$2 rc=0
    shift 2
    timeout 60 "$MPIRUN" -np 2 "$TOOL" "$@" > /dev/null 2> "$T/bad.err" || rc=$?
    [ "$rc" -eq "$want" ] && grep -q -- "$msg" "$T/bad.err" ||
        fail "'$*': exit $rc (want $want), $(head -3 "$T/bad.err")"
}
bad 2 "--gap-msgs does not apply to --mode links" probe --links --gap-msgs 4
bad 2 "--flows applies to --mode links only" probe --flows 3
bad 1 "--mode 'bogus': valid are full, clustered, links" probe --mode bogus
bad 1 "--reps 'x': expected an integer in 1..100000" probe --reps x
bad 1 "--flow-time '0': expected seconds in (0, 3600]" probe --links --flow-time 0
bad 1 "--mode links: the monitor's epochs are pLogP probes" monitor --mode links --directory "$T/m.json"
bad 2 "unknown or incomplete option '--bogus'" probe --bogus

# Monitor: the quick epoch 1, then three pLogP epochs.
timeout 240 "$MPIRUN" -np "$NP" "$TOOL" monitor $ARGS --interval 0.2 --count 3 --quiet \
    --directory "$T/dir.json" || fail "monitor"
"$CHECK" directory "$T/dir.json" "$NP" 4 || fail "monitor directory"
grep -q '"mode": "full"' "$T/dir.json" || fail "monitor's last epoch is not a full probe"
ls "$T" | grep -q '\.tmp\.' && fail "temporary file left behind"
# A reader started right after the monitor finds the quick epoch while the first pLogP probe
# (made slow here: 2 ranks, 16 trials of 16 messages of 8 MiB each way: ~2 s here) still runs.
timeout 240 "$MPIRUN" -np 2 "$TOOL" monitor --sizes 1,8MiB --gap-msgs 16 --gap-trials 16 \
    --serial --interval 600 --count 1 --quiet --directory "$T/slow.json" &
mon=$!
for _ in $(seq 1 2400); do
    [ -s "$T/slow.json" ] && break
    kill -0 "$mon" 2> /dev/null || break
    sleep 0.05
done
first=$(grep -o '"epoch": [0-9]*\|"mode": "[a-z]*"' "$T/slow.json" | tr '\n' ' ')
wait "$mon" || fail "slow monitor"
[ "$first" = '"epoch": 1 "mode": "links" ' ] || fail "first directory seen: '$first', want epoch 1 in mode links"
grep -q '"epoch": 2,' "$T/slow.json" || fail "the slow monitor did not write epoch 2"
echo "OK"
