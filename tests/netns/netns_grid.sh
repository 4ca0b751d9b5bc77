#!/bin/bash
# A real 3-site grid on one machine (label netns): network namespaces, veth pairs and bridges,
# tc htb shaping, Open MPI over TCP. Recipe: /work/shared/notes/testbed.md.
#
#   site A (hosts 1-3) --+                      +-- site B (hosts 4-6)
#        bridge in gsA --+-- core bridge (gcore) +-- bridge in gsB
#                             |
#                      site C (hosts 7-9), bridge in gsC
#
# Every host sends at most HOST_RATE (htb on its eth0). Each site's uplink into the core is a
# backbone shaped per destination site (htb classes + u32 filters on the destination subnet):
# A<->B 2x, A<->C 0.6x, B<->C 1.2x HOST_RATE, shared by all the flows between the two sites
# (shaped on the site switch's uplink towards the core and on the core's port towards each
# site). Addresses: 10.96.0.0/24, site s hosts 10.96.0.(16s + h). One MPI rank per host,
# each namespace with its own hostname (unshare --uts), TCP restricted to 10.96.0.0/24.
#
# Runs: the probe (`hetcoll-mpi probe`, measured platform; full size: --serial, so each pair
# is measured alone and the backbones' sharing does not lower the figures), then grid_bench (bench/grid) with
# that platform: alltoallv skewed, bcast, redistribution site A -> site B (k = 2: the A->B
# backbone carries 2 host-rate transfers) against brute force. Prints the table.
#
# Usage: netns_grid.sh MPIRUN HETCOLL_MPI GRID_BENCH small|full [OUT_DIR]
# Exit 77 (skipped) when not root or namespaces cannot be created. Always tears down (trap);
# every MPI run is bounded by timeout.
set -u
MPIRUN=$1 TOOL=$2 BENCH=$3 SIZE=${4:-small} OUTDIR=${5:-}
PFX=hcg NET=10.96.0 SKIP=77
SITES="A B C"
declare -A SITE_ID=([A]=0 [B]=1 [C]=2)
HOSTS_PER_SITE=3
if [ "$SIZE" = full ]; then
    HOST_RATE=100 # mbit
    OPS="a2a-skewed:256K,bcast:4M,redist:2M" REPS=3 TMO=900 SERIAL=--serial
else
    HOST_RATE=200
    OPS="a2a-skewed:16K,bcast:256K,redist:128K" REPS=1 TMO=300 SERIAL=""
fi
rate() { awk -v r="$HOST_RATE" -v f="$1" 'BEGIN { printf "%dmbit", r * f }'; }
declare -A BB=([AB]=$(rate 2) [BA]=$(rate 2) [AC]=$(rate 0.6) [CA]=$(rate 0.6)
               [BC]=$(rate 1.2) [CB]=$(rate 1.2))

[ "$(id -u)" -eq 0 ] || { echo "SKIP: not root"; exit $SKIP; }
for c in ip tc unshare timeout; do
    command -v $c >/dev/null || { echo "SKIP: $c missing"; exit $SKIP; }
