#!/usr/bin/env bash
# Builds the DocC documentation of Trove, TrovePostgres, TroveSync and TroveSyncServer and fails on
# any warning (issues 27 and 33).
#
#   Scripts/docc-check.sh [--output DIR]
#
# 1. `swift package dump-symbol-graph` writes the public symbol graphs of the package's modules
#    (it builds what is not built yet: after `swift build` or `swift test` it only extracts).
# 2. `docc convert --analyze` builds Trove's catalog with Trove's symbol graphs, with link
#    metadata, then each other module's catalog with its graphs and the archives of the modules it
#    links to as dependencies (TrovePostgres and TroveSync: Trove's; TroveSyncServer: Trove's,
#    TroveSync's and TrovePostgres's), so that links such as ``/Trove/TroveError`` resolve.
#    Every warning of any is printed and counted; notes are printed, not counted.
# 3. Every public declaration of the four modules has an abstract: a first line of documentation
#    that is not a parameter or other callout. Members that a type only inherits (a protocol's
#    default implementation, `!=` of `Equatable`, the methods of `OptionSet` or `AsyncSequence`)
#    are the protocol's, and are documented there: DocC lists them under "Default
#    Implementations", and the standard library's have no documentation in a Linux toolchain.
#
# With `--output DIR`, the documentation archives are kept in DIR (to look at them with
# `docc preview` or a web server); otherwise they are built in a temporary folder and removed.
# Exits 1 when there is any warning or a declaration without an abstract, naming each.
set -euo pipefail
cd "$(dirname "$0")/.."

output=""
while [ $# -gt 0 ]; do
    case "$1" in
        --output) output="$2"; shift 2 ;;
        -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "docc-check: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done

swift_bin="$(command -v swift)"
docc="${DOCC:-$(dirname "$(readlink -f "$swift_bin")")/docc}"
if [ ! -x "$docc" ]; then
    echo "docc-check: docc not found at $docc (set DOCC to its path)" >&2
    exit 2
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "docc-check: python3 is needed to read the symbol graphs (apt-get install python3)" >&2
    exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
archives="${output:-$work/archives}"
mkdir -p "$archives" "$work/Trove" "$work/TrovePostgres" "$work/TroveSync" "$work/TroveSyncServer"

# 1. Symbol graphs of the public API (SPI symbols are left out, as they are of the docs).
dump="$(swift package dump-symbol-graph --minimum-access-level public 2>&1)" || {
    echo "$dump" >&2
    echo "docc-check: swift package dump-symbol-graph failed" >&2
    exit 1
}
graphs="$(echo "$dump" | sed -n 's/^Files written to //p' | tail -1)"
if [ -z "$graphs" ] || [ ! -f "$graphs/Trove.symbols.json" ]; then
    echo "$dump" >&2
    echo "docc-check: no symbol graph of Trove was written" >&2
    exit 1
fi
# A module's graph, and those of its extensions to other modules' types (Trove@Swift…).
cp "$graphs"/Trove.symbols.json "$graphs"/Trove@*.symbols.json "$work/Trove/"
for module in TrovePostgres TroveSync TroveSyncServer; do
    cp "$graphs/$module.symbols.json" "$work/$module/"
    cp "$graphs/$module"@*.symbols.json "$work/$module/" 2>/dev/null || true
done

# 2. The catalogs.
status=0
convert() {
    local module="$1"
    shift
    local log="$work/$module.log"
    if ! "$docc" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$work/$module" \
        --analyze --enable-experimental-external-link-support \
        --output-path "$archives/$module.doccarchive" "$@" >"$log" 2>&1; then
        cat "$log"
        echo "docc-check: docc convert failed for $module" >&2
        status=1
        return
    fi
    local warnings
    warnings="$(grep -c '^warning:' "$log" || true)"
    local errors
    errors="$(grep -c '^error:' "$log" || true)"
    if [ "$warnings" != 0 ] || [ "$errors" != 0 ]; then
        cat "$log"
        echo "docc-check: $module: $warnings warning(s), $errors error(s)"
        status=1
    else
        echo "docc-check: $module: no warnings ($(grep -c '^note:' "$log" || true) notes)"
    fi
}
convert Trove
convert TrovePostgres --dependency "$archives/Trove.doccarchive"
convert TroveSync --dependency "$archives/Trove.doccarchive"
convert TroveSyncServer --dependency "$archives/Trove.doccarchive" --dependency "$archives/TroveSync.doccarchive" \
    --dependency "$archives/TrovePostgres.doccarchive"

# 3. Abstracts.
python3 - "$work/Trove" "$work/TrovePostgres" "$work/TroveSync" "$work/TroveSyncServer" <<'PYTHON' || status=1
import glob, json, re, sys

missing = []
checked = 0
for folder in sys.argv[1:]:
    for path in sorted(glob.glob(folder + "/*.symbols.json")):
        with open(path) as file:
            graph = json.load(file)
        for symbol in graph["symbols"]:
            # Inherited members (default implementations) carry the protocol's documentation.
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue
            checked += 1
            lines = [line["text"] for line in (symbol.get("docComment") or {}).get("lines", [])]
            first = next((line.strip() for line in lines if line.strip()), "")
            if not first or re.match(r"- ", first):
                location = symbol.get("location", {})
                place = location.get("uri", "").split("/Sources/")[-1]
                line = location.get("position", {}).get("line", -1) + 1
                missing.append(f"  {'/'.join(symbol['pathComponents'])} ({place}:{line})")
if missing:
    print(f"docc-check: {len(missing)} of {checked} public declarations have no abstract:")
    print("\n".join(missing))
    sys.exit(1)
print(f"docc-check: all {checked} public declarations have an abstract")
PYTHON

exit "$status"
