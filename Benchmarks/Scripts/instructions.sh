#!/usr/bin/env bash
# Counts the instructions of each database workload and of the coders with callgrind: unlike
# times, the counts repeat exactly from run to run whatever else the machine is doing, so they
# are the figures to compare changes with on a busy machine.
#
#   Benchmarks/Scripts/instructions.sh [--count N] [--implementations baseline,trove,...] [--keep DIR]
#
# Builds nothing: run `swift build -c release --package-path Benchmarks` first. Prints a Markdown
# table of instructions per operation (per item; per query for index-equal and index-range, per
# reopen for index-reopen) and their ratio to the baseline. With --keep, the
# profiles stay in DIR (one per workload: cg.<implementation>.<n>, named in its "desc: Trigger"
# line), for `callgrind_annotate --inclusive=yes DIR/cg.trove.3`.
set -euo pipefail

count=20000
implementations="baseline,trove"
keep=""
root="$(cd "$(dirname "$0")/.." && pwd)"
binary="$root/.build/release/trove-benchmarks"

while [ $# -gt 0 ]; do
    case "$1" in
        --count) count="$2"; shift 2 ;;
        --implementations) implementations="$2"; shift 2 ;;
        --keep) keep="$2"; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 64 ;;
    esac
done

command -v valgrind > /dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
[ -x "$binary" ] || { echo "build first: swift build -c release --package-path Benchmarks" >&2; exit 1; }

if [ -n "$keep" ]; then
    out="$keep"
    mkdir -p "$out"
else
    out="$(mktemp -d "${TMPDIR:-/tmp}/trove-instructions.XXXXXX")"
    trap 'rm -rf "$out"' EXIT
fi

profile() { # profile NAME ARGUMENTS...: one valgrind run, one profile per region
    local name="$1"
    shift
    rm -f "$out/cg.$name" "$out/cg.$name".*
    valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$out/cg.$name" \
        "$binary" --count "$count" --runs 1 --no-warm-up --no-memory "$@" > /dev/null 2> "$out/$name.log" ||
        { echo "valgrind failed for $name: see $out/$name.log" >&2; exit 1; }
}

totals() { # totals NAME: "region total" lines
    for file in "$out/cg.$1".*; do
        local region total
        region=$(sed -n 's/^desc: Trigger: Client Request: //p' "$file")
        total=$(sed -n 's/^totals: //p' "$file")
        echo "$region $total"
    done
}

IFS=',' read -r -a chosen <<< "$implementations"
for implementation in "${chosen[@]}"; do
    echo "callgrind: $implementation (N = $count)" >&2
    profile "$implementation" --no-coders --implementations "$implementation" --profile "$implementation:all"
done
echo "callgrind: coders (N = $count)" >&2
profile coders --no-database --profile coders

operations() { # the number of operations of a workload
    case "$1" in
        update|delete|index-update) echo $(((count + 9) / 10)) ;;
        write-each) local n=$((count / 10)); echo $((n < 1000 ? n : 1000)) ;;
        index-equal) echo 10 ;;  # queries of ~1% of the items each (Fixtures.equalityAges)
        index-range) echo 5 ;;   # queries of ~1% of the items each (Fixtures.ageRanges)
        index-reopen) echo 1 ;;
        *) echo "$count" ;;
    esac
}

echo "Instructions per operation (callgrind, N = $count; ratio to the baseline):"
echo
header="| Workload |"
rule="| --- |"
for implementation in "${chosen[@]}"; do header+=" $implementation |"; rule+=" ---: |"; done
echo "$header"
echo "$rule"
for workload in insert read-all read-each read-batch cached-each cached-batch metadata update delete write-each \
    index-insert index-equal index-range index-update index-populate index-reopen; do
    row="| $workload |"
    base=$(totals baseline 2>/dev/null | awk -v w="$workload" '$1 == w { print $2 }')
    for implementation in "${chosen[@]}"; do
        total=$(totals "$implementation" | awk -v w="$workload" '$1 == w { print $2 }')
        ops=$(operations "$workload")
        cell=$(awk -v t="$total" -v o="$ops" 'BEGIN { printf "%.0f", t / o }')
        if [ -n "$base" ] && [ "$implementation" != baseline ]; then
            cell+=$(awk -v t="$total" -v b="$base" 'BEGIN { printf " · %.2f×", t / b }')
        fi
        row+=" $cell |"
    done
    echo "$row"
done
echo
echo "| Coder (per user + metadata) | hand-written | generated | JSON |"
echo "| --- | ---: | ---: | ---: |"
for operation in encode decode; do
    row="| $operation |"
    base=$(totals coders | awk -v w="coder-$operation-hand-written" '$1 == w { print $2 }')
    for kind in hand-written generated json; do
        total=$(totals coders | awk -v w="coder-$operation-$kind" '$1 == w { print $2 }')
        cell=$(awk -v t="$total" -v o="$count" 'BEGIN { printf "%.0f", t / o }')
        [ "$kind" != hand-written ] && cell+=$(awk -v t="$total" -v b="$base" 'BEGIN { printf " · %.2f×", t / b }')
        row+=" $cell |"
    done
    echo "$row"
done
