import Foundation
import Trove

/// A database opened by a verb, with the decoder of its recorded schemas.
struct Inspection {
    let database: Database
    let decoder: GenericDecoder
    let schemas: [ModelSchema]

    /// Opens `path` read-only (the default) or read-write, refusing a file that does not exist.
    init(path: String, writable: Bool = false) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("No database file at \(path).")
        }
        var configuration = Configuration()
        configuration.isReadOnly = !writable
        configuration.externalChangePollingInterval = nil
        database = try Database(path: path, configuration: configuration)
        schemas = try database.recordedSchemas()
        decoder = GenericDecoder(schemas: schemas)
    }

    /// Reads in one read transaction.
    func read<T>(_ body: (ReadTransaction) throws -> T) throws -> T {
        try database.newConnection().read(body)
    }

    /// The JSON of one row: collection, key, item and metadata decoded with the schemas.
    func rowJSON(collection: String, key: String, data: Data, metadata: Data?, raw: Bool) -> (JSONValue, [DecodingProblem]) {
        var problems: [DecodingProblem] = []
        var members: [(String, JSONValue)] = [("collection", .string(collection)), ("key", .string(key))]
        if raw {
            members.append(("data", .string(Self.hex(data))))
            members.append(("metadata", metadata.map { .string(Self.hex($0)) } ?? .null))
            return (.object(members), [])
        }
        do {
            members.append(("item", try decoder.decodeItem(data, collection: collection)))
        } catch {
            problems.append(error)
            members.append(("item", .object([("error", .string("\(error.field): \(error.reason)")), ("hex", .string(Self.hex(data)))])))
        }
        if let metadata {
            do {
                members.append(("metadata", try decoder.decodeMetadata(metadata, collection: collection)))
            } catch {
                problems.append(error)
                members.append(("metadata", .object([("error", .string("\(error.field): \(error.reason)")), ("hex", .string(Self.hex(metadata)))])))
            }
        } else {
            members.append(("metadata", .null))
        }
        return (.object(members), problems)
    }

    static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }
}

/// A failure of a verb, printed as `error: message` with exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Text output: tables for people, and a progress bar on a terminal only.
enum Output {
    /// Prints `rows` under `header` in aligned columns; numeric columns are right-aligned.
    static func table(_ header: [String], _ rows: [[String]]) {
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                let isNumber = !cell.isEmpty && cell.allSatisfy { $0.isNumber || $0 == "," }
                return isNumber ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        print(line(header))
        for row in rows { print(line(row)) }
    }

    /// `1234567` as `1,234,567`.
    static func count<T: BinaryInteger>(_ value: T) -> String {
        let digits = Array(String(value))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 && digit != "-" && result != "-" { result += "," }
            result.append(digit)
        }
        return result
    }
}

/// A progress bar on the standard error, drawn only when it is a terminal.
final class ProgressBar {
    private let label: String
    private let isEnabled = isatty(STDERR_FILENO) == 1
    private var lastPercent = -1

    init(_ label: String) {
        self.label = label
    }

    func update(_ done: Int, of total: Int) {
        guard isEnabled, total > 0 else { return }
        let percent = min(100, done * 100 / total)
        guard percent != lastPercent else { return }
        lastPercent = percent
        let filled = percent * 30 / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(percent)%".utf8))
    }

    func finish() {
        guard isEnabled, lastPercent >= 0 else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
