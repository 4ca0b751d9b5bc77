#!/usr/bin/env bash
# examples/dropin with the drop-in preloaded: every byte right, and the log shows that hetcoll
# ran the collectives. Usage: run_dropin.sh MPIRUN LIBHETCOLL_PMPI EXAMPLE_DROPIN
set -u
out=$(HETCOLL_VERBOSE=1 HETCOLL_PLAN_AFTER=1 timeout 240 "$1" -x LD_PRELOAD="$2" -x HETCOLL_PLATFORM \
    -x HETCOLL_VERBOSE -x HETCOLL_PLAN_AFTER -np 4 "$3" 2>&1)
rc=$?
echo "$out" | grep -v '^hetcoll\[pmpi\]' | head -5
echo "$out" | grep '^hetcoll\[pmpi\]' | head -4
[ $rc -eq 0 ] && echo "$out" | grep -q "dropin: 4 ranks, every byte right" &&
    echo "$out" | grep -q 'hetcoll\[pmpi\]: MPI_Bcast' || { echo "FAIL: exit $rc"; exit 1; }
echo "dropin: intercepted and right"
