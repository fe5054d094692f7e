import Foundation
import Trove

/// The edges to files of `trove-crash-writer files` and of the test that kills it between a
/// commit and the removal of the files that commit decided on.
public enum FileEdgeWorkload {
    /// Each item whose key starts with `f-` points at the file its payload names, in `blobs`
    /// beside the database; the file goes when no item points at it any more.
    public static let relationships = Relationships<CrashItem>(
        "crash_files",
        edges: [
            .toFile("blob", in: "blobs", rules: .deleteDestinationWhenAllSourcesDeleted) { item in
                item.id.hasPrefix("f-") ? String(decoding: item.payload, as: UTF8.self) : nil
            }
        ])

    /// The item `f-<name>`, pointing at the file `file`.
    public static func item(_ name: String, file: String) -> CrashItem {
        CrashItem(id: "f-\(name)", group: 0, payload: Data(file.utf8), metadata: nil)
    }

    /// The folder of the files of the database at `path`.
    public static func folder(ofDatabaseAt path: String) -> String {
        ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("blobs")
    }

    /// An extension named `aa_pause`, which sorts before ``relationships``: in a transaction that
    /// removes items of ``CrashItem``, its did-commit step (which runs before theirs) calls
    /// `afterCommit`.
    public static func pause(afterCommit: @escaping @Sendable () -> Void) -> DatabaseExtension {
        CommitSteps.databaseExtension(name: "aa_pause", collection: CrashItem.collection, didCommit: afterCommit)
    }
}

/// An extension that runs steps at the commit of each transaction that removes an item of its
/// collection: tests use it to fail a commit after the other extensions' will-commit steps, or to
/// stop a process between a commit and the other extensions' did-commit steps (extensions' steps
/// run in the order of their names).
public struct CommitSteps: ExtensionImplementation {
    /// The collection whose removals make it run its steps.
    public let collection: String
    let willCommit: (@Sendable () throws -> Void)?
    let didCommit: (@Sendable () -> Void)?

    /// The extension `name`, following `collection`, with its steps.
    ///
    /// - Parameters:
    ///   - name: The extension's name: its place among the other extensions' steps.
    ///   - collection: The collection whose removals make it run its steps.
    ///   - willCommit: Runs before the commit; what it throws fails the commit.
    ///   - didCommit: Runs after the commit.
    public static func databaseExtension(
        name: String, collection: String, willCommit: (@Sendable () throws -> Void)? = nil,
        didCommit: (@Sendable () -> Void)? = nil
    ) -> DatabaseExtension {
        DatabaseExtension(
            name: name, version: 1,
            implementation: CommitSteps(collection: collection, willCommit: willCommit, didCommit: didCommit))
    }

    /// The kind of the extension.
    public var kind: String { "commitSteps" }
    /// What the definition is.
    public var fingerprint: String { "commit steps v1" }

    /// Its one table, which it never uses.
    public func tableNames(name: String) -> [String] { ["trove_ext_\(name)"] }

    /// Creates its table.
    public func create(name: String, in context: ExtensionContext) throws {
        try context.execute("CREATE TABLE trove_ext_\(name) (unused INTEGER)")
    }

    /// Nothing to fill.
    public func populate(name: String, in context: ExtensionContext, progress: (Int) -> Void) throws {}

    /// Makes its transaction state at a removal.
    public func apply(_ event: WriteEvent, name: String, in context: ExtensionContext) throws {
        guard event.kind == .removed else { return }
        _ = context.transactionState { State(willCommit: willCommit, didCommit: didCommit) }
    }

    final class State: ExtensionTransactionState {
        let willCommit: (@Sendable () throws -> Void)?
        let didCommit: (@Sendable () -> Void)?

        init(willCommit: (@Sendable () throws -> Void)?, didCommit: (@Sendable () -> Void)?) {
            self.willCommit = willCommit
            self.didCommit = didCommit
        }

        func willCommit(name: String, in context: ExtensionContext) throws { try willCommit?() }
        func didCommit(name: String, commit: ExtensionCommit) { didCommit?() }
    }
}
