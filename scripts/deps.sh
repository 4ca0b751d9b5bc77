#!/usr/bin/env bash
# Install hetcoll's build and test dependencies (Debian 12 packages) when any is missing.
# Sourced by scripts/demo.sh and scripts/test.sh; safe to run again.
set -euo pipefail
# librsvg2-bin: rsvg-convert, which turns the SVG pictures into PNG (--png of demo and experiment ttcc)
# groff-base: groff, which tests/cli/test_man.sh formats the man pages with
HC_PKGS="gcc cmake ninja-build pkg-config libjansson-dev coinor-libclp-dev libcmocka-dev openmpi-bin libopenmpi-dev mpich libmpich-dev iproute2 libsimgrid-dev time librsvg2-bin groff-base"
hc_install_deps() {
    local missing=()
    for p in $HC_PKGS "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "== installing: ${missing[*]}" >&2
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
}
