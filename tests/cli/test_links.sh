#!/usr/bin/env bash
# The link level in platform files (hetcoll-platform/2): `platform show` prints the links and
# routes; export -> import -> export is stable; malformed link data gives one clear line.
# Usage: test_links.sh <hetcoll-binary> <tests-dir>
set -u
H=$1
D=$2/data
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
"$H" platform show "$D/platform_links.json" >"$T/show" 2>&1 || { fail=$((fail + 1)); echo "FAIL: show"; }
grep -q '^links: 10, routes: 30 of 30 pairs' "$T/show" || { fail=$((fail + 1)); echo "FAIL: show lacks the links line"; }
grep -q '^A-uplink .* shared  *16$' "$T/show" || { fail=$((fail + 1)); echo "FAIL: show lacks A's uplink"; }
grep -q 'A-0 -> B-0: A-0-nic:up A-uplink backbone B-uplink B-0-nic:down' "$T/show" ||
    { fail=$((fail + 1)); echo "FAIL: show lacks the A -> B route"; }
"$H" platform export "$D/platform_links.json" -o "$T/e1.json" && "$H" platform export "$T/e1.json" -o "$T/e2.json" &&
    cmp -s "$T/e1.json" "$T/e2.json" || { fail=$((fail + 1)); echo "FAIL: export -> import -> export differs"; }
grep -q '"format": "hetcoll-platform/2"' "$T/e1.json" || { fail=$((fail + 1)); echo "FAIL: export is not version 2"; }
# names with ':' (the route direction separator) still round-trip (a fuzzing finding)
sed 's/"name": "C"/"name": ":C"/' "$D/platform_links.json" >"$T/colon.json"
"$H" platform export "$T/colon.json" -o "$T/c1.json" && "$H" platform export "$T/c1.json" -o "$T/c2.json" &&
    cmp -s "$T/c1.json" "$T/c2.json" || { fail=$((fail + 1)); echo "FAIL: a cluster named ':C' does not round-trip"; }
# a cluster name longer than any fixed buffer still round-trips (a fuzzing finding)
long=$(printf 'C%.0s' $(seq 300))
sed "s/\"name\": \"C\"/\"name\": \"$long\"/" "$D/platform_links.json" >"$T/long.json"
"$H" platform export "$T/long.json" -o "$T/l1.json" && "$H" platform export "$T/l1.json" -o "$T/l2.json" &&
    cmp -s "$T/l1.json" "$T/l2.json" && grep -q "$long-uplink" "$T/l1.json" ||
    { fail=$((fail + 1)); echo "FAIL: a 300-character cluster name does not round-trip"; }
# bad inputs: one line naming the field
bad() {
    local want=$1 file=$2
    if "$H" platform show "$file" >/dev/null 2>"$T/err"; then
        fail=$((fail + 1)); echo "FAIL: $file accepted"; return
    fi
    [ "$(grep -c . "$T/err")" -eq 1 ] && grep -qF -- "$want" "$T/err" ||
        { fail=$((fail + 1)); echo "FAIL: $file: $(cat "$T/err")"; }
}
sed 's/"hetcoll-platform\/2"/"hetcoll-platform\/1"/' "$D/platform_links.json" >"$T/v1.json"
bad "need \"format\": \"hetcoll-platform/2\"" "$T/v1.json"
sed 's/"B-uplink", "backbone"/"B-uplink", "nosuch"/' "$T/e1.json" >"$T/nolink.json"
bad "no link 'nosuch'" "$T/nolink.json"
sed 's/"sharing": "shared"/"sharing": "sometimes"/' "$T/e1.json" >"$T/sharing.json"
bad "sharing" "$T/sharing.json"
sed 's/{"bandwidth_Bps": 1.25e7, "latency_s": 0.005}}/{"latency_s": 0.005}}/' "$D/platform_links.json" >"$T/nobw.json"
bad "uplink.bandwidth_Bps" "$T/nobw.json"
# the simulator's flow network: the same schedule is slower when the uplinks are shared
"$H" schedule alltoall --platform "$D/platform_links.json" --msg 64KiB --algo caterpillar --format json -o "$T/a.json" ||
    { fail=$((fail + 1)); echo "FAIL: schedule on the links platform"; }
