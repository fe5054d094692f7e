/// Finds, in the text of a package manifest, the targets that apply a build-tool plugin.
///
/// A command plugin is not told which plugins a target applies (PackagePlugin has no such property), so
/// `swift package trove --check` reads it from `Package.swift`. It recognises the usual spelling, a plugin
/// usage written inside the `plugins:` argument of the call that declares the target:
///
///     .target(name: "App", plugins: [.plugin(name: "TrovePlugin", package: "Trove")])
///     .target(name: "App", plugins: ["TrovePlugin"])
///
/// A usage it cannot tie to a target (a `plugins:` array kept in a variable, a target name that is not a
/// string literal) is not found: such a target is treated as not applying the plugin.
///
/// This file depends on nothing but the standard library, so that a test target can compile it too
/// (`Tests/TrovePluginSupportTests`, through a symlink). It is shared by the plugins through the `Shared`
/// symlink in each plugin folder.
enum ManifestScanner {
    /// The names of the targets that `manifest` declares with a usage of the plugin `pluginName`.
    static func targetsApplyingPlugin(named pluginName: String, inManifest manifest: String) -> Set<String> {
        let tokens = tokenize(manifest)
        var result: Set<String> = []
        var frames: [Frame] = []

        for (index, token) in tokens.enumerated() {
            switch token {
            case .open(let isParenthesis):
                var frame = Frame(isParenthesis: isParenthesis)
                if isParenthesis, index >= 2, case .identifier(let callee) = tokens[index - 1],
                    tokens[index - 2] == .dot
                {
                    frame.callee = callee
                } else if !isParenthesis, index >= 2, tokens[index - 1] == .colon,
                    case .identifier(let label) = tokens[index - 2]
                {
                    frame.label = label
                }
                frames.append(frame)

            case .close:
                guard let frame = frames.popLast() else { continue }
                if frame.isParenthesis, frame.callee == "plugin", frame.nameArgument == pluginName {
                    markTarget(aroundPluginsArray: &frames)
                }
                if frame.appliesPlugin, let name = frame.nameArgument {
                    result.insert(name)
                }

            case .string(let value):
                guard let value, var frame = frames.last else { continue }
                let previous = index >= 1 ? tokens[index - 1] : nil
                let next = index + 1 < tokens.count ? tokens[index + 1] : nil
                let endsArgument = next == .comma || next == .close
                if frame.isParenthesis, endsArgument, previous == .colon, index >= 2,
                    tokens[index - 2] == .identifier("name"), index >= 3,
                    tokens[index - 3] == .comma || tokens[index - 3] == .open(isParenthesis: true)
                {
                    frame.nameArgument = value
                    frames[frames.count - 1] = frame
                } else if !frame.isParenthesis, frame.label == "plugins", value == pluginName, endsArgument,
                    previous == .comma || previous == .open(isParenthesis: false)
                {
                    // `plugins: ["TrovePlugin"]`: a plugin usage written as a string literal.
                    markTarget(aroundPluginsArray: &frames)
                }

            default:
                break
            }
        }
        return result
    }

    /// A parenthesis or bracket that is open at the current token.
    private struct Frame {
        var isParenthesis: Bool
        /// For `.callee(`: the name of the member called.
        var callee: String?
        /// For `label: [`: the argument label of the array.
        var label: String?
        /// For a parenthesis: the string literal of its `name:` argument.
        var nameArgument: String?
        /// For a parenthesis: whether a plugin usage of the plugin was found in its `plugins:` array.
        var appliesPlugin = false
    }

    /// Marks the target declaration of a plugin usage that sits directly in the top frame: that frame must be
    /// a `plugins: [...]` array, an argument of the call below it.
    private static func markTarget(aroundPluginsArray frames: inout [Frame]) {
        let count = frames.count
        guard count >= 2, !frames[count - 1].isParenthesis, frames[count - 1].label == "plugins",
            frames[count - 2].isParenthesis
        else { return }
        frames[count - 2].appliesPlugin = true
    }

    private enum Token: Equatable {
        case identifier(String)
        /// A string literal; `nil` when it is not a one-line literal without interpolation.
        case string(String?)
        case open(isParenthesis: Bool)
        case close
        case dot
        case colon
        case comma
        case other
    }

