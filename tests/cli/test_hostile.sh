#!/usr/bin/env bash
# Hostile inputs as a contract (issue 18): each row runs one command and checks its exit code,
# that stderr holds the expected text on ONE line, that it ends within LIMIT_S seconds and,
# for uninstrumented builds, that its peak memory stays under LIMIT_KB (inputs under 1 KiB).
#   bash test_hostile.sh HETCOLL_BINARY TESTS_DIR
set -u
H=$1
T=$(mktemp -d /tmp/hc-hostile-XXXXXX)
trap 'rm -rf "$T"' EXIT
LIMIT_S=${HC_HOSTILE_SECONDS:-1}
LIMIT_KB=$((64 * 1024))
TIME=/usr/bin/time
measure=1
[ -x "$TIME" ] || measure=0
# Sanitizer builds map gigabytes of shadow memory and run slower: check the rest only.
if ldd "$H" 2>/dev/null | grep -q 'libasan\|libubsan' || nm "$H" 2>/dev/null | grep -q __asan_init; then
    measure=0
    LIMIT_S=$((LIMIT_S * 20))
fi
fail=0 rows=0

# row EXPECTED_EXIT 'substring of the one-line error' -- command...
row() {
    local want=$1 text=$2
    shift 3
    rows=$((rows + 1))
    local t0 rc kb=0
    t0=$(date +%s%N)
    if [ $measure = 1 ]; then
        timeout 10 "$TIME" -f '%M' -o "$T/mem" "$@" >"$T/out" 2>"$T/err" </dev/null
        rc=$?
        kb=$(tail -1 "$T/mem" 2>/dev/null || echo 0)
        # /usr/bin/time reports the command's status in its own line when it is not 0
        grep -v '^Command exited with non-zero status' "$T/err" >"$T/err2"
        mv "$T/err2" "$T/err"
    else
        timeout 10 "$@" >"$T/out" 2>"$T/err" </dev/null
        rc=$?
    fi
    local ms=$((($(date +%s%N) - t0) / 1000000))
    local lines
    lines=$(grep -c . "$T/err")
    local problem=""
    [ "$rc" = "$want" ] || problem+=" exit $rc (want $want)"
    if [ -n "$text" ]; then
        grep -qF -- "$text" "$T/err" || problem+=" stderr lacks '$text'"
        [ "$lines" -eq 1 ] || problem+=" $lines lines on stderr"
    fi
    [ "$ms" -le $((LIMIT_S * 1000)) ] || problem+=" took ${ms} ms"
    [ "$measure" = 0 ] || [ "${kb:-0}" -le $LIMIT_KB ] 2>/dev/null || problem+=" peak ${kb} KB"
    if [ -n "$problem" ]; then
        fail=$((fail + 1))
        echo "FAIL row $rows: $*:$problem"
        head -3 "$T/err"
    fi
}

# Inputs (each under 1 KiB unless it is a device).
printf '{"format":"hetcoll-platform/1","nodes":16384}' >"$T/p48.json"
# a cluster form with links claiming 12000 nodes: a route per pair would need ~9 GB (a fuzzing
# finding: it took 16 s and 5.5 GB before failing)
printf '{"format":"hetcoll-platform/2","clusters":[{"name":"A","nodes":12000,"latency_s":1e-4,"bandwidth_Bps":1e8,"uplink":{"bandwidth_Bps":1e7,"latency_s":0.005}},{"name":"B","nodes":2,"latency_s":1e-4,"bandwidth_Bps":1e8,"uplink":{"bandwidth_Bps":1e7,"latency_s":0.005}}],"backbone":{"bandwidth_Bps":1e10}}' >"$T/links12k.json"
printf '{"format":"hetcoll-schedule/1","collective":"alltoall","algorithm":"x","nodes":20000,"makespan":1,"lower_bound":0,"events":[{"src":0,"dst":1,"start":0,"end":1,"bytes":1}]}' >"$T/s20k.json"
"$H" platform export builtin:gusto -o "$T/gusto.json"
{ head -c 40 "$T/gusto.json"; printf '\0garbage'; } >"$T/nul.json"
mkdir -p "$T/adir"
python_free_dir() { # directory file with timestamp $1
    printf '{"format":"hetcoll-directory/1","epoch":1,"timestamp":%s,"time_utc":"x","interval_s":1,"mode":"full","error_metric":"mse","platform":' "$1"
    cat "$T/gusto.json"
    printf '}'
}
python_free_dir 1.67e19 >"$T/dir_far.json"
python_free_dir -1e300 >"$T/dir_neg.json"
python_free_dir "$(($(date +%s) + 1000000))" >"$T/dir_future.json"
head -c 5000 /dev/zero | tr '\0' '1' >"$T/longline.txt"
printf '0 9007199254740993\n1 0\n' >"$T/big_size.txt"
printf '1.7e308\n1.7e308\n' >"$T/huge_series.txt"

