/// The pages of persistent views (``View/Storage-swift.enum/persistent``,
/// ``View/Storage-swift.enum/rebuiltAtLaunch``) that one connection read: the page lists of
/// groups and the rows of pages, kept for its next reads, as YapDatabase keeps a page cache per
/// view connection. A read of a group's first rows then costs no statement for its pages, only
/// the one that reads the items.
///
/// ## Keeping it right
///
/// Like the item cache, it holds values of the snapshot of the connection's last transaction,
/// and ``ConnectionCore`` brings it to each new transaction's snapshot by the same rules:
///
/// - A commit of another connection of this `Database` drops the views its changeset names:
///   those whose rows or groups changed (``Changeset/viewChanges``), those whose pages it wrote
///   with no such change to report (``Changeset/viewPagesWritten``: a row inserted into a full
///   page and removed again leaves the page split), and the extensions it registered, rebuilt or
///   removed (``Changeset/changedExtensions``).
/// - Whenever the item caches are emptied wholesale (a commit of another process or another
///   `Database` on the file, ``Database/invalidateCaches()``, a changeset that does not list what
///   changed, a removal of everything), so is this one.
/// - A read-write transaction reads the pages of a view it wrote, registered, rebuilt or removed
///   from the file, never from here (its own writes are not here), and adds nothing of such a
///   view; when it commits or rolls back, those views are dropped. The pages it cached of the
///   other views are those of its snapshot, which the commit does not change.
///
/// ## Bounds
///
/// At most ``pageLimit`` pages (up to 50 row ids each, about 25 KB in all) and ``pageListLimit``
/// page lists per connection, each a least-recently-used cache with the item cache's admission
/// against scans. A page list longer than ``longestCachedPageList`` pages (a group of some 30,000
/// rows or more) is not kept, so that a full cache of page lists stays under about 6 MB.
///
/// ## Dropping a view costs one dictionary entry
///
/// Each view has an epoch, and each entry is cached under its view's epoch at the time. Dropping
/// a view moves its epoch on (``removeAll(ofView:)``): its entries are then stale, removed when a
/// read finds them, or evicted. So a commit that writes a view pays one dictionary update here,
/// not a walk over the cache.
struct ViewPageCache {
    /// The most pages kept: the first pages of a few hundred groups.
    static let pageLimit = 512
    /// The most page lists of groups kept.
    static let pageListLimit = 256
    /// The longest page list kept, in pages.
    static let longestCachedPageList = 1_024

    /// The rows of pages, keyed by view name and page id, as ``CachedPage``s.
    private var pages = LRUCache(limit: pageLimit)
    /// The page lists of groups, keyed by view name and group, as ``CachedPageList``s.
    private var pageLists = LRUCache(limit: pageListLimit)
    /// The epoch of each view dropped since the cache was last emptied; a view that is not here
    /// is at epoch 0.
    private var epochs: [String: UInt64] = [:]

    /// A page's group and row ids, and the epoch of its view when it was cached.
    private struct CachedPage {
        var group: String
        var rows: [Int64]
        var epoch: UInt64
    }

    /// A group's page list, and the epoch of its view when it was cached.
    private struct CachedPageList {
        var pages: [ViewPageRef]
        var epoch: UInt64
    }

    /// Whether nothing is cached (stale entries count).
    var isEmpty: Bool {
        pages.count == 0 && pageLists.count == 0
    }

    /// The current epoch of the view `view`: the entries of a read now are looked up and cached
    /// under it.
    func epoch(of view: String) -> UInt64 {
        epochs.isEmpty ? 0 : epochs[view] ?? 0
    }

    /// The cached page list of `group` in the view `view` at `epoch`; a stale one is removed.
    mutating func pageList(of group: String, inView view: String, epoch: UInt64) -> [ViewPageRef]? {
        let key = CacheKey(collection: view, key: group)
        guard let list = pageLists.value(for: key) as? CachedPageList else { return nil }
        guard list.epoch == epoch else {
            pageLists.removeValue(for: key)
            return nil
        }
        return list.pages
    }

    /// Caches the page list of `group` in the view `view`, just read from the file at `epoch`.
    mutating func admit(_ list: [ViewPageRef], of group: String, inView view: String, epoch: UInt64) {
        guard list.count <= Self.longestCachedPageList else { return }
        pageLists.admit(CachedPageList(pages: list, epoch: epoch), for: CacheKey(collection: view, key: group))
    }

