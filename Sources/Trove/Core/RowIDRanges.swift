/// Row ids gathered into ranges of consecutive ids, for statements that act on a range
/// (`rowid >= ?1 AND rowid <= ?2`) instead of on one row at a time: items written together have
/// consecutive row ids, so the rows a removal batches (the sources of one destination) mostly fall
/// in a few ranges.
enum RowIDRanges {
    /// The ranges of consecutive ids that `rowIDs` cover, in ascending order; every id in a range
    /// is one of `rowIDs`, and repeats count once.
    static func of(_ rowIDs: some Sequence<Int64>) -> [ClosedRange<Int64>] {
        var sorted = Array(rowIDs)
        sorted.sort()
        var ranges: [ClosedRange<Int64>] = []
        var index = 0
        while index < sorted.count {
            let first = sorted[index]
            var last = first
            index += 1
            while index < sorted.count, sorted[index] <= last &+ 1 {
                last = sorted[index]
                index += 1
            }
            ranges.append(first...last)
        }
        return ranges
    }
}
