#!/bin/bash
# The link probe under SimGrid SMPI (label smpi): test_probe_links.sh KIND SHARING SMPIRUN PROG
#     [CHECK]
# on the 62-rank grid of grid3.sh (3 sites behind one 12.5 MB/s, 10 ms WAN link each, ranks
# interleaved), SMPI's corrections off as in test_export_pingpong.sh.
#   KIND tool:    `hetcoll-mpi probe --links` (PROG = hetcoll-mpi built with smpicc) must find
#                 3 sites, each uplink within 10 % of 12.5 MB/s with the platform's sharing
#                 (CHECK = check_links), in at most 5 s of simulated time, without a noise
#                 warning;
#   KIND runtime: hc_comm_create without a platform (PROG = quickprobe.c built with the MPI
#                 runtime) plans on the link probe's platform.
set -eu
KIND=$1 SHARING=$2 SMPIRUN=$3 PROG=$4 CHECK=${5:-}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/hc-smpi-links-XXXXXX)
trap 'rm -rf "$T"' EXIT
bash "$HERE/grid3.sh" "$SHARING" 62 "$T/grid.xml" "$T/hosts.txt"
CFG=(--cfg=smpi/simulate-computation:no --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1
     --cfg=network/TCP-gamma:0 --cfg=network/crosstraffic:0 --log=root.thres:warning)
sharing=$(echo "$SHARING" | tr A-Z a-z)
start=$(date +%s.%N)
if [ "$KIND" = tool ]; then
    timeout 300 "$SMPIRUN" -np 62 -platform "$T/grid.xml" -hostfile "$T/hosts.txt" "${CFG[@]}" \
        "$PROG" probe --links --out "$T/links.json" --report "$T/report.json" 2> "$T/err"
    end=$(date +%s.%N)
    cat "$T/err"
    "$CHECK" "$T/links.json" 62 3 12.5e6 "$sharing"
    sim=$(grep -o '"total_time_s": [0-9.e+-]*' "$T/report.json" | grep -o '[0-9.e+-]*$')
    if grep -q "warning" "$T/err"; then echo "FAIL: a noise warning on a noiseless network"; exit 1; fi
else
    timeout 300 "$SMPIRUN" -np 62 -platform "$T/grid.xml" -hostfile "$T/hosts.txt" "${CFG[@]}" \
        "$PROG" 12.5e6 "$sharing" > "$T/out"
    end=$(date +%s.%N)
    cat "$T/out"
    grep -q '^OK' "$T/out" || { echo "FAIL: the runtime's check"; exit 1; }
    sim=$(grep -o 'probe time [0-9.e+-]*' "$T/out" | grep -o '[0-9.e+-]*$')
fi
echo "simulated probe time ${sim} s, wall time $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }') s"
awk -v s="$sim" 'BEGIN { exit !(s > 0 && s <= 5) }' || { echo "FAIL: simulated probe time ${sim} s > 5 s"; exit 1; }
echo OK
