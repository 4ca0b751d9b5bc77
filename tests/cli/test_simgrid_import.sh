#!/usr/bin/env bash
# SimGrid platforms as input (simgrid:[hostfile=H:][np=N:]FILE.xml): round trips through
# `platform export --simgrid` keep every pair's latency and bandwidth (1e-9 relative), the
# imported platform's JSON is stable, `--platform simgrid:...` works in the other commands, and
# bad inputs give one clear line naming the file. Exit 77 (skipped) without SimGrid.
# Usage: test_simgrid_import.sh <hetcoll-binary> <tests-dir>
set -u
H=$1
D=$2/data/simgrid
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if ! "$H" platform show "simgrid:$D/cluster.xml" >/dev/null 2>"$T/err"; then
    grep -q "without SimGrid" "$T/err" && { echo "skipped: $(cat "$T/err")"; exit 77; }
    echo "FAIL: cluster.xml: $(cat "$T/err")"; exit 1
fi
fail=0
# The latency and bandwidth matrices of two matrix-form JSON files agree within 1e-9 relative.
same_matrices() {
    awk '
        FNR == 1 { f++ }
        /"(latency_s|bandwidth_Bps)": \[/ { m = $1; k = 0; on = 1; next }
        on && /^  \]/ { on = 0; next }
        on { gsub(/[][,]/, " "); for (i = 1; i <= NF; i++) v[f, m, k++] = $i }
        END {
            bad = 0
            for (key in v) {
                split(key, s, SUBSEP); if (s[1] != 1) continue
                a = v[key]; b = v[2, s[2], s[3]]
                if ((2, s[2], s[3]) in v == 0) { bad++; continue }
                d = a - b; if (d < 0) d = -d
                r = a < 0 ? -a : a; if ((b < 0 ? -b : b) > r) r = b < 0 ? -b : b
                if (d > 1e-9 * r) { bad++; if (bad < 4) print "differs: " s[2] " #" s[3] ": " a " vs " b }
            }
            exit bad > 0
        }' "$1" "$2"
}
round_trip() {
    local spec=$1 form=$2
    "$H" platform export "$spec" --simgrid "$T/x.xml" --hostfile "$T/h.txt" --form "$form" &&
        "$H" platform export "$spec" -o "$T/orig.json" &&
        "$H" platform export "simgrid:hostfile=$T/h.txt:$T/x.xml" -o "$T/imp.json" ||
        { fail=$((fail + 1)); echo "FAIL: $spec ($form): export/import failed"; return; }
    [ "$(grep -c '"name"' "$T/orig.json")" -ge 1 ] &&
        [ "$("$H" platform show "$T/orig.json" | sed -n 2p)" = "$("$H" platform show "$T/imp.json" | sed -n 2p)" ] ||
        { fail=$((fail + 1)); echo "FAIL: $spec ($form): node count differs"; }
    same_matrices "$T/orig.json" "$T/imp.json" ||
        { fail=$((fail + 1)); echo "FAIL: $spec ($form): latency/bandwidth differ after the round trip"; }
    # export -> import -> export (hetcoll JSON) is stable
    "$H" platform export "$T/imp.json" -o "$T/imp2.json" && cmp -s "$T/imp.json" "$T/imp2.json" ||
        { fail=$((fail + 1)); echo "FAIL: $spec ($form): imported JSON not stable"; }
    # and again through SimGrid: the imported platform exported and imported keeps its matrices
    "$H" platform export "$T/imp.json" --simgrid "$T/y.xml" --hostfile "$T/h2.txt" &&
        "$H" platform export "simgrid:hostfile=$T/h2.txt:$T/y.xml" -o "$T/imp3.json" &&
        same_matrices "$T/imp.json" "$T/imp3.json" ||
        { fail=$((fail + 1)); echo "FAIL: $spec ($form): second SimGrid round trip differs"; }
}
round_trip builtin:grid5000 auto
round_trip builtin:grid5000 matrix
round_trip builtin:gusto auto
round_trip "random:grid:clusters=3:nodes=12:seed=3" auto
# without a hostfile: document order, i.e. the hostfile's order for an exported platform
"$H" platform export builtin:grid5000 --simgrid "$T/g.xml" --hostfile "$T/g.txt" &&
    "$H" platform export "simgrid:$T/g.xml" -o "$T/a.json" &&
    "$H" platform export "simgrid:hostfile=$T/g.txt:$T/g.xml" -o "$T/b.json" && cmp -s "$T/a.json" "$T/b.json" ||
    { fail=$((fail + 1)); echo "FAIL: document order differs from the exported hostfile's"; }
