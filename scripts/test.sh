#!/usr/bin/env bash
# Set-up command 2: install dependencies if missing, configure, build, run the whole test suite.
# Under CI (CI=true) warnings are errors.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
hc_install_deps
preset=default
[ "${CI:-}" = "true" ] && preset=ci
# Open MPI refuses to run as root and more ranks than cores unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j2
ctest --preset "$preset" "$@"