    /// Splits Swift source into the few tokens the scanner needs; comments and whitespace are dropped.
    private static func tokenize(_ text: String) -> [Token] {
        let scalars = Array(text.unicodeScalars)
        var tokens: [Token] = []
        var index = 0

        func peek(_ offset: Int) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }

        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case " ", "\t", "\n", "\r":
                index += 1
            case "/" where peek(1) == "/":
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            case "/" where peek(1) == "*":
                // Block comments nest in Swift.
                var depth = 0
                while index < scalars.count {
                    if scalars[index] == "/", peek(1) == "*" {
                        depth += 1
                        index += 2
                    } else if scalars[index] == "*", peek(1) == "/" {
                        depth -= 1
                        index += 2
                        if depth == 0 { break }
                    } else {
                        index += 1
                    }
                }
            case "#" where peek(1) == "\"" || peek(1) == "#":
                var hashes = 0
                while index < scalars.count, scalars[index] == "#" {
                    hashes += 1
                    index += 1
                }
                if index < scalars.count, scalars[index] == "\"" {
                    let literal = readString(scalars, &index, hashes: hashes)
                    tokens.append(.string(literal.isPlain ? literal.value : nil))
                } else {
                    tokens.append(.other)
                }
            case "\"":
                let literal = readString(scalars, &index, hashes: 0)
                tokens.append(.string(literal.isPlain ? literal.value : nil))
            case "(", "[":
                tokens.append(.open(isParenthesis: scalar == "("))
                index += 1
            case ")", "]":
                tokens.append(.close)
                index += 1
            case ".":
                tokens.append(.dot)
                index += 1
            case ":":
                tokens.append(.colon)
                index += 1
            case ",":
                tokens.append(.comma)
                index += 1
            default:
                if scalar == "_" || scalar.properties.isAlphabetic {
                    var name = ""
                    while index < scalars.count,
                        scalars[index] == "_" || scalars[index].properties.isAlphabetic
                            || ("0"..."9").contains(scalars[index])
                    {
                        name.unicodeScalars.append(scalars[index])
                        index += 1
                    }
                    tokens.append(.identifier(name))
                } else {
                    tokens.append(.other)
                    index += 1
                }
            }
        }
        return tokens
    }

    /// Reads a string literal that starts at `index` (its opening quote, after any `#`), and moves `index`
    /// past its end. `isPlain` is false for multi-line and interpolated literals.
    private static func readString(
        _ scalars: [Unicode.Scalar],
        _ index: inout Int,
        hashes: Int
    ) -> (value: String, isPlain: Bool) {
        let isMultiline = index + 2 < scalars.count && scalars[index + 1] == "\"" && scalars[index + 2] == "\""
        let quoteCount = isMultiline ? 3 : 1
        index += quoteCount
        var value = ""
        var isPlain = !isMultiline

        func closesHere() -> Bool {
            guard index + quoteCount + hashes <= scalars.count else { return false }
            for offset in 0..<quoteCount where scalars[index + offset] != "\"" { return false }
            for offset in 0..<hashes where scalars[index + quoteCount + offset] != "#" { return false }
            return true
        }

        while index < scalars.count {
            if closesHere() {
                index += quoteCount + hashes
                return (value, isPlain)
            }
            let scalar = scalars[index]
            if !isMultiline, scalar == "\n" {
                // An unterminated literal: stop at the end of the line.
                return (value, false)
            }
            if scalar == "\\" {
                var escapeHashes = 0
                while escapeHashes < hashes, index + 1 + escapeHashes < scalars.count,
                    scalars[index + 1 + escapeHashes] == "#"
                {
                    escapeHashes += 1
                }
                if escapeHashes == hashes, index + 1 + hashes < scalars.count {
                    let escaped = scalars[index + 1 + hashes]
                    index += 2 + hashes
                    if escaped == "(" {
                        // An interpolation: skip to its balanced closing parenthesis.
                        isPlain = false
                        var depth = 1
                        while index < scalars.count, depth > 0 {
                            if scalars[index] == "(" { depth += 1 }
                            if scalars[index] == ")" { depth -= 1 }
                            index += 1
                        }
                    } else {
                        value.unicodeScalars.append(escaped)
                    }
                    continue
                }
            }
            value.unicodeScalars.append(scalar)
            index += 1
        }
        return (value, false)
    }
}
