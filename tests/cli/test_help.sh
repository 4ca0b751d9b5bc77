#!/usr/bin/env bash
# Every --help shows the defaults of its options, and no user-facing text uses the papers'
# internal file numbers ("000".."004") or issue numbers: papers are cited by author and year.
#   bash test_help.sh HETCOLL_BINARY TESTS_DIR
set -u
H=$1
T=$(mktemp -d /tmp/hc-help-XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
}
helps="--help"
for c in platform schedule validate simulate algorithms cluster forecast experiment; do helps="$helps|$c --help"; done
for e in reduce redistribute alltoall grid-bcast; do helps="$helps|experiment $e --help"; done
for c in alltoall bcast reduce redistribute; do helps="$helps|schedule $c --help"; done
IFS='|' read -ra all <<<"$helps"
for h in "${all[@]}"; do
    name=${h// /_}
    # shellcheck disable=SC2086
    "$H" $h >"$T/$name" 2>&1 || bad "hetcoll $h: exit $?"
done
"$H" algorithms >"$T/algorithms" 2>&1
"$H" platform list >"$T/platform_list" 2>&1
# Internal numbering: "000 Figs", "(004 §7)", "issue 17".
if grep -nE '(^|[ (])00[0-4]( |§|$|\))|[Ii]ssue [0-9]' "$T"/*; then bad "internal numbers in user-facing text (above)"; fi
# Every option line that takes a value (--opt VALUE, one option per line) says its default, or
# that it is required; the options below are inputs, outputs or alternatives without one.
no_default='--costs|--times|--schedule|--series|--synthetic|--output|--simgrid|--hostfile|--platform|--prefix'
for f in "$T"/*help; do
    awk -v skip="^(${no_default})\$" '
        function flush() { if (opt != "" && opt !~ skip && block !~ /default|required/) printf "%s: %s\n", FILENAME, first; opt = "" }
        /^ +(-[a-zA-Z], )?--[a-z][a-z-]* [A-Z]/ {
            flush()
            line = $0; sub(/^ +(-[a-zA-Z], )?/, "", line)
            n = split(line, w, " ")
            if (w[3] ~ /^--/) next   # an alternative of the problem options (--platform SPEC --msg SIZE)
            opt = w[1]; block = $0; first = $0; next
        }
        /^ +--|^ +-[a-zA-Z],|^[^ ]|^$/ { flush(); next }
        { block = block " " $0 }
        END { flush() }' "$f" >>"$T/missing"
done
if [ -s "$T/missing" ]; then bad "options without a default in --help:"; cat "$T/missing"; fi
# The values the finding named.
grep -q -- '--time-limit S .*default 10' "$T/schedule_--help" || bad "schedule --help: --time-limit default"
grep -A1 -- '--segment SIZE' "$T/schedule_--help" | grep -q default || bad "schedule --help: --segment default"
grep -q -- '--seed N .*default 1' "$T/schedule_--help" || bad "schedule --help: --seed default"
grep -q -- '--trials N .*default 50' "$T/experiment_reduce_--help" || bad "experiment reduce --help: --trials default"
echo "help checks: $fail failed"
[ $fail -eq 0 ]
