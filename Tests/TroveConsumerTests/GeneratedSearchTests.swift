import Foundation
import Testing
import Trove

/// Searches with the full-text search that trove-gen generated from the `@searchable` fields of
/// the showcase `Note` (weights, a `[String]`, an optional, metadata fields, the `porter`
/// tokenizer named on `@persistable`) and of `User` (beside its index).
struct GeneratedSearchTests {
    static func note(
        _ id: String, title: String = "", body: String = "", tags: [String] = [], summary: String? = nil,
        isArchived: Bool = false, review: NoteReview? = nil
    ) -> Note {
        Note(id: id, title: title, body: body, tags: tags, summary: summary, isArchived: isArchived, review: review)
    }

    static func keys(_ database: Database, _ query: SearchQuery) throws -> [String] {
        try database.newConnection().read { tx in try Note.search(for: query).keys(tx) }
    }

    @Test func registeringTheModelRegistersItsIndexAndItsSearch() throws {
        #expect(Note.databaseExtensions.map(\.name) == [Note.index.name, Note.fullTextSearch.name])
        #expect(User.databaseExtensions.map(\.name) == [User.index.name, User.fullTextSearch.name])
        #expect(Note.fullTextSearch.tokenizer == .porter)
        #expect(User.fullTextSearch.tokenizer == .unicode61())
        #expect(Note.fullTextSearch.columns.map(\.name) == ["title", "body", "tags", "summary", "comment", "labels"])
        #expect(Note.fullTextSearch.columns.map(\.weight) == [10, 1, 2.5, 1, 1, 1])
    }

    /// Every searchable field, of the item and of its metadata, reaches its own column: a word
    /// written in one field only is found there, by a column filter of the raw syntax.
    @Test func everySearchableFieldIsItsOwnColumn() throws {
        let database = try Database.temporary(models: [Note.self])
        try database.newConnection().write { tx in
            try tx.write(Self.note("a", title: "alpha", body: "bravo", tags: ["charlie delta", "echo"],
                summary: "foxtrot", review: NoteReview(comment: "golf", labels: ["hotel"])))
            try tx.write(Self.note("b", title: "india"))
        }
        let placements = [
            ("title", "alpha"), ("body", "bravo"), ("tags", "charlie"), ("tags", "echo"), ("summary", "foxtrot"),
            ("comment", "golf"), ("labels", "hotel"),
        ]
        for (column, word) in placements {
            #expect(try Self.keys(database, .raw("\(column) : \(word)")) == ["a"], "\(word) in \(column)")
            for other in Note.fullTextSearch.columns.map(\.name) where other != column {
                #expect(try Self.keys(database, .raw("\(other) : \(word)")).isEmpty, "\(word) not in \(other)")
            }
        }
        // The elements of a [String] are joined with line breaks: a word never spans two tags.
        #expect(try Self.keys(database, .phrase("charlie delta")) == ["a"])
        #expect(try Self.keys(database, .allWords(of: "deltaecho")).isEmpty)
    }

    /// The weights of the annotations order the hits: the same word in the title (10) beats the
    /// tags (2.5), which beat the body (1).
    @Test func weightsOrderTheHits() throws {
        let database = try Database.temporary(models: [Note.self])
        try database.newConnection().write { tx in
            try tx.write(Self.note("in-body", title: "one", body: "kestrel two three four"))
            try tx.write(Self.note("in-title", title: "kestrel", body: "one two three four"))
            try tx.write(Self.note("in-tags", title: "one", body: "two three four", tags: ["kestrel"]))
        }
        #expect(try Self.keys(database, .allWords(of: "kestrel")) == ["in-title", "in-tags", "in-body"])
    }

    /// `@persistable(searchTokenizer: "porter")` stems: `running` finds `runs`; the default
    /// tokenizer of `User` does not, and folds accents.
    @Test func theTokenizerOfTheAnnotationApplies() throws {
        let database = try Database.temporary(models: [Note.self, User.self])
        try database.newConnection().write { tx in
            try tx.write(Self.note("n", body: "she runs every morning"))
            var user = User(userID: UUID(), name: "Zoë", email: "zoe@example.com")
            user.bio = "runs a café"
            try tx.write(user)
        }
        #expect(try Self.keys(database, .allWords(of: "running")) == ["n"])
        let users = try database.newConnection().read { tx in
            (
                running: try User.search(for: .allWords(of: "running")).count(tx),
                cafe: try User.search(for: .allWords(of: "cafe")).count(tx)
            )
        }
        #expect(users.running == 0)
        #expect(users.cafe == 1)
    }

    /// A write of the metadata alone re-indexes the metadata's searchable fields; a removal
    /// removes the note from the search.
    @Test func metadataWritesAndRemovalsKeepTheSearchInStep() throws {
        let database = try Database.temporary(models: [Note.self])
        let connection = try database.newConnection()
        try connection.write { tx in
            try tx.write(Self.note("m", title: "plain", review: NoteReview(comment: "first")))
        }
        #expect(try Self.keys(database, .allWords(of: "first")) == ["m"])
        try connection.write { tx in
            _ = try tx.setMetadata(NoteReview(comment: "second"), for: Note.self, key: "m")
        }
        #expect(try Self.keys(database, .allWords(of: "first")).isEmpty)
        #expect(try Self.keys(database, .allWords(of: "second")) == ["m"])
        try connection.write { tx in _ = try tx.remove(Note.self, key: "m") }
        #expect(try Self.keys(database, .allWords(of: "plain")).isEmpty)
    }

    /// "Search my unarchived notes": the generated search narrowed by the generated index.
    @Test func searchFilteredByTheGeneratedIndex() throws {
        let database = try Database.temporary(models: [Note.self])
        try database.newConnection().write { tx in
            for number in 0..<20 {
                try tx.write(Self.note("\(number)", body: "quarterly report \(number)", isArchived: number % 3 == 0))
            }
        }
        let hits = try database.newConnection().read { tx in
            try Note.search(for: .prefixes(of: "quart"))
                .filter(Note.index, .isArchived(false))
                .snippets(of: "body", before: "[", after: "]")
                .hits(tx)
        }
        #expect(Set(hits.map(\.key)) == Set((0..<20).filter { $0 % 3 != 0 }.map(String.init)))
        #expect(hits.allSatisfy { $0.snippet?.hasPrefix("[quarterly] report") == true })
    }
}
