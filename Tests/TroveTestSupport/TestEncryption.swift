import Foundation
import Trove

/// The key the tests' database files are encrypted with: the passphrase in the environment
/// variable `TROVE_TEST_ENCRYPTION_KEY`, for a run of the crash and snapshot suites on encrypted
/// files (a build with the package trait `Encryption`); `nil` otherwise. Child processes inherit
/// the variable, so a parent and its `trove-crash-writer` open the same files alike.
public enum TestEncryption {
    /// The key, or `nil`: a raw key made of the variable's bytes (a passphrase would be
    /// stretched by 256,000 rounds of PBKDF2 at every connection the suites open, seconds in a
    /// debug build; the passphrase path has tests of its own).
    public static let key: EncryptionKey? = ProcessInfo.processInfo.environment["TROVE_TEST_ENCRYPTION_KEY"].map {
        rawKey($0)
    }

    /// A raw key of 32 bytes made of the UTF-8 of `text`, repeated.
    public static func rawKey(_ text: String) -> EncryptionKey {
        // 32 bytes, so `raw` cannot throw.
        try! EncryptionKey.raw(rawKeyBytes(text))
    }

    /// The bytes of ``rawKey(_:)``.
    public static func rawKeyBytes(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        return (0..<32).map { bytes.isEmpty ? 0 : bytes[$0 % bytes.count] }
    }

    /// ``key`` as SQLite3 Multiple Ciphers takes a raw key (`x'…'`, 64 hexadecimal digits), for
    /// tests that open the files with SQLite's C API; `nil` without a key.
    public static let keyLiteral: String? = ProcessInfo.processInfo.environment["TROVE_TEST_ENCRYPTION_KEY"].map {
        "x'" + rawKeyBytes($0).map { String(format: "%02X", $0) }.joined() + "'"
    }

    /// A default configuration with ``key``.
    public static var configuration: Configuration {
        var configuration = Configuration()
        configuration.encryptionKey = key
        return configuration
    }
}
