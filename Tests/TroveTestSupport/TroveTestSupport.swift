/// Helpers shared by the runtime's test targets.
///
/// A placeholder: SwiftPM refuses a target without sources, and the helpers of the style guide
/// (`makeTemporaryDatabase()`, `assertMatchesReference()`, `Fixture`) arrive with the layers
/// that need them.
public enum TroveTestSupport {}
