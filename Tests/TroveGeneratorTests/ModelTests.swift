import Testing
import TroveGenerator

struct ModelTests {
    @Test func readsEveryShapeOfAStruct() throws {
        let result = try generate(
            """
            import Foundation
            // @persistable(collection: "users")
            public struct User {
                // @key
                public var userID: UUID
                var name: String
                var age: Int = 0
                var nickname: String?
                var tags: [String]
                // @metadata
                var stats: Stats?
                // @transient
                var cache: Data? = nil
                var `default`: Bool = false
                var computed: Int { 1 }
                static var shared = 0
                let constant = 1
                // @renamed(from: "mail")
                var email: String
            }
            // @coded
            struct Stats { var count: Int }
            """)
        #expect(result.diagnostics.isEmpty)
        let types = try #require(result.model.files.first?.types)
        #expect(types.map(\.name) == ["Stats", "User"])
        let user = types[1]
        #expect(user.accessModifier == "public")
        #expect(user.persistable?.collection == "users")
        #expect(user.persistable?.key == KeyDescription(property: "userID", type: "UUID"))
        #expect(user.persistable?.metadata == MetadataDescription(property: "stats", type: "Stats", hasGeneratedCoder: true))
        guard case .message(let fields) = user.coding else {
            Issue.record("User is not a message")
            return
        }
        #expect(fields.map(\.name) == ["userID", "name", "age", "nickname", "tags", "default", "email"])
        #expect(fields[2].defaultValue == "0")
        #expect(fields[3].isOptional && fields[3].type == "String")
        #expect(fields[6].previousNames.map(\.name) == ["mail"])
        // A renamed field is stored under its first name.
        #expect(fields[6].number == FieldNumber.of("mail"))
        #expect(fields[1].number == FieldNumber.of("name"))
    }

    @Test func aFieldRenamedTwiceIsStoredUnderItsFirstNameAndReadUnderEveryName() throws {
        let result = try generate(
            """
            // @coded
            struct A {
                // @renamed(from: "a")
                // @renamed(from: "b")
                var c: Int
            }
            """)
        #expect(result.diagnostics.isEmpty)
        guard case .message(let fields) = try #require(result.model.files.first?.types.first).coding else {
            Issue.record("A is not a message")
            return
        }
        let field = try #require(fields.first)
        #expect(field.storedName == "a")
        #expect(field.number == FieldNumber.of("a"))
        #expect(field.readNumbers == ["a", "b", "c"].map(FieldNumber.of))

