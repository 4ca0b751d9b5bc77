#!/usr/bin/env bash
# A man page from a program's own help text (the help is the reference; the page is its copy):
#   bash scripts/manpage.sh BINARY NAME "one-line description" OUT.1 [COMMAND...]
# COMMAND: a subcommand whose --help becomes a section (`a/b` for `BINARY a b --help`).
# Run by the build (CMakeLists.txt, target hc_man); checked by tests/cli/test_man.sh.
set -euo pipefail
bin=$1 name=$2 desc=$3 out=$4
shift 4
# roff: a backslash is \e, a line starting with . or ' is protected by \&
esc() { sed -e 's/\\/\\e/g' -e 's/^\([.'"'"']\)/\\\&\1/'; }
upper() { printf '%s' "$1" | tr '[:lower:]/' '[:upper:] '; }
version=$("$bin" --version 2>/dev/null | head -1 || true)
{
    printf '.TH %s 1 "" "%s" "hetcoll manual"\n' "$(upper "$name")" "${version:-$name}"
    printf '.SH NAME\n%s \\- %s\n' "$name" "$desc"
    printf '.SH SYNOPSIS AND DESCRIPTION\n.nf\n'
    { "$bin" --help 2>&1 || true; } | esc
    printf '.fi\n'
    for c in "$@"; do
        printf '.SH "%s %s"\n.nf\n' "$(upper "$name")" "$(upper "$c")"
        # shellcheck disable=SC2046
        { "$bin" $(printf '%s' "$c" | tr '/' ' ') --help 2>&1 || true; } | esc
        printf '.fi\n'
    done
    printf '.SH "SEE ALSO"\nhetcoll(1), hetcoll-mpi(1); README.md, docs/formats.md (file formats), docs/pmpi.md (the\nMPI runtime and its HETCOLL_* variables) in the source tree.\n'
} >"$out.tmp"
mv "$out.tmp" "$out"
