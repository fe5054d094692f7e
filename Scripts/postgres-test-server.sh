#!/usr/bin/env bash
# A throwaway PostgreSQL server for Trove's PostgreSQL tests and benchmarks, on loopback, in a
# temporary folder.
#
#   eval "$(Scripts/postgres-test-server.sh start)"   # prints export lines: TROVE_POSTGRES_URL, TROVE_POSTGRES_DATA
#   Scripts/postgres-test-server.sh restart DIR       # restarts the server of DIR (the tests' fault cases use it)
#   Scripts/postgres-test-server.sh stop DIR          # stops it and removes DIR
#
# Needs Debian's `postgresql` package (initdb and pg_ctl under /usr/lib/postgresql/*/bin, or on PATH).
# As root, the server runs as the `postgres` user, since PostgreSQL refuses to run as root.
# The superuser is `trove`, password `trove`, with password (SCRAM) authentication on 127.0.0.1.
set -euo pipefail

bin_dir() {
    if command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(command -v pg_ctl)"
        return
    fi
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
    if [ -z "$found" ]; then
        echo "postgres-test-server.sh: no PostgreSQL found; install it (apt-get install -y postgresql)" >&2
        exit 1
    fi
    echo "$found"
}

# Runs a command as the user that owns the cluster.
as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' \
        2>/dev/null || echo 54329
}

command=${1:-start}
BIN=$(bin_dir)

case "$command" in
start)
    port=${2:-$(free_port)}
    dir=$(mktemp -d "${TMPDIR:-/tmp}/trove-postgres.XXXXXX")
    chmod 755 "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    echo trove >"$dir/password"
    as_owner "$BIN/initdb" -D "$dir/data" -U trove --pwfile="$dir/password" --auth=scram-sha-256 \
        --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 500
fsync = off
CONF
    as_owner "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start >/dev/null ||
        { cat "$dir/server.log" >&2; exit 1; }
    echo "export TROVE_POSTGRES_URL=postgres://trove:trove@127.0.0.1:$port/postgres"
    echo "export TROVE_POSTGRES_DATA=$dir"
    ;;
restart)
    dir=${2:?usage: $0 restart DIR}
    as_owner "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -m fast restart >/dev/null
    ;;
stop)
    dir=${2:?usage: $0 stop DIR}
    as_owner "$BIN/pg_ctl" -D "$dir/data" -w -m fast stop >/dev/null || true
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start [PORT] | restart DIR | stop DIR" >&2
    exit 2
    ;;
esac
