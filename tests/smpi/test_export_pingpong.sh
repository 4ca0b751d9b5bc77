#!/bin/bash
# SimGrid export test (label smpi): export a hetcoll platform with
# `hetcoll platform export --simgrid`, replay a ping-pong under smpirun on it and check that the
# simulated one-way and round-trip times equal L_ij + m / B_ij for 1 B and 1 MiB.
# Usage: test_export_pingpong.sh HETCOLL CHECK_PINGPONG SMPI_PINGPONG SMPIRUN SPEC [FORM]
#
# SMPI's own corrections are switched off (piecewise bw/lat factors 1, no TCP window limit, no
# cross-traffic). What remains: SMPI charges every message about 16 bytes more than its payload
# (measured: 17 B on grid5000, 16 B on gusto, at every size), and the solver's precision
# (surf/precision 1e-9). Tolerance: 1e-4 relative + the time of 32 bytes on the pair's link.
# On grid5000 that is 0.26 us against a 47.56 us latency; a missing latency or bandwidth term,
# a factor 2 in a private link or a wrong route all show up as errors of 10% or more.
set -eu
CLI=$1 CHECK=$2 PP=$3 SMPIRUN=$4 SPEC=$5 FORM=${6:-auto}
T=$(mktemp -d /tmp/hc-smpi-XXXXXX)
trap 'rm -rf "$T"' EXIT
"$CLI" platform export "$SPEC" --simgrid "$T/p.xml" --hostfile "$T/h.txt" --form "$FORM"
grep -o '<!-- hetcoll platform.*-->' "$T/p.xml"
"$CHECK" pairs "$SPEC" > "$T/pairs.txt"
NP=$(wc -l < "$T/h.txt")
echo "$NP ranks, $(wc -l < "$T/pairs.txt") pairs"
timeout 300 "$SMPIRUN" -np "$NP" -platform "$T/p.xml" -hostfile "$T/h.txt" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 \
    --cfg=network/TCP-gamma:0 --cfg=network/crosstraffic:0 --log=root.thres:warning \
    "$PP" "$T/pairs.txt" 1 1048576 > "$T/out.txt"
sort -n -k1,1 -k2,2 -k3,3 "$T/out.txt" > "$T/sorted.txt"
"$CHECK" check "$SPEC" "$T/sorted.txt" 1e-4 32
