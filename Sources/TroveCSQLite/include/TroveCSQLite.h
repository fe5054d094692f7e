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

// Trove's (TroveCSQLite.c), with the trait `Encryption` only. The 16-byte salt of the keyed
// database `db` into `salt`: SQLITE_OK, or SQLITE_ERROR when it has none.
int trove_sqlcipher_salt(sqlite3 *db, unsigned char *salt);
// SQLCipher 4's key of `passphrase` with `salt` (PBKDF2-HMAC-SHA512, the iterations `db` is set
// to) into the 32 bytes at `key`: SQLITE_OK, or SQLITE_ERROR when `db` is set to another scheme.
int trove_sqlcipher_derive_key(
    sqlite3 *db, const void *passphrase, int length, const unsigned char *salt, unsigned char *key);

#endif
