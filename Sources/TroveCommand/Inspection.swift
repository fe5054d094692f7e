import Foundation
import Trove

/// A database opened by a verb, with the decoder of its recorded schemas.
struct Inspection {
    let path: String
    let database: Database
    let decoder: GenericDecoder
    /// The recorded schemas, in the order recorded (oldest first).
    let schemas: [ModelSchema]

    /// Opens `path` read-only (the default) or read-write, refusing a path where there is no
    /// file, a folder, and a file that is not a Trove database, each with a message that names
    /// the path.
    init(path: String, writable: Bool = false) throws {
        self.path = path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
                throw CommandFailure("No database file at \(path): the folder \(folder) does not exist.")
            }
            throw CommandFailure("No database file at \(path): nothing is there.")
        }
        guard !isFolder.boolValue else {
            throw CommandFailure("\(path) is a folder, not a database file.")
        }
        var configuration = Configuration()
        configuration.isReadOnly = !writable
        configuration.externalChangePollingInterval = nil
        configuration.encryptionKey = try Self.encryptionKey.get()
        do {
            if writable {
                // Read-only first: opening read-write makes a Trove database of an empty file (or
                // of an SQLite file without tables), which a command that repairs must not do.
                var readOnly = configuration
                readOnly.isReadOnly = true
                _ = try Database(path: path, configuration: readOnly)
            }
            database = try Database(path: path, configuration: configuration)
            schemas = try database.recordedSchemas()
        } catch let error as TroveError {
            throw CommandFailure(Self.openingFailure(path: path, error))
        }
        decoder = GenericDecoder(schemas: schemas)
    }

    /// Why `path` could not be opened, in words: the runtime's message, which names the path and
    /// what is wrong with it, but for a file that is not a Trove database or is of a newer one.
    private static func openingFailure(path: String, _ error: TroveError) -> String {
        switch error.code {
        case .notADatabase:
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            return "\(path) is not a Trove database\(size == 0 ? " (the file is empty)" : "")."
        case .unsupportedSchemaVersion:
            return "Cannot open \(path) with this version of Trove: \(error.message)"
        case .encryptionKey:
            return "\(error.message) The trove command takes the key from the environment variable \(keyVariable) (the passphrase, or - to read it from standard input)."
        default:
            return error.message
        }
    }

    /// The environment variable that holds the passphrase of an encrypted file. Never an
    /// argument: the arguments of a process are visible to every user of the machine.
    static let keyVariable = "TROVE_ENCRYPTION_KEY"

    /// The key of the files a command opens: the passphrase in ``keyVariable``, or the first
    /// line of standard input when it is `-` (read once, for every file of the command); `nil`
    /// when the variable is not set.
    static let encryptionKey: Result<EncryptionKey?, CommandFailure> = {
        guard let value = ProcessInfo.processInfo.environment[keyVariable] else { return .success(nil) }
        guard value == "-" else { return .success(value.isEmpty ? nil : .passphrase(value)) }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            return .failure(CommandFailure("\(keyVariable) is -, but standard input holds no passphrase."))
        }
        return .success(.passphrase(line))
    }()

    /// Reads in one read transaction.
    func read<T>(_ body: (ReadTransaction) throws -> T) throws -> T {
        try database.newConnection().read(body)
    }

    /// Throws unless the file knows `collection`: it holds items of it, or a recorded schema or a
    /// registered extension names it (a known collection may be empty). The message names the
    /// collection and lists those the file has.
    func requireCollection(_ collection: String, in tx: ReadTransaction) throws {
        var hasItems = false
        try tx.enumerateKeys(in: collection) { _, stop in
            hasItems = true
            stop = true
        }
        guard !hasItems else { return }
        let named = Set(schemas.compactMap(\.collection)).union(try database.extensionRecords().map(\.collection))
        guard !named.contains(collection) else { return }
        let known = named.union(try tx.collections()).sorted()
        let list =
            known.isEmpty
            ? "it has no collections"
            : "its collection\(known.count == 1 ? " is" : "s are") " + known.map { "\"\($0)\"" }.joined(separator: ", ")
        throw CommandFailure("\(path) has no collection \"\(collection)\"; \(list).")
    }

    /// The JSON of one row: collection, key, item and metadata decoded with the schemas.
    ///
    /// A value that does not decode is shown as an object with the problem in words (naming the
    /// collection, the key and the field), the field, and the stored bytes in hexadecimal; the
    /// problem is also returned.
    func rowJSON(collection: String, key: String, data: Data, metadata: Data?, raw: Bool) -> (JSONValue, [DecodingProblem]) {
        var problems: [DecodingProblem] = []
        var members: [(String, JSONValue)] = [("collection", .string(collection)), ("key", .string(key))]
        if raw {
            members.append(("data", .string(Self.hex(data))))
            members.append(("metadata", metadata.map { .string(Self.hex($0)) } ?? .null))
            return (.object(members), [])
        }
        func failed(_ problem: DecodingProblem, _ bytes: Data, _ what: String) -> JSONValue {
            problems.append(problem)
            return .object([
                ("error", .string(Self.sentence(problem, what: what, collection: collection, key: key))),
                ("field", .string(problem.field)), ("hex", .string(Self.hex(bytes))),
            ])
        }
        do {
            members.append(("item", try decoder.decodeItem(data, collection: collection)))
        } catch {
            members.append(("item", failed(error, data, "item")))
        }
        if let metadata {
            do {
                members.append(("metadata", try decoder.decodeMetadata(metadata, collection: collection)))
            } catch {
                members.append(("metadata", failed(error, metadata, "metadata")))
            }
        } else {
            members.append(("metadata", .null))
        }
        return (.object(members), problems)
    }

    /// A problem in words: `The item at key "k" in collection "c" does not decode: field name: …`.
    static func sentence(_ problem: DecodingProblem, what: String, collection: String, key: String) -> String {
        "The \(what) at key \"\(key)\" in collection \"\(collection)\" does not decode: field \(problem.field): "
            + "\(problem.reason)."
    }

    static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }
}

/// A failure of a verb, printed as `Error: message` with exit status 1.
struct CommandFailure: Error, Sendable, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }

    /// The message of `error` and the parts of its location that it knows, in words.
    init(troveError error: TroveError) {
        var location: [String] = []
        if let collection = error.collection { location.append("collection \"\(collection)\"") }
        if let key = error.key { location.append("key \"\(key)\"") }
        if let field = error.field { location.append("field \(field)") }
        if let name = error.extensionName { location.append("extension \(name)") }
        if let path = error.path { location.append("file \(path)") }
        let place = location.isEmpty ? "" : " (" + location.joined(separator: ", ") + ")"
        description = error.message + place
    }
}

/// Text output: tables for people, and a progress bar on a terminal only.
enum Output {
    /// Writes `message` and a newline to the standard error.
    static func error(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

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
