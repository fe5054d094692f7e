import Foundation

/// Public types get public generated members.
// @persistable(collection: "products")
public struct Product: Sendable {
    // @key
    public var sku: String
    public var price: Decimal
    // @metadata
    public var info: ProductInfo?
}

// @coded
public struct ProductInfo: Sendable {
    public var views: Int
}

/// A package type gets package members.
// @coded
package struct Dimensions: Sendable {
    package var width: Double
    package var height: Double
}
