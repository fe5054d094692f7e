import Foundation
import Trove

// Values of every model of the generator's showcase fixture, compiled with it (`Models` and
// `Generated` are links to the fixture, as in TroveConsumerTests) into the reliability tests and,
// through the link `Tests/trove-fuzz/Showcase`, into trove-fuzz: both mutate the encodings of
// every generated coder.

enum ShowcaseSamples {
    static let users: [User] = [
        User(
            userID: UUID(uuidString: "7C9E6679-7425-40DE-944B-E07FC1F90AE7")!, name: "Ada", email: "ada@example.com",
            age: 36, address: Address(street: "1 Loop", city: "London", zip: nil), tags: ["math", "engines"],
            roles: [.admin, .editor], scores: ["chess": 3, "go": 1],
            favoriteShape: .polygon(points: [Point(x: 0, y: 0), Point(x: 1, y: 2)], label: "tri"), bio: "First",
            default: true, stats: UserStats(logins: 3, lastSeen: Date(timeIntervalSince1970: 1_700_000_000))),
        User(userID: UUID(), name: "", email: "e", favoriteShape: .text("hi", size: 20)),
        User(
            userID: UUID(), name: "日本🦊", email: "x@y", age: -1, address: Address(street: "", city: "c", zip: "75001"),
            favoriteShape: .rectangle(3, -4), stats: UserStats(logins: 0, lastSeen: nil)),
    ]

    static let shapes: [Shape] = [
        .circle(radius: 2.5), .rectangle(3, 4), .polygon(points: [Point(x: 1, y: 1)], label: nil), .text("t", size: 1),
        .empty,
    ]

    static let samples: [Sample] = [
        Sample(
            id: 7, flag: true, int8: -8, int16: -16, int32: -32, int64: .min, uint: 1, uint8: 8, uint16: 16, uint32: 32,
            uint64: .max, float: 1.5, double: -2.25, string: "héllo", data: Data([0, 255]),
            date: Date(timeIntervalSince1970: 1_234_567.5), uuid: UUID(),
            url: URL(string: "https://example.com/a?b=c")!,
            decimal: Decimal(string: "12.345")!, point: Point(x: 3, y: 4), priority: .high,
            optionalURL: URL(string: "file:///tmp")),
        Sample(
            id: 0, flag: false, int8: 0, int16: 0, int32: 0, int64: 0, uint: 0, uint8: 0, uint16: 0, uint32: 0,
            uint64: 0, float: 0, double: 0, string: "", data: Data(), date: Date(timeIntervalSince1970: 0),
            uuid: UUID(),
            url: URL(string: "https://e.x")!, decimal: 0, point: Point(x: 0, y: 0), priority: .low, optionalURL: nil),
    ]

    static let books: [Library.Book] = [
        Library.Book(
            isbn: "978-0", title: "Notes", author: Library.Author(name: "Ada", born: 1815), publicationYear: 1843),
        Library.Book(isbn: "", title: "", author: Library.Author(name: "", born: nil), publicationYear: nil),
    ]

    static let orders: [Order] = [
        Order(number: OrderNumber(42), total: Decimal(string: "19.99")!, metadata: OrderNote(text: "gift")),
        Order(number: OrderNumber(1), total: 0, metadata: nil),
    ]

    static let notesV1: [NoteV1] = [
        NoteV1(id: "n1", title: "t", body: "b", legacyFlag: true, subtitle: "s"),
        NoteV1(id: "n2", title: "", body: nil, legacyFlag: false, subtitle: nil),
    ]

    static let notesV2: [NoteV2] = [NoteV2(subtitle: "s", pinned: true, title: "t", text: "x", id: "n3")]

    static let counters = [Counter(id: 1, count: 2), Counter(id: .min, count: .max)]
    static let tags = [Tag(name: "swift", uses: 3)]
    static let settings: [Setting] = [.theme("dark"), .volume(level: 11)]
}
