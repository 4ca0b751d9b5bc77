#!/usr/bin/env bash
# The acceptance campaign of the MPI runtime (issue 13), long: run by hand, not in CI (CI runs
# bounded versions through CTest and tests/mpi/run_mpich.sh).
#   bash tests/mpi/campaign.sh [BUILD (build)] [MPICH_BUILD (build-mpich)] [SEED (date)] [SCALE (1)]
# 1. random cases of the stress driver: Open MPI (API and drop-in builds) and MPICH (API and
#    drop-in builds);
# 2. 100 runs each (x SCALE): in-place forms only, same-signature types only, the fatal error
#    handler, MPI_THREAD_MULTIPLE with 2 threads per rank (all under the Open MPI drop-in);
# 3. the program of finding 1 (tests/mpi/loop_check.c) 200 times on builtin:gusto at 5 ranks
#    while two busy loops compete for the 2 cores.
# Every stress run prints its seed; the summary lines give the counts.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
B=$(cd "${1:-$src/build}" && pwd)
M=${2:-$src/build-mpich}
SEED=${3:-$(date +%s)}
SCALE=${4:-1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
S=$src/tests/mpi/stress.sh
LIB=$B/libhetcoll_pmpi.so
[ -f "$LIB" ] || LIB=$(find "$B" -name 'libhetcoll_pmpi.so' | head -1)
status=0
run() { echo "== $*"; "$@" | grep -E '^(FAIL|stress)|MISMATCH|HANG' || true; [ "${PIPESTATUS[0]}" -eq 0 ] || status=1; }

# 1. Random cases.
run bash "$S" --mpi ompi --mpirun mpirun --api "$B/stress" --pmpi "$B/stress_pmpi" --lib "$LIB" \
    --cli "$B/bin/hetcoll" --runs $((12 * SCALE)) --cases 70 --np "4 5 8" --seed "$SEED" \
    --threads-runs 2 --errors-runs 1 --replay "$src/tests/mpi/stress_regressions.txt"
if [ -x "$M/stress" ]; then
    MLIB=$(find "$M" -name 'libhetcoll_pmpi.so' | head -1)
    run bash "$S" --mpi mpich --mpirun mpiexec.mpich --api "$M/stress" --pmpi "$B/stress_pmpi_mpich" \
        --lib "$MLIB" --cli "$B/bin/hetcoll" --runs $((4 * SCALE)) --cases 50 --np "4 5" \
        --seed $((SEED + 100)) --threads-runs 1 --errors-runs 1
fi

# 2. One kind of case, 100 runs each (a run: one fresh job).
n=$((100 * SCALE))
run bash "$S" --mpi ompi --mpirun mpirun --pmpi "$B/stress_pmpi" --lib "$LIB" --cli "$B/bin/hetcoll" \
    --only pmpi --runs "$n" --cases 12 --np "4 5" --seed $((SEED + 200)) --focus inplace
run bash "$S" --mpi ompi --mpirun mpirun --pmpi "$B/stress_pmpi" --lib "$LIB" --cli "$B/bin/hetcoll" \
    --only pmpi --runs "$n" --cases 12 --np "2 4" --seed $((SEED + 400)) --focus signature
run bash "$S" --mpi ompi --mpirun mpirun --pmpi "$B/stress_pmpi" --lib "$LIB" --cli "$B/bin/hetcoll" \
    --only errors --errors-runs "$n"
run bash "$S" --mpi ompi --mpirun mpirun --pmpi "$B/stress_pmpi" --lib "$LIB" --cli "$B/bin/hetcoll" \
    --only threads --threads-runs "$n" --cases 9 --seed $((SEED + 600))

# 3. Finding 1's program under load.
(timeout 3600 sh -c 'while :; do :; done') & b1=$!
(timeout 3600 sh -c 'while :; do :; done') & b2=$!
ok=0 bad=0
for ((i = 0; i < 200 * SCALE; i++)); do
    if HETCOLL_PLATFORM=builtin:gusto timeout 300 mpirun -np 5 "$B/loop_check" 2 >/tmp/hc-loop.out 2>&1; then
        ok=$((ok + 1))
    else
        bad=$((bad + 1)); status=1; cat /tmp/hc-loop.out
    fi
done
kill "$b1" "$b2" 2>/dev/null
echo "loop_check: $ok of $((ok + bad)) runs identical to the MPI library's, $bad failed (2 busy loops)"
exit $status
