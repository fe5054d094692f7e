#ifndef OWN_CSQLITE_H
#define OWN_CSQLITE_H

/// The version number of the system SQLite this app links, through its own shim.
int own_csqlite_version_number(void);

#endif