    /// The cached group and rows of page `id` of the view `view` at `epoch`; a stale one is
    /// removed.
    mutating func page(_ id: Int64, inView view: String, epoch: UInt64) -> (group: String, rows: [Int64])? {
        let key = CacheKey(collection: view, key: String(id))
        guard let page = pages.value(for: key) as? CachedPage else { return nil }
        guard page.epoch == epoch else {
            pages.removeValue(for: key)
            return nil
        }
        return (page.group, page.rows)
    }

    /// Caches page `id` of the view `view`, just read from the file at `epoch`.
    mutating func admit(_ page: (group: String, rows: [Int64]), id: Int64, inView view: String, epoch: UInt64) {
        let key = CacheKey(collection: view, key: String(id))
        pages.admit(CachedPage(group: page.group, rows: page.rows, epoch: epoch), for: key)
    }

    /// Drops every page and page list of the view `view`: its epoch moves on, which makes them
    /// stale.
    mutating func removeAll(ofView view: String) {
        guard !isEmpty else { return }
        epochs[view, default: 0] &+= 1
    }

    /// Drops everything.
    mutating func removeAll() {
        guard !isEmpty else { return }
        pages.removeAll()
        pageLists.removeAll()
        epochs.removeAll()
    }
}

/// The pages of a persistent view at a read transaction's snapshot, read through the
/// connection's ``ViewPageCache``: page lists and pages come from the cache, or from the file and
/// into the cache. The count of a group is summed from its page list; the other reads go to the
/// file.
struct CachedViewPages: ViewPageSource {
    let file: SQLiteViewPages
    let core: ConnectionCore
    /// The view's epoch in the cache (see ``ViewPageCache/epoch(of:)``), read once per source.
    let epoch: UInt64

    init(file: SQLiteViewPages, core: ConnectionCore) {
        self.file = file
        self.core = core
        epoch = core.viewPages.epoch(of: file.storage.viewName)
    }

    private var viewName: String { file.storage.viewName }

    func groupPages(_ group: String) throws -> [ViewPageRef] {
        if let list = core.viewPages.pageList(of: group, inView: viewName, epoch: epoch) { return list }
        let list = try file.groupPages(group)
        core.viewPages.admit(list, of: group, inView: viewName, epoch: epoch)
        return list
    }

    func page(_ id: Int64) throws -> (group: String, rows: [Int64]) {
        if let page = core.viewPages.page(id, inView: viewName, epoch: epoch) { return page }
        let page = try file.page(id)
        core.viewPages.admit(page, id: id, inView: viewName, epoch: epoch)
        return page
    }

    func pageOfRow(_ rowID: Int64) throws -> Int64 {
        try file.pageOfRow(rowID)
    }

    func groupCounts() throws -> [(group: String, count: Int)] {
        try file.groupCounts()
    }

    func count(group: String?) throws -> Int {
        guard let group else { return try file.count(group: nil) }
        return try groupPages(group).reduce(0) { $0 + $1.count }
    }

    func allRows() throws -> [(rowID: Int64, page: Int64)] {
        try file.allRows()
    }
}

// Explicit non-conformance to Sendable: it holds a connection's core.
@available(*, unavailable)
extension CachedViewPages: Sendable {}

extension ConnectionCore {
    /// Whether the current transaction may read the pages of the persistent view `name` through
    /// ``viewPages``: not when it is a read-write transaction that wrote the view's pages
    /// (it has a ``ViewWriteState`` for it) or registered, rebuilt or removed the view.
    func mayCacheViewPages(of name: String) -> Bool {
        (extensionStates.isEmpty || extensionStates[name] == nil)
            && (changes.changedExtensions.isEmpty || !changes.changedExtensions.contains(name))
    }

    /// Drops the cached pages of the views that the current read-write transaction wrote,
    /// registered, rebuilt or removed: called when it commits or rolls back, before its state
    /// is dropped.
    func forgetViewPagesOfWrite() {
        guard !viewPages.isEmpty else { return }
        for name in extensionStates.keys {
            viewPages.removeAll(ofView: name)
        }
        for name in changes.changedExtensions {
            viewPages.removeAll(ofView: name)
        }
    }

    /// Drops the cached pages of the views that a commit of another connection changed (see
    /// ``ViewPageCache``).
    func forgetViewPages(changedBy changeset: Changeset) {
        guard !viewPages.isEmpty else { return }
        for name in changeset.viewPagesWritten.names {
            viewPages.removeAll(ofView: name)
        }
        for name in changeset.viewChanges.keys {
            viewPages.removeAll(ofView: name)
        }
        for name in changeset.changedExtensions {
            viewPages.removeAll(ofView: name)
        }
    }
}
