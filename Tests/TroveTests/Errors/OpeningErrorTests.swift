import Foundation
import Testing
import Trove
import TroveTestSupport

struct OpeningErrorTests {
    @Test func aFileThatIsNotADatabaseIsRefusedAndLeftUntouched() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/notes.txt"
        let contents = Data(String(repeating: "These are my notes, not a database.\n", count: 200).utf8)
        try contents.write(to: URL(fileURLWithPath: path))

        #expect {
            try Database(path: path)
        } throws: { error in
            guard let error = error as? TroveError else { return false }
            return error.code == .notADatabase && error.path == path
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == contents)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["notes.txt"])
    }

    @Test func anotherApplicationsSQLiteDatabaseIsRefusedAndLeftUntouched() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/other.sqlite"
        try executeRawSQL(path: path, "CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES ('a');")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            try Database(path: path)
        } throws: { ($0 as? TroveError)?.code == .notADatabase }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aFileOfANewerSchemaVersionIsRefusedAndLeftUntouched() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/db.trove"
        do {
            let connection = try Database(path: path).newConnection()
            try connection.write(Note(id: "kept", text: "safe"))
        }
        try executeRawSQL(path: path, "PRAGMA user_version = 99; PRAGMA wal_checkpoint(TRUNCATE);")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            try Database(path: path)
        } throws: { error in
            guard let error = error as? TroveError else { return false }
            return error.code == .unsupportedSchemaVersion && error.message.contains("99")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aMissingFolderIsAnSQLiteErrorNamingThePath() throws {
        let path = "/nonexistent-\(UUID().uuidString)/db.trove"
        #expect {
            try Database(path: path)
        } throws: { error in
            guard let error = error as? TroveError else { return false }
            return error.code == .sqlite && error.path == path && error.sqliteResultCode != nil
        }
    }
}
