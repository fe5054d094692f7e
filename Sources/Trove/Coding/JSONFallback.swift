import Foundation

/// The JSON coding behind the `Codable` fallbacks: ``BinaryWriter/encode(_:field:)-(Encodable,_)``,
/// ``BinaryReader/decode(_:from:field:)-(Decodable.Type,_,_)`` and ``CodableCoder``.
///
/// A fresh `JSONEncoder` or `JSONDecoder` is made per call: the fallback is not a hot path, and
/// no coder object is shared between threads.
@usableFromInline
internal enum JSONFallback {
    /// Encodes `value` as JSON with sorted keys, so that equal values give equal bytes.
    @usableFromInline
    static func encode<V: Encodable>(_ value: V, field: String? = nil) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(value)
        } catch {
            throw TroveError.encodingFailed(
                "\(V.self) could not be encoded as JSON", field: field,
                underlyingError: DescribedError.sendable(error))
        }
    }

    /// Decodes a `V` from JSON bytes.
    @usableFromInline
    static func decode<V: Decodable>(_ type: V.Type, from bytes: UnsafeRawBufferPointer, field: String?) throws -> V {
        let data = Data(bytes)
        do {
            return try JSONDecoder().decode(V.self, from: data)
        } catch {
            var troveError = TroveError.corruptData("the JSON of \(V.self) does not decode", field: field)
            troveError.underlyingError = DescribedError.sendable(error)
            throw troveError
        }
    }
}

/// A `Sendable` stand-in for an error that is not known to be `Sendable` (one thrown by a
/// user's `init(from:)` or `encode(to:)`), keeping its description.
struct DescribedError: Error, Sendable, CustomStringConvertible {
    /// The description of the original error.
    let description: String

    /// Captures the description of `error`.
    init(_ error: any Error) {
        description = String(describing: error)
    }

    /// Returns `error` itself when its type is known to be `Sendable` (`EncodingError`,
    /// `DecodingError`, ``TroveError``), and its description otherwise.
    static func sendable(_ error: any Error) -> any Error & Sendable {
        switch error {
        case let error as DecodingError: error
        case let error as EncodingError: error
        case let error as TroveError: error
        default: DescribedError(error)
        }
    }
}
