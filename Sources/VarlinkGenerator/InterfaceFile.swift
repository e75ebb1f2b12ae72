import Varlink

/// A `.varlink` interface file: its definition, the doc comments and annotations the parser skips, and the text
/// a service serves.
///
/// Comments directly above a declaration (`interface`, `type`, `method`, `error`) or above a field of a type
/// document it. A comment line that is only `@word` is an annotation of the method below it, not a doc line,
/// and is left out of the served description:
///
/// - `# @open`: any local user may call the method (the generated `openMethods` lists it);
/// - `# @requires-more`: the method only streams; a call without `more` gets `ExpectedMore`;
/// - `# @large-reply`: the method's reply can be megabytes: it waits for room in the server's backlog of unread
///   replies and is encoded off the event loop (``VarlinkMethod/typed(_:largeReply:_:)``).
public struct InterfaceFile: Sendable {
    /// What an annotation says about a method.
    public enum Annotation: String, Sendable, CaseIterable {
        /// Any local user may call the method.
        case open
        /// The method only streams its replies.
        case requiresMore = "requires-more"
        /// The method's reply can be megabytes.
        case largeReply = "large-reply"
    }

    /// The interface, parsed and checked by the IDL parser.
    public let definition: VarlinkInterfaceDefinition
    /// The description a service serves: the file without its annotation lines.
    public let servedDescription: String
    /// The interface's doc comment (the comment above `interface`).
    public let interfaceDocs: [String]
    /// Doc comments of types, methods and errors, by name.
    public let declarationDocs: [String: [String]]
    /// Doc comments of fields, by type (or method, or error) name, then field name.
    public let fieldDocs: [String: [String: [String]]]
    /// Annotations of methods, by method name.
    public let annotations: [String: Set<Annotation>]
    /// Type, method and error names in the order the file declares them.
    public let declarationOrder: [String]

    /// Reads a file's text; `fileName` names it in errors.
    public init(text: String, fileName: String) throws(GeneratorError) {
        var served: [Substring] = []
        var pendingDocs: [String] = []
        var pendingAnnotations: Set<Annotation> = []
        var current: String?
        var interfaceDocs: [String] = []
        var declarationDocs: [String: [String]] = [:]
        var fieldDocs: [String: [String: [String]]] = [:]
        var annotations: [String: Set<Annotation>] = [:]
        var order: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("#") {
                var comment = trimmed.dropFirst()
                if comment.hasPrefix(" ") { comment = comment.dropFirst() }
                if comment.hasPrefix("@") {
                    let word = comment.dropFirst().trimmingTrailingSpaces()
                    guard let annotation = Annotation(rawValue: String(word)) else {
                        throw GeneratorError("\(fileName):\(index + 1): unknown annotation @\(word)")
                    }
                    pendingAnnotations.insert(annotation)
                    continue
                }
                pendingDocs.append(String(comment.trimmingTrailingSpaces()))
                served.append(line)
                continue
            }
            served.append(line)
            let words = trimmed.split(whereSeparator: { " \t(:".contains($0) })
            if let keyword = words.first, ["interface", "type", "method", "error"].contains(keyword), words.count > 1 {
                let name = String(words[1])
                if keyword == "interface" {
                    interfaceDocs = pendingDocs
                } else {
                    declarationDocs[name] = pendingDocs
                    order.append(name)
                    current = name
                }
                if !pendingAnnotations.isEmpty {
                    guard keyword == "method" else {
                        throw GeneratorError("\(fileName):\(index + 1): annotations belong above a method")
                    }
                    annotations[name] = pendingAnnotations
                }
            } else if let current, let colon = trimmed.firstIndex(of: ":"), !pendingDocs.isEmpty {
                let field = trimmed[..<colon].trimmingTrailingSpaces()
                if !field.isEmpty, field.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                    fieldDocs[current, default: [:]][String(field)] = pendingDocs
                }
            } else if !pendingAnnotations.isEmpty {
                throw GeneratorError("\(fileName):\(index + 1): annotations belong above a method")
            }
            pendingDocs = []
            pendingAnnotations = []
        }
        let servedDescription = served.joined(separator: "\n")
        do {
            definition = try VarlinkInterfaceDefinition(parsing: servedDescription)
        } catch {
            throw GeneratorError("\(fileName): \(error)")
        }
        guard fileName.hasSuffix("/\(definition.name).varlink") || fileName == "\(definition.name).varlink" else {
            throw GeneratorError(
                "\(fileName): the file of interface \(definition.name) must be \(definition.name).varlink")
        }
        self.servedDescription = servedDescription
        self.interfaceDocs = interfaceDocs
        self.declarationDocs = declarationDocs
        self.fieldDocs = fieldDocs
        self.annotations = annotations
        self.declarationOrder = order
    }
}

/// Why code cannot be generated, with the file and line when there is one.
public struct GeneratorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, said for people.
    public var description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}

extension Substring {
    fileprivate func trimmingTrailingSpaces() -> Substring {
        var result = self
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
