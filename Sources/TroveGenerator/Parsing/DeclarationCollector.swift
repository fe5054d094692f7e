import SwiftParser
import SwiftSyntax

/// Walks one parsed file and collects every type that carries an annotation, with the members
/// the generator needs, and every annotation comment that is malformed or attached to nothing
/// trove-gen reads.
///
/// Function, initializer and accessor bodies are skipped: a type declared inside a function
/// cannot be extended from another file.
final class DeclarationCollector: SyntaxVisitor {
    private let path: String
    private let converter: SourceLocationConverter
    /// The enclosing type or extension declarations: their name and the access level they cap
    /// nested declarations to.
    private var scope: [(name: String, access: AccessLevel?)] = []
    private var types: [ParsedType] = []
    private var extensionInitializers: [String: [[String]]] = [:]
    private var declaredTypes: [String] = []
    private var diagnostics: [Diagnostic] = []
    /// The UTF-8 offsets of the `@` of every annotation read as part of a declaration.
    private var consumed: Set<Int> = []
    /// The file's text, for ``ParsedType/sourceDigest``.
    private let source: String

    /// Parses `source` and collects its annotated declarations.
    ///
    /// - Parameters:
    ///   - source: The file's text.
    ///   - path: The path used in locations.
    /// - Returns: The annotated types and the diagnostics of the file.
    static func collect(_ source: String, path: String) -> ParsedFile {
        let tree = Parser.parse(source: source)
        let collector = DeclarationCollector(path: path, tree: tree, source: source)
        collector.walk(tree)
        collector.reportStrayAnnotations(in: tree)
        return ParsedFile(
            path: path,
            types: collector.types,
            extensionInitializers: collector.extensionInitializers,
            declaredTypes: collector.declaredTypes,
            diagnostics: collector.diagnostics)
    }

    private init(path: String, tree: SourceFileSyntax, source: String) {
        self.path = path
        self.converter = SourceLocationConverter(fileName: path, tree: tree)
        self.source = source
        super.init(viewMode: .sourceAccurate)
    }

