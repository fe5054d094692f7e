import Foundation

/// A message of the views benchmark (issue 15): 100 conversations of 1,000 messages, a view groups
/// them by `conversation` and sorts each conversation by `timestamp` (then key). Its coder is in
/// `Generated/Model_Message+Trove.swift`; `Codable` is for the GRDB implementation only.
// @persistable(collection: "messages")
struct Message: Sendable, Equatable, Codable {
    var id: String
    var conversation: String
    var timestamp: Int
    var text: String
}
