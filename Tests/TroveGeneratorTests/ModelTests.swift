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

    @Test func indexedAndSearchableAreValidatedOnly() throws {
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
            #expect(FieldNumber.of(name) == number, "field \"\(name)\"")
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
