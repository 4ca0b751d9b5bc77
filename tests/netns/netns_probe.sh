#!/bin/bash
# Network-namespace test bed for the probe (label netns): 6 hosts on one bridge, sites
# A = hosts 1-3 and B = hosts 4-6; site B's hosts send at most RATE, site A's at most RATE_A
# (tc htb on their eth0). Unshaped, A's links ran as fast as the CPUs copied: with a simulation
# busy on one of two cores, some A pairs measured 100 times slower than the others (1.5e7
# against 1.6e9 B/s), which put A hosts in B's cluster in 5 runs of 10. Shaped, A's medians
# stayed 12 to 20 times B's in 8 runs of 8 under the same load.
# Open MPI runs one rank per namespace over TCP (recipe: ../shared/notes/testbed.md). Checks:
# the probe measures site B's outgoing links much slower than site A's, and
# `hetcoll cluster --metric bandwidth` never puts an A node and a B node in one cluster.
# Usage: netns_probe.sh MPIRUN HETCOLL_MPI HETCOLL
# Exit 77 (skipped) when not root or namespaces cannot be created. Always tears down.
set -u
MPIRUN=$1 TOOL=$2 CLI=$3
PFX=hcni            # namespace prefix of this test
NET=10.97.0         # private test subnet of this test
N=6 RATE=10mbit RATE_A=200mbit
SKIP=77
[ "$(id -u)" -eq 0 ] || { echo "SKIP: not root"; exit $SKIP; }
command -v ip >/dev/null && command -v tc >/dev/null && command -v unshare >/dev/null ||
    { echo "SKIP: ip/tc/unshare missing"; exit $SKIP; }
T=$(mktemp -d /tmp/hc-netns-XXXXXX)
chmod 755 "$T"
cleanup() {
    for i in $(seq 1 $N); do ip netns del ${PFX}$i 2>/dev/null; done
    ip netns del ${PFX}sw 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
cleanup_only_ns() { for i in $(seq 1 $N); do ip netns del ${PFX}$i 2>/dev/null; done; ip netns del ${PFX}sw 2>/dev/null; }
cleanup_only_ns
mkdir -p "$T"
if ! ip netns add ${PFX}sw 2>/dev/null; then echo "SKIP: ip netns add failed"; exit $SKIP; fi
set -e
ip -n ${PFX}sw link add br0 type bridge
ip -n ${PFX}sw link set br0 up
for i in $(seq 1 $N); do
    ip netns add ${PFX}$i
    ip link add vp$i netns ${PFX}sw type veth peer name eth0 netns ${PFX}$i
    ip -n ${PFX}sw link set vp$i master br0 up
    ip -n ${PFX}$i addr add $NET.$i/24 dev eth0
    ip -n ${PFX}$i link set eth0 up
    ip -n ${PFX}$i link set lo up
done
for i in $(seq 1 $N); do  # every outgoing packet at most RATE_A (site A) or RATE (site B)
    r=$([ $i -le 3 ] && echo $RATE_A || echo $RATE)
    ip netns exec ${PFX}$i tc qdisc add dev eth0 root handle 1: htb default 10
    ip netns exec ${PFX}$i tc class add dev eth0 parent 1: classid 1:10 htb rate $r ceil $r
done
set +e
cat > "$T/agent.sh" <<AGENT
#!/bin/bash
# rsh agent: agent.sh [options] HOST cmd... -> run cmd in HOST's namespace with its own hostname
while [ "\${1#-}" != "\$1" ]; do shift; done
host=\$1; shift
n=\${host##*.}
exec ip netns exec ${PFX}\$n unshare --uts sh -c "hostname ${PFX}\$n; \$*"
AGENT
chmod +x "$T/agent.sh"
HOSTS=$(for i in $(seq 1 $N); do printf "%s$NET.$i:1" "$([ $i -gt 1 ] && echo ,)"; done)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
timeout 300 ip netns exec ${PFX}1 unshare --uts sh -c "hostname ${PFX}1; \
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    $MPIRUN --mca plm_rsh_agent $T/agent.sh --mca oob_tcp_if_include $NET.0/24 \
    --mca btl tcp,self --mca mpi_yield_when_idle 1 --mca btl_tcp_if_include $NET.0/24 --host $HOSTS -np $N \
    $TOOL probe --sizes 1,4KiB,64KiB --reps 10 --gap-msgs 8 --gap-trials 2 \
    -o $T/probe.json --report $T/report.json" > "$T/mpirun.log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
    cat "$T/mpirun.log"
    echo "FAIL: probe across namespaces (exit $rc)"
    exit 1
fi
cat "$T/report.json"
"$CLI" platform show "$T/probe.json" | tail -3
# The measured bandwidths (B/s), rows by sender, before any check can fail.
BW=$(tr -d '\n ' < "$T/probe.json" | sed 's/.*"bandwidth_Bps":\[\(\[[^]]*\]\(,\[[^]]*\]\)*\)\].*/\1/')
echo "bandwidth rows: $BW"
"$CLI" cluster --platform "$T/probe.json" --metric bandwidth --rho 1.5 --format json \
    > "$T/cl.json" || { echo "FAIL: hetcoll cluster"; exit 1; }
"$CLI" cluster --platform "$T/probe.json" --metric bandwidth --rho 1.5
# Labels in rank order; ranks 0-2 are site A, 3-5 site B.
LABELS=$(tr -d '\n' < "$T/cl.json" | sed 's/.*"labels": \[\([^]]*\)\].*/\1/' | tr -d ' ')
echo "labels: $LABELS"
IFS=, read -r -a L <<< "$LABELS"
[ ${#L[@]} -eq $N ] || { echo "FAIL: expected $N labels"; exit 1; }
for a in 0 1 2; do for b in 3 4 5; do
    [ "${L[$a]}" != "${L[$b]}" ] || { echo "FAIL: rank $a (site A) and $b (site B) share a cluster"; exit 1; }
done; done
# The slow site: B's outgoing bandwidths are well below A's intra-site ones.
# Median bandwidth of A's intra-site links and of every link leaving B.
read -r medA medB < <(echo "$BW" | tr -d '[' | tr ']' '\n' | sed 's/^,//' | awk -F, '
    function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    NF { r = NR - 1; for (c = 1; c <= NF; c++) { if (c - 1 == r) continue; v = $c + 0;
         if (r < 3 && c <= 3) A[++na] = v; if (r >= 3) B[++nb] = v } }
    END { print med(A, na), med(B, nb) }')
echo "median A-A bandwidth: $medA B/s, median bandwidth out of B: $medB B/s"
awk -v a="$medA" -v b="$medB" 'BEGIN { exit !(b * 3 < a) }' ||
    { echo "FAIL: site B is not detected as slower"; exit 1; }
echo "OK"
