#!/usr/bin/env bash
# Set-up command 1: install dependencies if missing, configure, build, run `hetcoll demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
hc_install_deps
cmake --preset default >/dev/null
cmake --build --preset default -j2 --target hetcoll_cli >/dev/null
./build/bin/hetcoll demo "$@"
