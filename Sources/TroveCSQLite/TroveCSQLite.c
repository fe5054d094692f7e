// Trove's SQLite.
//
// By default Trove links the system's SQLite (the package trait `SystemSQLite`), and this file
// compiles to nothing. With the package trait `Encryption`, it compiles SQLite3 Multiple Ciphers
// (SQLite with page encryption, in `SQLite3MultipleCiphers/`, see VENDORED.md there), which then
// provides every `sqlite3_*` function Trove calls: the declarations Swift sees are SQLite's
// stable C API, the same in both.
#ifdef TROVE_ENCRYPTION
// Alone: the amalgamation declares its own API, which the system's header must not precede.
#include "SQLite3MultipleCiphers/sqlite3mc.c"

// A passphrase's key is derived once per database, not once per connection (PBKDF2, a fifth of
// a second): Trove derives it here with the file's salt (read from the file's first bytes, or
// from the first connection of a new file), and keys its connections with the result as a raw
// key, which skips the derivation (SQLiteConnection.openFirst).

int trove_sqlcipher_salt(sqlite3 *db, unsigned char *salt) {
  unsigned char *found = sqlite3mc_codec_data(db, "main", "raw:cipher_salt");
  if (found == NULL) return SQLITE_ERROR;
  memcpy(salt, found, 16);
  sqlite3_free(found);
  return SQLITE_OK;
}

int trove_sqlcipher_derive_key(
    sqlite3 *db, const void *passphrase, int length, const unsigned char *salt, unsigned char *key) {
  // SQLCipher 4's derivation, with the settings `db` has: refused for any other (the caller then
  // keys every connection with the passphrase).
  int iterations = sqlite3mc_config_cipher(db, "sqlcipher", "kdf_iter", -1);
  int algorithm = sqlite3mc_config_cipher(db, "sqlcipher", "kdf_algorithm", -1);
  int legacy = sqlite3mc_config_cipher(db, "sqlcipher", "legacy", -1);
  if (iterations <= 0 || algorithm != SQLCIPHER_ALGORITHM_SHA512 || legacy != 0 || length < 0) return SQLITE_ERROR;
  fastpbkdf2_hmac_sha512((const uint8_t *)passphrase, (size_t)length, salt, 16, (uint32_t)iterations, key, 32);
  return SQLITE_OK;
}
#else
#include "TroveCSQLite.h"
#endif
