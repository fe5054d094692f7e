import Foundation

/// A fenced code block of a Markdown document, with the snippet marker that precedes it.
struct DocumentBlock: Sendable, Equatable {
    /// The line of the opening fence, counted from 1.
    var fenceLine: Int
    /// The fence's language, lowercased: `swift`, `sh`, `text`, or empty when the fence names none.
    var language: String
    /// The lines between the fences, without the fence's indentation.
    var lines: [String]
    /// What the marker before the fence says, or the defaults when there is none.
    var marker: SnippetMarker
    /// Whether a marker precedes the fence.
    var isMarked: Bool

    /// The line of the block's first line of code.
    var firstLine: Int { fenceLine + 1 }

    /// Whether the test compiles the block: a block of Swift (or of no named language) that is not
    /// marked `skip`. A block whose fence names another language (`sh`, `text`, `json`) is not Swift.
    var isCompiled: Bool {
        (language == "swift" || language.isEmpty) && marker.skipReason == nil
    }
}

/// How a block is compiled, from the HTML comment on the line before its fence, which neither
/// GitHub nor DocC renders:
///
/// ```text
/// <!-- snippet: async -->                   the block runs in an `async throws` function
/// <!-- snippet: tx: read -->                `tx` is a ReadTransaction (write: a ReadWriteTransaction)
/// <!-- snippet: continues -->               the block goes on in the function of the last block with statements
/// <!-- snippet: nonisolated -->             the function is `nonisolated`, also in a main-actor module
/// <!-- snippet: skip: needs SwiftUI -->     not compiled, for the reason given (the rest of the marker)
/// ```
///
/// Keys combine, separated by commas: `<!-- snippet: async, tx: read -->`. Without a marker a Swift
/// block runs in a synchronous throwing function with the context's values in scope (see
/// `Context/Context.swift`).
struct SnippetMarker: Sendable, Equatable {
    /// The transaction that is in scope as `tx`.
    enum Transaction: String, Sendable, Equatable, CaseIterable {
        case read
        case write
        case postgresRead
        case postgresWrite

        /// The Swift type of `tx`.
        var typeName: String {
            switch self {
            case .read: "ReadTransaction"
            case .write: "ReadWriteTransaction"
            case .postgresRead: "PostgresReadTransaction"
            case .postgresWrite: "PostgresReadWriteTransaction"
            }
        }
    }

    var isAsync = false
    var isNonisolated = false
    var transaction: Transaction?
    var continuesPrevious = false
    var skipReason: String?

    /// Parses the words after `snippet:`.
    ///
    /// - Throws: ``MarkerError`` naming the word it does not know.
    init(parsing text: String) throws(MarkerError) {
        // A reason may hold commas: `skip:` takes the rest of the marker.
        var keys = Substring(text)
        if let skip = text.range(of: "skip:") {
            let reason = text[skip.upperBound...].trimmingCharacters(in: .whitespaces)
            guard !reason.isEmpty else {
                throw MarkerError(description: "`skip` needs a reason: `skip: why this block is not compiled`")
            }
            skipReason = reason
            keys = text[..<skip.lowerBound]
        }
        for item in keys.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            let parts = item.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            switch (parts[0], parts.count > 1 ? parts[1] : nil) {
            case ("sync", nil): isAsync = false
            case ("async", nil): isAsync = true
            case ("continues", nil): continuesPrevious = true
            case ("nonisolated", nil): isNonisolated = true
            case ("skip", _):
                throw MarkerError(description: "`skip` needs a reason: `skip: why this block is not compiled`")
            case ("tx", let kind?):
                guard let transaction = Transaction(rawValue: kind) else {
                    let kinds = Transaction.allCases.map(\.rawValue).joined(separator: ", ")
                    throw MarkerError(description: "unknown transaction `\(kind)` (known: \(kinds))")
                }
                self.transaction = transaction
            default:
                throw MarkerError(
                    description:
                        "unknown snippet marker `\(item)` (known: sync, async, nonisolated, continues, tx: KIND, skip: REASON)"
                )
            }
        }
    }

    init() {}
}

