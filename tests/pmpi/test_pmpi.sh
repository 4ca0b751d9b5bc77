#!/bin/bash
# PMPI drop-in test (label mpi): run an unmodified MPI program (pmpi_app, built without
# hetcoll) plainly and with LD_PRELOAD=libhetcoll_pmpi.so, and check
#   1. identical result digests on every rank (with interception, with some collectives
#      disabled, with MPI_Allreduce enabled, and preloaded without HETCOLL_PLATFORM);
#   2. HETCOLL_VERBOSE=1 logs proving which collectives were intercepted (and which not);
#   3. a misconfigured drop-in (unknown algorithm names) runs the MPI library's collectives
#      with exactly one warning line per bad variable, and the job's results stay the same.
# Usage: test_pmpi.sh ompi|mpich MPIRUN APP LIB NP
set -u
KIND=$1 MPIRUN=$2 APP=$3 LIB=$4 NP=$5
T=$(mktemp -d /tmp/hc-pmpi-XXXXXX)
trap 'rm -rf "$T"' EXIT
PLAT=random:two-cluster:n1=3:n2=3:seed=4
fail() { echo "FAIL: $*"; for f in "$T"/*.err; do echo "== $f"; head -40 "$f"; done; exit 1; }
run() { # name, then VAR=value pairs for the ranks (LD_PRELOAD included)
    local name=$1
    shift
    local envargs=()
    for kv in "$@"; do
        if [ "$KIND" = ompi ]; then envargs+=(-x "$kv"); else envargs+=(-genv "${kv%%=*}" "${kv#*=}"); fi
    done
    timeout 240 "$MPIRUN" "${envargs[@]}" -np "$NP" "$APP" > "$T/$name.out" 2> "$T/$name.err" ||
        fail "$name: exit $?"
    [ "$(grep -c digest "$T/$name.out")" -eq "$NP" ] || fail "$name: missing digests"
}
run plain
# HETCOLL_PLAN_AFTER=1: plan at the first call (the app repeats each call only twice).
run pre "LD_PRELOAD=$LIB" "HETCOLL_PLATFORM=$PLAT" HETCOLL_VERBOSE=1 HETCOLL_PLAN_AFTER=1
run pre_ar "LD_PRELOAD=$LIB" "HETCOLL_PLATFORM=$PLAT" HETCOLL_VERBOSE=1 HETCOLL_ENABLE=allreduce HETCOLL_PLAN_AFTER=1
run pre_dis "LD_PRELOAD=$LIB" "HETCOLL_PLATFORM=$PLAT" HETCOLL_VERBOSE=1 HETCOLL_DISABLE=bcast,alltoall
run pre_noplat "LD_PRELOAD=$LIB" HETCOLL_VERBOSE=1
run pre_bogus "LD_PRELOAD=$LIB" "HETCOLL_PLATFORM=$PLAT" HETCOLL_ALGO_BCAST=bogus HETCOLL_ALGO_ALLTOALL=bogus
run pre_forced "LD_PRELOAD=$LIB" "HETCOLL_PLATFORM=$PLAT" HETCOLL_ALGO_BCAST=binomial HETCOLL_ALGO_ALLTOALL=caterpillar HETCOLL_ALGO_REDUCE=snf
cat "$T/plain.out"
for r in pre pre_ar pre_dis pre_noplat pre_bogus pre_forced; do
    cmp -s "$T/plain.out" "$T/$r.out" || { diff "$T/plain.out" "$T/$r.out"; fail "$r: results differ"; }
done
echo "== verbose log (with the preload):"
grep 'hetcoll\[pmpi\]' "$T/pre.err" | head -12
n() { grep -c "hetcoll\[pmpi\]: $2:" "$T/$1.err"; }
# 3 runs of the workload x 2 reps: world twice, the split communicator once (its rank 0 logs)
for c in MPI_Bcast MPI_Alltoall MPI_Alltoallv; do
    [ "$(n pre $c)" -ge 6 ] || fail "pre: $c was not intercepted"
done
[ "$(n pre MPI_Reduce)" -ge 12 ] || fail "pre: MPI_Reduce was not intercepted"
# The non-commutative reduction runs the MPI library's: said once per communicator (world and
# the two halves of the split, each by its rank 0).
[ "$(grep -c 'MPI_Reduce on a communicator of .* runs the MPI library.s own: the reduction operation is not commutative' "$T/pre.err")" -eq 3 ] ||
    fail "pre: the non-commutative reduction was not reported once per communicator"
grep -q "MPI_Reduce:.*algorithm native" "$T/pre.err" || fail "pre: non-commutative op not passed to the MPI library"
grep -qE "MPI_Bcast:.*algorithm (flat|binomial|chain|pipeline|binary|segmented-binomial|scatter-collect|model-best|fef|ecef|ecef-la|ecef-lat|ecef-lamax|hier-auto)," "$T/pre.err" ||
    fail "pre: no hetcoll broadcast schedule ran"
# Misconfiguration: one line per bad variable, nothing else.
[ "$(grep -c 'hetcoll\[pmpi\]: HETCOLL_' "$T/pre_bogus.err")" -eq 2 ] || fail "pre_bogus: expected exactly 2 configuration warnings"
grep -q "HETCOLL_ALGO_BCAST: unknown bcast algorithm 'bogus' (valid: auto, flat,.*native); MPI_Bcast runs the MPI library's own" "$T/pre_bogus.err" ||
    fail "pre_bogus: no warning naming HETCOLL_ALGO_BCAST, the bad value and the valid ones"
grep -q "HETCOLL_ALGO_ALLTOALL: unknown alltoall algorithm 'bogus'.*MPI_Alltoall and MPI_Alltoallv run the MPI library's own" "$T/pre_bogus.err" ||
    fail "pre_bogus: no warning naming HETCOLL_ALGO_ALLTOALL"
[ "$(n pre MPI_Allreduce)" -eq 0 ] || fail "pre: MPI_Allreduce intercepted without HETCOLL_ENABLE"
[ "$(n pre_ar MPI_Allreduce)" -ge 6 ] || fail "pre_ar: MPI_Allreduce was not intercepted"
[ "$(n pre_dis MPI_Bcast)" -eq 0 ] && [ "$(n pre_dis MPI_Alltoall)" -eq 0 ] ||
    fail "pre_dis: HETCOLL_DISABLE=bcast,alltoall ignored"
[ "$(n pre_dis MPI_Alltoallv)" -ge 6 ] || fail "pre_dis: MPI_Alltoallv no longer intercepted"
grep -q "HETCOLL_PLATFORM is not set" "$T/pre_noplat.err" || fail "pre_noplat: no pass-through notice"
[ "$(grep -c 'algorithm' "$T/pre_noplat.err")" -eq 0 ] || fail "pre_noplat: intercepted without a platform"
grep -q "cache hits [1-9]" "$T/pre.err" || fail "pre: the plan cache was never hit"
echo "OK ($KIND, $NP ranks): identical digests in 7 runs; interception logged; one warning per misconfigured variable"