    // MARK: Scopes

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        enterGenericType(node, kind: .struct)
    }
    override func visitPost(_ node: StructDeclSyntax) { scope.removeLast() }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        enterGenericType(node, kind: .class)
    }
    override func visitPost(_ node: ClassDeclSyntax) { scope.removeLast() }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        enterGenericType(node, kind: .enum)
    }
    override func visitPost(_ node: EnumDeclSyntax) { scope.removeLast() }

    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        enterGenericType(node, kind: .actor)
    }
    override func visitPost(_ node: ActorDeclSyntax) { scope.removeLast() }

    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        enterType(
            DeclSyntax(node), name: node.name, kind: .protocol, modifiers: node.modifiers,
            isGeneric: false, inheritance: node.inheritanceClause, members: node.memberBlock)
        return .visitChildren
    }
    override func visitPost(_ node: ProtocolDeclSyntax) { scope.removeLast() }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = qualified(node.extendedType.sourceText)
        scope.append((name, explicitAccess(node.modifiers)))
        for member in node.memberBlock.members {
            if let initializer = member.decl.as(InitializerDeclSyntax.self) {
                extensionInitializers[name, default: []].append(labels(of: initializer))
            }
        }
        return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { scope.removeLast() }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        declaredTypes.append(qualified(unescaped(node.name.text)))
        return .skipChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    // MARK: Types

    /// A digest of the file's text before `end` (a UTF-8 offset of the tree, which is the text's).
    private func sourceDigest(upTo end: Int) -> String {
        var source = source
        let digest = source.withUTF8 { bytes in
            ContentDigest(of: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[..<min(end, bytes.count)])))
        }
        return String(digest.first, radix: 16) + "." + String(digest.second, radix: 16)
    }

    /// Enters a struct, class, enum or actor: the declarations that may have generic parameters.
    private func enterGenericType(
        _ node: some DeclGroupSyntax & NamedDeclSyntax & WithGenericParametersSyntax, kind: ParsedType.Kind
    ) -> SyntaxVisitorContinueKind {
        enterType(
            DeclSyntax(node), name: node.name, kind: kind, modifiers: node.modifiers,
            isGeneric: node.genericParameterClause != nil, inheritance: node.inheritanceClause,
            members: node.memberBlock)
        return .visitChildren
    }

    private func enterType(
        _ node: DeclSyntax, name: TokenSyntax, kind: ParsedType.Kind, modifiers: DeclModifierListSyntax,
        isGeneric: Bool, inheritance: InheritanceClauseSyntax?, members: MemberBlockSyntax
    ) {
        let simpleName = unescaped(name.text)
        let qualifiedName = qualified(simpleName)
        let ownAccess = explicitAccess(modifiers) ?? .internal
        let access = scope.compactMap(\.access).reduce(ownAccess, min)
        scope.append((qualifiedName, ownAccess))
        declaredTypes.append(qualifiedName)

        let annotations = readAnnotations(node.leadingTrivia, at: node.position)
        guard annotations.contains(where: { AnnotationName(rawValue: $0.name)?.appliesToTypes == true }) else {
            // Not a type of ours: its annotations stay unconsumed and are reported as stray.
            annotations.forEach { consumed.remove(offset(of: $0)) }
            return
        }
        var type = ParsedType(
            qualifiedName: qualifiedName,
            kind: kind,
            isFinal: modifiers.contains { $0.name.tokenKind == .keyword(.final) },
            access: access,
            isGeneric: isGeneric,
            inheritedTypes: inheritance?.inheritedTypes.map { $0.type.sourceText } ?? [],
            annotations: annotations,
            location: location(of: name.positionAfterSkippingLeadingTrivia),
            properties: [],
            cases: [],
            initializers: [],
            sourceDigest: sourceDigest(upTo: node.endPositionBeforeTrailingTrivia.utf8Offset))
        for member in members.members {
            let decl = member.decl
            if let variable = decl.as(VariableDeclSyntax.self) {
                type.properties += properties(of: variable)
            } else if let enumCase = decl.as(EnumCaseDeclSyntax.self) {
                type.cases += enumCase.elements.map(parsedCase)
            } else if let initializer = decl.as(InitializerDeclSyntax.self) {
                type.initializers.append(labels(of: initializer))
            }
        }
        types.append(type)
    }

    private func properties(of variable: VariableDeclSyntax) -> [ParsedProperty] {
        let annotations = readAnnotations(variable.leadingTrivia, at: variable.position)
        let modifiers = variable.modifiers
        let isStatic = modifiers.contains {
            $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
        }
        let isLazy = modifiers.contains { $0.name.tokenKind == .keyword(.lazy) }
        let access = explicitAccess(modifiers)
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        let bindings = Array(variable.bindings)
        var result: [ParsedProperty] = []
        for (index, binding) in bindings.enumerated() {
            guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
            // `var a, b: Int`: `a` takes its type from the next binding that has one.
            let declaredType =
                binding.typeAnnotation?.type
                ?? bindings[(index + 1)...].lazy.compactMap { $0.typeAnnotation?.type }.first
            let initializer = binding.initializer?.value
            let typeName = declaredType?.sourceText ?? initializer.flatMap(Self.literalType)
            let shape: TypeShape? =
                if let declaredType { TypeShape.of(declaredType) } else { typeName.map { .value($0) } }
            var isComputed = false
            if let accessorBlock = binding.accessorBlock {
                switch accessorBlock.accessors {
                case .getter:
                    isComputed = true
                case .accessors(let accessors):
                    isComputed = accessors.contains {
                        $0.accessorSpecifier.tokenKind != .keyword(.willSet)
                            && $0.accessorSpecifier.tokenKind != .keyword(.didSet)
                    }
                }
            }
            result.append(
                ParsedProperty(
                    name: unescaped(pattern.identifier.text),
                    typeName: typeName,
                    shape: shape,
                    defaultValue: initializer?.sourceText,
                    isLet: isLet,
                    isStatic: isStatic,
                    isComputed: isComputed,
                    isLazy: isLazy,
                    access: access,
                    annotations: annotations,
                    location: location(of: pattern.identifier.positionAfterSkippingLeadingTrivia)))
        }
        return result
    }

    /// The type of a literal initial value, for `var count = 0`.
    private static func literalType(_ expression: ExprSyntax) -> String? {
        if expression.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if expression.is(FloatLiteralExprSyntax.self) { return "Double" }
        if expression.is(StringLiteralExprSyntax.self) { return "String" }
        if expression.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return literalType(prefix.expression)
        }
        return nil
    }

    private func parsedCase(_ element: EnumCaseElementSyntax) -> ParsedCase {
        let parameters = element.parameterClause?.parameters.map { parameter in
            let label = (parameter.firstName?.text).map(unescaped).flatMap { $0 == "_" ? nil : $0 }
            return ParsedParameter(
                label: label,
                typeName: parameter.type.sourceText,
                shape: TypeShape.of(parameter.type),
                defaultValue: parameter.defaultValue?.value.sourceText,
                location: location(of: parameter.positionAfterSkippingLeadingTrivia))
        }
        return ParsedCase(
            name: unescaped(element.name.text),
            parameters: parameters ?? [],
            hasRawValue: element.rawValue != nil,
            location: location(of: element.name.positionAfterSkippingLeadingTrivia))
    }

    private func labels(of initializer: InitializerDeclSyntax) -> [String] {
        let labels = initializer.signature.parameterClause.parameters.map { unescaped($0.firstName.text) }
        // A failable initializer cannot be called by the decoder: mark it so it never matches.
        return initializer.optionalMark == nil ? labels : ["?"] + labels
    }

    // MARK: Annotations

    /// Reads the annotations in the comments of `trivia`, which starts at `start`, and marks
    /// them consumed. Malformed ones become diagnostics.
    private func readAnnotations(_ trivia: Trivia, at start: AbsolutePosition) -> [Annotation] {
        var annotations: [Annotation] = []
        forEachAnnotation(in: trivia, at: start) { outcome, atOffset in
            consumed.insert(atOffset)
            switch outcome {
            case .annotation(let annotation): annotations.append(annotation)
            case .malformed(let diagnostic): diagnostics.append(diagnostic)
            case .notAnAnnotation: break
            }
        }
        return annotations
    }

    private func forEachAnnotation(
        in trivia: Trivia, at start: AbsolutePosition, _ body: (AnnotationParser.Outcome, Int) -> Void
    ) {
        var position = start
        for piece in trivia {
            defer { position = position.advanced(by: piece.sourceLength.utf8Length) }
            guard case .lineComment(let text) = piece else { continue }
            let commentLocation = location(of: position)
            let outcome = AnnotationParser.parse(text, at: commentLocation)
            guard outcome != .notAnAnnotation else { continue }
            let atOffset = position.utf8Offset + (text.utf8.firstIndex(of: UInt8(ascii: "@")).map {
                text.utf8.distance(from: text.utf8.startIndex, to: $0)
            } ?? 0)
            body(outcome, atOffset)
        }
    }

    /// Reports annotations that no declaration read: misplaced known annotations, and
    /// misspelled ones (an unknown name close to a known one).
    private func reportStrayAnnotations(in tree: SourceFileSyntax) {
        for token in tree.tokens(viewMode: .sourceAccurate) {
            forEachAnnotation(in: token.leadingTrivia, at: token.position) { outcome, atOffset in
                guard !consumed.contains(atOffset) else { return }
                switch outcome {
                case .annotation(let annotation):
                    if let known = AnnotationName(rawValue: annotation.name) {
                        diagnostics.append(.error(Self.strayMessage(known), at: annotation.location))
                    } else if let suggestion = Self.suggestion(for: annotation.name) {
                        diagnostics.append(
                            .error(
                                "unknown annotation '@\(annotation.name)'; did you mean '@\(suggestion)'?",
                                at: annotation.location))
                    }
                case .malformed(let diagnostic):
                    diagnostics.append(diagnostic)
                case .notAnAnnotation:
                    break
                }
            }
        }
    }

    private static func strayMessage(_ name: AnnotationName) -> String {
        if name.appliesToTypes {
            return "'@\(name.rawValue)' must be written right above a struct, final class or enum declaration"
        }
        return "'@\(name.rawValue)' must be written right above a property of a type annotated "
            + "'@persistable' or '@coded'"
    }

    /// A known annotation name within two edits of `name`, if any.
    static func suggestion(for name: String) -> String? {
        let lowered = name.lowercased()
        return AnnotationName.allCases.map(\.rawValue).first { known in
            lowered == known || (known.count > 3 && editDistance(lowered, known) <= 2)
        }
    }

    private static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs.utf8), b = Array(rhs.utf8)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    // MARK: Helpers

    private func offset(of annotation: Annotation) -> Int {
        // Only used to un-consume: recompute from the location.
        let position = converter.position(ofLine: annotation.location.line, column: annotation.location.column)
        return position.utf8Offset
    }

    private func location(of position: AbsolutePosition) -> SourceLocation {
        let location = converter.location(for: position)
        return SourceLocation(path: path, line: location.line, column: location.column)
    }

    private func qualified(_ name: String) -> String {
        guard let outer = scope.last?.name else { return name }
        return "\(outer).\(name)"
    }

    private func explicitAccess(_ modifiers: DeclModifierListSyntax) -> AccessLevel? {
        for modifier in modifiers where modifier.detail == nil {
            if let level = AccessLevel(keyword: modifier.name.text) { return level }
        }
        return nil
    }

    private func unescaped(_ name: String) -> String {
        name.hasPrefix("`") && name.hasSuffix("`") && name.count > 1 ? String(name.dropFirst().dropLast()) : name
    }
}
