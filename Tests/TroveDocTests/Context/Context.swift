// What the documentation's blocks use without declaring it: the values and functions a reader
// has in their own code. The test compiles this file with every document's blocks; nothing of it
// runs. A block that declares one of these names (`let database = …`) uses its own.
//
// Everything is `nonisolated`: in the compilation whose default isolation is the main actor, the
// reader's values are values, which any closure may use, not state of the main actor.

import Foundation
import Trove

/// Stands for a value of the reader's program.
private nonisolated func given<T>() -> T { fatalError("The documentation's blocks are compiled, never run.") }

// MARK: The database

nonisolated var path: String { given() }
nonisolated var backupPath: String { given() }
nonisolated var database: Database { given() }
nonisolated var connection: Connection { given() }

// MARK: Items and keys

nonisolated var user: User { given() }
nonisolated var users: [User] { given() }
nonisolated var ada: User { given() }
nonisolated var grace: User { given() }
nonisolated var id: User.ID { given() }
nonisolated var ids: [User.ID] { given() }
nonisolated var staleIDs: [User.ID] { given() }
nonisolated var stats: UserStats { given() }
nonisolated var post: Post { given() }
nonisolated var invited: [String] { given() }
nonisolated var conversationID: String { given() }
nonisolated var someID: Message.ID { given() }
nonisolated var anotherID: Message.ID { given() }
nonisolated var tuesday: Date { given() }
nonisolated var wednesday: Date { given() }

// MARK: Search

nonisolated var userInput: String { given() }
nonisolated var input: String { given() }
nonisolated var text: String { given() }
nonisolated var query: SearchQuery { given() }

// MARK: Extensions defined elsewhere in the reader's code

nonisolated var anotherIndex: SecondaryIndex<User> { given() }
nonisolated var messagesByState: SecondaryIndex<Message> { given() }
nonisolated var messageSearch: FullTextSearch<Message> { given() }
nonisolated var inbox: View<Message> { given() }
nonisolated var foundMessages: SearchResultsView<Message> { given() }

// MARK: The reader's functions

nonisolated func reloadUsers() async {}
nonisolated func reloadUser() {}
nonisolated func reloadOrders() {}
nonisolated func reloadEverything() {}
nonisolated func show(_ user: User?) {}
nonisolated func export(_ user: User) {}
nonisolated func runMigrationScript(on path: String) throws {}
nonisolated func date(of row: ViewRow) throws -> Date { given() }

/// A log of the reader's program that keeps what each commit changed.
nonisolated final class Journal: Sendable {
    func append(_ snapshot: UInt64, _ keys: [String: Set<String>]) {}
}

/// A metric of the reader's monitoring.
nonisolated struct Gauge: Sendable {
    func record(_ value: Int) {}
}
nonisolated var gauge: Gauge { given() }

/// A list on screen, as the reader's interface code shows one.
nonisolated final class Table {
    func apply(_ changes: [ViewRowChange]) {}
    func apply(_ changes: ViewSectionChanges) {}
    func show(_ sections: ViewSections) {}
}
nonisolated var table: Table { given() }

/// UIKit's `UITableView`, as far as the blocks use it.
nonisolated final class TableView {
    func performBatchUpdates(_ updates: () -> Void) {}
    func reloadData() {}
    func deleteSections(_ sections: IndexSet, with animation: RowAnimation) {}
    enum RowAnimation { case automatic, fade }
}
nonisolated var tableView: TableView { given() }

// MARK: Sync

/// The app's current access token for the sync server.
nonisolated func currentAccessToken() async throws -> String { given() }
/// The user a sync server's token belongs to, if any.
nonisolated func lookUpUser(token: String) async throws -> String? { given() }