done
T=$(mktemp -d /tmp/hc-netns-grid-XXXXXX)
chmod 755 "$T"
NSLIST=()
addr() { echo "$NET.$((16 * ${SITE_ID[$1]} + $2))"; }
teardown() {
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$PFX"); do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null
        ip netns del "$ns" 2>/dev/null
    done
}
cleanup() {
    teardown
    if [ -n "$OUTDIR" ]; then mkdir -p "$OUTDIR" && cp "$T"/*.json "$T"/*.tsv "$T"/*.log "$OUTDIR"/ 2>/dev/null; fi
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
teardown
if ! ip netns add ${PFX}core 2>/dev/null; then echo "SKIP: ip netns add failed"; exit $SKIP; fi
set -e
ns() { ip netns exec "$@"; }
ip -n ${PFX}core link add br0 type bridge
ip -n ${PFX}core link set br0 up
for s in $SITES; do
    sw=${PFX}s$s
    ip netns add $sw
    ip -n $sw link add br0 type bridge
    ip -n $sw link set br0 up
    # uplink: site switch <-> core
    ip link add up$s netns $sw type veth peer name p$s netns ${PFX}core
    ip -n $sw link set up$s master br0 up
    ip -n ${PFX}core link set p$s master br0 up
    for h in $(seq 1 $HOSTS_PER_SITE); do
        hn=${PFX}$s$h
        ip netns add $hn
        ip link add v$h netns $sw type veth peer name eth0 netns $hn
        ip -n $sw link set v$h master br0 up
        ip -n $hn addr add "$(addr $s $h)/24" dev eth0
        ip -n $hn link set eth0 up
        ip -n $hn link set lo up
        # the host's NIC: at most HOST_RATE out (same-host traffic stays on lo)
        ns $hn tc qdisc add dev eth0 root handle 1: htb default 10
        ns $hn tc class add dev eth0 parent 1: classid 1:10 htb rate "${HOST_RATE}mbit" ceil "${HOST_RATE}mbit" quantum 60000
    done
done
# Backbones: the site's uplink egress (towards the core) and the core's port egress towards
# the site, one htb class per destination site, matched on the destination's /28.
shape() { # namespace device src-site: classes for traffic leaving towards each other site
    local n=$1 dev=$2 me=$3 id=20
    ns $n tc qdisc add dev $dev root handle 1: htb default 99
    ns $n tc class add dev $dev parent 1: classid 1:1 htb rate 10gbit quantum 60000
    ns $n tc class add dev $dev parent 1:1 classid 1:99 htb rate 10gbit quantum 60000
    for d in $SITES; do
        [ "$d" = "$me" ] && continue
        ns $n tc class add dev $dev parent 1:1 classid 1:$id htb rate "${BB[$me$d]}" ceil "${BB[$me$d]}" quantum 60000
        ns $n tc filter add dev $dev parent 1: protocol ip prio 1 u32 \
            match ip dst "$NET.$((16 * ${SITE_ID[$d]}))/28" flowid 1:$id
        id=$((id + 1))
    done
}
for s in $SITES; do
    shape ${PFX}s$s up$s $s
done
# core -> site d: traffic on port p<d> comes from the other sites; classify by source subnet
for d in $SITES; do
    n=${PFX}core dev=p$d id=20
    ns $n tc qdisc add dev $dev root handle 1: htb default 99
    ns $n tc class add dev $dev parent 1: classid 1:1 htb rate 10gbit quantum 60000
    ns $n tc class add dev $dev parent 1:1 classid 1:99 htb rate 10gbit quantum 60000
    for s in $SITES; do
        [ "$s" = "$d" ] && continue
        ns $n tc class add dev $dev parent 1:1 classid 1:$id htb rate "${BB[$s$d]}" ceil "${BB[$s$d]}" quantum 60000
        ns $n tc filter add dev $dev parent 1: protocol ip prio 1 u32 \
            match ip src "$NET.$((16 * ${SITE_ID[$s]}))/28" flowid 1:$id
        id=$((id + 1))
    done
done
set +e
cat > "$T/agent.sh" <<AGENT
#!/bin/bash
# rsh agent: agent.sh [options] HOST cmd... -> run cmd in HOST's namespace with its own hostname
while [ "\${1#-}" != "\$1" ]; do shift; done
host=\$1; shift
n=\${host##*.}
site=\$(( n / 16 )); h=\$(( n % 16 ))
name=${PFX}\$(echo A B C | cut -d' ' -f\$((site + 1)))\$h
exec ip netns exec \$name unshare --uts sh -c "hostname \$name; \$*"
AGENT
chmod +x "$T/agent.sh"
HOSTLIST=""
NP=0
for s in $SITES; do
    for h in $(seq 1 $HOSTS_PER_SITE); do
        HOSTLIST="$HOSTLIST${HOSTLIST:+,}$(addr $s $h):1"
        NP=$((NP + 1))
    done
done
mpirun_ns() { # timeout-seconds log command...
    local tmo=$1 log=$2
    shift 2
    timeout "$tmo" ip netns exec ${PFX}A1 unshare --uts sh -c "hostname ${PFX}A1; \
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        $MPIRUN --mca plm_rsh_agent $T/agent.sh --mca oob_tcp_if_include $NET.0/24 \
        --mca btl tcp,self --mca btl_tcp_if_include $NET.0/24 --mca mpi_yield_when_idle 1 \
        --host $HOSTLIST -np $NP $*" > "$log" 2>&1
}
echo "== $NP ranks in 3 sites; host rate ${HOST_RATE}mbit; backbones A-B ${BB[AB]}, A-C ${BB[AC]}, B-C ${BB[BC]}"
# Site-aware analytical platform (what the shaping says), used when the probe is missing.
BPS=$((HOST_RATE * 125000))
cat > "$T/configured.json" <<JSON
{"format": "hetcoll-platform/1", "name": "netns-grid",
 "clusters": [{"name": "A", "nodes": 3, "latency_s": 5e-5, "bandwidth_Bps": $BPS},
              {"name": "B", "nodes": 3, "latency_s": 5e-5, "bandwidth_Bps": $BPS},
              {"name": "C", "nodes": 3, "latency_s": 5e-5, "bandwidth_Bps": $BPS}],
 "inter": [{"a": "A", "b": "B", "latency_s": 1e-4, "bandwidth_Bps": $BPS},
           {"a": "A", "b": "C", "latency_s": 1e-4, "bandwidth_Bps": $((BPS * 6 / 10))},
           {"a": "B", "b": "C", "latency_s": 1e-4, "bandwidth_Bps": $BPS}]}
JSON
PLAT="$T/configured.json"
if [ -x "$TOOL" ]; then
    t0=$SECONDS
    if mpirun_ns "$TMO" "$T/probe.log" "$TOOL" probe --sizes 1,64KiB,1MiB --reps 3 \
        --gap-msgs 4 --gap-trials 1 $SERIAL -o "$T/probe.json" --report "$T/report.json"; then
        PLAT="$T/probe.json"
        echo "== probe: $((SECONDS - t0)) s; measured bandwidth (MB/s), rows = senders:"
        tr -d '\n ' < "$T/probe.json" |
            sed 's/.*"bandwidth_Bps":\[\(\[[^]]*\]\(,\[[^]]*\]\)*\)\].*/\1/' |
            tr -d '[' | tr ']' '\n' | sed 's/^,//' | awk -F, 'NF { for (c = 1; c <= NF; c++)
                printf "%7.1f", $c / 1e6; printf "\n" }'
    else
        echo "== probe failed (exit $?), using the configured platform"
        tail -5 "$T/probe.log"
    fi
fi
echo "== grid_bench (platform: $(basename "$PLAT"), ops $OPS, median of $REPS)"
mpirun_ns "$TMO" "$T/bench.log" "$BENCH" --platform "$PLAT" --scenario netns --ops "$OPS" \
    --reps "$REPS" --k 2 --groups 3,3 --label ompi-tcp
rc=$?
grep -v '^netns' "$T/bench.log" | grep -iv "warn" | tail -5
grep '^netns' "$T/bench.log" > "$T/bench.tsv"
if [ $rc -ne 0 ] || [ "$(wc -l < "$T/bench.tsv")" -ne 3 ]; then
    cat "$T/bench.log"
    echo "FAIL: grid_bench across namespaces (exit $rc)"
    exit 1
fi
printf "%-10s %-9s %10s %10s %7s %-18s %10s\n" op bytes "hetcoll_s" "native_s" ratio algorithm "predicted_s"
awk -F'\t' '{ printf "%-10s %-9s %10.4f %10.4f %7.3f %-18s %10.4f\n", $2, $3, $4, $5, $6, $7, $8 }' "$T/bench.tsv"
echo "OK"
