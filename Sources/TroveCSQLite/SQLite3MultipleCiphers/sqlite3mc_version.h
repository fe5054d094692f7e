/*
** Name:        sqlite3mc_version.h
** Purpose:     SQLite3 Multiple Ciphers version numbers
** Author:      Ulrich Telle
** Created:     2020-08-05
** Copyright:   (c) 2020-2026 Ulrich Telle
** License:     MIT
*/

/// \file sqlite3mc_version.h Version information for the SQLite3 Multiple Ciphers library

#ifndef SQLITE3MC_VERSION_H_
#define SQLITE3MC_VERSION_H_

#define SQLITE3MC_VERSION_MAJOR      2
#define SQLITE3MC_VERSION_MINOR      5
#define SQLITE3MC_VERSION_RELEASE    0
#define SQLITE3MC_VERSION_SUBRELEASE 0
#define SQLITE3MC_VERSION_STRING     "SQLite3 Multiple Ciphers 2.5.0"

#endif /* SQLITE3MC_VERSION_H_ */
