#ifndef TROVE_CSQLITE_SHIM_H
#define TROVE_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT and SQLITE_STATIC are macros over function-pointer casts that Swift cannot import.
static inline sqlite3_destructor_type trove_sqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type trove_sqlite_static(void) { return SQLITE_STATIC; }

// The key functions of SQLite3 Multiple Ciphers: linked only with the package trait `Encryption`,
// and called by Trove only then.
int sqlite3_key_v2(sqlite3 *db, const char *zDbName, const void *pKey, int nKey);
int sqlite3_rekey_v2(sqlite3 *db, const char *zDbName, const void *pKey, int nKey);

#endif
