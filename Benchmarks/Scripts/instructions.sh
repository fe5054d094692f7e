#!/usr/bin/env bash
# Counts the instructions of every workload of the benchmark with callgrind: unlike times, the
# counts repeat from run to run whatever else the machine is doing, so they are the figures to
# compare changes with on a busy machine.
#
#   Benchmarks/Scripts/instructions.sh [--count N] [--count GROUP=N]... [--workloads LIST]
#       [--implementations baseline,trove,...] [--keep DIR] [--tsv FILE]
#   Benchmarks/Scripts/instructions.sh --compare BEFORE.tsv AFTER.tsv [--implementation trove]
#
# Builds nothing: run `swift build -c release --package-path Benchmarks` first (--binary PATH
# names another build). Prints a Markdown table of instructions per operation and, for the
# database workloads, their ratio to the baseline. Each profile counts every thread of the
# process between the start and the end of its workload (CCallgrind/shim.h); each is divided by
# the operations the binary reports for it (items, queries, commits, reads, registrations).
#
# The workloads, by group (LIST takes workload or group names; default: all):
#   database      insert read-all read-each read-batch cached-each cached-batch metadata update delete
#                 write-each index-insert index-equal index-range index-page-equal index-page-range index-page-sorted index-update index-populate index-reopen
#                 (every implementation of --implementations; N = --count, default 20000)
#   coders        coder-{encode,decode}-{hand-written,generated,json}          (N users, as database)
#   search        search-index search-word search-prefix search-phrase         (Trove; N = 2000 documents)
#   views         view-register view-write view-memory-write view-bare-write view-read view-memory-read
#                 view-read-raw view-read-grdb
#                 (Trove, and raw SQLite and GRDB for the reads; N = 10000 messages in 100
#                 conversations, 1,000 updates, 1,000 reads)
#   relationships relationship-write relationship-write-bare relationship-cascade relationship-cascade-many
#                 relationship-cascade-raw relationship-cascade-grdb relationship-cascade-many-raw
#                 relationship-cascade-many-grdb
#                 (Trove, and raw SQLite and GRDB for the cascades; N = 20000: N/10 posts written,
#                 N/10 removed by the cascade of one author, N removed by the cascades of N/10
#                 authors of 10 posts each)
#   observation   observe-commit observe-commit-idle observe-latency
#                 (Trove; 2,000 commits without and with 100 idle observations, 1,000 delivered)
#   concurrency   pool-read-1 pool-read-2 pool-read-8 pool-read-64 pool-mixed-64
#                 (Trove's pool, async; N = 5000 operations)
#   enumeration   enumeration-cursor enumeration-enumerate enumeration-all   (Trove; N = 20000 users)
#   spatial       spatial-box spatial-near spatial-box-raw spatial-near-raw
#                 (Trove's SpatialIndex and raw SQLite's R*Tree by hand; N = 20000 places, 1,000
#                 queries of each kind)
#   files         file-edge-remove file-edge-remove-hand file-edge-remove-raw file-edge-remove-grdb
#                 (every author removed, 100 per transaction, with its file: Trove's file edge, by
#                 hand after Trove's commits, raw SQLite, GRDB; N = 20000, N/10 authors)
# --count GROUP=N sets one group's N. The PostgreSQL suite is not counted (it needs a server).
#
# With --keep, the profiles stay in DIR (cg.<group-or-implementation>.<n>, each named in its
# "desc: Trigger" line), for `callgrind_annotate --inclusive=yes DIR/cg.trove.3`. With --tsv, the
# counts are also written to FILE (implementation, workload, operations, total, per operation),
# which --compare reads: a table of one implementation's counts before and after a change.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
binary="$root/.build/release/trove-benchmarks"
implementations="baseline,trove"
chosen_workloads="all"
keep=""
tsv=""
declare -A counts=([database]=20000 [coders]="" [search]=2000 [views]=10000 [relationships]=20000
    [observation]="" [concurrency]=5000 [enumeration]=20000 [spatial]=20000 [files]=20000)

groups=(database coders search views relationships observation concurrency enumeration spatial files)
declare -A members=(
    [database]="insert read-all read-each read-batch cached-each cached-batch metadata update delete write-each index-insert index-equal index-range index-page-equal index-page-range index-page-sorted index-update index-populate index-reopen"
    [coders]="coder-encode-hand-written coder-encode-generated coder-encode-json coder-decode-hand-written coder-decode-generated coder-decode-json"
    [search]="search-index search-word search-prefix search-phrase"
    [views]="view-register view-write view-memory-write view-bare-write view-read view-memory-read view-read-raw view-read-grdb"
    [relationships]="relationship-write relationship-write-bare relationship-cascade relationship-cascade-many relationship-cascade-raw relationship-cascade-grdb relationship-cascade-many-raw relationship-cascade-many-grdb"
    [observation]="observe-commit observe-commit-idle observe-latency"
    [concurrency]="pool-read-1 pool-read-2 pool-read-8 pool-read-64 pool-mixed-64"
    [enumeration]="enumeration-cursor enumeration-enumerate enumeration-all"
    [spatial]="spatial-box spatial-near spatial-box-raw spatial-near-raw"
    [files]="file-edge-remove file-edge-remove-hand file-edge-remove-raw file-edge-remove-grdb"
)