pair=$("$H" simulate --schedule "$T/a.json" --platform "$D/platform_links.json" | awk '/^simulated makespan:/ {print $3}')
flow=$("$H" simulate --schedule "$T/a.json" --platform "$D/platform_links.json" --network flow | awk '/^simulated makespan:/ {print $3}')
awk -v p="$pair" -v f="$flow" 'BEGIN { exit !(p > 0 && f > p) }' || { fail=$((fail + 1)); echo "FAIL: flow $flow not above pair $pair"; }
"$H" simulate --schedule "$T/a.json" --platform "$D/platform_links.json" --network flow --error-sigma 0.1 >/dev/null 2>"$T/err" &&
    { fail=$((fail + 1)); echo "FAIL: flow with error draws accepted"; }
grep -q "does not apply error draws" "$T/err" || { fail=$((fail + 1)); echo "FAIL: $(cat "$T/err")"; }
"$H" simulate --schedule "$T/a.json" --platform "$D/platform_links.json" --network wire >/dev/null 2>"$T/err"
[ $? -eq 1 ] && grep -q "not pair or flow" "$T/err" || { fail=$((fail + 1)); echo "FAIL: --network wire: $(cat "$T/err")"; }
# a platform without links: the flow network is its NICs and private pair links (as its
# SimGrid export), so a lone transfer takes the pair model's time and a node's concurrent
# sends share its NIC
"$H" schedule bcast --platform builtin:gusto --msg 1MiB --algo flat --format json -o "$T/b.json" &&
    "$H" simulate --schedule "$T/b.json" --platform builtin:gusto >"$T/bp" &&
    "$H" simulate --schedule "$T/b.json" --platform builtin:gusto --network flow >"$T/bf" ||
    { fail=$((fail + 1)); echo "FAIL: flow on a matrix platform: $(cat "$T/bf")"; }
bp=$(awk '/^simulated makespan:/ {print $3}' "$T/bp")
bf=$(awk '/^simulated makespan:/ {print $3}' "$T/bf")
awk -v p="$bp" -v f="$bf" 'BEGIN { exit !(p > 0 && f > 0.999 * p && f < 1.001 * p) }' ||
    { fail=$((fail + 1)); echo "FAIL: flat bcast on gusto: flow $bf, pair $bp (one send at a time: equal)"; }
# eager sends: a 1 KiB flat broadcast's sends leave at once on the flow network (the runtime
# posts them all), so it ends in about one transfer, not four
"$H" schedule bcast --platform builtin:gusto --msg 1KiB --algo flat --format json -o "$T/s.json"
sp=$(awk '/^simulated makespan:/ {print $3}' <("$H" simulate --schedule "$T/s.json" --platform builtin:gusto))
sf=$(awk '/^simulated makespan:/ {print $3}' <("$H" simulate --schedule "$T/s.json" --platform builtin:gusto --network flow))
awk -v p="$sp" -v f="$sf" 'BEGIN { exit !(f > 0 && f < 0.6 * p) }' ||
    { fail=$((fail + 1)); echo "FAIL: 1 KiB flat bcast: flow $sf not well below the 1-port $sp"; }
# a two-tree broadcast replays on the flow network too: its trees race over the shared uplinks,
# slower than the per-pair replay says
"$H" schedule bcast --platform random:sites:nodes=4 --msg 1MiB --algo ttcc --format json -o "$T/t.json" ||
    { fail=$((fail + 1)); echo "FAIL: ttcc schedule"; }
tp=$(awk '/^simulated makespan:/ {print $3}' <("$H" simulate --schedule "$T/t.json" --platform random:sites:nodes=4))
tf=$(awk '/^simulated makespan:/ {print $3}' <("$H" simulate --schedule "$T/t.json" --platform random:sites:nodes=4 --network flow))
awk -v p="$tp" -v f="$tf" 'BEGIN { exit !(p > 0 && f > p) }' || { fail=$((fail + 1)); echo "FAIL: ttcc flow $tf, pair $tp"; }
# auto on links ranks the candidates on the flow network
"$H" schedule alltoall --platform "random:sites:nodes=2:interleave=1" --msg 64KiB >"$T/auto" 2>&1 ||
    { fail=$((fail + 1)); echo "FAIL: auto on random:sites"; }
grep -q '^note: *auto on the links: kept' "$T/auto" || { fail=$((fail + 1)); echo "FAIL: auto note: $(grep note "$T/auto")"; }
grep -q 'on the links (flow model): .* link bound .*x)' "$T/auto" || { fail=$((fail + 1)); echo "FAIL: no link bound in the note"; }
echo "links checks: $fail failed"
[ $fail -eq 0 ]
