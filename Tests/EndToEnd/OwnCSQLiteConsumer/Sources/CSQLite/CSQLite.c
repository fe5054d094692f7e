#include <sqlite3.h>
#include "CSQLite.h"

int own_csqlite_version_number(void) {
    return sqlite3_libversion_number();
}