compare() { # compare BEFORE AFTER IMPLEMENTATION: Markdown table of per-operation counts
    local before="$1" after="$2" implementation="$3"
    echo "| Workload | operations | before, instructions/op | after, instructions/op | after / before |"
    echo "| --- | ---: | ---: | ---: | ---: |"
    awk -F'\t' -v impl="$implementation" '
        FNR == 1 { file++ }
        $1 != impl { next }
        file == 1 { before[$2] = $5; beforeOps[$2] = $3; if (!($2 in seen)) { order[++n] = $2; seen[$2] = 1 } }
        file == 2 { after[$2] = $5; afterOps[$2] = $3; if (!($2 in seen)) { order[++n] = $2; seen[$2] = 1 } }
        END {
            for (i = 1; i <= n; i++) {
                w = order[i]
                ops = (w in afterOps) ? afterOps[w] : beforeOps[w]
                if (w in beforeOps && w in afterOps && beforeOps[w] != afterOps[w]) ops = beforeOps[w] " / " afterOps[w]
                b = (w in before) ? sprintf("%.0f", before[w]) : "–"
                a = (w in after) ? sprintf("%.0f", after[w]) : "–"
                r = "–"
                if ((w in before) && (w in after) && before[w] > 0) {
                    ratio = after[w] / before[w]
                    r = sprintf("%.3f", ratio)
                    if (ratio > 1.03) r = "**" r "**"
                }
                printf "| %s | %s | %s | %s | %s |\n", w, ops, b, a, r
            }
        }' "$before" "$after"
}

while [ $# -gt 0 ]; do
    case "$1" in
        --count)
            case "$2" in
                *=*) group="${2%%=*}"; [ -n "${members[$group]+x}" ] || { echo "unknown group: $group" >&2; exit 64; }
                     counts[$group]="${2#*=}" ;;
                *) counts[database]="$2" ;;
            esac
            shift 2 ;;
        --workloads) chosen_workloads="$2"; shift 2 ;;
        --implementations) implementations="$2"; shift 2 ;;
        --keep) keep="$2"; shift 2 ;;
        --tsv) tsv="$2"; shift 2 ;;
        --binary) binary="$2"; shift 2 ;;
        --compare)
            implementation=trove
            if [ "${4:-}" = --implementation ]; then implementation="$5"; fi
            compare "$2" "$3" "$implementation"
            exit 0 ;;
        -h|--help) sed -n '2,48p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 64 ;;
    esac
done
# The coders, observation and enumeration take the database's N unless set.
[ -n "${counts[coders]}" ] || counts[coders]="${counts[database]}"
[ -n "${counts[observation]}" ] || counts[observation]="${counts[database]}"

# The chosen workloads of each group.
declare -A selected=()
IFS=',' read -r -a names <<< "$chosen_workloads"
for name in "${names[@]}"; do
    found=""
    for group in "${groups[@]}"; do
        if [ "$name" = all ] || [ "$name" = "$group" ]; then
            selected[$group]="${members[$group]}"
            found=1
        elif [[ " ${members[$group]} " == *" $name "* ]]; then
            selected[$group]="${selected[$group]:-} $name"
            found=1
        fi
    done
    [ -n "$found" ] || { echo "unknown workload or group: $name (see --help)" >&2; exit 64; }
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

profile() { # profile NAME COUNT ARGUMENTS...: one valgrind run, one profile per region
    local name="$1" count="$2"
    shift 2
    rm -f "$out/cg.$name" "$out/cg.$name".*
    local start=$SECONDS
    valgrind --tool=callgrind --collect-atstart=yes --callgrind-out-file="$out/cg.$name" \
        "$binary" --count "$count" --runs 1 --no-warm-up --no-memory "$@" > /dev/null 2> "$out/$name.log" ||
        { echo "valgrind failed for $name: see $out/$name.log" >&2; exit 1; }
    echo "callgrind: $name (N = $count): $((SECONDS - start)) s" >&2
}

totals() { # totals NAME: "workload operations total" lines
    for file in "$out/cg.$1".*; do
        [ -e "$file" ] || continue
        local region total
        region=$(sed -n 's/^desc: Trigger: Client Request: //p' "$file")
        total=$(sed -n 's/^totals: //p' "$file")
        echo "$region $total"
    done
}

