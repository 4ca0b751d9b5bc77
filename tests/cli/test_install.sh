#!/usr/bin/env bash
# Install rules, hetcoll.pc and the CMake package: install the build into a temporary prefix,
# then build and run a small consumer both with pkg-config and with find_package(hetcoll).
# Usage: test_install.sh <hetcoll-binary> <tests-dir>
set -euo pipefail
if [ -n "${HC_SKIP_INSTALL_TEST:-}" ]; then
    echo "skipped: sanitizer build (a plain consumer cannot link an instrumented library)"
    exit 77
fi
bin=$1
build=$(cd "$(dirname "$bin")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cat >"$tmp/main.c" <<'C'
#include <hetcoll/hetcoll.h>
#include <stdio.h>
int main(void)
{
    hc_platform_t *p;
    hc_matrix_t *c;
    hc_schedule_t *s;
    hc_problem_t pb;
    if (hc_platform_load("builtin:gusto", &p) != HC_OK || hc_cost_uniform(p, HC_MODEL_HOCKNEY, 1000, &c) != HC_OK)
        return 1;
    hc_problem_init(&pb, HC_COLL_ALLTOALL);
    pb.P = hc_platform_size(p);
    pb.costs = c;
    if (hc_schedule_compute(&pb, "caterpillar", NULL, &s) != HC_OK || hc_schedule_validate(s, &pb) != HC_OK)
        return 1;
    printf("ok %s %u\n", s->algorithm, s->P);
    hc_schedule_destroy(s);
    hc_matrix_destroy(c);
    hc_platform_destroy(p);
    return 0;
}
C
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig:$tmp/prefix/lib/x86_64-linux-gnu/pkgconfig"
cc -std=c11 "$tmp/main.c" $(pkg-config --cflags --libs hetcoll) -Wl,-rpath,"$tmp/prefix/lib" -o "$tmp/a"
out=$("$tmp/a")
[ "$out" = "ok caterpillar 5" ] || { echo "pkg-config consumer printed '$out'"; exit 1; }
# The shared library exports only the public hc_ names.
nm -D --defined-only "$tmp/prefix/lib/libhetcoll.so" >"$tmp/nm"
if grep -q ' hc__' "$tmp/nm"; then
    echo "libhetcoll.so exports internal hc__ symbols"; exit 1
fi
# The exported symbols are the recorded ABI (cmake/hetcoll.abi): none lost, none added silently.
src=$(cd "$(dirname "$0")/../.." && pwd)
nm -D --defined-only "$tmp/prefix/lib/libhetcoll.so" | awk '$2 ~ /[TDBR]/ {print $3}' | sort >"$tmp/abi"
grep -v '^#' "$src/cmake/hetcoll.abi" | sort >"$tmp/abi.want"
if ! cmp -s "$tmp/abi" "$tmp/abi.want"; then
    echo "exported symbols differ from cmake/hetcoll.abi (< library, > recorded):"
    diff "$tmp/abi" "$tmp/abi.want" | grep '^[<>]' | head -20
    exit 1
fi
cat >"$tmp/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(consumer C)
find_package(hetcoll 0.2 REQUIRED)
add_executable(b main.c)
target_link_libraries(b hetcoll::hetcoll)
CM
cmake -S "$tmp" -B "$tmp/b" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/b" >/dev/null
out=$(LD_LIBRARY_PATH="$tmp/prefix/lib" "$tmp/b/b")
[ "$out" = "ok caterpillar 5" ] || { echo "CMake consumer printed '$out'"; exit 1; }
# A consumer of the core alone does not need MPI, even from a build that has the runtime.
cmake -S "$tmp" -B "$tmp/b2" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON \
    >"$tmp/b2.log" 2>&1 && cmake --build "$tmp/b2" >>"$tmp/b2.log" 2>&1 ||
    { echo "find_package(hetcoll) needs MPI for hetcoll::hetcoll:"; tail -5 "$tmp/b2.log"; exit 1; }
# The CLI from the public API alone: its sources against the installed headers and shared library
# (no src/ on the include path, no static library), then the CLI test scripts on that binary.
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -DHC_SOURCE_DIR="\"$src\"" -I"$src/tools/hetcoll" \
    "$src"/tools/hetcoll/*.c $(pkg-config --cflags --libs hetcoll) -lm \
    -Wl,-rpath,"$tmp/prefix/lib" -o "$tmp/hetcoll" 2>"$tmp/cc.err" ||
    { echo "the CLI does not build against the installed library:"; head -20 "$tmp/cc.err"; exit 1; }
ldd "$tmp/hetcoll" >"$tmp/ldd" # not piped into grep -q: its early exit would SIGPIPE ldd
grep -q "$tmp/prefix/lib/libhetcoll.so" "$tmp/ldd" ||
    { echo "the CLI built from the install does not use the installed libhetcoll.so"; exit 1; }
for t in test_golden test_pipeline test_bad_input; do
    bash "$src/tests/cli/$t.sh" "$tmp/hetcoll" "$src/tests" >"$tmp/$t.log" 2>&1 ||
        { echo "$t with the CLI built against the installed library failed:"; tail -20 "$tmp/$t.log"; exit 1; }
done
# The MPI runtime through hetcoll_mpi.pc (when MPI was built): a broadcast on 2 ranks.
if [ -e "$tmp/prefix/lib/libhetcoll_mpi.so" ] && command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
    cat >"$tmp/mpi.c" <<'C'
#include <hetcoll/mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, x;
    hc_comm_t *c;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    x = me == 0 ? 42 : 0;
    if (hc_comm_create(MPI_COMM_WORLD, NULL, NULL, &c) != MPI_SUCCESS || hc_bcast(&x, 1, MPI_INT, 0, c) != MPI_SUCCESS)
        return 1;
    if (me == 1)
        printf("ok %d\n", x);
    hc_comm_destroy(c);
    MPI_Finalize();
    return 0;
}
C
    # shellcheck disable=SC2046
    mpicc -std=c11 "$tmp/mpi.c" $(pkg-config --cflags --libs hetcoll_mpi) -Wl,-rpath,"$tmp/prefix/lib" -o "$tmp/m" ||
        { echo "an MPI program does not build with pkg-config hetcoll_mpi"; exit 1; }
    out=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
        HETCOLL_PLATFORM=random:uniform:P=2 LD_LIBRARY_PATH="$tmp/prefix/lib" \
        timeout 120 mpirun -x LD_LIBRARY_PATH -x HETCOLL_PLATFORM -np 2 "$tmp/m")
    [ "$out" = "ok 42" ] || { echo "the hetcoll_mpi.pc consumer printed '$out'"; exit 1; }
    echo "hetcoll_mpi.pc consumer: ok"
fi
# The installed CLI finds its library next to it.
"$tmp/prefix/bin/hetcoll" algorithms >/dev/null || { echo "the installed hetcoll does not run"; exit 1; }
for t in test_golden test_pipeline test_bad_input; do echo "$t (installed library): $(tail -n1 "$tmp/$t.log")"; done
echo "install: 5 passed, 0 failed"
