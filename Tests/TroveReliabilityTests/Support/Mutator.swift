import TroveTestSupport

/// Seeded mutations of real encodings, in the manner of a fuzzer: truncations, extensions, bit
/// flips, interesting bytes, insertions, deletions, duplicated and swapped chunks, runs of 0xFF
/// that make giant varints and lengths.
enum Mutator {
    static func mutate(_ original: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = original
        for _ in 0..<(1 + Int(random.next() % 3)) {
            if bytes.isEmpty {
                bytes = [UInt8(truncatingIfNeeded: random.next())]
                continue
            }
            let index = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 10 {
            case 0:
                bytes.removeSubrange(Int(random.next() % UInt64(bytes.count))...)
            case 1:
                bytes += (0..<(1 + Int(random.next() % 16))).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            case 2, 3:
                bytes[index] ^= 1 << (random.next() % 8)
            case 4:
                bytes[index] = [0x00, 0x01, 0x02, 0x05, 0x7F, 0x80, 0xFE, 0xFF][Int(random.next() % 8)]
            case 5:
                bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
            case 6:
                bytes.removeSubrange(index..<min(bytes.count, index + 1 + Int(random.next() % 8)))
            case 7:
                let end = min(bytes.count, index + 1 + Int(random.next() % 32))
                bytes.insert(contentsOf: bytes[index..<end], at: Int(random.next() % UInt64(bytes.count)))
            case 8:
                let end = min(bytes.count, index + 1 + Int(random.next() % 10))
                bytes.replaceSubrange(index..<end, with: repeatElement(0xFF, count: end - index))
            default:
                let other = Int(random.next() % UInt64(bytes.count))
                let length = min(1 + Int(random.next() % 8), bytes.count - max(index, other))
                if length > 0 {
                    for offset in 0..<length { bytes.swapAt(index + offset, other + offset) }
                }
            }
        }
        return bytes
    }
}
