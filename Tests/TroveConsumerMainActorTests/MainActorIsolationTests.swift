import Foundation
import Testing
import Trove

/// This target compiles the showcase models and their generated code with `-default-isolation
/// MainActor`: that it builds at all is the main proof. The test also uses the generated
/// conformances from a nonisolated async context.
struct MainActorIsolationTests {
    @Test func generatedCodeWorksOffTheMainActor() async throws {
        let database = try Database.temporary()
        let connection = try database.newConnection()
        let tag = Tag(name: "main", uses: 1)
        try await connection.write(tag)
        let count = try await connection.read { tx in try tx.readAll(Tag.self).count }
        #expect(count == 1)
    }

    /// The generated index, its conformance to `DatabaseExtensionProviding` and its typed queries,
    /// used from a nonisolated async context.
    @Test nonisolated func generatedIndexWorksOffTheMainActor() async throws {
        let database = try Database.temporary(models: [User.self])
        let connection = try database.newConnection()
        let ada = User(userID: UUID(), name: "Ada", email: "ada@example.com", age: 36, nickname: "ada")
        let alan = User(userID: UUID(), name: "Alan", email: "alan@example.com", age: 41)
        try await connection.write(ada)
        try await connection.write(alan)
        let found = try await User.byEmail("alan@example.com").first(in: connection)
        #expect(found?.userID == alan.userID)
        let names = try await User.query
            .filter(.age(30..<50), .nickname(isNil: false))
            .sorted(by: .age, .descending)
            .limit(10)
            .items(in: connection)
            .map(\.name)
        #expect(names == ["Ada"])
        let keys = try await connection.read { tx in try User.query.filter(.mainRole(.reader)).keys(tx) }
        #expect(Set(keys) == [ada.userID, alan.userID])
    }
}
