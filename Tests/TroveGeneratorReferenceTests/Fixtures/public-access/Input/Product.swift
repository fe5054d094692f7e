import Foundation

/// Public types get public generated members.
// @persistable(collection: "products")
public struct Product: Sendable {
    // @key
    public var sku: String
    public var price: Decimal
    /// Public types get a public index and public queries.
    // @indexed(unique: true)
    public var barcode: String?
    // @metadata
    public var info: ProductInfo?
}

// @coded
public struct ProductInfo: Sendable {
    /// A metadata field, read through the generated `metadata` accessor of `info`.
    // @indexed
    public var views: Int
}

/// A package type gets package members.
// @coded
package struct Dimensions: Sendable {
    package var width: Double
    package var height: Double
}