        let contents = try #require(result.files.first?.contents)
        let identity = FieldNumber.literal(FieldNumber.of("a"))
        #expect(contents.contains("try writer.encode(value.c, field: \(identity)) // c (stored as \"a\")"))
        #expect(
            contents.contains(
                "case \(["a", "b", "c"].map { FieldNumber.literal(FieldNumber.of($0)) }.joined(separator: ", ")): "
                    + "// c (stored as \"a\"; also read as \"b\", \"c\")"))
    }

    @Test func readsNestedTypesAndTypesOfOtherFiles() throws {
        let result = try generate(
            """
            enum Outer {
                // @persistable
                struct Item { var id: Int; var meta: Int?
                    // @metadata
                    var info: Info?
                }
            }
            """,
            """
            extension Outer {
                // @coded
                struct Info { var a: Int }
            }
            """)
        #expect(result.diagnostics.isEmpty)
        let item = try #require(result.model.files.first?.types.first)
        #expect(item.name == "Outer.Item")
        #expect(item.persistable?.collection == "Outer.Item")
        #expect(item.persistable?.metadata?.hasGeneratedCoder == true)
        #expect(result.model.files.last?.types.first?.name == "Outer.Info")
    }

    @Test func readsEnums() throws {
        let result = try generate(
            """
            // @coded
            enum Color: String { case red, green }
            // @coded
            enum Shape { case circle(radius: Double), pair(Int, label: String?), none }
            """)
        #expect(result.diagnostics.isEmpty)
        let types = try #require(result.model.files.first?.types)
        #expect(types[0].coding == .rawValue(type: "String"))
        guard case .cases(let cases) = types[1].coding else {
            Issue.record("Shape has no cases")
            return
        }
        #expect(cases.map(\.name) == ["circle", "pair", "none"])
        #expect(cases[1].parameters.map(\.name) == ["_0", "label"])
        #expect(cases[1].parameters.map(\.isLabeled) == [false, true])
        #expect(cases[1].parameters[1].isOptional)
    }

    @Test func indexedFieldsOfTheItemAndItsMetadataMakeOneIndex() throws {
        let result = try generate(
            """
            // @persistable
            struct A {
                var id: String
                // @indexed(unique: true)
                var email: String
                // @indexed
                var nickname: String?
                // @indexed
                var role: Role
                // @indexed
                var flag: Bool
                // @metadata
                var stats: Stats?
            }
            """,
            """
            // @coded
            struct Stats {
                // @indexed
                var visits: Int
                var notIndexed: Int
            }
            // @coded
            enum Role: String { case a, b }
            """)
        #expect(result.diagnostics.isEmpty)
        let index = try #require(result.model.files.first?.types.first?.persistable?.secondaryIndex)
        #expect(index.name == "A_index")
        #expect(index.columns.map(\.column) == ["email", "nickname", "role", "flag", "visits"])
        #expect(index.columns.map(\.isUnique) == [true, false, false, false, false])
        #expect(index.columns.map(\.isOptional) == [false, true, false, false, false])
        #expect(index.columns.map(\.isMetadata) == [false, false, false, false, true])
        #expect(index.columns.map(\.isComparable) == [true, true, false, false, true])
        let output = try #require(result.files.first?.contents)
        #expect(output.contains("nonisolated static func byEmail(_ email: String) -> IndexQuery<A>"))
        #expect(!output.contains("func byNickname"))
        #expect(output.contains(".column(\"visits\") { $0.metadata?.visits }"))
        #expect(!output.contains("notIndexed\")"))
        #expect(output.contains("static func nickname(isNil: Bool) -> Self"))
        #expect(!output.contains("static func role(_ range:"))
        let enumOutput = try #require(result.files.last?.contents)
        #expect(
            enumOutput.contains(
                "extension Role: nonisolated BinaryCodable, nonisolated IndexValueConvertible, nonisolated SchemaDescribing {}"))
    }

    @Test func theIndexVersionFollowsTheIndexedFields() throws {
        func version(_ fields: String) throws -> Int? {
            try generate("// @persistable\nstruct A {\n    var id: String\n\(fields)\n}")
                .model.files.first?.types.first?.persistable?.secondaryIndex?.version
        }
        let base = try version("    // @indexed\n    var age: Int")
        #expect(base != nil)
        #expect(try version("    // @indexed\n    var age: Int") == base)
        #expect(try version("    // @indexed\n    var age: Int\n    var other: String") == base)
        #expect(try version("    // @indexed\n    var age: Int64") != base)
        #expect(try version("    // @indexed\n    var age: Int?") != base)
        #expect(try version("    // @indexed(unique: true)\n    var age: Int") != base)
        #expect(try version("    // @indexed\n    var years: Int") != base)
        #expect(try version("    var age: Int") == nil)
    }

    /// Every shape of key property becomes an edge with its rules, names and inverse, across
    /// files; a destination's key may be written as `Dest.ID` or as the key type itself.
    @Test func relationshipFieldsBecomeEdges() throws {
        let result = try generate(
            """
            // @persistable
            struct Post {
                var id: String
                // @relationship(to: User.self, onDelete: .deleteSource)
                var authorID: User.ID
                // @relationship(to: User.self, inverse: "edited", onDelete: [.notifyDestination, .notifySource])
                var editorID: Int?
                // @relationship(to: Library.Shelf.self, name: "place", inverse: "contents")
                var shelfKeys: Set<Library.Shelf.ID>?
                // @relationship(to: Category.self, onDelete: [])
                var categoryIDs: [Category.ID]
            }
            // @persistable
            struct Category { var id: String }
            """,
            """
            // @persistable
            struct User {
                // @key
                var number: Int
            }
            enum Library {
                // @persistable
                struct Shelf { var id: UUID }
            }
            """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let post = try #require(result.model.files.first?.types.first { $0.name == "Post" })
        let relationships = try #require(post.persistable?.relationships)
        #expect(relationships.name == "Post_relationships")
        #expect(
            relationships.edges == [
                RelationshipEdgeDescription(
                    name: "author", property: "authorID", destination: "User", shape: .key,
                    rules: ["deleteSourceWhenDestinationDeleted"], inverse: "posts", inverseAccessModifier: ""),
                RelationshipEdgeDescription(
                    name: "editor", property: "editorID", destination: "User", shape: .optionalKey,
                    rules: ["notifySourceWhenDestinationDeleted", "notifyDestinationWhenSourceDeleted"],
                    inverse: "edited", inverseAccessModifier: ""),
                RelationshipEdgeDescription(
                    name: "place", property: "shelfKeys", destination: "Library.Shelf", shape: .optionalSet,
                    rules: [], inverse: "contents", inverseAccessModifier: ""),
                RelationshipEdgeDescription(
                    name: "categories", property: "categoryIDs", destination: "Category", shape: .array, rules: [],
                    inverse: "posts", inverseAccessModifier: ""),
            ])
        #expect(result.model.files.first?.types.first { $0.name == "Category" }?.persistable?.relationships == nil)
    }

    /// Every shape of path property becomes an edge to files in the folder of `toFiles:`, with its
    /// rules, named after the property or by `name:`; it generates no query, so it asks nothing of
    /// another type and claims no name anywhere.
    @Test func fileRelationshipFieldsBecomeEdgesToFiles() throws {
        let result = try generate(
            """
            // @persistable(collection: "notes")
            struct Note {
                var id: String
                // @relationship(toFiles: "attachments", onDelete: .deleteDestinationWithLastSource)
                var attachmentPaths: [String] = []
                // @relationship(toFiles: "avatars", onDelete: .deleteDestination)
                var avatarPath: String?
                // @relationship(toFiles: "/var/scans", name: "scan", onDelete: [.deleteDestination])
                var scanPath: Swift.String
                // @relationship(toFiles: "thumbnails")
                var thumbnails: Set<String>?
                // @relationship(toFiles: "drafts", onDelete: [])
                var drafts: Set<String>
                // @relationship(toFiles: "pages")
                var pages: [String]?
                // @relationship(to: Note.self)
                var parentID: Note.ID?
            }
            """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let note = try #require(result.model.files.first?.types.first { $0.name == "Note" })
        let relationships = try #require(note.persistable?.relationships)
        let lastSource = "deleteDestinationWhenAllSourcesDeleted"
        let source = "deleteDestinationWhenSourceDeleted"
        #expect(
            relationships.edges == [
                RelationshipEdgeDescription(
                    name: "attachmentPaths", property: "attachmentPaths", folder: "attachments", shape: .array,
                    rules: [lastSource]),
                RelationshipEdgeDescription(
                    name: "avatarPath", property: "avatarPath", folder: "avatars", shape: .optionalKey,
                    rules: [source]),
                RelationshipEdgeDescription(
                    name: "scan", property: "scanPath", folder: "/var/scans", shape: .key, rules: [source]),
                RelationshipEdgeDescription(
                    name: "thumbnails", property: "thumbnails", folder: "thumbnails", shape: .optionalSet, rules: []),
                RelationshipEdgeDescription(
                    name: "drafts", property: "drafts", folder: "drafts", shape: .set, rules: []),
                RelationshipEdgeDescription(
                    name: "pages", property: "pages", folder: "pages", shape: .optionalArray, rules: []),
                RelationshipEdgeDescription(
                    name: "parent", property: "parentID", destination: "Note", shape: .optionalKey, rules: [],
                    inverse: "notes", inverseAccessModifier: ""),
            ])
        #expect(relationships.edges.map(\.isFile) == [true, true, true, true, true, true, false])
        #expect(relationships.edges.first?.destination == "")
        #expect(relationships.edges.first?.inverse == "")
    }

    @Test func theRelationshipsVersionFollowsTheFolderOfAnEdgeToFiles() throws {
        func version(_ annotation: String, _ type: String = "String?") throws -> Int? {
            let result = try generate(
                "// @persistable\nstruct A {\n    var id: String\n    // \(annotation)\n    var path: \(type)\n}")
            #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
            return result.model.files.first?.types.first?.persistable?.relationships?.version
        }
        let base = try version("@relationship(toFiles: \"files\")")
        #expect(base != nil)
        #expect(try version("@relationship(toFiles: \"files\")") == base)
        #expect(try version("@relationship(toFiles: \"other\")") != base)
        #expect(try version("@relationship(toFiles: \"files\", onDelete: .deleteDestination)") != base)
        #expect(try version("@relationship(toFiles: \"files\", name: \"file\")") != base)
        #expect(try version("@relationship(toFiles: \"files\")", "[String]") != base)
    }

    @Test func theRelationshipsVersionFollowsTheEdges() throws {
        func version(_ annotation: String, _ type: String = "A.ID?") throws -> Int? {
            let result = try generate(
                "// @persistable\nstruct A {\n    var id: String\n    // \(annotation)\n    var parentID: \(type)\n}")
            #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
            return result.model.files.first?.types.first?.persistable?.relationships?.version
        }
        let base = try version("@relationship(to: A.self)")
        #expect(base != nil)
        #expect(try version("@relationship(to: A.self)") == base)
        #expect(try version("@relationship(to: A.self, inverse: \"children\")") == base)
        #expect(try version("@relationship(to: A.self, onDelete: .deleteSource)") != base)
        #expect(try version("@relationship(to: A.self, name: \"up\")") != base)
        #expect(try version("@relationship(to: A.self)", "[A.ID]") != base)
        #expect(try version("@indexed", "String?") == nil)
    }

    @Test func namesTheRuntimeRejectsAreSanitizedDeterministically() throws {
        #expect(IndexableTypes.sanitized("email") == "email")
        let unicode = IndexableTypes.sanitized("café")
        #expect(unicode.hasPrefix("caf__"))
        #expect(unicode == IndexableTypes.sanitized("café"))
        #expect(unicode != IndexableTypes.sanitized("cafè"))
        let long = IndexableTypes.sanitized(String(repeating: "a", count: 80))
        #expect(long.utf8.count == 64)
        #expect(long.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        let result = try generate(
            """
            // @persistable
            struct Café {
                var id: String
                // @indexed
                var prénom: String
            }
            """)
        #expect(result.diagnostics.isEmpty)
        let index = try #require(result.model.files.first?.types.first?.persistable?.secondaryIndex)
        #expect(index.name == IndexableTypes.sanitized("Café_index"))
        #expect(index.columns.first?.column == IndexableTypes.sanitized("prénom"))
        #expect(index.columns.first?.column != "prénom")
    }

    @Test func indexedFieldsOfANestedTypeGetAValidIndexName() throws {
        let result = try generate(
            """
            enum Library {
                // @persistable
                struct Book {
                    var id: String
                    // @indexed
                    var title: String
                }
            }
            """)
        #expect(result.diagnostics.isEmpty)
        #expect(result.model.files.first?.types.first?.persistable?.secondaryIndex?.name == "Library_Book_index")
    }

    @Test func indexedAndSearchablePropertiesAreRecordedWithTheirKinds() throws {
        let result = try generate(
            """
            // @persistable
            struct A {
                var id: String
                // @indexed(unique: true)
                var email: String
                // @indexed
                var age: Int
                // @searchable
                var bio: String
            }
            """)
        #expect(result.diagnostics.isEmpty)
        let indexes = result.model.files.first?.types.first?.persistable?.indexes
        #expect(indexes?.map(\.kind) == [.unique, .indexed, .searchable])
    }

    /// The generator's numbers are the table of `KnownFieldNumbers.swift`, which the runtime's
    /// tests hold `Trove.FieldNumber.of(_:)` to: generated literals and the runtime agree.
    @Test func fieldNumbersAreTheKnownNumbers() {
        for (name, number) in knownFieldNumbers {
            #expect(FieldNumber.literal(FieldNumber.of(name)) == FieldNumber.literal(number), "field \"\(name)\"")
        }
        #expect(FieldNumber.literal(0x11A7_37BC) == "0x11A7_37BC")
        #expect(FieldNumber.literal(0x5) == "0x0000_0005")
    }

    /// The literals in generated code are the known numbers, as the generator renders them.
    @Test func generatedCodeCarriesTheKnownNumbers() throws {
        let names = knownFieldNumbers.map(\.name).filter { $0.first?.isLetter == true && $0 != "default" }
        let properties = names.map { "    var \($0): Int" }.joined(separator: "\n")
        let result = try generate(
            """
            // @persistable(collection: "known")
            struct Known {
            \(properties)
            }
            """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let code = try #require(result.files.first?.contents)
        for (name, number) in knownFieldNumbers where names.contains(name) {
            #expect(code.contains("field: \(FieldNumber.literal(number))) // \(name)\n"), "field \"\(name)\"")
        }
    }
}
