#!/usr/bin/env bash
# Makes Sources/TroveCSQLite/SQLite3MultipleCiphers again (see VENDORED.md there) from:
#   $1: a checkout of vapor/sqlite-nio at 1.13.2 (its Sources/VaporCSQLite holds SQLite 3.54.1)
#   $2: a checkout of utelle/SQLite3MultipleCiphers at 3e93d84 (2.5.0)
set -euo pipefail
NIO=${1:?usage: $0 SQLITE_NIO_CHECKOUT SQLITE3MC_CHECKOUT}
MC=${2:?usage: $0 SQLITE_NIO_CHECKOUT SQLITE3MC_CHECKOUT}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/Sources/TroveCSQLite/SQLite3MultipleCiphers
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

cp -R "$MC/src" "$WORK/src"
# sqlite-nio renames every sqlite3_ symbol; SQLite3MC and Trove call SQLite's own names.
sed 's/sqlite_nio_sqlite3_/sqlite3_/g' "$NIO/Sources/VaporCSQLite/sqlite_nio_sqlite3.c" |
    grep -v '^#pragma clang diagnostic ignored' >"$WORK/sqlite3.c"
sed 's/sqlite_nio_sqlite3_/sqlite3_/g' "$NIO/Sources/VaporCSQLite/include/sqlite_nio_sqlite3.h" |
    grep -v '^#pragma clang diagnostic ignored' >"$WORK/src/sqlite3.h"
sh "$MC/scripts/patchsqlite3.sh" "$WORK/sqlite3.c" >"$WORK/src/sqlite3patched.c"
sh "$MC/scripts/rekeyvacuum.sh" "$WORK/sqlite3.c" >"$WORK/src/rekeyvacuum.c"

# The files sqlite3mc.c includes with Trove's settings, and nothing else.
DEFINES=$(sed -n 's/^    ("\([A-Z0-9_]*\)", "\([^"]*\)"),$/-D\1=\2/p' "$ROOT/Package.swift")
NEEDED=$(cd "$WORK" && gcc $DEFINES -Isrc -M src/sqlite3mc.c | tr ' \\' '\n\n' | grep '^src/' | sort -u)
find "$OUT" -type f ! -name VENDORED.md -delete
for file in $NEEDED; do cp "$WORK/$file" "$OUT/"; done
cp "$MC/LICENSE" "$OUT/LICENSE"
echo "vendored $(echo "$NEEDED" | wc -l) files into $OUT"
