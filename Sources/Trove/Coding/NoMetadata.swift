/// The metadata type of a ``Persistable`` type that has no metadata. It has no values.
public enum NoMetadata: Sendable, Hashable {}
