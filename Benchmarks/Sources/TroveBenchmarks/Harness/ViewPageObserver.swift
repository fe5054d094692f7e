import CSQLiteBenchmark
import Foundation

/// Watches the tables of a Trove view from a raw SQLite connection of its own, to count what a
/// commit rewrote: rows of the pages table inserted, updated and deleted, and rows whose page
/// changed in the map.
///
/// It reads the layout of `Sources/Trove/Extensions/View/ViewStorage.swift` (a pages table of
/// `id, grp, ord, count, rows`, the row ids of a page as little-endian 64-bit integers, and a map
/// table `rowid → page`): a benchmark's outside view, which fails loudly if the layout changes.
final class ViewPageObserver {
    /// What one commit changed in the view's tables.
    struct Writes {
        var pagesInserted = 0
        var pagesUpdated = 0
        var pagesDeleted = 0
        /// Rows of the view whose page changed (moved to another page, entered or left the view).
        var mapRowsChanged = 0

        var pagesWritten: Int { pagesInserted + pagesUpdated + pagesDeleted }
    }

    private struct Page: Equatable {
        var group: String
        var ord: Int64
        var rows: [Int64]
    }

    private let sqlite: RawSQLite
    private let selectPages: RawStatement
    private let selectMap: RawStatement
    private var pages: [Int64: Page] = [:]
    /// The page of every row of the view, from `pages`.
    private var rowPage: [Int64: Int64] = [:]

    init(databasePath: String, viewName: String) throws {
        sqlite = try RawSQLite(path: databasePath)
        selectPages = try sqlite.prepare("SELECT id, grp, ord, count, rows FROM \"trove_ext_\(viewName)_pages\"")
        selectMap = try sqlite.prepare("SELECT page FROM \"trove_ext_\(viewName)_map\" WHERE rowid = ?1")
        pages = try readPages()
        for (id, page) in pages {
            for row in page.rows { rowPage[row] = id }
        }
    }

    private func readPages() throws -> [Int64: Page] {
        defer { selectPages.reset() }
        var pages: [Int64: Page] = [:]
        while try selectPages.step() {
            let bytes = selectPages.blob(at: 4)
            let count = Int(selectPages.int64(at: 3))
            guard bytes.count == count * 8 else {
                throw BenchmarkError("view observer: page \(selectPages.int64(at: 0)) says \(count) rows in \(bytes.count) bytes")
            }
            let rows = (0..<count).map { Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 8, as: Int64.self)) }
            pages[selectPages.int64(at: 0)] = Page(group: selectPages.text(at: 1), ord: selectPages.int64(at: 2), rows: rows)
        }
        return pages
    }

    /// What changed since the previous call (or since the observer was made). Checks the map
    /// table against the pages for every row of a changed page.
    func writesSinceLastCall() throws -> Writes {
        let now = try readPages()
        var writes = Writes()
        var touchedRows: Set<Int64> = []
        var rowPage = self.rowPage
        for (id, old) in pages where now[id] != old {
            if now[id] == nil { writes.pagesDeleted += 1 } else { writes.pagesUpdated += 1 }
            for row in old.rows where rowPage[row] == id {
                touchedRows.insert(row)
                rowPage[row] = nil
            }
        }
        for (id, page) in now where pages[id] != page {
            if pages[id] == nil { writes.pagesInserted += 1 }
            for row in page.rows {
                touchedRows.insert(row)
                rowPage[row] = id
            }
        }
        for row in touchedRows {
            if self.rowPage[row] != rowPage[row] { writes.mapRowsChanged += 1 }
            let mapped = try mapPage(of: row)
            guard mapped == (rowPage[row] ?? 0) else {
                throw BenchmarkError(
                    "view observer: the map puts row \(row) in page \(mapped), the pages in \(rowPage[row] ?? 0)")
            }
        }
        pages = now
        self.rowPage = rowPage
        return writes
    }

    private func mapPage(of row: Int64) throws -> Int64 {
        defer { selectMap.reset() }
        selectMap.bindInt64(row, at: 1)
        return try selectMap.step() ? selectMap.int64(at: 0) : 0
    }
}
