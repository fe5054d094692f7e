/// The key of an encrypted database file: every page of the file and of its write-ahead log is
/// encrypted with it, items, keys, metadata, indexes and full-text search alike.
///
/// Encryption needs Trove built with its package trait `Encryption`, which compiles SQLite3
/// Multiple Ciphers into Trove in place of the system's SQLite:
///
/// ```swift
/// // Package.swift of the app
/// .package(url: "https://github.com/trove/trove", from: "1.0.0", traits: ["Encryption"])
/// ```
///
/// ```swift
/// var configuration = Configuration()
/// configuration.encryptionKey = .passphrase(passphraseFromKeychain)
/// let database = try Database(path: path, configuration: configuration, models: [User.self])
/// ```
///
/// The scheme is SQLCipher 4's (AES-256 in CBC mode per page, HMAC-SHA512 per page, the key
/// derived from a passphrase by PBKDF2-HMAC-SHA512 with 256,000 iterations and a random salt kept
/// in the file's first bytes): SQLCipher 4's tools open the files. Temporary tables and sort
/// files stay in memory, so nothing of the database reaches the disk unencrypted.
///
/// Deriving a passphrase's key takes about a fifth of a second, on purpose. A ``Database``
/// derives it once when it opens a file (twice when it creates one), and every connection it
/// opens later, the reader pool's included, uses the derived key: no derivation after the open.
/// A ``raw(_:)`` key is never derived.
///
/// A key is never printed: its `description` hides it.
public struct EncryptionKey: Sendable, Hashable, CustomStringConvertible {
    /// The bytes given to SQLite3 Multiple Ciphers.
    let material: [UInt8]
    /// Whether the material is a passphrase, which each connection keyed with it derives a key
    /// from (PBKDF2): a database derives it once and gives its other connections the result
    /// (``derived(key:salt:)``).
    let isPassphrase: Bool

    private init(material: [UInt8], isPassphrase: Bool = false) {
        self.material = material
        self.isPassphrase = isPassphrase
    }

    /// A key derived from a passphrase (PBKDF2 with the file's salt): what a user types, or a
    /// secret from the keychain.
    ///
    /// - Parameter passphrase: The passphrase, not empty (an empty key means no encryption).
    /// - Returns: The key.
    public static func passphrase(_ passphrase: String) -> EncryptionKey {
        EncryptionKey(material: Array(passphrase.utf8), isPassphrase: true)
    }

    /// A raw 256-bit key, used as it is (no derivation): for keys made by a key-management
    /// system, as SQLCipher's raw keys.
    ///
    /// - Parameter bytes: The 32 bytes of the key.
    /// - Returns: The key.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/misuse`` when `bytes` is not 32 bytes.
    public static func raw(_ bytes: some Sequence<UInt8>) throws -> EncryptionKey {
        let bytes = Array(bytes)
        guard bytes.count == 32 else {
            throw TroveError(
                code: .misuse, message: "A raw encryption key has 32 bytes (256 bits); this one has \(bytes.count).")
        }
        return EncryptionKey(material: Array("x'".utf8) + hexadecimal(bytes) + Array("'".utf8))
    }

    /// The key a passphrase derives with a file's salt, used raw with that salt (SQLCipher's
    /// `x'<key><salt>'`): what a database gives its connections after the first, so that the
    /// derivation runs once per database instead of once per connection.
    ///
    /// - Parameters:
    ///   - key: The 32 bytes derived.
    ///   - salt: The 16 bytes of the file's salt.
    static func derived(key: [UInt8], salt: [UInt8]) -> EncryptionKey {
        EncryptionKey(material: Array("x'".utf8) + hexadecimal(key) + hexadecimal(salt) + Array("'".utf8))
    }

    /// `bytes` in upper-case hexadecimal, as ASCII.
    private static func hexadecimal(_ bytes: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        return bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }
    }

    /// Hidden: a key must not reach a log.
    public var description: String { "EncryptionKey(hidden)" }

    /// Whether this build of Trove can encrypt files: whether the package trait `Encryption` is
    /// enabled. A key given to a build that cannot is refused, never ignored.
    public static var isAvailable: Bool {
        #if Encryption
        true
        #else
        false
        #endif
    }
}
