#!/usr/bin/env bash
# The layer check (docs/design.md, "Layers"): core <- net <- model <- {sched, sim} <- mpi <- tools.
# A layer may use only the layers before it; sched and sim may not use each other. Fails (exit 1,
# one line per violation naming the file and its target) when
#   (a) a file under src/<layer>/ includes an internal header of a layer it may not use;
#       a tools/ file includes anything but include/hetcoll/* and tools/ headers (--strict only:
#       the CLI still takes a few internals);
#   (b) in the objects of BUILD_DIR (nm), a layer's object takes a symbol that only a layer it
#       may not use defines;
#   (c) the files of src/mpi depend on each other in a cycle (symbols, nm).
# Usage: scripts/layer_check.sh [--strict] [--includes-only] [BUILD_DIR (default: build)]
# Needs bash, coreutils, grep, awk and nm only.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
strict=0
objects=1
build=
for arg in "$@"; do
    case $arg in
    --strict) strict=1 ;;
    --includes-only) objects=0 ;;
    -h | --help)
        sed -n '2,12s/^# \{0,1\}//p' "$0"
        exit 0
        ;;
    -*)
        echo "layer_check: unknown option '$arg' (try --help)" >&2
        exit 2
        ;;
    *) build=$arg ;;
    esac
done
build=${build:-$root/build}
[[ $build == /* ]] || build=$PWD/$build # relative to the caller, not to the tree

# Ranks of the layers; equal ranks (sched, sim) are siblings that may not use each other.
LAYERS='core=0 net=1 model=2 sched=3 sim=3 mpi=4 tools=5'
ORDER='core <- net <- model <- {sched, sim} <- mpi <- tools'
# Shared awk: the layer of a path and whether layer a may use layer b.
AWK_LIB='
function init_layers(spec,   n, i, kv, parts) {
    n = split(spec, parts, " ")
    for (i = 1; i <= n; i++) { split(parts[i], kv, "="); rank[kv[1]] = kv[2] + 0 }
}
function layer_of(p,   q) {
    if (p ~ /^tools\//) return "tools"
    if (p !~ /^src\/[^\/]+\//) return ""
    q = substr(p, 5); sub(/\/.*/, "", q)
    return q
}
function may_use(a, b) { return a == b || ((a in rank) && (b in rank) && rank[b] < rank[a]) }
function norm(p,   n, i, k, seg, out, s) {
    n = split(p, seg, "/"); k = 0
    for (i = 1; i <= n; i++) {
        if (seg[i] == "" || seg[i] == ".") continue
        if (seg[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
        out[++k] = seg[i]
    }
    s = ""
    for (i = 1; i <= k; i++) s = s (i > 1 ? "/" : "") out[i]
    return s
}
function exists(p,   line, r) {
    r = (getline line < p); if (r >= 0) close(p)
    return r >= 0
}
'

cd "$root"
violations=0
report() {
    # stdin: violation lines; counts them
    local line
    while IFS= read -r line; do
        echo "$line"
        violations=$((violations + 1))
    done
}

# ---- (a) includes ----
mapfile -t sources < <(find src tools -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' \) | sort)
tolerated=0
while IFS= read -r line; do
    case $line in
    TOLERATED*) tolerated=$((tolerated + 1)) ;;
    *)
        echo "$line"
        violations=$((violations + 1))
        ;;
    esac
done < <(awk -v spec="$LAYERS" -v order="$ORDER" -v strict=$strict "$AWK_LIB"'
BEGIN { init_layers(spec) }
FNR == 1 {
    me = layer_of(FILENAME); dir = FILENAME; sub(/\/[^\/]*$/, "", dir)
    unknown = me != "tools" && !(me in rank)
    if (unknown && me == "") print FILENAME ": not in a layer directory (" order ")"
    else if (unknown && !(me in told)) { told[me]; print "src/" me "/: not a known layer (" order ")" }
}
unknown { next }
/^[ \t]*#[ \t]*include[ \t]*"/ {
    inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
    # the include path of the build: the including directory, then src/, then include/
    t = norm(dir "/" inc)
    if (!exists(t)) t = norm("src/" inc)
    if (!exists(t)) t = norm("include/" inc)
    if (!exists(t)) next
    if (t ~ /^include\/hetcoll\//) next
    to = layer_of(t)
    if (to == "") next
    where = FILENAME ":" FNR ": include of " t ": "
    if (me == "tools") {
        if (to == "tools") next
        if (strict) print where "tools may include only include/hetcoll/* and tools/ headers"
        else print "TOLERATED"
        next
    }
    if (!(to in rank)) { print where "src/" to " is not a known layer (" order ")"; next }
    if (!may_use(me, to)) print where me " may not use " to " (" order ")"
}' "${sources[@]}")
n_sources=${#sources[@]}
note=""
[ "$tolerated" -gt 0 ] && note=", $tolerated tools include(s) of internal headers tolerated (--strict lists them)"

if [ "$objects" = 0 ]; then
    if [ "$violations" -ne 0 ]; then
        echo "layer_check: $violations violation(s)" >&2
        exit 1
    fi
    echo "layer_check: OK: includes of $n_sources files$note" >&2
    exit 0
fi

# ---- (b) and (c): the objects of the build ----
if [ ! -d "$build" ]; then
    echo "layer_check: no build directory '$build' (build first, or pass --includes-only)" >&2
    exit 2
fi
build=$(cd "$build" && pwd)
# Only the objects the build still produces (a moved source leaves its old object behind).
if [ -f "$build/build.ninja" ]; then
    mapfile -t objs < <(grep -oE '^build [^ :$]+\.o' "$build/build.ninja" | cut -c7- | sort -u)
else
    mapfile -t objs < <(cd "$build" && find . -name '*.o' | sed 's|^\./||' | sort)
fi
# object -> source: <subdir>/CMakeFiles/<target>.dir/<path>.o is <subdir>/<path> ("__" = "..")
map=$(mktemp)
nmout=$(mktemp)
trap 'rm -f "$map" "$nmout"' EXIT
printf '%s\n' "${objs[@]}" | awk -v b="$build" "$AWK_LIB"'
{
    o = $0; s = o
    if (!sub(/CMakeFiles\/[^\/]+\.dir\//, "", s)) next
    sub(/\.o$/, "", s); gsub(/__\//, "../", s)
    s = norm(s)
    if (layer_of(s) == "" || !exists(s) || !exists(b "/" o)) next
    print o, s
}' >"$map"
n_objs=$(wc -l <"$map")
if [ "$n_objs" -eq 0 ]; then
    echo "layer_check: no objects of src/ or tools/ in '$build' (build first, or pass --includes-only)" >&2
    exit 2
fi
(cd "$build" && awk '{print $1}' "$map" | xargs nm -P -g -A) >"$nmout"

report < <(awk -v spec="$LAYERS" -v order="$ORDER" "$AWK_LIB"'
BEGIN { init_layers(spec) }
FILENAME == ARGV[1] { src[$1] = $2; next }
{
    o = $1; sub(/:$/, "", o); s = src[o]; sym = $2; t = $3
    # MPI_* and PMPI_* belong to the MPI library; src/mpi/pmpi.c only interposes on them
    if (sym ~ /^P?MPI_/) next
    if (t == "U" || t == "w" || t == "v") { if (!((s, sym) in seen)) { seen[s, sym]; nref++; rs[nref] = s; rsym[nref] = sym } }
    else if (!((s, sym) in isdef)) { isdef[s, sym]; defs[sym] = defs[sym] " " s }
}
END {
    for (i = 1; i <= nref; i++) {
        s = rs[i]; sym = rsym[i]; me = layer_of(s)
        if (!(sym in defs)) continue
        # the definition the reference may use, else the first one it may not
        n = split(defs[sym], d, " "); ok = 0; bad = ""
        for (k = 1; k <= n; k++) {
            if (d[k] == s || may_use(me, layer_of(d[k]))) ok = 1
            else if (bad == "") bad = d[k]
        }
        if (!ok) print s ": symbol " sym " defined in " bad ": " me " may not use " layer_of(bad) " (" order ")"
        # (c): file graph inside src/mpi
        if (me == "mpi") for (k = 1; k <= n; k++) if (d[k] != s && layer_of(d[k]) == "mpi") {
            if (!((s, d[k]) in edge)) { edge[s, d[k]] = sym; node[s]; node[d[k]] }
            else if (index(" " edge[s, d[k]] " ", " " sym " ") == 0) edge[s, d[k]] = edge[s, d[k]] " " sym
        }
    }
    # reachability (Floyd-Warshall: src/mpi has a few dozen files at most)
    nn = 0
    for (a in node) names[++nn] = a
    for (x = 2; x <= nn; x++) for (y = x; y > 1 && names[y] < names[y - 1]; y--) { t = names[y]; names[y] = names[y - 1]; names[y - 1] = t }
    for (e in edge) { split(e, p, SUBSEP); reach[p[1], p[2]] = 1; adj[p[1]] = adj[p[1]] " " p[2] }
    for (k in node) for (a in node) if ((a, k) in reach) for (b in node) if ((k, b) in reach) reach[a, b] = 1
    # one line per strongly connected set of files: its shortest cycle, with the symbols
    for (x = 1; x <= nn; x++) {
        a = names[x]
        if ((a in done) || !((a, a) in reach)) continue
        best = ""; bestlen = 0
        for (y = x; y <= nn; y++) {
            b = names[y]
            if (!((a, b) in reach && (b, a) in reach)) continue
            done[b]
            # BFS from b back to b inside the set
            split("", dist); split("", prev); qh = 1; qt = 0; q[++qt] = b; dist[b] = 0; found = 0
            while (qh <= qt && !found) {
                u = q[qh++]; m = split(adj[u], out, " ")
                for (z = 1; z <= m; z++) {
                    v = out[z]
                    if (!((v, a) in reach && (a, v) in reach)) continue
                    if (v == b) { found = 1; last = u; break }
                    if (!(v in dist)) { dist[v] = dist[u] + 1; prev[v] = u; q[++qt] = v }
                }
            }
            if (!found || (best != "" && dist[last] + 1 >= bestlen)) continue
            bestlen = dist[last] + 1
            path = b " (" edge[last, b] ")"; v = last
            while (v != b) { path = v " (" edge[prev[v], v] ") -> " path; v = prev[v] }
            best = b ": file cycle in src/mpi: " b " -> " path
        }
        print best
    }
}' "$map" "$nmout" | sort)

n_mpi=$(awk '$2 ~ /^src\/mpi\//' "$map" | awk '!seen[$2]++' | wc -l)
if [ "$violations" -ne 0 ]; then
    echo "layer_check: $violations violation(s)" >&2
    exit 1
fi
[ "$n_mpi" -eq 0 ] && note="$note, no src/mpi objects (MPI not built): (c) checked nothing"
echo "layer_check: OK: includes of $n_sources files, symbols of $n_objs objects$note" >&2
