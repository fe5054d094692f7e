#!/usr/bin/env bash
# A throwaway PostgreSQL server for Trove's PostgreSQL tests and benchmarks, on loopback, in a
# temporary folder.
#
#   eval "$(Scripts/postgres-test-server.sh start)"     # prints export lines: TROVE_POSTGRES_URL, TROVE_POSTGRES_DATA
#   eval "$(Scripts/postgres-test-server.sh start-tls)" # a TLS-only server: TROVE_POSTGRES_TLS_URL, _DATA, _CA, _OTHER_CA
#   Scripts/postgres-test-server.sh restart DIR         # restarts the server of DIR (the tests' fault cases use it)
#   Scripts/postgres-test-server.sh stop DIR            # stops it and removes DIR
#
# Needs Debian's `postgresql` package (initdb and pg_ctl under /usr/lib/postgresql/*/bin, or on PATH);
# `start-tls` needs `openssl` too.
# As root, the server runs as the `postgres` user, since PostgreSQL refuses to run as root.
# The superuser is `trove`, password `trove`, with password (SCRAM) authentication on 127.0.0.1.
#
# `start-tls` makes a throwaway certificate authority in DIR/tls (ca.pem), a server certificate it
# signs for the name `localhost` alone (no IP address in it, so that a connection to 127.0.0.1 that
# checks the name is refused: the tests' host mismatch), and a second, unrelated authority
# (other-ca.pem: the tests' wrong CA). The server turns TLS on and its pg_hba.conf takes `hostssl`
# lines only: a connection without TLS is refused. Its URL asks for `sslmode=verify-full` with
# `sslrootcert` naming ca.pem.
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

# A throwaway certificate authority: `make_ca DIR NAME SUBJECT` writes DIR/NAME.pem and DIR/NAME.key.
make_ca() {
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 \
        -keyout "$1/$2.key" -out "$1/$2.pem" -subj "$3" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
}

# The certificates of a TLS server in DIR/tls, and the settings that make the server of DIR TLS-only.
configure_tls() {
    local dir=$1 tls=$1/tls
    mkdir -p "$tls"
    make_ca "$tls" ca "/CN=Trove throwaway test CA"
    make_ca "$tls" other-ca "/CN=Trove unrelated test CA"
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$tls/server.key" \
        -out "$tls/server.csr" -subj "/CN=localhost" 2>/dev/null
    printf '%s\n' "subjectAltName=DNS:localhost" "basicConstraints=CA:FALSE" \
        "keyUsage=critical,digitalSignature,keyEncipherment" "extendedKeyUsage=serverAuth" >"$tls/server.ext"
    openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -days 30 \
        -extfile "$tls/server.ext" -out "$tls/server.crt" 2>/dev/null
    # PostgreSQL refuses a key that others can read, and must own it.
    chmod 600 "$tls/server.key"
    chmod 644 "$tls/ca.pem" "$tls/other-ca.pem" "$tls/server.crt"
    [ "$(id -u)" = 0 ] && chown -R postgres "$tls"
    cat >>"$dir/data/postgresql.conf" <<CONF
ssl = on
ssl_cert_file = '$tls/server.crt'
ssl_key_file = '$tls/server.key'
CONF
    # TLS-only: every TCP line of initdb's pg_hba.conf becomes `hostssl` (the Unix socket's stay).
    sed -i -E 's/^host([[:space:]])/hostssl\1/' "$dir/data/pg_hba.conf"
}

case "$command" in
start | start-tls)
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
    [ "$command" = start-tls ] && configure_tls "$dir"
    as_owner "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start >/dev/null ||
        { cat "$dir/server.log" >&2; exit 1; }
    if [ "$command" = start-tls ]; then
        echo "export TROVE_POSTGRES_TLS_URL='postgres://trove:trove@localhost:$port/postgres?sslmode=verify-full&sslrootcert=$dir/tls/ca.pem'"
        echo "export TROVE_POSTGRES_TLS_DATA=$dir"
        echo "export TROVE_POSTGRES_TLS_CA=$dir/tls/ca.pem"
        echo "export TROVE_POSTGRES_TLS_OTHER_CA=$dir/tls/other-ca.pem"
    else
        echo "export TROVE_POSTGRES_URL=postgres://trove:trove@127.0.0.1:$port/postgres"
        echo "export TROVE_POSTGRES_DATA=$dir"
    fi
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
    echo "usage: $0 start [PORT] | start-tls [PORT] | restart DIR | stop DIR" >&2
    exit 2
    ;;
esac
