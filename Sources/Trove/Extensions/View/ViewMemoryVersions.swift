import Synchronization

/// The committed versions of the in-memory views of one ``Database`` (see
/// ``View/Storage-swift.enum/inMemory``), and the snapshots that read transactions read at.
///
/// ## Versions by commit
///
/// Each commit that changes an in-memory view publishes the view's new ``ViewMemoryState`` under
/// the commit's number (the number of its changeset, ``Changeset/snapshot``), before the commit
/// becomes visible to readers of this process. A transaction reads the newest version whose
/// number is at most its snapshot's: a reader that began before a commit keeps the version of
/// its snapshot, as it keeps the items of its snapshot in the file.
///
/// ## Exact, pinned snapshots
///
/// Once an in-memory view is registered (``activate()``), read transactions take exact snapshots
/// pinned in the database's ``SnapshotPins``. A published version is dropped as soon as a newer
/// one exists and no pinned snapshot reads it, so that versions do not pile up while connections
/// sit idle.
///
/// The database keeps one instance in its ``Database/locals``: ``Database/viewVersions``.
///
/// ## Other processes
///
/// Each version records the writer token that its commit left in the file (see
/// ``ConnectionCore``). A snapshot whose token is another (another process, or another
/// `Database` on the file, committed since) is one the view did not follow: reading it throws,
/// and the next write transaction of this database rebuilds the view.
final class ViewMemoryVersions: Sendable {
    /// A committed version of one view.
    struct Version: Sendable {
        /// The number of the commit that made it.
        var commit: UInt64
        /// The writer token in the file after that commit.
        var writerToken: UInt64
        /// The pages.
        var state: ViewMemoryState
    }

    private struct State {
        /// The versions of each view, oldest first.
        var views: [String: [Version]] = [:]
    }

    private let state = Mutex(State())
    /// The snapshots of the database's read transactions.
    private let pins: SnapshotPins

    init(pins: SnapshotPins) {
        self.pins = pins
    }

    /// Whether an in-memory view was registered on this database: read transactions then take
    /// exact, pinned snapshots. Once set, it stays set.
    var isInUse: Bool {
        pins.isInUse
    }

    /// Called when an in-memory view is built, before the commit that publishes it.
    func activate() {
        pins.activate()
    }

    /// The newest version of `name` made by a commit up to `snapshot`.
    func version(of name: String, atOrBefore snapshot: UInt64) -> Version? {
        state.withLock { state in
            state.views[name]?.last { $0.commit <= snapshot }
        }
    }

    /// The latest version of `name`.
    func latest(of name: String) -> Version? {
        state.withLock { $0.views[name]?.last }
    }

    /// The views whose latest version another writer's commit left behind: the file's writer
    /// token is no longer the one of their latest version.
    func namesBehind(fileWriterToken: UInt64) -> [String] {
        state.withLock { state in
            state.views.compactMap { name, versions in
                versions.last.map { $0.writerToken != fileWriterToken } == true ? name : nil
            }
        }
    }

    /// Publishes the version of `name` made by commit `commit`, and drops the versions that no
    /// pinned snapshot reads any more.
    func publish(_ pages: ViewMemoryState, of name: String, commit: UInt64, writerToken: UInt64) {
        state.withLock { state in
            var versions = state.views[name] ?? []
            let version = Version(commit: commit, writerToken: writerToken, state: pages)
            if let last = versions.last, last.commit >= commit {
                // A transaction that committed nothing new: the same number, the same snapshots.
                versions.removeAll { $0.commit >= commit }
            }
            versions.append(version)
            var kept: [Version] = []
            for (offset, candidate) in versions.enumerated() {
                let next = offset + 1 < versions.count ? versions[offset + 1].commit : UInt64.max
                // A pinned snapshot in [candidate.commit, next) reads this version.
                if next == .max || pins.isPinned(in: candidate.commit..<next) {
                    kept.append(candidate)
                }
            }
            state.views[name] = kept
        }
    }

    /// Forgets every version of `name` (the view was unregistered).
    func remove(_ name: String) {
        state.withLock { _ = $0.views.removeValue(forKey: name) }
    }

    /// The number of versions kept of `name` (for tests).
    func versionCount(of name: String) -> Int {
        state.withLock { $0.views[name]?.count ?? 0 }
    }
}

extension Database {
    /// The committed versions of this database's in-memory views (see
    /// ``View/Storage-swift.enum/inMemory``).
    var viewVersions: ViewMemoryVersions {
        locals.object { ViewMemoryVersions(pins: snapshotPins) }
    }
}
