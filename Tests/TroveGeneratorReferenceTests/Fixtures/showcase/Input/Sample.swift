import Foundation

/// A final class holding every standard type; decoded through its initializer.
// @persistable(collection: "samples")
final class Sample: Sendable {
    let id: Int
    let flag: Bool
    let int8: Int8
    let int16: Int16
    let int32: Int32
    let int64: Int64
    let uint: UInt
    let uint8: UInt8
    let uint16: UInt16
    let uint32: UInt32
    let uint64: UInt64
    let float: Float
    let double: Double
    let string: String
    let data: Data
    let date: Date
    let uuid: UUID
    let url: URL
    let decimal: Decimal
    let point: Point
    let priority: Priority
    let optionalURL: URL?
    /// A constant: not stored.
    let version = 1

    nonisolated init(
        id: Int, flag: Bool, int8: Int8, int16: Int16, int32: Int32, int64: Int64, uint: UInt, uint8: UInt8,
        uint16: UInt16, uint32: UInt32, uint64: UInt64, float: Float, double: Double, string: String, data: Data,
        date: Date, uuid: UUID, url: URL, decimal: Decimal, point: Point, priority: Priority, optionalURL: URL?
    ) {
        self.id = id
        self.flag = flag
        self.int8 = int8
        self.int16 = int16
        self.int32 = int32
        self.int64 = int64
        self.uint = uint
        self.uint8 = uint8
        self.uint16 = uint16
        self.uint32 = uint32
        self.uint64 = uint64
        self.float = float
        self.double = double
        self.string = string
        self.data = data
        self.date = date
        self.uuid = uuid
        self.url = url
        self.decimal = decimal
        self.point = point
        self.priority = priority
        self.optionalURL = optionalURL
    }
}
