#!/usr/bin/env bash
# Build the libFuzzer harnesses (fuzz/, clang, ASan + UBSan) and run each for SECONDS (60), with
# seed corpora from tests/data and the CLI's own outputs. A finding (crash, leak, UB, an input
# over 512 MB of memory or 5 s) stops with the reproducer in build-fuzz/findings/.
#   bash scripts/fuzz.sh [SECONDS] [HARNESS...]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
hc_install_deps clang
secs=${1:-60}
shift || true
B=build-fuzz
cmake -S . -B $B -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DHETCOLL_FUZZ=ON -DHETCOLL_WITH_MPI=OFF -DHETCOLL_WITH_SIMGRID=OFF -DHETCOLL_BUILD_TESTS=OFF >/dev/null
cmake --build $B -j2 --target fuzz_platform fuzz_matrix fuzz_schedule fuzz_directory fuzz_algorithms fuzz_cli_numbers fuzz_bounds hetcoll_cli
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(platform matrix schedule directory algorithms cli_numbers bounds)
# Seeds: the test data and small outputs of the CLI itself.
S=$B/seeds
mkdir -p "$S/platform" "$S/matrix" "$S/schedule" "$S/directory" "$S/algorithms" "$S/cli_numbers" "$S/bounds" $B/findings
cp tests/data/*.json "$S/platform/" 2>/dev/null || true
$B/bin/hetcoll platform export builtin:gusto -o "$S/platform/gusto.json"
cp tests/data/*.txt "$S/matrix/" 2>/dev/null || true
printf '\001[[0,1],[2,0]]' >"$S/matrix/sizes.json"
printf '\0000 1\n2 0\n' >"$S/matrix/costs.txt"
for c in "alltoall --msg 1KiB --algo caterpillar" "bcast --msg 1KiB --algo binomial" "reduce --msg 1KiB --algo ep"; do
    # shellcheck disable=SC2086
    $B/bin/hetcoll schedule $c --platform builtin:gusto --format json -o "$S/schedule/${c%% *}.json"
done
# an exchange in pieces with lead pieces (API 24)
printf '%s' '{"format":"hetcoll-schedule/1","collective":"alltoall","algorithm":"pieces","nodes":2,"makespan":1.0,"segment_bytes":8192,"piece_groups":[0,1],"lead_bytes":2048,"lead_pieces":[[0,3],[5,0]],"events":[{"src":0,"dst":1,"start":0.0,"end":1.0,"bytes":65536},{"src":1,"dst":0,"start":0.0,"end":1.0,"bytes":65536}]}' >"$S/schedule/leads.json"
printf '{"format":"hetcoll-directory/1","epoch":1,"timestamp":1700000000,"interval_s":1,"mode":"full","error_metric":"mse","platform":%s}' \
    "$(cat "$S/platform/gusto.json")" >"$S/directory/d.json"
printf '\000\003\001\005\007\002\011\004' >"$S/algorithms/a"
printf '\001\004\000\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017' >"$S/algorithms/b"
printf '\002\005\001\000\377\001\002' >"$S/algorithms/c"
printf '\003\014\002\001\001\002\003\004\005\006' >"$S/algorithms/d"
# bounds: collective and model, sites, per site (nodes, NIC rate, NIC latency, uplink rate,
# latency, sharing), per pair of sites (rate, latency, sharing), then root, size, algorithm, pieces
printf '\003\001\002\200\020\100\200\000\002\200\020\100\200\001\200\200\000\003\000\002\001\001' >"$S/bounds/a"
printf '\000\002\003\377\000\050\300\001\001\100\100\377\000\000\002\300\010\030\020\001\040\100\000\060\200\001\140\040\000\002\005\003\001\006' >"$S/bounds/b"
for v in 1MiB 64K 0.5KiB 10..100:10 1,2,3 1e3 2..16; do printf '%s' "$v" >"$S/cli_numbers/$v"; done
status=0
for h in "${harnesses[@]}"; do
    mkdir -p $B/corpus/$h
    echo "== fuzz_$h for $secs s"
    # A small quarantine: with ASan's default (256 MB of freed blocks kept) the process's RSS,
    # which -rss_limit_mb measures, grows past 512 MB on platforms with routes (live heap 24 MB).
    if ! ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=64 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        $B/fuzz/fuzz_$h $B/corpus/$h "$S/$h" -max_total_time="$secs" -max_len=4096 \
        -rss_limit_mb=512 -timeout=5 -artifact_prefix=$B/findings/$h- -print_final_stats=1 \
        2>$B/fuzz_$h.log; then
        status=1
        grep -E 'ERROR|runtime error|SUMMARY|Test unit written' $B/fuzz_$h.log | head -5
    fi
    grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' $B/fuzz_$h.log | tr '\n' ' '
    echo
done
exit $status
