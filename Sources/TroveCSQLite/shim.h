#ifndef TROVE_CSQLITE_SHIM_H
#define TROVE_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT and SQLITE_STATIC are macros over function-pointer casts that Swift cannot import.
static inline sqlite3_destructor_type trove_sqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type trove_sqlite_static(void) { return SQLITE_STATIC; }

#endif
