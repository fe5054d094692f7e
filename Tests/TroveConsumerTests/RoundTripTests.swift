import Foundation
import Testing
import Trove

/// Writes every model shape of the showcase fixture through its generated coder into a real
/// database, and reads it back.
struct RoundTripTests {
    static let userID = UUID(uuidString: "7C9E6679-7425-40DE-944B-E07FC1F90AE7")!

    static func makeUser() -> User {
        User(
            userID: userID, name: "Ada", email: "ada@example.com", age: 36,
            address: Address(street: "1 Loop", city: "London", zip: nil),
            tags: ["math", "engines"], roles: [.admin, .editor], scores: ["chess": 3, "go": 1],
            favoriteShape: .polygon(points: [Point(x: 0, y: 0), Point(x: 1, y: 2)], label: "tri"),
            bio: "First programmer", default: true,
            stats: UserStats(logins: 3, lastSeen: Date(timeIntervalSince1970: 1_700_000_000)),
            avatarCache: Data([9, 9]), isSelected: true)
    }

    @Test func structWithEveryKindOfField() throws {
        let database = try Database.temporary()
        let connection = try database.newConnection()
        let user = Self.makeUser()
        try connection.write { tx in try tx.write(user) }

        let read = try #require(try database.newConnection().read { tx in try tx.read(User.self, key: Self.userID) })
        var expected = user
        expected.avatarCache = Data([1, 2, 3])  // @transient: restored to its default
        expected.isSelected = false
        #expect(read == expected)
        #expect(read.metadata == user.stats)
        let metadata = try database.newConnection().read { tx in try tx.metadata(for: User.self, key: Self.userID) }
        #expect(metadata == user.stats)
        #expect(User.collection == "users")
        #expect(user.id == Self.userID)
    }

    @Test(arguments: [
        Shape.circle(radius: 2.5), .rectangle(3, 4), .polygon(points: [Point(x: 1, y: 1)], label: nil),
        .text("hi", size: 20), .empty,
    ])
    func enumWithAssociatedValues(_ shape: Shape) throws {
        let database = try Database.temporary()
        let connection = try database.newConnection()
        var user = Self.makeUser()
        user.favoriteShape = shape
        try connection.write(user)
        let read = try database.newConnection().read { tx in try tx.read(User.self, key: Self.userID) }
        #expect(read?.favoriteShape == shape)
    }

    @Test func finalClassWithEveryStandardType() throws {
        let database = try Database.temporary()
        let sample = Sample(
            id: 7, flag: true, int8: -8, int16: -16, int32: -32, int64: .min, uint: 1, uint8: 8, uint16: 16,
            uint32: 32, uint64: .max, float: 1.5, double: -2.25, string: "héllo", data: Data([0, 255]),
            date: Date(timeIntervalSince1970: 1_234_567.5), uuid: Self.userID,
            url: URL(string: "https://example.com/a?b=c")!, decimal: Decimal(string: "12.345")!,
            point: Point(x: 3, y: 4), priority: .high, optionalURL: nil)
        try database.newConnection().write(sample)
        let read = try #require(try database.newConnection().read { tx in try tx.read(Sample.self, key: 7) })
        #expect(read.flag && read.int8 == -8 && read.int16 == -16 && read.int32 == -32 && read.int64 == .min)
        #expect(read.uint == 1 && read.uint8 == 8 && read.uint16 == 16 && read.uint32 == 32 && read.uint64 == .max)
        #expect(read.float == 1.5 && read.double == -2.25 && read.string == "héllo" && read.data == Data([0, 255]))
        #expect(read.date == sample.date && read.uuid == Self.userID && read.url == sample.url)
        #expect(read.decimal == sample.decimal && read.point == sample.point && read.priority == .high)
        #expect(read.optionalURL == nil && read.version == 1)
    }

    @Test func nestedTypesAndRenamedField() throws {
        let database = try Database.temporary()
        let book = Library.Book(
            isbn: "978-0", title: "Notes", author: Library.Author(name: "Ada", born: 1815), publicationYear: 1843)
        try database.newConnection().write(book)
        let read = try database.newConnection().read { tx in try tx.readAll(Library.Book.self) }
        #expect(read == [book])
        #expect(Library.Book.collection == "books")
    }

    @Test func keysOfEveryKind() throws {
        let database = try Database.temporary()
        let connection = try database.newConnection()
        let order = Order(number: OrderNumber(42), total: Decimal(string: "9.99")!, metadata: OrderNote(text: "gift"))
        let counter = Counter(id: -5, count: 3)
        let tag = Tag(name: "swift", uses: 10)
        let settings: [Setting] = [.theme("dark"), .volume(level: 7)]
        try connection.write { tx in
            try tx.write(order)
            try tx.write(counter)
            try tx.write(tag)
            try tx.write(settings)
        }
        let reader = try database.newConnection()
        #expect(try reader.read(Order.self, key: OrderNumber(42)) == order)
        #expect(try reader.metadata(for: Order.self, key: OrderNumber(42)) == OrderNote(text: "gift"))
        #expect(try reader.read(Counter.self, key: -5) == counter)
        #expect(try reader.read(Tag.self, key: "swift") == tag)
        let readSettings = try reader.read { tx in try tx.read(Setting.self, keys: ["theme", "volume"]) }
        #expect(readSettings == settings)
        #expect(Counter.collection == "Counter")
        let (found, missing) = try connection.read { tx in try tx.filterExisting(Tag.self, keys: ["swift", "rust"]) }
        #expect(found == [tag] && missing == ["rust"])
    }

    @Test func removesWhatItWrote() throws {
        let database = try Database.temporary()
        let connection = try database.newConnection()
        try connection.write(Self.makeUser())
        #expect(try connection.remove(User.self, keys: [Self.userID]) == 1)
        #expect(try connection.read(User.self, key: Self.userID) == nil)
    }
}
