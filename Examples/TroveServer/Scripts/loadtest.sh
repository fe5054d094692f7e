#!/usr/bin/env bash
# HTTP load test of trove-server on loopback with wrk: for each store (trove, grdb) and each mix
# (read-heavy: 90% GET by key, 10% PUT/POST; write-heavy: 30% reads, 70% writes), a fresh
# database seeded with ITEMS users, a server process, and one wrk run bounded in time (DURATION)
# and in requests (MAX_REQUESTS). Prints one table: requests/s, p50/p99 latency, errors (non-2xx
# responses and socket errors; the script fails when there is any), the server's thread count
# (the maximum of /proc/PID/status sampled during the run) and its peak memory (VmHWM at the end).
#
#   Examples/TroveServer/Scripts/loadtest.sh            # 10,000 users, 64 connections, 2 threads, 15 s per case
#   Examples/TroveServer/Scripts/loadtest.sh --smoke    # 1,000 users, 16 connections, 3 s per case (CI)
#
# --smoke builds in debug (CONFIG=debug), which CI has built already for the tests: it checks that
# every case runs without errors, and its figures mean nothing.
#
# Settings from the environment: ITEMS, CONNECTIONS, THREADS, DURATION (seconds), MAX_REQUESTS,
# PORT, STORES ("trove grdb"), MIXES ("read-heavy write-heavy"), CONFIG (release). Linux only (/proc).
set -euo pipefail
cd "$(dirname "$0")/.."

ITEMS=${ITEMS:-10000}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
DURATION=${DURATION:-15}
MAX_REQUESTS=${MAX_REQUESTS:-2000000}
PORT=${PORT:-18080}
STORES=${STORES:-"trove grdb"}
MIXES=${MIXES:-"read-heavy write-heavy"}
CONFIG=${CONFIG:-release}
if [[ "${1:-}" == "--smoke" ]]; then
    ITEMS=1000 CONNECTIONS=16 DURATION=3 MAX_REQUESTS=200000 CONFIG=debug
elif [[ $# -gt 0 ]]; then
    echo "usage: $0 [--smoke]" >&2
    exit 2
fi

command -v wrk >/dev/null || { echo "loadtest: wrk is not installed (apt-get install wrk)" >&2; exit 1; }

echo "== building trove-server ($CONFIG)"
swift build -c "$CONFIG" --product trove-server
SERVER="$(swift build -c "$CONFIG" --show-bin-path)/trove-server"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/trove-loadtest.XXXXXX")
SERVER_PID=""
SAMPLER_PID=""
cleanup() {
    [[ -n "$SAMPLER_PID" ]] && kill "$SAMPLER_PID" 2>/dev/null || true
    [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

read_percent() {
    case "$1" in
        read-heavy) echo 90 ;;
        write-heavy) echo 30 ;;
        *) echo "unknown mix $1" >&2; exit 2 ;;
    esac
}

# Waits until the server answers on PORT (it seeds before it listens), or fails after 120 s.
wait_for_server() {
    for _ in $(seq 1 1200); do
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            echo "loadtest: the server exited:" >&2; cat "$WORK/server.log" >&2; exit 1
        fi
        if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "loadtest: the server did not listen on $PORT" >&2; exit 1
}

ROWS=()
FAILED=0
PER_THREAD=$(( (MAX_REQUESTS + THREADS - 1) / THREADS ))
for store in $STORES; do
    for mix in $MIXES; do
        echo "== $store, $mix: $ITEMS users, $CONNECTIONS connections, $THREADS wrk threads, ${DURATION}s or $MAX_REQUESTS requests"
        rm -f "$WORK"/db*
        "$SERVER" --store "$store" --port "$PORT" --path "$WORK/db.sqlite" --seed "$ITEMS" >"$WORK/server.log" 2>&1 &
        SERVER_PID=$!
        wait_for_server
        # The thread count, five times a second, while the server runs.
        ( while [[ -r /proc/$SERVER_PID/status ]]; do
              awk '/^Threads:/ { print $2 }' "/proc/$SERVER_PID/status" 2>/dev/null || true
              sleep 0.2
          done ) >"$WORK/threads" &
        SAMPLER_PID=$!
        wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --timeout 5s --latency -s Scripts/mix.lua \
            "http://127.0.0.1:$PORT" -- "$(read_percent "$mix")" "$ITEMS" "$PER_THREAD" | tee "$WORK/wrk.out"
        hwm_kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$SERVER_PID/status")
        kill "$SAMPLER_PID" 2>/dev/null || true
        wait "$SAMPLER_PID" 2>/dev/null || true
        SAMPLER_PID=""
        kill -TERM "$SERVER_PID"
        wait "$SERVER_PID" || true
        SERVER_PID=""
        threads=$(sort -n "$WORK/threads" | tail -1)
        result=$(grep '^RESULT' "$WORK/wrk.out")
        field() { sed -E "s/.* $1=([^ ]+).*/\1/" <<<" $result"; }
        socket=$(( $(field connect) + $(field read) + $(field write) + $(field timeout) ))
        non2xx=$(field non2xx)
        (( socket + non2xx == 0 )) || FAILED=1
        # What the server logged for its 500s (UnexpectedErrorLogger): the first few, per case.
        if grep -q "Unexpected error" "$WORK/server.log"; then
            { echo "$store, $mix: $(grep -c "Unexpected error" "$WORK/server.log") unexpected error(s), the first:"
              grep "Unexpected error" "$WORK/server.log" | head -3; } >>"$WORK/errors"
        fi
        ROWS+=("$(printf '| %-5s | %-11s | %9s | %9s | %7s | %7s | %7s | %6s | %7s | %8s |' \
            "$store" "$mix" "$(field requests)" "$(printf '%.0f' "$(field rps)")" "$(field p50_ms)" "$(field p99_ms)" \
            "$non2xx" "$socket" "$threads" "$(( hwm_kb / 1024 ))")")
    done
done

echo
echo "HTTP load test ($CONFIG build): $ITEMS users, wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s (at most $MAX_REQUESTS requests), $(nproc) cores shared by wrk and the server"
echo
echo "| store | mix         |  requests |     req/s | p50 ms  | p99 ms  | non-2xx | socket | threads | peak MiB |"
echo "|-------|-------------|-----------|-----------|---------|---------|---------|--------|---------|----------|"
printf '%s\n' "${ROWS[@]}"
if [[ -s "$WORK/errors" ]]; then
    echo
    cat "$WORK/errors"
fi
if (( FAILED )); then
    echo "loadtest: some requests failed (non-2xx or socket errors)" >&2
    exit 1
fi
