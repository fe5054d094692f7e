/// A rectangle in two dimensions, its sides parallel to the axes: the bounding box of an item in
/// a ``SpatialIndex``, or the box a ``SpatialQuery`` looks in. A point is a box of zero size
/// (``point(x:y:)``).
public struct SpatialBox: Sendable, Hashable {
    /// The smallest x.
    public var minX: Double
    /// The largest x.
    public var maxX: Double
    /// The smallest y.
    public var minY: Double
    /// The largest y.
    public var maxY: Double

    /// The box from `minX` to `maxX` and from `minY` to `maxY`. An index refuses an item whose
    /// box has a minimum above its maximum or a coordinate that is not finite.
    public init(minX: Double, maxX: Double, minY: Double, maxY: Double) {
        self.minX = minX
        self.maxX = maxX
        self.minY = minY
        self.maxY = maxY
    }

    /// The box of zero size at (`x`, `y`).
    public static func point(x: Double, y: Double) -> SpatialBox {
        SpatialBox(minX: x, maxX: x, minY: y, maxY: y)
    }

    /// Whether the box and `other` share at least one point (their edges count).
    public func intersects(_ other: SpatialBox) -> Bool {
        minX <= other.maxX && maxX >= other.minX && minY <= other.maxY && maxY >= other.minY
    }

    /// Whether every point of the box is in `other` (its edges count).
    public func isWithin(_ other: SpatialBox) -> Bool {
        minX >= other.minX && maxX <= other.maxX && minY >= other.minY && maxY <= other.maxY
    }

    /// The square of the Euclidean distance from `point` to the nearest point of the box: 0 when
    /// `point` is in it. What ``SpatialIndex/query(near:within:)`` orders by, computed the same
    /// way.
    public func squaredDistance(to point: SpatialPoint) -> Double {
        let dx = Swift.max(minX - point.x, point.x - maxX, 0)
        let dy = Swift.max(minY - point.y, point.y - maxY, 0)
        return dx * dx + dy * dy
    }

    /// Whether the box can be stored: finite coordinates, each minimum at most its maximum.
    var isValid: Bool {
        minX.isFinite && maxX.isFinite && minY.isFinite && maxY.isFinite && minX <= maxX && minY <= maxY
    }
}

/// A point in two dimensions: the center of a ``SpatialIndex/query(near:within:)``.
public struct SpatialPoint: Sendable, Hashable {
    /// The x coordinate.
    public var x: Double
    /// The y coordinate.
    public var y: Double

    /// The point (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