# 1. undefined behaviour (checked casts)
row 1 "field 'timestamp'" -- "$H" platform show "dir:max-age=1:$T/dir_far.json"
row 1 "field 'timestamp'" -- "$H" platform show "dir:max-age=1:$T/dir_neg.json"
row 1 "--order" -- "$H" schedule reduce --algo ep --times 1,2 --order 1e30,2
row 1 "--nodes" -- "$H" experiment alltoall --nodes 1e30 --trials 1 -o "$T/x"
# 2. lost output
row 1 "/dev/full: write failed" -- "$H" platform export builtin:gusto -o /dev/full
row 1 "/dev/full: write failed" -- "$H" platform export builtin:gusto --simgrid /dev/full
row 1 "/dev/full: write failed" -- "$H" schedule bcast --platform builtin:gusto --msg 1KiB --algo binomial -o /dev/full
row 1 "standard output: write failed" -- sh -c "'$H' platform export builtin:gusto >/dev/full"
# 3. a hang
row 1 "NUL byte" -- "$H" forecast --series /dev/zero
# 4. memory from a few bytes
row 1 "field 'latency_s': missing" -- "$H" platform show "$T/p48.json"
row 1 "12002 nodes with links need about" -- "$H" platform show "$T/links12k.json"
row 0 "" -- "$H" validate --schedule "$T/s20k.json"
row 1 "NUL byte" -- "$H" platform show /dev/zero
row 1 "NUL byte" -- "$H" schedule alltoall --platform builtin:gusto --sizes /dev/zero --algo caterpillar
row 1 "NUL byte" -- "$H" validate --schedule /dev/zero
row 1 "NUL byte" -- "$H" platform show dir:/dev/zero
row 1 "at most 100000 values" -- "$H" experiment alltoall --nodes 2..10000001 --trials 1 -o "$T/x"
row 1 "at most 2048" -- "$H" schedule reduce --algo ep --times 1..20000
# 5. silent truncation and coercion
row 1 "NUL byte" -- "$H" platform show "$T/nul.json"
row 1 "longer than 4095 bytes" -- "$H" forecast --series "$T/longline.txt"
row 1 "whole number of bytes" -- "$H" schedule bcast --platform builtin:gusto --msg 0.4 --algo binomial
row 1 "whole number of bytes" -- "$H" schedule bcast --platform builtin:gusto --msg 0x10 --algo binomial
row 1 "larger than 2^53" -- "$H" schedule alltoall --platform builtin:gusto --sizes "$T/big_size.txt" --algo caterpillar
row 1 "in the future" -- "$H" platform show "dir:max-age=60:$T/dir_future.json"
row 1 "FACTOR <= 1e6" -- "$H" simulate --schedule "$T/s20k.json" --slow 1:1e308
row 1 "out of range" -- "$H" forecast --series "$T/huge_series.txt"
# 6. clearer errors
row 1 "is a directory" -- "$H" platform show "$T/adir"
row 1 "more than 0 bytes" -- "$H" schedule bcast --platform builtin:gusto --msg 0 --algo binomial

# Memory per event: the CLI's own P = 512 all-to-all (261,632 events, ~24 MB of JSON) validates
# in the file's size plus ~48 bytes per event, not ~935 (jansson's tree of the whole file).
if [ $measure = 1 ]; then
    "$H" schedule alltoall --platform random:uniform:P=512:seed=1 --msg 1KiB --algo caterpillar \
        --format json -o "$T/p512.json"
    limit=$((($(stat -c %s "$T/p512.json") + 261632 * 100) / 1024 + 8192))
    "$TIME" -f '%M' -o "$T/mem" "$H" validate --schedule "$T/p512.json" >/dev/null 2>&1
    kb=$(tail -1 "$T/mem")
    rows=$((rows + 1))
    if [ "$kb" -gt "$limit" ]; then
        fail=$((fail + 1))
        echo "FAIL: validating a P = 512 all-to-all took $kb KB (limit $limit KB)"
    fi
fi

echo "hostile inputs: $rows rows, $fail failed (limits: ${LIMIT_S} s$([ $measure = 1 ] && echo ", $LIMIT_KB KB"))"
[ $fail -eq 0 ]
