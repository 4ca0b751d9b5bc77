#!/usr/bin/env bash
# Runs the stress driver (tests/mpi/stress.c) repeatedly with fresh seeds: the runtime API build
# and the drop-in build (an ordinary MPI program under LD_PRELOAD with a random environment:
# platform, forced algorithm, planning threshold, tuning), threads, and the error-handler
# checks. Every run prints its seed and command, so any failure replays.
#
#   stress.sh --mpi ompi|mpich --mpirun MPIRUN --api STRESS --pmpi STRESS_PMPI --lib PMPI_LIB
#             --cli HETCOLL [--runs N] [--cases N] [--np "4 5 8"] [--seed S]
#             [--threads-runs N] [--errors-runs N] [--only LIST of api,pmpi,threads,errors]
#             [--replay FILE]   (FILE: lines "ranks seed first cases api|pmpi ...", run first)
#             [--focus inplace|signature]   (random cases of that kind only)
#
# Exit 0 when every run passed; the summary line counts cases, runs and failures.
set -u
MPI=ompi MPIRUN=mpirun API="" PMPI="" LIB="" CLI="" RUNS=4 CASES=60 NPS="4 5 8" SEED=$(date +%s)
THREAD_RUNS=1 ERROR_RUNS=1 ONLY="" TIMEOUT=600 REPLAY= FOCUS=()
while [ $# -gt 0 ]; do
    case $1 in
    --mpi) MPI=$2; shift 2 ;;
    --mpirun) MPIRUN=$2; shift 2 ;;
    --api) API=$2; shift 2 ;;
    --pmpi) PMPI=$2; shift 2 ;;
    --lib) LIB=$2; shift 2 ;;
    --cli) CLI=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --cases) CASES=$2; shift 2 ;;
    --np) NPS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --threads-runs) THREAD_RUNS=$2; shift 2 ;;
    --errors-runs) ERROR_RUNS=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    --replay) REPLAY=$2; shift 2 ;;
    --focus) FOCUS=(--focus "$2"); shift 2 ;;
    *) echo "stress.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
LOG=$(mktemp -d /tmp/hc-stress-XXXXXX)
read -r -a NP_LIST <<<"$NPS"
pass=0 fail=0 cases=0
rnd() { RANDOM=$1; echo $((RANDOM % $2)); } # deterministic per seed

algos() { # the registered algorithms of a collective, and auto / native
    echo auto native $("$CLI" algorithms --collective "$1" | awk 'NR > 1 && $2 != "auto" { print $2 }')
}
want() { [ -z "$ONLY" ] || [[ ",$ONLY," == *",$1,"* ]]; }
pick() { # seed, words...
    local s=$1
    shift
    local a=("$@")
    echo "${a[$(rnd "$s" ${#a[@]})]}"
}

# launch NAME SEED NP ENV... -- CMD...: run, record, print the command on failure.
launch() {
    local name=$1 seed=$2 np=$3
    shift 3
    local envargs=() shown=""
    while [ "$1" != "--" ]; do
        if [ "$MPI" = ompi ]; then envargs+=(-x "$1"); else envargs+=(-genv "${1%%=*}" "${1#*=}"); fi
        shown+="$1 "
        shift
    done
    shift
    local out="$LOG/$name.out"
    local cmd=("$MPIRUN" "${envargs[@]}" -np "$np" "$@")
    timeout "$TIMEOUT" "${cmd[@]}" </dev/null >"$out" 2>&1
    local rc=$?
    LAST_OUT=$out
    LAST_RC=$rc
    LAST_CMD="$shown${cmd[*]}"
}

report() { # name expected-ok(1|0)
    local name=$1 ok=$2
    if [ "$ok" = 1 ]; then
        pass=$((pass + 1))
        echo "ok   $name: $(grep -h 'stress: seed .*cases' "$LAST_OUT" | tail -1)"
    else
        fail=$((fail + 1))
        echo "FAIL $name (exit $LAST_RC): $LAST_CMD"
        grep -E 'MISMATCH|ERROR|HANG|stress:' "$LAST_OUT" | head -5
        tail -5 "$LAST_OUT"
    fi
}

if [ -n "$REPLAY" ]; then
    while read -r np s first n mode _; do
        case $np in '#'* | '') continue ;; esac
        if [ "$mode" = api ] && [ -n "$API" ]; then
            launch "replay-$s-$first" "$s" "$np" -- "$API" --seed "$s" --first "$first" --cases "$n"
        elif [ "$mode" = pmpi ] && [ -n "$PMPI" ]; then
            launch "replay-$s-$first" "$s" "$np" "LD_PRELOAD=$LIB" "HETCOLL_PLATFORM=builtin:grid5000" \
                -- "$PMPI" --seed "$s" --first "$first" --cases "$n"
        else
            continue
        fi
        report "replay np $np seed $s cases $first..$((first + n - 1)) ($mode)" "$([ $LAST_RC -eq 0 ] && echo 1 || echo 0)"
        cases=$((cases + n))
    done <"$REPLAY"
fi

