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
#else
#include "TroveCSQLite.h"
#endif
