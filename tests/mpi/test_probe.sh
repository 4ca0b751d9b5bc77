#!/bin/bash
# MPI probe and monitor tests: test_probe.sh MPIRUN HETCOLL_MPI HETCOLL CHECK NP
# - full probe: JSON loads as a platform with positive finite values; P(P-1)/2 latency and
#   P(P-1) gap measurements;
# - clustered probe: fewer gap measurements than full mode, and at most C(C-1)+C;
# - `hetcoll probe` (the main CLI) execs hetcoll-mpi;
# - monitor: 3 epochs, the directory file loads with errors and epoch 3.
set -u
MPIRUN=$1 TOOL=$2 CLI=$3 CHECK=$4 NP=$5
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1 ASAN_OPTIONS=detect_leaks=0
T=$(mktemp -d /tmp/hc-mpi-probe-XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
field() { grep -o "\"$2\": [0-9]*" "$1" | grep -o '[0-9]*$'; }
ARGS="--sizes 1,1KiB,64KiB --reps 5 --gap-msgs 4 --gap-trials 2"

timeout 240 "$MPIRUN" -np "$NP" "$TOOL" probe $ARGS --mode full --out "$T/full.json" \
    --report "$T/full.rep" || fail "full probe"
"$CHECK" platform "$T/full.json" "$NP" || fail "full probe platform"
[ "$(field "$T/full.rep" latency_measurements)" -eq $((NP * (NP - 1) / 2)) ] || fail "latency count"
[ "$(field "$T/full.rep" gap_measurements)" -eq $((NP * (NP - 1))) ] || fail "full gap count"
# Round-robin tournament: P-1 rounds (P even) or P rounds (P odd).
R=$(field "$T/full.rep" latency_rounds)
[ "$R" -le "$NP" ] || fail "too many rounds ($R)"

# On one host every link is alike: a generous tolerance gives one logical cluster whatever the
# oversubscription noise; then only C(C-1)+C gap measurements are needed.
timeout 240 "$MPIRUN" -np "$NP" "$TOOL" probe $ARGS --mode clustered --rho 20 \
    --out "$T/cl.json" --report "$T/cl.rep" || fail "clustered probe"
"$CHECK" platform "$T/cl.json" "$NP" || fail "clustered probe platform"
G=$(field "$T/cl.rep" gap_measurements) C=$(field "$T/cl.rep" clusters)
[ "$G" -lt $((NP * (NP - 1))) ] || fail "clustered mode used $G measurements, full $((NP * (NP - 1)))"
[ "$G" -le $((C * (C - 1) + C)) ] || fail "clustered mode used $G > C(C-1)+C with C=$C"
# Default tolerance too (noise may split the host into several clusters; the bound holds).
timeout 240 "$MPIRUN" -np "$NP" "$TOOL" probe $ARGS --mode clustered --out "$T/cl2.json" \
    --report "$T/cl2.rep" || fail "clustered probe (rho 0.3)"
"$CHECK" platform "$T/cl2.json" "$NP" || fail "clustered probe platform (rho 0.3)"
G=$(field "$T/cl2.rep" gap_measurements) C=$(field "$T/cl2.rep" clusters)
[ "$G" -le $((C * (C - 1) + C)) ] || fail "clustered mode used $G > C(C-1)+C with C=$C"

# Through the main CLI.
timeout 240 "$MPIRUN" -np "$NP" "$CLI" probe $ARGS --out "$T/cli.json" || fail "hetcoll probe"
"$CHECK" platform "$T/cli.json" "$NP" || fail "hetcoll probe platform"
"$CLI" cluster --platform "$T/cli.json" --rho 20 >/dev/null || fail "hetcoll cluster on probe output"

# Monitor: three epochs.
timeout 240 "$MPIRUN" -np "$NP" "$TOOL" monitor $ARGS --interval 0.2 --count 3 --quiet \
    --directory "$T/dir.json" || fail "monitor"
"$CHECK" directory "$T/dir.json" "$NP" 3 || fail "monitor directory"
ls "$T" | grep -q '\.tmp\.' && fail "temporary file left behind"
echo "OK"
