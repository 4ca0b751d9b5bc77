#!/usr/bin/env bash
# model-best ranks the classic broadcasts by their makespan on the real (heterogeneous) problem:
# it is never slower than any classic's own schedule (the classics are the rows of its note's
# table). The first platform is the one where the averaged pLogP model chose a pipeline 4x
# slower than the binomial tree.
# Usage: bash test_model_best.sh <hetcoll-binary> <tests-dir>
set -u
BIN=$1
fail=0
mk() { "$BIN" schedule bcast "$@" | awk '/^makespan:/ {print $2}'; }
for spec in random:grid:clusters=8:nodes=32:seed=3 builtin:grid5000 builtin:gusto \
    random:grid:clusters=4:nodes=16:seed=2; do
    for msg in 1MiB 64KiB; do
        out=$("$BIN" schedule bcast --platform "$spec" --msg "$msg" --algo model-best) || {
            echo "FAIL model-best on $spec exited $?"
            fail=1
            continue
        }
        mb=$(awk '/^makespan:/ {print $2}' <<<"$out")
        classics=$(awk '/algorithm +segment_B/ {t = 1; next} t && NF >= 4 {print $1} t && NF < 4 {t = 0}' <<<"$out")
        n=$(wc -w <<<"$classics")
        if [ "$n" -lt 8 ]; then
            echo "FAIL $spec $msg: model-best's note lists $n classics"
            fail=1
        fi
        best=inf best_a=
        for a in $classics; do
            t=$(mk --platform "$spec" --msg "$msg" --algo "$a")
            if awk -v t="$t" -v b="$best" 'BEGIN {exit !(b == "inf" || t + 0 < b + 0)}'; then
                best=$t best_a=$a
            fi
        done
        if [ "$best" != inf ] && awk -v m="$mb" -v b="$best" 'BEGIN {exit !(m + 0 <= (b + 0) * (1 + 1e-9))}'; then
            echo "ok   $spec $msg: model-best $mb s <= best classic $best_a $best s"
        else
            echo "FAIL $spec $msg: model-best $mb s, but $best_a takes $best s"
            fail=1
        fi
    done
done
exit $fail
