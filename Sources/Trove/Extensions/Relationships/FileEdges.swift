import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Edges to files (``RelationshipEdge/toFile(_:in:rules:path:)``): their destinations are paths
// in a folder, kept in the edge table as the destination keys of items are. The rules decide
// removals inside the transaction, as they do for items; the files go after the commit.
//
// A file cannot be removed inside the transaction (a rollback could not bring it back), and a
// removal after the commit can be lost to a kill. So the transaction that decides a removal
// writes it to `trove_ext_<name>_files` (the edge, the path, and the file's identity: device,
// inode and modification time) in the same commit, and the file goes after the commit. The rows
// stay until the next transaction that removes files, or the next registration, settles them:
// each file is removed then if nothing names it and it is still the file that was decided on
// (a file made again at the same path since is another file), and the row goes. Settling twice
// is harmless, so a kill anywhere loses no removal and removes nothing twice.

/// The identity of a file: it changes when the file is replaced or written.
struct FileIdentity: Hashable, Sendable {
    var device: Int64
    var inode: Int64
    /// The modification time, in nanoseconds since 1970.
    var modified: Int64

    /// The identity of the file at `path`, or `nil` when there is none (or it cannot be read).
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = Int64(truncatingIfNeeded: status.st_dev)
        inode = Int64(truncatingIfNeeded: status.st_ino)
        #if canImport(Darwin)
            let time = status.st_mtimespec
        #else
            let time = status.st_mtim
        #endif
        modified = Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    init(device: Int64, inode: Int64, modified: Int64) {
        self.device = device
        self.inode = inode
        self.modified = modified
    }
}

/// A file that the rules decided to remove, with its identity at the time.
struct FileRemoval: Sendable {
    /// The full path.
    var path: String
    var identity: FileIdentity

    /// Whether the file decided on is still there.
    var isPending: Bool { FileIdentity(path: path) == identity }

    /// Removes the file if it is still the one decided on. Returns `false` when it is, and the
    /// file system refused to remove it (the decision then stays recorded, to try again).
    func perform() -> Bool {
        guard FileIdentity(path: path) == identity else { return true }
        return unlink(path) == 0 || errno == ENOENT
    }
}

/// A file a transaction's rules named for removal: a path of an edge to files.
struct FileEdgeTarget: Hashable, Sendable {
    var edge: String
    var path: String
}

/// The removals of files that one write transaction's rules decided: queued as the sources go,
/// recorded in the file before the commit (once the transaction's last write has run, so that a
/// path named again in the same transaction stays), performed after it; a rollback drops them.
final class FileEdgeRemovals: ExtensionTransactionState {
    private var queued: [FileEdgeTarget] = []
    private var seen: Set<FileEdgeTarget> = []
    private var decided: [FileRemoval] = []
    /// Records the removals of the queued targets that hold at the commit, and returns them.
    private let decide: (ExtensionContext, [FileEdgeTarget]) throws -> [FileRemoval]

    init(decide: @escaping (ExtensionContext, [FileEdgeTarget]) throws -> [FileRemoval]) {
        self.decide = decide
    }

    func queue(_ target: FileEdgeTarget) {
        if seen.insert(target).inserted { queued.append(target) }
    }

    func willCommit(name: String, in context: ExtensionContext) throws {
        decided = try decide(context, queued)
    }

    func didCommit(name: String, commit: ExtensionCommit) {
        // What fails stays recorded, for the next settling.
        for removal in decided { _ = removal.perform() }
    }
}

extension RelationshipsImplementation {
    /// The folders of the edges' files, by the edges' offsets (`nil` for an edge to items), as
    /// full paths: each definition's folder, under the folder of the database file when it is
    /// relative. Made once for each settling or decision, not per file: Foundation's path
    /// functions cost some 100,000 instructions a call.
    func fileFolders(in context: ExtensionContext) -> [String?] {
        let databasePath = context.core.database.path
        return edges.map { $0.isFile ? Self.folder(of: $0, databasePath: databasePath) : nil }
    }

    /// The full path of the file `path` (checked by ``checkFilePath(_:edge:key:)``: relative,
    /// with no empty component) in `folder`.
    static func fullPath(_ path: String, inFolder folder: String) -> String {
        folder.hasSuffix("/") ? folder + path : folder + "/" + path
    }

