#!/bin/bash
# Windows of pieces under SMPI's default model against the flow model (label smpi): a stream of
# pieces sent as the runtime sends a broadcast's (MPI_Issend, W in flight, tests/smpi/
# window_stream.c) on a NIC hop and on a wide-area hop, in lock step (every piece of SEG bytes:
# a window's pieces start and end together), staggered (the first W - 1 pieces smaller) and in
# two sizes (odd pieces 5/8 of SEG).
# check_window_stream replays the same stream in the flow model (hc_simulate, SMPI's factors)
# and fails beyond 2 %; on the NIC hop the lock-step prediction must also equal its closed form
# (1 %), and in SMPI the staggered stream must be at least 20 % faster than the lock-step one
# at W = 4 (docs/design.md, "Windows in lock step").
# Usage: test_window_stream.sh HETCOLL CHECK_WINDOW_STREAM SMPI_WINDOW_STREAM SMPIRUN
set -eu
CLI=$1 CHECK=$2 WS=$3 SMPIRUN=$4
T=$(mktemp -d /tmp/hc-smpi-XXXXXX)
trap 'rm -rf "$T"' EXIT
run() { # spec K SEG W MODE [LOCKREL]
    timeout 300 "$SMPIRUN" -np 2 -platform "$T/p.xml" -hostfile "$T/h.txt" \
        --cfg=smpi/simulate-computation:no --log=root.thres:critical "$WS" "$2" "$3" "$4" "$5" \
        > "$T/out.txt"
    local t
    t=$(cat "$T/out.txt")
    "$CHECK" "$1" "$2" "$3" "$4" "$5" "$t" 0.02 ${6:-} >&2
    echo "$t"
}
fail=0
spec="random:sites:sites=1:nodes=2" # two nodes of one site: a NIC hop, 50 us
"$CLI" platform export "$spec" --simgrid "$T/p.xml" --hostfile "$T/h.txt" > /dev/null
lock4=$(run "$spec" 1793 9360 4 0 0.01) || fail=1
stag4=$(run "$spec" 1793 9360 4 1) || fail=1
for w in 16 32; do
    run "$spec" 1793 9360 $w 0 0.01 > /dev/null || fail=1
    run "$spec" 1793 9360 $w 1 > /dev/null || fail=1
done
for w in 4 16; do
    run "$spec" 1793 9360 $w 2 > /dev/null || fail=1
done
if ! awk -v l="$lock4" -v s="$stag4" 'BEGIN { exit !(s <= 0.8 * l) }'; then
    echo "staggered stream $stag4 s not 20 % faster than lock step $lock4 s" >&2
    fail=1
fi
spec="random:sites:sites=2:nodes=1" # two sites: 10 ms and a shared 100 Mb/s uplink each
"$CLI" platform export "$spec" --simgrid "$T/p.xml" --hostfile "$T/h.txt" > /dev/null
for w in 16 32; do
    for st in 0 1 2; do
        run "$spec" 400 9360 $w $st > /dev/null || fail=1
    done
done
exit $fail