/// A marker the test cannot read, or that precedes no code block.
struct MarkerError: Error, CustomStringConvertible, Sendable {
    var description: String
}

/// A problem in the layout of a document: a marker that is not understood or precedes no fence,
/// or a fence that never closes.
struct DocumentProblem: Error, CustomStringConvertible, Sendable {
    var line: Int
    var message: String

    var description: String { "line \(line): \(message)" }
}

/// Reads the fenced code blocks of a Markdown document and their snippet markers.
enum DocumentBlocks {
    static let markerPrefix = "<!-- snippet:"

    /// The fenced blocks of `text`, in order.
    ///
    /// - Throws: ``DocumentProblem`` for a marker that cannot be read or that is not on the line
    ///   right before a fence, and for a fence that is never closed.
    static func parse(_ text: String) throws(DocumentProblem) -> [DocumentBlock] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [DocumentBlock] = []
        var pendingMarker: (line: Int, marker: SnippetMarker)?
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(markerPrefix) {
                if let pending = pendingMarker {
                    throw DocumentProblem(line: pending.line, message: "a snippet marker that precedes no code block")
                }
                guard trimmed.hasSuffix("-->") else {
                    throw DocumentProblem(line: index + 1, message: "a snippet marker must end on its line with `-->`")
                }
                let words = String(trimmed.dropFirst(markerPrefix.count).dropLast(3))
                do {
                    pendingMarker = (index + 1, try SnippetMarker(parsing: words))
                } catch {
                    throw DocumentProblem(line: index + 1, message: error.description)
                }
                index += 1
                continue
            }
            guard let fence = Fence(line) else {
                if let pending = pendingMarker {
                    throw DocumentProblem(
                        line: pending.line, message: "a snippet marker must be on the line right before a code fence")
                }
                index += 1
                continue
            }
            var body: [String] = []
            var closed = false
            var next = index + 1
            while next < lines.count {
                if fence.isClosed(by: lines[next]) {
                    closed = true
                    break
                }
                body.append(fence.unindented(lines[next]))
                next += 1
            }
            guard closed else {
                throw DocumentProblem(line: index + 1, message: "a code fence that is never closed")
            }
            blocks.append(
                DocumentBlock(
                    fenceLine: index + 1, language: fence.language, lines: body,
                    marker: pendingMarker?.marker ?? SnippetMarker(), isMarked: pendingMarker != nil))
            pendingMarker = nil
            index = next + 1
        }
        if let pending = pendingMarker {
            throw DocumentProblem(line: pending.line, message: "a snippet marker that precedes no code block")
        }
        return blocks
    }

    /// An opening code fence: its indentation, its characters and its language.
    private struct Fence {
        var indentation: Int
        var marker: Character
        var length: Int
        var language: String

        init?(_ line: String) {
            let indentation = line.prefix { $0 == " " }.count
            let rest = line.dropFirst(indentation)
            guard indentation < 4, let first = rest.first, first == "`" || first == "~" else { return nil }
            let length = rest.prefix { $0 == first }.count
            guard length >= 3 else { return nil }
            let info = rest.dropFirst(length).trimmingCharacters(in: .whitespaces)
            if first == "`" && info.contains("`") { return nil }
            self.indentation = indentation
            self.marker = first
            self.length = length
            self.language = String(info.prefix { !$0.isWhitespace && $0 != "," }).lowercased()
        }

        func isClosed(by line: String) -> Bool {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.count >= length && trimmed.allSatisfy { $0 == marker }
        }

        /// `line` without up to the fence's indentation, as CommonMark reads a fenced block.
        func unindented(_ line: String) -> String {
            let spaces = min(indentation, line.prefix { $0 == " " }.count)
            return String(line.dropFirst(spaces))
        }
    }
}