    /// The folder of `edge`'s files for the database file at `databasePath`.
    static func folder(of edge: RelationshipEdge<Source>, databasePath: String) -> String {
        let folder = edge.fileFolder ?? ""
        if folder.hasPrefix("/") { return folder }
        let base = (databasePath as NSString).deletingLastPathComponent
        return ((base.isEmpty ? "." : base) as NSString).appendingPathComponent(folder)
    }

    /// Throws when `path`, a destination of the edge to files `edge` of the source at `key`,
    /// leaves the edge's folder or cannot name a file.
    func checkFilePath(_ path: String, edge: RelationshipEdge<Source>, key: String) throws {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        let problem: String? =
            if path.isEmpty {
                "an empty path"
            } else if path.hasPrefix("/") {
                "an absolute path ('\(path)')"
            } else if path.utf8.contains(0) {
                "a path with a NUL character"
            } else if components.contains("..") {
                "a path that leaves its folder ('\(path)')"
            } else if components.contains("") || components.last == "." {
                "a path that names no file ('\(path)')"
            } else {
                nil
            }
        guard let problem else { return }
        throw TroveError(
            code: .extensionFailed,
            message:
                "The edge to files '\(edge.name)' of the relationship '\(name)' was given \(problem): a file's path is relative to the edge's folder and stays inside it.",
            collection: Source.collection, key: key, extensionName: name)
    }

    /// Queues the removal of the file `path` of `edge`, decided at the commit.
    func queueFileRemoval(_ edge: RelationshipEdge<Source>, path: String, in context: ExtensionContext) {
        context.transactionState {
            FileEdgeRemovals { context, queued in try decideFileRemovals(queued, in: context) }
        }.queue(FileEdgeTarget(edge: edge.name, path: path))
    }

    /// Before the commit: settles what earlier commits recorded, then records the removals of
    /// `queued` that hold (nothing names the file any more, and there is a file), and returns them.
    private func decideFileRemovals(_ queued: [FileEdgeTarget], in context: ExtensionContext) throws
        -> [FileRemoval]
    {
        let folders = fileFolders(in: context)
        try settleRecordedFileRemovals(folders: folders, in: context)
        var decided: [FileRemoval] = []
        for target in queued {
            guard let offset = edgesByName[target.edge], let folder = folders[offset] else { continue }
            guard try !isNamed(target.path, inFolder: folder, folders: folders, in: context) else { continue }
            let path = Self.fullPath(target.path, inFolder: folder)
            guard let identity = FileIdentity(path: path) else { continue }
            let statement = try context.sqlite.cachedStatement(insertFileRemovalSQL)
            defer { statement.reset() }
            try statement.bind(target.edge, at: 1)
            try statement.bind(target.path, at: 2)
            try statement.bind(identity.device, at: 3)
            try statement.bind(identity.inode, at: 4)
            try statement.bind(identity.modified, at: 5)
            try statement.stepToEnd()
            decided.append(FileRemoval(path: path, identity: identity))
        }
        return decided
    }

    /// Performs the recorded removals of files (of this process's earlier commits, or of a
    /// process that stopped before performing them) and forgets them: a file that an edge names
    /// again, or that is another file than the one decided on, stays.
    func settleRecordedFileRemovals(in context: ExtensionContext) throws {
        guard hasFileEdges else { return }
        try settleRecordedFileRemovals(folders: fileFolders(in: context), in: context)
    }

    /// Settles the recorded removals (see ``settleRecordedFileRemovals(in:)``), with the edges'
    /// folders made by ``fileFolders(in:)``.
    private func settleRecordedFileRemovals(folders: [String?], in context: ExtensionContext) throws {
        var recorded: [(target: FileEdgeTarget, identity: FileIdentity)] = []
        do {
            let statement = try context.sqlite.cachedStatement(selectFileRemovalsSQL)
            defer { statement.reset() }
            while try statement.step() {
                recorded.append(
                    (
                        FileEdgeTarget(edge: statement.string(at: 0), path: statement.string(at: 1)),
                        FileIdentity(
                            device: statement.int64(at: 2), inode: statement.int64(at: 3),
                            modified: statement.int64(at: 4))
                    ))
            }
        }
        guard !recorded.isEmpty else { return }
        var settled: [FileEdgeTarget] = []
        for (target, identity) in recorded {
            // A removal of an edge that is no longer an edge to files has no folder: it is dropped.
            if let offset = edgesByName[target.edge], let folder = folders[offset] {
                let removal = FileRemoval(path: Self.fullPath(target.path, inFolder: folder), identity: identity)
                // Usually the commit's own did-commit step removed it: only a file still there
                // (and still the one decided on) is looked up among the edges.
                if removal.isPending, try !isNamed(target.path, inFolder: folder, folders: folders, in: context),
                    !removal.perform()
                {
                    continue
                }
            }
            settled.append(target)
        }
        if settled.count == recorded.count {
            // Every row settled (the usual case): all go at once.
            try context.sqlite.executeCached(deleteAllFileRemovalsSQL)
        } else {
            for target in settled { try forgetFileRemoval(target, in: context) }
        }
    }

