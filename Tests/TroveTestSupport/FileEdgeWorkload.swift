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
        DatabaseExtension(name: "aa_pause", version: 1, implementation: PauseAfterCommit(afterCommit: afterCommit))
    }
}

/// Calls a closure after the commit of each transaction that removes an item of its collection.
private struct PauseAfterCommit: ExtensionImplementation {
    let afterCommit: @Sendable () -> Void

    var kind: String { "pauseAfterCommit" }
    var collection: String { CrashItem.collection }
    var fingerprint: String { "pause v1" }

    func tableNames(name: String) -> [String] { ["trove_ext_\(name)"] }

    func create(name: String, in context: ExtensionContext) throws {
        try context.execute("CREATE TABLE trove_ext_\(name) (unused INTEGER)")
    }

    func populate(name: String, in context: ExtensionContext, progress: (Int) -> Void) throws {}

    func apply(_ event: WriteEvent, name: String, in context: ExtensionContext) throws {
        guard event.kind == .removed else { return }
        _ = context.transactionState { State(afterCommit: afterCommit) }
    }

    final class State: ExtensionTransactionState {
        let afterCommit: @Sendable () -> Void
        init(afterCommit: @escaping @Sendable () -> Void) { self.afterCommit = afterCommit }
        func didCommit(name: String, commit: ExtensionCommit) { afterCommit() }
    }
}
