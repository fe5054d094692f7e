import Foundation
import Testing
@_spi(TroveGenerated) import Trove

/// `PersonV1`, `PersonV2` and `PersonV3` share the collection "people", as three releases of one
/// app sharing a file: a rollback after a bad release, an app and its extension at different
/// versions, a rolling deploy. Each version opens its own `Database` on the file, as its process
/// would.
struct PeopleEvolutionTests {
    /// Three instances of one database file, one per version of the app.
    struct Versions {
        let v1: Database
        let v2: Database
        let v3: Database

        init() throws {
            v1 = try Database.temporary()
            v2 = try Database(path: v1.path)
            v3 = try Database(path: v1.path)
        }
    }

    static func person(_ index: Int) -> PersonV1 {
        PersonV1(id: "p\(index)", fullName: "Name \(index)", legacy: "L\(index)", stats: PersonStatsV1(visits: index))
    }

    @Test func oldAndNewVersionsReadAndRewriteEachOthersItems() throws {
        let versions = try Versions()
        let people = (0..<100).map(Self.person)
        try versions.v1.newConnection().write(people)

        // v2 reads v1's items under the new name and writes them back.
        let v2 = try versions.v2.newConnection()
        let read = try v2.read { tx in try tx.readAll(PersonV2.self) }
        #expect(read.count == 100)
        #expect(Set(read.map(\.displayName)) == Set(people.map(\.fullName)))
        #expect(read.allSatisfy { $0.email == "" && $0.stats?.lastVisit == nil })
        try v2.write(read)

        // v1 reads them all again: the renamed field kept its identity, `legacy` (unknown to v2) was kept.
        let again = try versions.v1.newConnection().read { tx in try tx.readAll(PersonV1.self) }
        let expected = Dictionary(uniqueKeysWithValues: people.map { ($0.id, $0) })
        #expect(again.count == 100)
        let changed = again.filter { expected[$0.id] != $0 }
        #expect(changed.count == 0, "\(changed.count) items changed, the first: \(String(describing: changed.first))")

        // v2 writes a new item with an email; v1 reads it, changes it, writes it back.
        try v2.write(
            PersonV2(
                id: "new", displayName: "Grace", email: "grace@example.com",
                stats: PersonStatsV2(visits: 1, lastVisit: "today")))
        let v1 = try versions.v1.newConnection()
        var old = try #require(try v1.read(PersonV1.self, key: "new"))
        #expect(old == PersonV1(id: "new", fullName: "Grace", legacy: "", stats: PersonStatsV1(visits: 1)))
        old.fullName = "Grace Hopper"
        old.stats?.visits = 2
        try v1.write(old)

        // v2 reads it: v1's changes, and the email and the metadata's `lastVisit` that v1 does not know.
        let new = try #require(try versions.v2.newConnection().read(PersonV2.self, key: "new"))
        #expect(
            new == PersonV2(
                id: "new", displayName: "Grace Hopper", email: "grace@example.com",
                stats: PersonStatsV2(visits: 2, lastVisit: "today")))
    }

    @Test func renamesAcrossThreeVersionsReadInEveryDirection() throws {
        let versions = try Versions()
        let v1 = try versions.v1.newConnection()
        let v2 = try versions.v2.newConnection()
        let v3 = try versions.v3.newConnection()

        try v1.write(PersonV1(id: "a", fullName: "From v1", legacy: "kept"))
        try v2.write(PersonV2(id: "b", displayName: "From v2", email: "b@example.com"))
        try v3.write(PersonV3(id: "c", name: "From v3", email: "c@example.com", phone: "555"))

        // Every version reads every item's name, whoever wrote it.
        for (key, name) in [("a", "From v1"), ("b", "From v2"), ("c", "From v3")] {
            #expect(try v1.read(PersonV1.self, key: key)?.fullName == name)
            #expect(try v2.read(PersonV2.self, key: key)?.displayName == name)
            #expect(try v3.read(PersonV3.self, key: key)?.name == name)
        }

        // Each version rewrites every item; nothing any version knows is lost.
        for key in ["a", "b", "c"] {
            var first = try #require(try v1.read(PersonV1.self, key: key))
            first.fullName += " (v1)"
            try v1.write(first)
            var second = try #require(try v2.read(PersonV2.self, key: key))
            second.displayName += " (v2)"
            try v2.write(second)
            var third = try #require(try v3.read(PersonV3.self, key: key))
            third.name += " (v3)"
            try v3.write(third)
        }
        let c = try #require(try v3.read(PersonV3.self, key: "c"))
        #expect(c == PersonV3(id: "c", name: "From v3 (v1) (v2) (v3)", email: "c@example.com", phone: "555"))
        #expect(try v2.read(PersonV2.self, key: "b")?.email == "b@example.com")
        #expect(
            try v1.read(PersonV1.self, key: "a")
                == PersonV1(id: "a", fullName: "From v1 (v1) (v2) (v3)", legacy: "kept"))
    }

    @Test func renamedFieldsAreWrittenUnderTheirFirstName() throws {
        var writer = BinaryWriter()
        try PersonV3.encodeMessage(PersonV3(id: "x", name: "N"), to: &writer)
        let numbers = try writer.withUnsafeBytes { bytes in
            var reader = BinaryReader(bytes)
            var numbers: [UInt32] = []
            while let header = try reader.nextField() {
                numbers.append(header.number)
                try reader.skip(header)
            }
            return numbers
        }
        #expect(numbers.contains(FieldNumber.of("fullName")))
        #expect(!numbers.contains(FieldNumber.of("displayName")))
        #expect(!numbers.contains(FieldNumber.of("name")))
    }

    @Test func dataWrittenUnderTheCurrentNameByOlderGeneratorsStillReads() throws {
        // Generators before the identity rule wrote a renamed field under its current name.
        var writer = BinaryWriter()
        try writer.encode("x", field: FieldNumber.of("id"))
        try writer.encode("Old generator", field: FieldNumber.of("displayName"))
        let person = try writer.withUnsafeBytes { bytes in
            var reader = BinaryReader(bytes)
            return try MessageCoder<PersonV2>.decode(from: &reader)
        }
        #expect(person.displayName == "Old generator")
        let database = try Database.temporary()
        try database.newConnection().write { tx in
            try writer.withUnsafeBytes { try tx.setData(Data($0), forKey: "x", in: "people") }
        }
        #expect(try database.newConnection().read(PersonV3.self, key: "x")?.name == "Old generator")
    }

    @Test func metadataWrittenAloneKeepsItsUnknownFields() throws {
        let versions = try Versions()
        try versions.v2.newConnection().write(
            PersonV2(id: "m", displayName: "M", stats: PersonStatsV2(visits: 1, lastVisit: "monday")))
        let v1 = try versions.v1.newConnection()
        let stats = try #require(try v1.read { tx in try tx.metadata(for: PersonV1.self, key: "m") })
        #expect(stats == PersonStatsV1(visits: 1))
        let changed = try v1.write { tx in
            try tx.setMetadata(PersonStatsV1(visits: 5), for: PersonV1.self, key: "m")
        }
        #expect(changed)
        let read = try versions.v2.newConnection().read(PersonV2.self, key: "m")
        #expect(read?.stats == PersonStatsV2(visits: 5, lastVisit: "monday"))
    }

    @Test func aWriteThatWouldLoseUnknownNestedFieldsIsRefused() throws {
        let versions = try Versions()
        try versions.v2.newConnection().write(
            PersonV2(id: "z", displayName: "Z", address: PostalAddressV2(city: "Paris", zip: "75001")))
        let v1 = try versions.v1.newConnection()
        var person = try #require(try v1.read(PersonV1.self, key: "z"))
        #expect(person.address == PostalAddressV1(city: "Paris"))
        person.fullName = "Zed"
        let error = try #require(throws: TroveError.self) { try v1.write(person) }
        #expect(error.code == .nestedUnknownFields)
        #expect(error.collection == "people")
        #expect(error.key == "z")
        #expect(error.field == "address")
        // Nothing was written: the newer version still reads its zip code.
        let stored = try versions.v2.newConnection().read(PersonV2.self, key: "z")
        #expect(stored?.address == PostalAddressV2(city: "Paris", zip: "75001"))
        #expect(stored?.displayName == "Z")
    }
}
