#!/usr/bin/env bash
# TTCC under SimGrid SMPI (label smpi): the two-tree broadcast, forced in the runtime, runs to
# the end on a 3-site grid. It stops the losing transfers without MPI_Cancel: SMPI 3.32
# crashed in the MPI_Waitany after a cancelled receive (a segfault in ActivityImpl::test).
#   bash test_ttcc_smpi.sh HETCOLL GRID_BENCH_SMPI SMPIRUN
set -u
H=$1 GB=$2 SMPIRUN=$3
T=$(mktemp -d /tmp/hc-ttcc-XXXXXX)
trap 'rm -rf "$T"' EXIT
spec=random:sites:sites=3:nodes=4:interleave=1
"$H" platform export "$spec" --simgrid "$T/p.xml" --hostfile "$T/h.txt" || exit 1
timeout 300 "$SMPIRUN" -np 12 -platform "$T/p.xml" -hostfile "$T/h.txt" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc-blocksize:268435456 \
    --log=root.thres:warning --log=smpi.thres:error \
    "$GB" --platform "$spec" --scenario ttcc --ops bcast:64K,bcast:1M --algos ttcc --no-native \
    --reps 2 >"$T/out" 2>"$T/err"
rc=$?
cat "$T/out"
[ $rc -eq 0 ] && [ "$(grep -c $'\tttcc\t' "$T/out")" -eq 2 ] ||
    { echo "FAIL: exit $rc: $(tail -3 "$T/err")"; exit 1; }
echo "ttcc under SMPI: 2 broadcasts ran"
