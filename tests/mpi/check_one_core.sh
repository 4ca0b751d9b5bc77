#!/usr/bin/env bash
# libhetcoll_mpi must use libhetcoll.so rather than embed a copy of the core: two copies in one
# process keep two error details, two registries... (issue 13 finding 4).
set -u
lib=$1
readelf -d "$lib" | grep -q 'NEEDED.*libhetcoll\.so' || { echo "FAIL: $lib does not need libhetcoll.so"; exit 1; }
own=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -E '^hc_(platform|schedule|algo|error|matrix|cost|problem)_' || true)
[ -z "$own" ] || { echo "FAIL: $lib defines core symbols: $own"; exit 1; }
echo "OK: $lib links libhetcoll.so and defines no core symbol"
