#!/bin/bash
# Write the 3-site grid of the link-probe tests: grid3.sh SHARING NP XML HOSTFILE
# Three clusters A, B, C of 21 fast nodes (1.25 GB/s, 5 us NICs, a 12.5 GB/s backbone each),
# each reaching the others through ONE WAN link of its own, 12.5 MB/s (100 Mb/s) and 10 ms,
# crossed by all its flows; SHARING = SHARED (both directions share the capacity) or
# SPLITDUPLEX (one capacity per direction). The hostfile interleaves the sites: rank r runs on
# site r mod 3 (a-0, b-0, c-0, a-1, ...).
set -eu
S=$1 NP=$2 X=$3 H=$4
{
    echo '<?xml version="1.0"?>'
    echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
    echo '<platform version="4.1">'
    echo '<zone id="grid" routing="Full">'
    for c in A B C; do
        l=$(echo "$c" | tr A-Z a-z)
        echo "  <cluster id=\"$c\" prefix=\"$l-\" suffix=\"\" radical=\"0-20\" speed=\"1Gf\" bw=\"1.25GBps\" lat=\"5us\" bb_bw=\"12.5GBps\" bb_lat=\"1us\" router_id=\"$c-router\"/>"
    done
    for c in A B C; do
        echo "  <link id=\"wan$c\" bandwidth=\"12.5MBps\" latency=\"10ms\" sharing_policy=\"$S\"/>"
    done
    up= down=
    if [ "$S" = SPLITDUPLEX ]; then up=' direction="UP"' down=' direction="DOWN"'; fi
    for p in "A B" "A C" "B A" "B C" "C A" "C B"; do
        set -- $p
        echo "  <zoneRoute src=\"$1\" dst=\"$2\" gw_src=\"$1-router\" gw_dst=\"$2-router\" symmetrical=\"NO\"><link_ctn id=\"wan$1\"$up/><link_ctn id=\"wan$2\"$down/></zoneRoute>"
    done
    echo '</zone>'
    echo '</platform>'
} > "$X"
: > "$H"
for ((r = 0; r < NP; r++)); do
    echo "$(echo abc | cut -c$((r % 3 + 1)))-$((r / 3))" >> "$H"
done
