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
}
