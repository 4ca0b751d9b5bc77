#!/usr/bin/env bash
# The README's quick CLI commands run as written (from a fresh directory whose build/ is this
# build) and exit 0: every indented line starting with `build/bin/hetcoll` except the long
# experiments (their options are exercised by test_vocab.sh and test_ux.sh) and the lines of
# the MPI section (tests/mpi). A renamed option or a changed default shows up here.
#   bash test_readme.sh HETCOLL_BINARY TESTS_DIR
set -u
H=$1
root=$(cd "$2/.." && pwd)
build=$(cd "$(dirname "$H")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ln -s "$build" "$T/build"
cd "$T" || exit 1
fail=0 n=0
while IFS= read -r cmd; do
    n=$((n + 1))
    bash -c "$cmd" >"$T/out" 2>&1 || { fail=$((fail + 1)); echo "FAIL ($?): $cmd"; tail -3 "$T/out"; }
done < <(grep -E '^    build/bin/hetcoll ' "$root/README.md" | grep -v ' experiment \| --platform dir:\| cluster --platform platform.json' | sed 's/^    //; s/  *#.*$//')
[ $n -ge 10 ] || { fail=$((fail + 1)); echo "FAIL: only $n README commands found"; }
echo "README commands: $n run, $fail failed"
[ $fail -eq 0 ]
