/// The samples of one measurement, in seconds.
struct Samples {
    private(set) var values: [Double] = []

    mutating func append(_ value: Double) {
        values.append(value)
    }

    var isEmpty: Bool { values.isEmpty }

    /// The median; the mean of the two middle values for an even count.
    var median: Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var minimum: Double { values.min() ?? .nan }
    var maximum: Double { values.max() ?? .nan }

    /// Half the range, relative to the median: how noisy the samples are.
    var spread: Double {
        values.count < 2 ? 0 : (maximum - minimum) / 2 / median
    }
}

/// Seconds as a short human figure: `412 µs`, `41.2 ms`, `4.12 s`.
func formatDuration(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "–" }
    func digits(_ value: Double) -> String {
        if value >= 100 { return String(Int(value.rounded())) }
        if value >= 10 { return String(format1: value) }
        return String(format2: value)
    }
    if seconds >= 1 { return digits(seconds) + " s" }
    if seconds >= 1e-3 { return digits(seconds * 1e3) + " ms" }
    return digits(seconds * 1e6) + " µs"
}

/// A ratio as `1.08×`.
func formatRatio(_ ratio: Double) -> String {
    guard ratio.isFinite else { return "–" }
    return ratio >= 100 ? "\(Int(ratio.rounded()))×" : (ratio >= 10 ? String(format1: ratio) : String(format2: ratio)) + "×"
}

extension String {
    /// `value` with one decimal.
    init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }

    /// `value` with two decimals.
    init(format2 value: Double) {
        let hundredths = Int((value * 100).rounded())
        let fraction = abs(hundredths % 100)
        self = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

/// The two header lines of a Markdown table whose first column is `corner` (row titles, left
/// aligned) and whose other columns, `columns`, hold figures (right aligned).
func tableHeader(_ columns: [String], corner: String = "") -> [String] {
    let first = corner.isEmpty ? "| |" : "| \(corner) |"
    return [first + " " + columns.joined(separator: " | ") + " |", "|---|" + columns.map { _ in "---:|" }.joined()]
}
