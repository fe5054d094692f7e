#!/usr/bin/env bash
# Two replicas of a todo list, an offline edit on each, and the merged result (issue 33).
#
# Starts a throwaway PostgreSQL (Scripts/postgres-test-server.sh of the root package), builds this
# package and starts trove-sync-server on a port the system chooses; then, with two replica files
# A and B: A adds a todo and syncs, B syncs and has it; offline, A changes the title while B marks
# it done and changes the notes; both sync (A, B, A), and both list the same todo, with A's title
# and B's done flag and notes. Exits 1 when the two lists differ or miss an edit. Stops the server
# and PostgreSQL on exit, whatever happens.
#
#   Examples/TroveSync/Scripts/demo.sh [--skip-build]
set -euo pipefail

package=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$package/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/trove-sync-demo.XXXXXX")
server_pid=""
TROVE_POSTGRES_DATA=""

cleanup() {
    local status=$?
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [ -n "$TROVE_POSTGRES_DATA" ]; then
        "$root/Scripts/postgres-test-server.sh" stop "$TROVE_POSTGRES_DATA" >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say() { printf '\n== %s\n' "$*"; }
fail() { printf '\nDEMO FAILED: %s\n' "$*" >&2; exit 1; }

if [ "${1:-}" != "--skip-build" ]; then
    say "building the example (swift build --package-path Examples/TroveSync)"
    swift build --package-path "$package" </dev/null
fi
bin=$(swift build --package-path "$package" --show-bin-path)

say "starting a throwaway PostgreSQL"
eval "$("$root/Scripts/postgres-test-server.sh" start)"
echo "PostgreSQL at ${TROVE_POSTGRES_URL//:trove@/:***@}"

say "starting trove-sync-server: alice (token secret-a) and bob (token secret-b) may sync partition 'team'"
"$bin/trove-sync-server" --postgres "$TROVE_POSTGRES_URL" --port 0 \
    --token alice=secret-a:team --token bob=secret-b:team >"$work/server.log" 2>&1 &
server_pid=$!
server=""
for _ in $(seq 1 300); do
    server=$(sed -n 's/^trove-sync-server: listening on \(http:[^ ]*\).*/\1/p' "$work/server.log")
    [ -n "$server" ] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; fail "the server exited"; }
    sleep 0.1
done
[ -n "$server" ] || { cat "$work/server.log" >&2; fail "the server did not start listening in 30 s"; }
cat "$work/server.log"

# todo on replica A (alice's file) or B (bob's file).
todo() {
    local replica=$1
    shift
    local file token
    case "$replica" in
    A) file=$work/A.trove token=secret-a ;;
    B) file=$work/B.trove token=secret-b ;;
    esac
    local shown="\$ todo ($replica)" arg
    for arg in "$@"; do
        case "$arg" in *" "*) shown+=" \"$arg\"" ;; *) shown+=" $arg" ;; esac
    done
    echo "$shown"
    "$bin/todo" --database "$file" --server "$server" --token "$token" --partition team "$@" | sed 's/^/    /'
}

say "1. A adds a todo and syncs"
todo A add milk "Buy milk"
todo A sync

say "2. B syncs and has it"
todo B sync
todo B list

say "3. offline: A changes the title; B marks it done and changes the notes"
todo A set milk --title "Buy oat milk"
todo B set milk --done --notes "Got two cartons"
echo "  A and B now differ:"
todo A list
todo B list

say "4. both sync: A, B, A"
todo A sync
todo B sync
todo A sync

say "5. the merged todo on both replicas"
todo A list >"$work/A.out" && cat "$work/A.out"
todo B list >"$work/B.out" && cat "$work/B.out"
# The lists without the command line above each.
tail -n +2 "$work/A.out" >"$work/A.list"
tail -n +2 "$work/B.out" >"$work/B.list"

cmp -s "$work/A.list" "$work/B.list" || fail "A and B list different todos"
grep -q '"Buy oat milk"' "$work/A.list" || fail "A's title is missing from the merge"
grep -q '^    \[x\] milk' "$work/A.list" || fail "B's done flag is missing from the merge"
grep -q 'notes: "Got two cartons"' "$work/A.list" || fail "B's notes are missing from the merge"
say "OK: A and B agree, with A's title and B's done flag and notes"