IFS=',' read -r -a implementation_list <<< "$implementations"
csv() { echo "$*" | xargs | tr ' ' ','; }
if [ -n "${selected[database]:-}" ]; then
    for implementation in "${implementation_list[@]}"; do
        profile "$implementation" "${counts[database]}" --no-coders --implementations "$implementation" \
            --profile "$implementation:$(csv ${selected[database]})"
    done
fi
if [ -n "${selected[coders]:-}" ]; then profile coders "${counts[coders]}" --no-database --profile coders; fi
for group in search views relationships observation concurrency enumeration spatial files; do
    [ -n "${selected[$group]:-}" ] || continue
    extra=()
    if [ "$group" = enumeration ]; then extra=(--enumeration "${counts[enumeration]}"); fi
    profile "$group" "${counts[$group]}" --no-database --no-coders "${extra[@]}" \
        --profile "trove:$(csv ${selected[$group]})"
done

# Every count as "implementation workload operations total".
rows=$(
    if [ -n "${selected[database]:-}" ]; then
        for implementation in "${implementation_list[@]}"; do
            totals "$implementation" | sed "s/^/$implementation /"
        done
    fi
    if [ -n "${selected[coders]:-}" ]; then
        # The hand-written coder is the baseline's, the generated one Trove's, JSON the json implementation's.
        totals coders | awk '{ impl = $1; sub(/^coder-(en|de)code-/, "", impl)
            print (impl == "hand-written" ? "baseline" : impl == "generated" ? "trove" : impl), $0 }'
    fi
    for group in search views relationships observation concurrency enumeration spatial files; do
        if [ -n "${selected[$group]:-}" ]; then totals "$group" | sed 's/^/trove /'; fi
    done
)
if [ -n "$tsv" ]; then
    echo "$rows" | awk 'NF == 4 { printf "%s\t%s\t%s\t%s\t%.1f\n", $1, $2, $3, $4, $4 / $3 }' > "$tsv"
fi

per_op() { # per_op IMPLEMENTATION WORKLOAD: instructions per operation, or nothing
    echo "$rows" | awk -v i="$1" -v w="$2" '$1 == i && $2 == w { printf "%.0f", $4 / $3 }'
}
ops_of() { echo "$rows" | awk -v w="$1" '$2 == w { print $3; exit }'; }

echo "Instructions per operation (callgrind, every thread; N per group: $(for g in "${groups[@]}"; do
    if [ -n "${selected[$g]:-}" ]; then printf '%s %s, ' "$g" "${counts[$g]}"; fi; done | sed 's/, $//'))"
echo
if [ -n "${selected[database]:-}" ]; then
    header="| Workload | operations |"
    rule="| --- | ---: |"
    for implementation in "${implementation_list[@]}"; do header+=" $implementation |"; rule+=" ---: |"; done
    echo "$header"
    echo "$rule"
    for workload in ${selected[database]}; do
        row="| $workload | $(ops_of "$workload") |"
        base=$(per_op baseline "$workload")
        for implementation in "${implementation_list[@]}"; do
            cell=$(per_op "$implementation" "$workload")
            if [ -n "$base" ] && [ -n "$cell" ] && [ "$implementation" != baseline ]; then
                cell+=$(echo "$rows" | awk -v i="$implementation" -v w="$workload" '
                    $2 == w && $1 == "baseline" { b = $4 / $3 } $2 == w && $1 == i { t = $4 / $3 }
                    END { printf " · %.2f×", t / b }')
            fi
            row+=" ${cell:-–} |"
        done
        echo "$row"
    done
    echo
fi
if [ -n "${selected[coders]:-}" ]; then
    echo "| Coder (per user + metadata) | hand-written | generated | JSON |"
    echo "| --- | ---: | ---: | ---: |"
    for operation in encode decode; do
        row="| $operation |"
        base=$(per_op baseline "coder-$operation-hand-written")
        for kind in hand-written generated json; do
            case "$kind" in hand-written) owner=baseline ;; generated) owner=trove ;; *) owner=json ;; esac
            cell=$(per_op "$owner" "coder-$operation-$kind")
            if [ "$kind" != hand-written ] && [ -n "$base" ] && [ -n "$cell" ]; then
                cell+=$(awk -v t="$cell" -v b="$base" 'BEGIN { printf " · %.2f×", t / b }')
            fi
            row+=" ${cell:-–} |"
        done
        echo "$row"
    done
    echo
fi
suites=""
for group in search views relationships observation concurrency enumeration spatial files; do
    if [ -n "${selected[$group]:-}" ]; then suites+=" ${selected[$group]}"; fi
done
if [ -n "$suites" ]; then
    echo "| Workload (Trove's, or raw SQLite's and GRDB's by its suffix) | operations | instructions/op |"
    echo "| --- | ---: | ---: |"
    for workload in $suites; do
        echo "| $workload | $(ops_of "$workload") | $(per_op trove "$workload") |"
    done
fi
