// What the documentation's blocks use without declaring it: the values and functions a reader
// has in their own code. The test compiles this file with every document's blocks; nothing of it
// runs. A block that declares one of these names (`let database = …`) uses its own.

import Foundation
import Trove

/// Stands for a value of the reader's program.
private func given<T>() -> T { fatalError("The documentation's blocks are compiled, never run.") }

// MARK: The database

var path: String { given() }
var database: Database { given() }
var connection: Connection { given() }

// MARK: Items and keys

var user: User { given() }
var users: [User] { given() }
var ada: User { given() }
var grace: User { given() }
var id: User.ID { given() }
var ids: [User.ID] { given() }
var staleIDs: [User.ID] { given() }
var stats: UserStats { given() }
var post: Post { given() }
var invited: [String] { given() }
var conversationID: String { given() }
var someID: Message.ID { given() }

// MARK: Search

var userInput: String { given() }
var input: String { given() }
var text: String { given() }
var query: SearchQuery { given() }

// MARK: Extensions defined elsewhere in the reader's code

var anotherIndex: SecondaryIndex<User> { given() }
var messagesByState: SecondaryIndex<Message> { given() }
var messageSearch: FullTextSearch<Message> { given() }
var inbox: View<Message> { given() }

// MARK: The reader's functions

func reloadUsers() async {}
func reloadUser() {}
func reloadOrders() {}
func reloadEverything() {}
func show(_ user: User?) {}
func export(_ user: User) {}
func runMigrationScript(on path: String) throws {}
func date(of row: ViewRow) throws -> Date { given() }

/// A log of the reader's program that keeps what each commit changed.
final class Journal: Sendable {
    func append(_ snapshot: UInt64, _ keys: [String: Set<String>]) {}
}

/// A metric of the reader's monitoring.
struct Gauge: Sendable {
    func record(_ value: Int) {}
}
var gauge: Gauge { given() }

/// A list on screen, as the reader's interface code shows one.
final class Table {
    func apply(_ changes: [ViewRowChange]) {}
    func apply(_ changes: ViewSectionChanges) {}
    func show(_ sections: ViewSections) {}
}
var table: Table { given() }

/// UIKit's `UITableView`, as far as the blocks use it.
final class TableView {
    func performBatchUpdates(_ updates: () -> Void) {}
    func reloadData() {}
    func deleteSections(_ sections: IndexSet, with animation: RowAnimation) {}
    enum RowAnimation { case automatic, fade }
}
var tableView: TableView { given() }
