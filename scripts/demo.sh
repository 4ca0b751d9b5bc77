#!/usr/bin/env bash
# Set-up command 1: install dependencies if missing, configure, build, run `hetcoll demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
hc_install_deps
cmake --preset default >/dev/null
# Everything, the MPI runtime and the drop-ins included, so that `cmake --install build` and the
# paths of docs/pmpi.md (build/libhetcoll_pmpi.so) work after this command alone.
cmake --build --preset default -j2 >/dev/null
./build/bin/hetcoll demo "$@"