for ((i = 0; i < RUNS; i++)); do
    s=$((SEED + i))
    np=${NP_LIST[$((i % ${#NP_LIST[@]}))]}
    if want api && [ -n "$API" ]; then
        launch "api-$s" "$s" "$np" -- "$API" --seed "$s" --cases "$CASES" "${FOCUS[@]}"
        report "api seed $s np $np" "$([ $LAST_RC -eq 0 ] && echo 1 || echo 0)"
        cases=$((cases + CASES))
    fi
    if [ -n "$PMPI" ] && want pmpi; then
        plat=$(pick "$s" builtin:grid5000 "random:two-cluster:n1=$((np / 2 + 1)):n2=$((np / 2 + 1)):seed=$s" \
            "random:uniform:P=$((np + 2)):seed=$s" "random:grid:clusters=3:nodes=$((np / 3 + 1)):seed=$s" \
            "random:sites:nodes=$((np / 3 + 1)):interleave=$((s % 2))")
        env=("LD_PRELOAD=$LIB" "HETCOLL_PLATFORM=$plat" "HETCOLL_PLAN_AFTER=$((1 + $(rnd "$s" 3)))"
            "HETCOLL_TUNE=$(rnd $((s + 1)) 4)" "HETCOLL_ENABLE=allreduce"
            "HETCOLL_FLOW_MODEL=$(pick $((s + 5)) plain smpi)"
            "HETCOLL_BCAST_SPLIT=$(pick $((s + 6)) auto never 1000 3468)"
            "HETCOLL_REDUCE_SPLIT=$(pick $((s + 7)) auto never 1000 3468)")
        # Force an algorithm per collective half of the time (auto, native or a registered one).
        if [ $((s % 2)) -eq 0 ]; then
            env+=("HETCOLL_ALGO_BCAST=$(pick $((s + 2)) $(algos bcast))"
                "HETCOLL_ALGO_REDUCE=$(pick $((s + 3)) $(algos reduce))"
                "HETCOLL_ALGO_ALLTOALL=$(pick $((s + 4)) $(algos alltoall))")
        fi
        launch "pmpi-$s" "$s" "$np" "${env[@]}" -- "$PMPI" --seed "$s" --cases "$CASES" --allreduce \
            "${FOCUS[@]}"
        ok=$([ $LAST_RC -eq 0 ] && echo 1 || echo 0)
        # The drop-in may warn (once per reason), never fail.
        report "pmpi seed $s np $np" "$ok"
        cases=$((cases + CASES))
    fi
done

for ((i = 0; i < THREAD_RUNS; i++)); do
    want threads || break
    s=$((SEED + 1000 + i))
    if [ -n "$API" ]; then
        launch "threads-api-$s" "$s" 4 -- "$API" --seed "$s" --cases $((CASES / 3 + 1)) --threads 2
        report "threads api seed $s np 4 x 2 threads" "$([ $LAST_RC -eq 0 ] && echo 1 || echo 0)"
        cases=$((cases + 2 * (CASES / 3 + 1)))
    fi
    if [ -n "$PMPI" ]; then
        launch "threads-pmpi-$s" "$s" 4 "LD_PRELOAD=$LIB" "HETCOLL_PLATFORM=builtin:grid5000" \
            "HETCOLL_PLAN_AFTER=1" -- "$PMPI" --seed "$s" --cases $((CASES / 3 + 1)) --threads 2
        report "threads pmpi seed $s np 4 x 2 threads" "$([ $LAST_RC -eq 0 ] && echo 1 || echo 0)"
        cases=$((cases + 2 * (CASES / 3 + 1)))
    fi
done

for ((i = 0; i < ERROR_RUNS; i++)); do
    want errors || break
    if [ -n "$API" ]; then
        launch "errors-api-$i" 0 4 -- "$API" --errors return
        report "errors api (error classes as the MPI library's)" "$([ $LAST_RC -eq 0 ] && echo 1 || echo 0)"
    fi
    if [ -n "$PMPI" ]; then
        launch "errors-pmpi-$i" 0 4 "LD_PRELOAD=$LIB" "HETCOLL_PLATFORM=builtin:grid5000" -- \
            "$PMPI" --errors return
        report "errors pmpi (error classes as the MPI library's)" "$([ $LAST_RC -eq 0 ] && echo 1 || echo 0)"
        # The default handler is fatal: MPI_Bcast with root = size must end the job.
        launch "fatal-pmpi-$i" 0 4 "LD_PRELOAD=$LIB" "HETCOLL_PLATFORM=builtin:grid5000" -- \
            "$PMPI" --errors fatal
        ok=$([ $LAST_RC -ne 0 ] && [ $LAST_RC -ne 124 ] && ! grep -q "survived" "$LAST_OUT" && echo 1 || echo 0)
        report "fatal pmpi (the job aborts as without hetcoll)" "$ok"
    fi
done

echo "stress ($MPI): $pass runs passed, $fail failed, $cases random cases; first seed $SEED; logs in $LOG"
[ "$fail" -eq 0 ] && rm -rf "$LOG"
[ "$fail" -eq 0 ]
