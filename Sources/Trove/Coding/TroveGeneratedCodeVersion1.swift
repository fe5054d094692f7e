/// A marker of the version of the runtime interface that generated code is written against.
///
/// Every file written by trove-gen declares
///
/// ```swift
/// private typealias RequiresTroveRuntime = TroveGeneratedCodeVersion1
/// ```
///
/// When a change to the runtime breaks the code that an older trove-gen wrote, the runtime
/// replaces this type by `TroveGeneratedCodeVersion2` (and the generator follows). Stale
/// generated code then fails to compile with an error naming the missing version, instead of
/// compiling against an interface it does not match and reading data wrong. The fix is to
/// regenerate: `swift package --allow-writing-to-package-directory trove`, or rebuild when the
/// build plugin is applied.
///
/// The type has no values (nothing to send, so no `Sendable` conformance): only its name matters.
///
/// - Important: Remove this type only together with a change of the generated-code interface,
///   and never reuse a retired version number.
public enum TroveGeneratedCodeVersion1 {}
