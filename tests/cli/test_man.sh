#!/usr/bin/env bash
# The man pages (build/man/*.1, generated from the help text by scripts/manpage.sh): groff
# formats them without a warning, and every subcommand and every long option of the help
# appears in the page, so a new option cannot miss it.
#   bash test_man.sh HETCOLL_BINARY TESTS_DIR (the pages: BINARY/../../man)
set -u
H=$1
M=$(cd "$(dirname "$H")/.." && pwd)/man
fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
[ -s "$M/hetcoll.1" ] || { echo "FAIL: $M/hetcoll.1 missing"; exit 1; }
for page in "$M"/*.1; do
    w=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
    [ -z "$w" ] || bad "$page: groff: $(echo "$w" | head -2)"
done
text=$(groff -man -Tascii -P-cbou "$M/hetcoll.1" 2>/dev/null) # plain text: no overstriking
for c in platform schedule validate simulate algorithms demo experiment cluster forecast; do
    echo "$text" | grep -q "^HETCOLL $(echo "$c" | tr a-z A-Z)" || bad "no section for '$c'"
    for o in $("$H" "$c" --help 2>&1 | grep -o -- '--[a-z][a-z-]*' | sort -u); do
        echo "$text" | grep -q -- "$o" || bad "'$c $o' is not in the page"
    done
done
echo "man pages: $fail failed"
[ $fail -eq 0 ]
