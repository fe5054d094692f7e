/// A marker of the version of the runtime interface that generated code is written against.
///
/// Every file written by trove-gen declares
///
/// ```swift
/// private typealias RequiresTroveRuntime = TroveGeneratedCodeVersion2
/// ```
///
/// When a change to the runtime breaks the code that an older trove-gen wrote, the runtime
/// replaces this type by `TroveGeneratedCodeVersion3` (and the generator follows). Stale
/// generated code then fails to compile with an error naming the missing version, instead of
/// compiling against an interface it does not match and reading data wrong. The fix is to
/// regenerate: `swift package --allow-writing-to-package-directory trove`, or rebuild when the
/// build plugin is applied.
///
/// Version 2: the entry points of generated code are SPI, and generated files import them with
/// `@_spi(TroveGenerated) import Trove` (version 1 imported `Trove` alone).
///
/// The type has no values (nothing to send, so no `Sendable` conformance): only its name matters.
///
/// - Important: Remove this type only together with a change of the generated-code interface,
///   and never reuse a retired version number.
@_spi(TroveGenerated)
public enum TroveGeneratedCodeVersion2 {}