# show: the links and their sharing
"$H" platform show "simgrid:$D/zones.xml" >"$T/show" 2>&1 || { fail=$((fail + 1)); echo "FAIL: show zones.xml"; }
grep -q '^links: 14, routes: 30 of 30 pairs' "$T/show" && grep -q '^wan-fat .* fatpipe ' "$T/show" &&
    grep -q '^wan-split_UP .* shared ' "$T/show" ||
    { fail=$((fail + 1)); echo "FAIL: show zones.xml: $(head -20 "$T/show")"; }
# --platform simgrid:... in the other commands, with the flow model on the imported links
Z="simgrid:hostfile=$D/zones_hosts.txt:$D/zones.xml"
"$H" schedule alltoall --platform "$Z" --msg 1MiB --format json -o "$T/a.json" >"$T/sched" 2>&1 &&
    "$H" simulate --schedule "$T/a.json" --platform "$Z" --network flow >"$T/sim" 2>&1 &&
    grep -q '^simulated makespan:' "$T/sim" ||
    { fail=$((fail + 1)); echo "FAIL: schedule/simulate --network flow: $(cat "$T/sched" "$T/sim")"; }
# bad inputs: exit 1 and one line naming the file (SimGrid's chatter does not leak)
bad() {
    local want=$1 spec=$2
    if "$H" platform show "$spec" >"$T/out" 2>"$T/err"; then
        fail=$((fail + 1)); echo "FAIL: $spec accepted"; return
    fi
    [ "$(grep -c . "$T/err")" -eq 1 ] && [ ! -s "$T/out" ] && grep -qF -- "$want" "$T/err" &&
        grep -qF -- "$spec" "$T/err" || { fail=$((fail + 1)); echo "FAIL: $spec: $(cat "$T/err")"; }
}
bad "cannot open" "simgrid:$T/missing.xml"
bad "nosuchlink" "simgrid:$D/bad.xml"
bad "no route from a to b" "simgrid:$D/noroute.xml"
bad "host 'cl-0' is not in the platform" "simgrid:hostfile=$D/zones_hosts.txt:$D/cluster.xml"
bad "np must be" "simgrid:np=0:$D/zones.xml"
printf 'not xml at all\n' >"$T/junk.xml"
bad "junk.xml" "simgrid:$T/junk.xml"
printf 'c-0.x:x\n' >"$T/badhosts.txt"
bad "line 1: expected NAME or NAME:COUNT" "simgrid:hostfile=$T/badhosts.txt:$D/cluster.xml"
# A platform with links exports in the links form (its links with their sharing policies and a
# route per pair); imported back, every pair keeps its latency and bandwidth and the routes
# cross the same links (a split-duplex NIC becomes its two directions).
L=$2/data/platform_links.json
"$H" platform export "$L" --simgrid "$T/links.xml" --hostfile "$T/links.txt" || { fail=$((fail + 1)); echo "FAIL: links export"; }
grep -q 'links form' "$T/links.xml" && grep -q '<link id="A-uplink" [^>]*sharing_policy="SHARED"' "$T/links.xml" &&
    grep -q 'link_ctn id="A-0-nic" direction="UP"' "$T/links.xml" ||
    { fail=$((fail + 1)); echo "FAIL: the links form lacks the shared uplink or the NIC's direction"; }
"$H" platform show "simgrid:hostfile=$T/links.txt:$T/links.xml" >"$T/lshow" 2>&1 &&
    grep -q '^links: .*routes: 30 of 30 pairs' "$T/lshow" && grep -q '^A-uplink .* shared  *16$' "$T/lshow" ||
    { fail=$((fail + 1)); echo "FAIL: links import: $(head -3 "$T/lshow")"; }
"$H" platform export "$L" -o "$T/l0.json" && "$H" platform export "simgrid:hostfile=$T/links.txt:$T/links.xml" -o "$T/l1.json" &&
    same_matrices "$T/l0.json" "$T/l1.json" || { fail=$((fail + 1)); echo "FAIL: links round trip changed a pair"; }
[ "$fail" -eq 0 ] && echo "simgrid import: all checks passed"
exit $((fail > 0))
