/// A small unified diff of two texts, line by line, for failure messages.
enum UnifiedDiff {
    /// The lines of `expected` and `actual` in unified-diff form, with three lines of context.
    static func make(expected: String, actual: String, name: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Longest common subsequence table.
        var table = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var lines: [(Character, String)] = []
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                lines.append((" ", old[i])); i += 1; j += 1
            } else if j < new.count, i == old.count || table[i][j + 1] >= table[i + 1][j] {
                lines.append(("+", new[j])); j += 1
            } else {
                lines.append(("-", old[i])); i += 1
            }
        }
        var output = ["--- Expected/\(name)", "+++ generated/\(name)"]
        let changed = lines.indices.filter { lines[$0].0 != " " }
        var printed = Set<Int>()
        for index in changed {
            let range = max(0, index - 3)...min(lines.count - 1, index + 3)
            if let first = range.first, !printed.contains(first), !printed.isEmpty, !printed.contains(first - 1) {
                output.append("@@")
            }
            for line in range where printed.insert(line).inserted {
                output.append("\(lines[line].0)\(lines[line].1)")
            }
        }
        return output.joined(separator: "\n")
    }
}
