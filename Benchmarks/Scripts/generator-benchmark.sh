#!/usr/bin/env bash
# Times trove-gen over many model files: annotated ones (every file generates a +Trove.swift),
# the same again when the outputs are up to date (nothing is written), and files without
# annotations (which must be skipped cheaply, before any parsing).
#
#   Benchmarks/Scripts/generator-benchmark.sh [--files N] [--runs R] [--release PATH] [--debug PATH]
#
# By default it times the trove-gen binaries of the root package's .build (build them first with
# `swift build -c release --product trove-gen` and `swift build --product trove-gen`); a binary
# that does not exist is skipped. Prints a Markdown table of medians over R runs.
set -euo pipefail

files=1000
runs=5
root="$(cd "$(dirname "$0")/../.." && pwd)"
release="$root/.build/release/trove-gen"
debug="$root/.build/debug/trove-gen"

while [ $# -gt 0 ]; do
    case "$1" in
        --files) files="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --release) release="$2"; shift 2 ;;
        --debug) debug="$2"; shift 2 ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 64 ;;
    esac
done

work="$(mktemp -d "${TMPDIR:-/tmp}/trove-gen-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# One model file per index: a persistable type with metadata and a coded type, as in
# Sources/TroveBenchmarks/Model/User.swift; or the same declarations without annotations.
make_sources() {
    local folder="$1" annotated="$2"
    mkdir -p "$folder/Models"
    : > "$work/$(basename "$folder").inputs"
    for ((i = 0; i < files; i++)); do
        local file="$folder/Models/User$i.swift"
        if [ "$annotated" = yes ]; then
            local persistable="// @persistable(collection: \"users$i\")" metadata="    // @metadata" coded="// @coded"
        else
            local persistable="// A user of module $i." metadata="    // Statistics, kept apart." coded="// The statistics of a user."
        fi
        cat > "$file" <<SWIFT
import Foundation

/// A user of the application, number $i.
$persistable
struct User$i: Sendable, Equatable {
    var id: String
    var name: String
    var email: String
    var age: Int
    var score: Double
    var tags: [String]
    var created: Date
$metadata
    var metadata: UserStats$i?
}

$coded
struct UserStats$i: Sendable, Equatable {
    var visits: Int
    var lastSeen: Date
}

extension User$i {
    /// Whether the user was seen since \`date\`.
    func wasSeen(since date: Date) -> Bool {
        guard let lastSeen = metadata?.lastSeen else { return false }
        return lastSeen >= date
    }
}
SWIFT
        echo "$file" >> "$work/$(basename "$folder").inputs"
    done
}

# median of the numbers (seconds) in column $1 of standard input, printed in milliseconds
median_ms() {
    sort -n -k"$1" | awk -v c="$1" '{ a[NR] = $c } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.0f ms", m * 1000 }'
}

# time_case BINARY INPUTS OUTPUT FRESH: R runs; FRESH=yes empties the output folder before each.
# Prints the median elapsed time and, in parentheses, the median CPU time (user + system).
time_case() {
    local binary="$1" inputs="$2" output="$3" fresh="$4" samples=""
    for ((r = 0; r < runs; r++)); do
        if [ "$fresh" = yes ]; then rm -rf "$output"; mkdir -p "$output"; fi
        samples+=$( { /usr/bin/env time -f "%e %U %S" "$binary" generate --output-dir "$output" \
            --source-root "$(dirname "$inputs")/$(basename "$inputs" .inputs)" "@$inputs" > /dev/null; } 2>&1 | tail -n 1 |
            awk '{ print $1, $2 + $3 }')$'\n'
    done
    echo "$(printf '%s' "$samples" | median_ms 1) ($(printf '%s' "$samples" | median_ms 2) CPU)"
}

make_sources "$work/annotated" yes
make_sources "$work/plain" no

echo "| trove-gen over $files files, median of $runs runs: elapsed (CPU) | release | debug |"
echo "| --- | ---: | ---: |"
rows=(
    "annotated, empty output folder (writes $files files)|annotated|yes"
    "annotated, outputs up to date (writes nothing)|annotated|no"
    "without annotations (skipped, writes nothing)|plain|yes"
)
for row in "${rows[@]}"; do
    IFS='|' read -r title set fresh <<< "$row"
    cells=()
    for binary in "$release" "$debug"; do
        if [ -x "$binary" ]; then
            cells+=("$(time_case "$binary" "$work/$set.inputs" "$work/out-$set" "$fresh")")
        else
            cells+=("not built")
        fi
    done
    echo "| $title | ${cells[0]} | ${cells[1]} |"
done
count=$(find "$work/out-annotated" -name '*+Trove.swift' | wc -l)
plain=$(find "$work/out-plain" -name '*+Trove.swift' 2>/dev/null | wc -l)
echo
echo "Generated files: $count for the annotated inputs, $plain for the inputs without annotations."
