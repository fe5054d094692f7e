import Testing
import TroveGenerator

/// One bad input, and the diagnostic it must produce.
struct BadInput: CustomTestStringConvertible, Sendable {
    var name: String
    var source: String
    var line: Int
    var column: Int
    var message: String
    var testDescription: String { name }

    static let all: [BadInput] = [
        BadInput(
            name: "unknown annotation", source: """
                // @persistable
                struct A {
                    var id: String
                    // @indexd
                    var name: String
                }
                """, line: 4, column: 8, message: "unknown annotation '@indexd'; did you mean '@indexed'?"),
        BadInput(
            name: "misspelled type annotation", source: """
                // @persistible
                struct A { var id: String }
                """, line: 1, column: 4, message: "unknown annotation '@persistible'; did you mean '@persistable'?"),
        BadInput(
            name: "unknown argument", source: """
                // @persistable(table: "a")
                struct A { var id: String }
                """, line: 1, column: 17,
            message: "unknown argument 'table' of '@persistable'; expected 'collection' or 'searchTokenizer'"),
        BadInput(
            name: "argument of the wrong type", source: """
                // @persistable
                struct A {
                    var id: String
                    // @indexed(unique: "yes")
                    var name: String
                }
                """, line: 4, column: 17, message: "'unique' of '@indexed' must be true or false"),
        BadInput(
            name: "malformed arguments", source: """
                // @persistable(collection: users)
                struct A { var id: String }
                """, line: 1, column: 29,
            message: "the value of 'collection' must be a string literal, a number, true, false, a type "
                + "reference such as 'User.self', or rules such as '.deleteSource' or '[.deleteSource]'"),
        BadInput(
            name: "no key", source: """
                // @persistable
                struct A {
                    var name: String
                }
                """, line: 2, column: 8,
            message: "'A' has no key: annotate the property that identifies an item with '// @key', or name it 'id'"),
        BadInput(
            name: "two keys", source: """
                // @persistable
                struct A {
                    // @key
                    var a: String
                    // @key
                    var b: String
                }
                """, line: 5, column: 8, message: "'A' already has '@key' property 'a'; an item has one key"),
        BadInput(
            name: "private stored property", source: """
                // @persistable
                struct A {
                    var id: String
                    private var secret: String
                }
                """, line: 4, column: 17,
            message: "stored property 'secret' is private: the generated coder in another file cannot read it; "
                + "make it internal, or mark it '@transient'"),
        BadInput(
            name: "fileprivate stored property", source: """
                // @coded
                struct A {
                    fileprivate var secret: String
                }
                """, line: 3, column: 21,
            message: "stored property 'secret' is fileprivate: the generated coder in another file cannot read "
                + "it; make it internal, or mark it '@transient'"),
        BadInput(
            name: "function type", source: """
                // @coded
                struct A {
                    var callback: () -> Void
                }
                """, line: 3, column: 9,
            message: "property 'callback' of type '() -> Void' cannot be stored: function types cannot be stored"),
        BadInput(
            name: "tuple", source: """
                // @coded
                struct A {
                    var pair: (Int, Int)
                }
                """, line: 3, column: 9,
            message: "property 'pair' of type '(Int, Int)' cannot be stored: tuples cannot be stored; declare a "
                + "@coded struct instead"),
        BadInput(
            name: "Any", source: """
                // @coded
                struct A {
                    var values: [String: Any]
                }
                """, line: 3, column: 9,
            message: "property 'values' of type '[String: Any]' cannot be stored: 'Any' cannot be stored; use a "
                + "concrete type"),
        BadInput(
            name: "existential", source: """
                // @coded
                struct A {
                    var error: any Error
                }
                """, line: 3, column: 9,
            message: "property 'error' of type 'any Error' cannot be stored: 'any' types cannot be stored; use a "
                + "concrete type"),
        BadInput(
            name: "generic type", source: """
                // @coded
                struct Box<T> {
                    var value: T
                }
                """, line: 2, column: 8,
            message: "generic type 'Box' cannot be @coded: trove-gen generates one coder per concrete type"),
        BadInput(
            name: "non-final class", source: """
                // @persistable
                class A {
                    let id: String
                    init(id: String) { self.id = id }
                }
                """, line: 2, column: 7,
            message: "class 'A' must be 'final' to be @persistable: the generated decoder creates instances with "
                + "its initializer, which a subclass would not override"),
        BadInput(
            name: "final class without the initializer", source: """
                // @coded
                final class A {
                    let a: Int
                    let b: Int
                    init(b: Int, a: Int) { self.a = a; self.b = b }
                }
                """, line: 2, column: 13,
            message: "final class 'A' needs an initializer 'init(a:b:)' taking every stored property by name, in "
                + "declaration order: the generated decoder calls it"),
        BadInput(
            name: "struct without memberwise initializer", source: """
                // @coded
                struct A {
                    var a: Int
                    init() { a = 0 }
                }
                """, line: 2, column: 8,
            message: "struct 'A' declares an initializer in its body, so Swift does not synthesize the memberwise "
                + "initializer the generated decoder calls; move the initializer into an extension, or declare "
                + "'init(a:)'"),
        BadInput(
            name: "transient without default", source: """
                // @coded
                struct A {
                    // @transient
                    var cache: [Int]
                }
                """, line: 4, column: 9,
            message: "'@transient' property 'cache' needs a default value: decoding restores it to its default"),
        BadInput(
            name: "two metadata", source: """
                // @persistable
                struct A {
                    var id: String
                    // @metadata
                    var first: String?
                    // @metadata
                    var second: String?
                }
                """, line: 6, column: 8, message: "'A' already has '@metadata' property 'first'"),
        BadInput(
            name: "non-optional metadata", source: """
                // @persistable
                struct A {
                    var id: String
                    // @metadata
                    var info: String
                }
                """, line: 5, column: 9,
            message: "'@metadata' property 'info' must be optional: an item may have no metadata"),
        BadInput(
            name: "field-number collision with a renamed field", source: """
                // @coded
                struct A {
                    var a: Int
                    // @renamed(from: "a")
                    var b: Int
                }
                """, line: 4, column: 17,
            message: "the field number 0x1C81_8525 of 'a' (the stored name of 'b') is used twice in 'A'; the names "
                + "a field had must differ from every other name of the type, past or present"),
        BadInput(
            name: "two fields stored under one identity", source: """
                // @coded
                struct A {
                    // @renamed(from: "old")
                    var b: Int
                    var c: Int
                    // @renamed(from: "old")
                    var d: Int
                }
                """, line: 6, column: 17,
            message: "the field number 0x17A5_737A of 'old' (the stored name of 'd') is used twice in 'A'; the names "
                + "a field had must differ from every other name of the type, past or present"),
        BadInput(
            name: "a name in between that another field stores under", source: """
                // @coded
                struct A {
                    var b: Int
                    // @renamed(from: "a")
                    // @renamed(from: "b")
                    var c: Int
                }
                """, line: 5, column: 17,
            message: "the field number 0x1CE1_85BC of 'b' (an earlier name of 'c') is used twice in 'A'; the names "
                + "a field had must differ from every other name of the type, past or present"),
        BadInput(
            name: "a current name that is another field's stored name", source: """
                // @coded
                struct A {
                    // @renamed(from: "a")
                    var b: Int
                    var a: Int
                }
                """, line: 5, column: 9,
            message: "the field number 0x1C81_8525 of 'a' is used twice in 'A'; rename one of them"),
        BadInput(
            name: "property annotation on a type", source: """
                // @coded
                // @key
                struct A { var a: Int }
                """, line: 2, column: 4, message: "'@key' applies to a stored property, not to a type"),
        BadInput(
            name: "stray property annotation", source: """
                struct A {
                    // @key
                    var a: Int
                }
                """, line: 2, column: 8,
            message: "'@key' must be written right above a property of a type annotated '@persistable' or '@coded'"),
        BadInput(
            name: "actor", source: """
                // @coded
                actor A { var a = 0 }
                """, line: 2, column: 7, message: "'@coded' applies to a struct, final class or enum, not to actor 'A'"),
        BadInput(
            name: "missing required argument", source: """
                // @coded
                struct A {
                    // @renamed
                    var a: Int
                }
                """, line: 3, column: 8, message: "'@renamed' needs the argument 'from:'"),
        BadInput(
            name: "untyped stored property", source: """
                // @coded
                struct A {
                    var date = Date()
                }
                """, line: 3, column: 9,
            message: "stored property 'date' needs an explicit type: trove-gen reads declarations, it does not "
                + "infer types"),
        BadInput(
            name: "optional key", source: """
                // @persistable
                struct A {
                    var id: String?
                }
                """, line: 3, column: 9, message: "key 'id' must not be optional: every item has a key"),
        BadInput(
            name: "prose after an annotation", source: """
                // @coded
                struct A {
                    // @transient the cache
                    var cache: Int = 0
                }
                """, line: 3, column: 19,
            message: "unexpected text after '@transient'; put explanations on a comment line of their own"),
        BadInput(
            name: "indexed field of an unsupported type", source: """
                // @persistable
                struct A {
                    var id: String
                    // @indexed
                    var tags: [String: Int]
                }
                """, line: 4, column: 8,
            message: "'@indexed' property 'tags' has type '[String: Int]', which an index cannot store; supported: "
                + "integers, Double, Float, Bool, String, UUID, Date, Data, @coded enums with a String or integer "
                + "raw value, optionals of these, and arrays and sets of these (a multi-valued column)"),
        BadInput(
            name: "indexed array of an unsupported element type", source: """
                // @persistable
                struct A {
                    var id: String
                    // @indexed
                    var places: [Address]
                }
                // @coded
                struct Address { var city: String }
                """, line: 4, column: 8,
            message: "'@indexed' property 'places' has type '[Address]', an array or set of 'Address', which an "
                + "index cannot store as the values of a multi-valued column; its elements may be: integers, "
                + "Double, Float, Bool, String, UUID, Date, Data, @coded enums with a String or integer raw value "
                + "(not optional)"),
        BadInput(
            name: "indexed set of optionals", source: """
                // @persistable
                struct A {
                    var id: String
                    // @indexed
                    var codes: Set<Int?>
                }
                """, line: 4, column: 8,
            message: "'@indexed' property 'codes' has type 'Set<Int?>', an array or set of 'Int?', which an "
                + "index cannot store as the values of a multi-valued column; its elements may be: integers, "
                + "Double, Float, Bool, String, UUID, Date, Data, @coded enums with a String or integer raw value "
                + "(not optional)"),
        BadInput(
            name: "unique indexed array", source: """
                // @persistable
                struct A {
                    var id: String
                    // @indexed(unique: true)
                    var tags: [String]
                }
                """, line: 4, column: 8,
            message: "'@indexed(unique: true)' property 'tags' is an array or set: a multi-valued column cannot "
                + "be unique; remove 'unique: true'"),
        BadInput(
            name: "indexed field of a coded struct type", source: """
                // @persistable
                struct A {
                    var id: String
                    // @indexed(unique: true)
                    var address: Address?
                }
                // @coded
                struct Address { var city: String }
                """, line: 4, column: 8,
            message: "'@indexed' property 'address' has type 'Address?', which an index cannot store; supported: "
                + "integers, Double, Float, Bool, String, UUID, Date, Data, @coded enums with a String or integer "
                + "raw value, optionals of these, and arrays and sets of these (a multi-valued column)"),
        BadInput(
            name: "indexed enum with associated values", source: """
                // @persistable
                struct A {
                    var id: String
                    // @indexed
                    var shape: Shape
                }
                // @coded
                enum Shape { case circle(Double) }
                """, line: 4, column: 8,
            message: "'@indexed' property 'shape' has type 'Shape', which an index cannot store; supported: "
                + "integers, Double, Float, Bool, String, UUID, Date, Data, @coded enums with a String or integer "
                + "raw value, optionals of these, and arrays and sets of these (a multi-valued column)"),
        BadInput(
            name: "indexed computed property", source: """
                // @persistable
                struct A {
                    var id: String
                    // @indexed
                    var upper: String { id.uppercased() }
                }
                """, line: 4, column: 8,
            message: "'@indexed' applies to a stored property; 'upper' is computed"),
        BadInput(
            name: "indexed transient property", source: """
                // @persistable
                struct A {
                    var id: String
                    // @indexed
                    // @transient
                    var cache: Int = 0
                }
                """, line: 5, column: 8, message: "'@transient' property 'cache' cannot also be '@indexed'"),
        BadInput(
            name: "indexed field of a coded type that is no metadata", source: """
                // @coded
                struct A {
                    // @indexed
                    var city: String
                }
                """, line: 3, column: 8,
            message: "'@indexed' applies to properties of a @persistable type or of its @metadata type; 'A' is "
                + "@coded and not the metadata of a @persistable type"),
        BadInput(
            name: "indexed metadata property itself", source: """
                // @persistable
                struct A {
                    var id: String
                    // @indexed
                    // @metadata
                    var stats: Stats?
                }
                // @coded
                struct Stats { var visits: Int }
                """, line: 4, column: 8,
            message: "'@indexed' cannot be on the '@metadata' property 'stats': annotate the fields of its type "
                + "instead"),
        BadInput(
            name: "indexed metadata field of an unsupported type", source: """
                // @persistable
                struct A {
                    var id: String
                    // @metadata
                    var stats: Stats?
                }
                // @coded
                struct Stats {
                    // @indexed
                    var history: [Int: Int]
                }
                """, line: 9, column: 8,
            message: "'@indexed' property 'history' has type '[Int: Int]', which an index cannot store; supported: "
                + "integers, Double, Float, Bool, String, UUID, Date, Data, @coded enums with a String or integer "
                + "raw value, optionals of these, and arrays and sets of these (a multi-valued column)"),
        BadInput(
            name: "item and metadata fields with one column name", source: """
                // @persistable
                struct A {
                    var id: String
                    // @indexed
                    var visits: Int
                    // @metadata
                    var stats: Stats?
                }
                // @coded
                struct Stats {
                    // @indexed
                    var visits: Int
                }
                """, line: 11, column: 8,
            message: "the index of 'A' already has a column 'visits': the metadata field 'visits' would be a second "
                + "one; index only one of them"),
        BadInput(
            name: "searchable non-text", source: """
                // @persistable
                struct A {
                    var id: String
                    // @searchable
                    var count: Int
                }
                """, line: 4, column: 8,
            message: "'@searchable' applies to String, String? and [String] properties; 'count' is 'Int'"),
        BadInput(
            name: "searchable optional list", source: """
                // @persistable
                struct A {
                    var id: String
                    // @searchable
                    var tags: [String]?
                }
                """, line: 4, column: 8,
            message: "'@searchable' applies to String, String? and [String] properties; 'tags' is '[String]?'"),
        BadInput(
            name: "searchable weight not a number", source: """
                // @persistable
                struct A {
                    var id: String
                    // @searchable(weight: "high")
                    var title: String
                }
                """, line: 4, column: 20, message: "'weight' of '@searchable' must be a number"),
        BadInput(
            name: "searchable weight zero", source: """
                // @persistable
                struct A {
                    var id: String
                    // @searchable(weight: 0)
                    var title: String
                }
                """, line: 4, column: 20,
            message: "the weight of '@searchable' must be a positive number; 'title' has 0"),
        BadInput(
            name: "searchable malformed number", source: """
                // @persistable
                struct A {
                    var id: String
                    // @searchable(weight: 1.)
                    var title: String
                }
                """, line: 4, column: 28,
            message: "the value of 'weight' must be a string literal, a number, true, false, a type "
                + "reference such as 'User.self', or rules such as '.deleteSource' or '[.deleteSource]'"),
        BadInput(
            name: "unknown search tokenizer", source: """
                // @persistable(searchTokenizer: "icu")
                struct A {
                    var id: String
                    // @searchable
                    var title: String
                }
                """, line: 1, column: 17,
            message: "unknown search tokenizer \"icu\"; expected \"unicode61\", \"porter\", \"trigram\""),
        BadInput(
            name: "search tokenizer without searchable fields", source: """
                // @persistable(searchTokenizer: "porter")
                struct A {
                    var id: String
                    var title: String
                }
                """, line: 1, column: 17,
            message: "'searchTokenizer' has no effect: no field of 'A' or of its metadata is '@searchable'"),
        BadInput(
            name: "searchable on a coded type", source: """
                // @coded
                struct Part {
                    // @searchable
                    var text: String
                }
                """, line: 3, column: 8,
            message: "'@searchable' applies to properties of a @persistable type or of its @metadata type; 'Part' is "
                + "@coded and not the metadata of a @persistable type"),
        BadInput(
            name: "item and metadata fields with one search column", source: """
                // @persistable
                struct A {
                    var id: String
                    // @searchable
                    var note: String
                    // @metadata
                    var extra: Extra?
                }
                // @coded
                struct Extra {
                    // @searchable
                    var note: String?
                }
                """, line: 11, column: 8,
            message: "the search of 'A' already has a column 'note': the metadata field 'note' would be a second "
                + "one; make only one of them '@searchable'"),
        BadInput(
            name: "relationship to a coded type", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(to: B.self)
                    var bID: String
                }
                // @coded
                struct B { var name: String }
                """, line: 4, column: 22,
            message: "'@relationship' of 'bID' points to 'B', which is @coded in the inputs of trove-gen; an edge "
                + "points to the items of a @persistable type of the same target"),
        BadInput(
            name: "relationship to an undeclared type", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(to: Missing.self)
                    var missingID: String
                }
                """, line: 4, column: 22,
            message: "'@relationship' of 'missingID' points to 'Missing', which is not declared in the inputs of "
                + "trove-gen; an edge points to the items of a @persistable type of the same target"),
        BadInput(
            name: "relationship with an unknown rule", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(to: A.self, onDelete: .cascade)
                    var parentID: String?
                }
                """, line: 4, column: 34,
            message: "unknown delete rule '.cascade' of '@relationship'; expected '.deleteSource', "
                + "'.deleteDestination', '.deleteSourceWithLastDestination', '.deleteDestinationWithLastSource', "
                + "'.notifySource', '.notifyDestination'"),
        BadInput(
            name: "relationship with a rule as the runtime names it", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(to: A.self, onDelete: [.notifySource, .deleteSourceWhenDestinationDeleted])
                    var parentID: String?
                }
                """, line: 4, column: 34,
            message: "unknown delete rule '.deleteSourceWhenDestinationDeleted' of '@relationship'; in an "
                + "annotation it is written '.deleteSource'"),
        BadInput(
            name: "relationship rule listed twice", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(to: A.self, onDelete: [.deleteSource, .deleteSource])
                    var parentID: String?
                }
                """, line: 4, column: 34, message: "the delete rule '.deleteSource' is listed twice"),
        BadInput(
            name: "relationship property of the wrong type", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(to: A.self)
                    var parentID: Int
                }
                """, line: 4, column: 8,
            message: "'@relationship' property 'parentID' has type 'Int'; it must hold the key of 'A' ('A.ID' is "
                + "'String'): 'A.ID', an optional of it, or an array or set of it"),
        BadInput(
            name: "relationship property of a dictionary of keys", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(to: A.self)
                    var parents: [String: A.ID]
                }
                """, line: 4, column: 8,
            message: "'@relationship' property 'parents' has type '[String: A.ID]'; it must hold the key of 'A' "
                + "('A.ID' is 'String'): 'A.ID', an optional of it, or an array or set of it"),
        BadInput(
            name: "relationship on a computed property", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(to: A.self)
                    var parentID: String? { nil }
                }
                """, line: 4, column: 8,
            message: "'@relationship' applies to a stored property; 'parentID' is computed"),
        BadInput(
            name: "relationship on a transient property", source: """
                // @persistable
                struct A {
                    var id: String
                    // @transient
                    // @relationship(to: A.self)
                    var parentID: String? = nil
                }
                """, line: 4, column: 8, message: "'@transient' property 'parentID' cannot also be '@relationship'"),
        BadInput(
            name: "relationship on the metadata property", source: """
                // @persistable
                struct A {
                    var id: String
                    // @metadata
                    // @relationship(to: A.self)
                    var extra: String?
                }
                """, line: 5, column: 8,
            message: "'@relationship' cannot be on the '@metadata' property 'extra': an edge is held by a stored "
                + "field of the item"),
        BadInput(
            name: "relationship on a coded type", source: """
                // @persistable
                struct A { var id: String }
                // @coded
                struct Part {
                    // @relationship(to: A.self)
                    var aID: String
                }
                """, line: 5, column: 8,
            message: "'@relationship' applies to properties of a @persistable type; 'Part' is @coded"),
        BadInput(
            name: "relationship without a destination", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(onDelete: .deleteSource)
                    var parentID: String?
                }
                """, line: 4, column: 8,
            message: "'@relationship' needs the argument 'to:' (an edge to the items of a type) or 'toFiles:' (an "
                + "edge to files in a folder)"),
        BadInput(
            name: "relationship to items and to files", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(to: A.self, toFiles: "files")
                    var parentID: String?
                }
                """, line: 4, column: 8,
            message: "'@relationship' takes 'to:' (an edge to the items of a type) or 'toFiles:' (an edge to files in "
                + "a folder), not both"),
        BadInput(
            name: "edge to files with a folder that is not a string", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(toFiles: A.self)
                    var path: String?
                }
                """, line: 4, column: 22, message: "'toFiles' of '@relationship' must be a string literal"),
        BadInput(
            name: "edge to files with an empty folder", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(toFiles: "")
                    var path: String?
                }
                """, line: 4, column: 22,
            message: "'toFiles:' of '@relationship' names the folder of the files (relative to the database file's "
                + "folder, or absolute); it cannot be empty"),
        BadInput(
            name: "edge to files of a property that holds no path", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(toFiles: "files")
                    var sizes: [Int]
                }
                """, line: 4, column: 8,
            message: "'@relationship' property 'sizes' has type '[Int]'; an edge to files holds paths: 'String', "
                + "'String?', '[String]', 'Set<String>', or an optional array or set of them"),
        BadInput(
            name: "edge to files of a dictionary of paths", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(toFiles: "files")
                    var paths: [String: String]
                }
                """, line: 4, column: 8,
            message: "'@relationship' property 'paths' has type '[String: String]'; an edge to files holds paths: "
                + "'String', 'String?', '[String]', 'Set<String>', or an optional array or set of them"),
        BadInput(
            name: "edge to files with a rule that acts on items", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(toFiles: "files", onDelete: [.deleteDestination, .deleteSource])
                    var path: String?
                }
                """, line: 4, column: 40,
            message: "the delete rule '.deleteSource' does not apply to files: an edge to files takes only "
                + "'.deleteDestination' and '.deleteDestinationWithLastSource', which remove a file with its source "
                + "or with its last source"),
        BadInput(
            name: "edge to files with a notify rule", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(toFiles: "files", onDelete: .notifyDestination)
                    var paths: Set<String>
                }
                """, line: 4, column: 40,
            message: "the delete rule '.notifyDestination' does not apply to files: an edge to files takes only "
                + "'.deleteDestination' and '.deleteDestinationWithLastSource', which remove a file with its source "
                + "or with its last source"),
        BadInput(
            name: "edge to files with an inverse", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(toFiles: "files", inverse: "owners")
                    var path: String
                }
                """, line: 4, column: 40,
            message: "'inverse:' does not apply to an edge to files: a file has no type to put the query of its "
                + "sources on"),
        BadInput(
            name: "edge to files with an empty name", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(toFiles: "files", name: "")
                    var path: String
                }
                """, line: 4, column: 40, message: "the 'name' of '@relationship' cannot be empty"),
        BadInput(
            name: "edge to files named as an edge to items", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(to: A.self)
                    var parentID: String?
                    // @relationship(toFiles: "files", name: "parent")
                    var path: String?
                }
                """, line: 6, column: 8,
            message: "'A' already has a relationship named 'parent'; give 'path' another one with 'name:'"),
        BadInput(
            name: "relationship destination as a string", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(to: "A")
                    var parentID: String?
                }
                """, line: 4, column: 22,
            message: "'to' of '@relationship' must be a type reference such as 'User.self'"),
        BadInput(
            name: "relationship rules not closed", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(to: A.self, onDelete: [.deleteSource)
                    var parentID: String?
                }
                """, line: 4, column: 44,
            message: "the value of 'onDelete' must be a string literal, a number, true, false, a type reference "
                + "such as 'User.self', or rules such as '.deleteSource' or '[.deleteSource]'"),
        BadInput(
            name: "relationship name not an identifier", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(to: A.self, name: "my parent")
                    var parentID: String?
                }
                """, line: 4, column: 34,
            message: "the 'name' of '@relationship' must be a Swift identifier: it names a generated query; "
                + "'my parent' is not"),
        BadInput(
            name: "two relationships with one inverse", source: """
                // @persistable
                struct User { var id: String }
                // @persistable
                struct Post {
                    var id: String
                    // @relationship(to: User.self)
                    var authorID: User.ID
                    // @relationship(to: User.self)
                    var editorID: User.ID?
                }
                """, line: 8, column: 8,
            message: "'User' would get two relationship queries named 'posts': one for the inverse of the relationship 'authorID' "
                + "of 'Post', one for the inverse of the relationship 'editorID' of 'Post'; name one of them with "
                + "'inverse:'"),
        BadInput(
            name: "two relationships with one name", source: """
                // @persistable
                struct A {
                    var id: String
                    // @relationship(to: A.self, inverse: "children")
                    var parentID: String?
                    // @relationship(to: A.self, name: "parent", inverse: "others")
                    var otherID: String?
                }
                """, line: 6, column: 8,
            message: "'A' already has a relationship named 'parent'; give 'otherID' another one with 'name:'"),
    ]
}

struct DiagnosticTests {
    @Test(arguments: BadInput.all)
    func badInputIsDiagnosedAtItsLocation(_ input: BadInput) throws {
        let result = try generate(input.source)
        #expect(result.files.isEmpty)
        let rendered = result.diagnostics.map(\.description)
        #expect(
            rendered.contains("Input0.swift:\(input.line):\(input.column): error: \(input.message)"),
            "got: \(rendered)")
    }

    @Test func oneBadFileStopsEveryOutput() throws {
        let good = """
            // @coded
            struct Good { var a: Int }
            """
        let bad = """
            // @coded
            struct Bad { var f: () -> Void }
            """
        let result = try generate(good, bad)
        #expect(result.hasErrors)
        #expect(result.files.isEmpty)
    }

    @Test func everyMistakeOfARunIsReported() throws {
        let result = try generate(
            """
            // @persistable
            struct A {
                var name: String
                private var secret: Int
            }
            """)
        #expect(result.diagnostics.count == 2)
        #expect(result.diagnostics.map(\.location.line) == [2, 4])
    }
}
