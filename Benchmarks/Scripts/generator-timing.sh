#!/usr/bin/env bash
# Times incremental generation as the build plugin runs it (`--all-outputs --cache FILE`) over
# 1,000 annotated files: a cold run (no cache, empty output folder), a run where nothing changed,
# one where one file's body changed, and one where a field was added to a `@coded` type that
# another file uses as its metadata (two outputs change).
#
#   Benchmarks/Scripts/generator-timing.sh [--files N] [--runs R] [--release PATH] [--debug PATH] [--cases "cold none body type"]
#
# By default it times the trove-gen binaries of the root package's .build (build them first with
# `swift build -c release --product trove-gen` and `swift build --product trove-gen`); a binary
# that does not exist is skipped. Prints a Markdown table of medians over R runs (elapsed, and
# user and system CPU from GNU time), and checks that every warm run's outputs equal a cold run's.
# The system time of a cold run is mostly the kernel creating 1,000 files, and depends on the file
# system: set KEEP_WORK=1 to keep the work folder for a look.
set -euo pipefail

files=1000
runs=5
root="$(cd "$(dirname "$0")/../.." && pwd)"
release="$root/.build/release/trove-gen"
cases="cold none body type"
debug="$root/.build/debug/trove-gen"

while [ $# -gt 0 ]; do
    case "$1" in
        --files) files="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --release) release="$2"; shift 2 ;;
        --debug) debug="$2"; shift 2 ;;
        --cases) cases="$2"; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 64 ;;
    esac
done

work="$(mktemp -d "${TMPDIR:-/tmp}/trove-gen-timing.XXXXXX")"
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT

# File i: a @persistable User_i whose metadata is UserStats of the NEXT file, and a @coded UserStats_i.
write_file() {
    local i="$1" extra="${2:-}" next=$(( ($1 + 1) % files ))
    cat > "$work/src/Models/User$i.swift" <<SWIFT
import Foundation

/// A user of the application, number $i.
// @persistable(collection: "users$i")
struct User$i: Sendable, Equatable {
    var id: String
    var name: String
    var email: String
    var age: Int
    var score: Double
    var tags: [String]
    var created: Date
    // @metadata
    var metadata: UserStats$next?
}

// @coded
struct UserStats$i: Sendable, Equatable {
    var visits: Int
    var lastSeen: Date
$extra
}

extension User$i {
    /// Whether the user was seen since \`date\`.
    func wasSeen(since date: Date) -> Bool {
        guard let lastSeen = metadata?.lastSeen else { return false }
        return lastSeen >= date
    }
}
SWIFT
}

mkdir -p "$work/src/Models"
for ((i = 0; i < files; i++)); do
    write_file "$i"
    echo "$work/src/Models/User$i.swift" >> "$work/inputs"
done

# generate BINARY OUT CACHE: one plugin-style run; prints "elapsed user system" in seconds.
generate() {
    { /usr/bin/env time -f "%e %U %S" "$1" generate --output-dir "$2" --source-root "$work/src" --all-outputs \
        --cache "$3" "@$work/inputs" > /dev/null; } 2>&1 | tail -n 1
}

median_ms() {
    sort -n -k"$1" | awk -v c="$1" '{ a[NR] = $c } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.0f ms", m * 1000 }'
}

# A cold run into a fresh folder, to compare warm outputs with.
check_against_cold() {
    local binary="$1" out="$2"
    rm -rf "$work/cold"
    "$binary" generate --output-dir "$work/cold" --source-root "$work/src" --all-outputs "@$work/inputs" > /dev/null
    if ! diff -r "$work/cold" "$out" > /dev/null; then
        echo "error: the incremental outputs of $binary differ from a cold run" >&2
        exit 1
    fi
}

# time_case BINARY CASE: R runs of one case; prints "median elapsed (median user + median system CPU)".
time_case() {
    local binary="$1" case="$2" samples="" out="$work/out" cache="$work/cache/trove-gen.cache"
    mkdir -p "$work/cache"
    for ((r = 0; r < runs; r++)); do
        case "$case" in
            # A new folder and cache each time, nothing deleted: ext4 searches longer for free inodes
            # while many were deleted in the last seconds, which made back-to-back cold runs slower in the
            # kernel each time (a clean build deletes the plugin's folder once, not every few seconds).
            cold) out="$work/out-cold-$r"; cache="$work/cache-cold-$r/trove-gen.cache"; mkdir -p "${cache%/*}" ;;
            none) ;;
            body) echo "// edit $r of a function body's file" >> "$work/src/Models/User$((files / 2)).swift" ;;
            type) write_file $((files / 2 + 1)) "    var edits$r: Int" ;;
        esac
        samples+="$(generate "$binary" "$out" "$cache")"$'\n'
    done
    check_against_cold "$binary" "$out"
    echo "$(printf '%s' "$samples" | median_ms 1) ($(printf '%s' "$samples" | median_ms 2) user + $(printf '%s' "$samples" | median_ms 3) sys)"
}

echo "| trove-gen --all-outputs --cache over $files files, median of $runs runs: elapsed (user + system CPU) | release | debug |"
echo "| --- | ---: | ---: |"
rows=(
    "cold: no cache, empty output folder|cold"
    "nothing changed|none"
    "one file changed (a line added; no declaration changes)|body"
    "a field added to a @coded type that another file's metadata is (2 outputs change)|type"
)
for row in "${rows[@]}"; do
    IFS='|' read -r title case <<< "$row"
    case " $cases " in *" $case "*) ;; *) continue ;; esac
    cells=()
    for binary in "$release" "$debug"; do
        if [ -x "$binary" ]; then
            # Every case starts from the state the cold case leaves: a full cache and output folder.
            # Then a pause: trove-gen reads again any file written less than 3 s before its last run began
            # (its stamps cannot vouch for it), and a build rarely follows the last one that closely.
            if [ "$case" != cold ]; then
                rm -rf "$work/out" "$work/cache"
                generate "$binary" "$work/out" "$work/cache/trove-gen.cache" > /dev/null
                sleep 4
            fi
            cells+=("$(time_case "$binary" "$case")")
        else
            cells+=("not built")
        fi
    done
    echo "| $title | ${cells[0]} | ${cells[1]} |"
done