    private func forgetFileRemoval(_ target: FileEdgeTarget, in context: ExtensionContext) throws {
        let statement = try context.sqlite.cachedStatement(deleteFileRemovalSQL)
        defer { statement.reset() }
        try statement.bind(target.edge, at: 1)
        try statement.bind(target.path, at: 2)
        try statement.stepToEnd()
    }

    /// Whether an edge to files in `folder` (of any name) names `path`; `folders` are the edges'
    /// folders (``fileFolders(in:)``).
    private func isNamed(_ path: String, inFolder folder: String, folders: [String?], in context: ExtensionContext)
        throws -> Bool
    {
        for offset in edges.indices where folders[offset] == folder {
            let edge = edges[offset]
            let statement = try context.sqlite.cachedStatement(selectAnySourceSQL)
            defer { statement.reset() }
            try statement.bind(edge.name, at: 1)
            try statement.bind(path, at: 2)
            if try statement.step() { return true }
        }
        return false
    }

    /// Every rule that removes files queues the files of every edge to files: everything went.
    func queueEveryFile(in context: ExtensionContext) throws {
        for edge in edges where edge.isFile && edge.rules.removesDestination(sourcesLeft: 0) {
            let statement = try context.sqlite.makeStatement(
                "SELECT DISTINCT dst_key FROM \"\(table)\" WHERE edge = ?1")
            try statement.bind(edge.name, at: 1)
            while try statement.step() {
                queueFileRemoval(edge, path: statement.string(at: 0), in: context)
            }
        }
    }
}

extension Relationships {
    /// The paths of the files that the edges named `edge` of `source` point at, relative to the
    /// edge's folder, in order.
    ///
    /// - Parameters:
    ///   - source: The key of the source.
    ///   - edge: The name of an edge to files.
    ///   - transaction: The transaction to read in.
    /// - Returns: The paths.
    /// - Throws: ``TroveError`` when `edge` is not an edge to files of these relationships, the
    ///   extension is not registered or SQLite fails.
    public func filePaths(of source: Source.ID, edge: String, in transaction: ReadTransaction) throws -> [String] {
        try checkFileEdge(edge)
        let query: RelationshipQuery<Source> = destinations(of: source, edge: edge)
        return try transaction.traversalKeys(query.traversal, of: Source.self).sorted()
    }

    /// The full path of the file `path` of the edge to files `edge`, in `database`: the edge's
    /// folder (under the folder of the database file when it is relative) followed by `path`.
    /// Write a file there before the item that names it.
    ///
    /// - Parameters:
    ///   - path: A path relative to the edge's folder.
    ///   - edge: The name of an edge to files.
    ///   - database: The database the relationships are registered with.
    /// - Returns: The full path.
    /// - Throws: ``TroveError`` when `edge` is not an edge to files of these relationships, or
    ///   `path` leaves its folder.
    public func fullPath(ofFile path: String, edge: String, in database: Database) throws -> String {
        let offset = try checkFileEdge(edge)
        try implementation.checkFilePath(path, edge: edges[offset], key: "")
        let folder = RelationshipsImplementation.folder(of: edges[offset], databasePath: database.path)
        return RelationshipsImplementation<Source>.fullPath(path, inFolder: folder)
    }

    /// The offset of the edge to files `edge`, or the error that says it is not one.
    @discardableResult
    private func checkFileEdge(_ edge: String) throws -> Int {
        guard let offset = implementation.edgesByName[edge], edges[offset].isFile else {
            throw TroveError(
                code: .extensionFailed,
                message: "The relationship '\(name)' has no edge to files named '\(edge)'.",
                collection: Source.collection, extensionName: name)
        }
        return offset
    }
}
