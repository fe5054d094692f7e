/// What registering an extension did.
public enum ExtensionRegistration: Sendable, Hashable {
    /// The extension was new in the file: its tables were created and filled.
    case created
    /// The file held another version or definition, or a stale copy: it was rebuilt.
    case rebuilt
    /// The file held the same version and definition, in step with the items: nothing was done.
    case unchanged
}
