#!/usr/bin/env bash
# The golden table of the schedulers (tests/algo/golden_table.c, tests/algo/golden.txt).
#   scripts/golden.sh            compare the current build with tests/algo/golden.txt
#   scripts/golden.sh --update   rewrite tests/algo/golden.txt from the current build
# Update only on purpose: a commit that changes the table names the bug it fixes (or the
# fixtures it adds) and why each changed row changed. BUILD=dir picks the build directory
# (default build, the default preset's).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
cmake --build "$build" --target golden_table >/dev/null
bin="$build/tests/golden_table"
case "${1:-}" in
--update)
    "$bin" >tests/algo/golden.txt.new
    mv tests/algo/golden.txt.new tests/algo/golden.txt
    echo "tests/algo/golden.txt: $(grep -vc '^#' tests/algo/golden.txt) rows"
    git --no-pager diff --stat -- tests/algo/golden.txt || true
    ;;
"") "$bin" --check tests/algo/golden.txt ;;
*)
    echo "usage: scripts/golden.sh [--update]" >&2
    exit 2
    ;;
esac
