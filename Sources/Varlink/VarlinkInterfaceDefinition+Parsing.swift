/// Why an interface description does not parse, and on which line.
public struct VarlinkIDLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line, counted from 1; 0 when the problem is not on one line.
    public var line: Int
    /// What is wrong.
    public var reason: String

    /// Creates an error on `line`.
    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// Line 0 means the problem is not on one line (a handler without a method, a duplicate interface).
    public var description: String {
        line > 0 ? "interface description, line \(line): \(reason)" : "interface description: \(reason)"
    }
}

extension VarlinkInterfaceDefinition {
    /// Parses a description in the Varlink interface definition language.
    ///
    /// Besides syntax, it checks that every named type is defined, that names are unique and well formed,
    /// and it rejects what the reference (Python) client cannot read: single-value enums and the `any` type.
    public init(parsing description: String) throws(VarlinkIDLError) {
        var parser = IDLParser(tokens: try IDLTokenizer.tokens(of: description))
        let definition = try parser.parseInterface()
        for reference in parser.typeReferences where definition.types[reference.text] == nil {
            throw VarlinkIDLError(line: reference.line, reason: "type \(reference.text) is not defined")
        }
        self = definition
    }
}

private struct IDLToken: Equatable {
    var text: String
    var line: Int
}

private enum IDLTokenizer {
    static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true  // 0-9 A-Z a-z
        default: scalar == "_" || scalar == "." || scalar == "-"
        }
    }

    static func tokens(of text: String) throws(VarlinkIDLError) -> [IDLToken] {
        let scalars = Array(text.unicodeScalars)
        var tokens: [IDLToken] = []
        var index = 0
        var line = 1
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\n":
                line += 1
                index += 1
            case " ", "\t", "\r":
                index += 1
            case "#":
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            case "(", ")", ",", ":", "?", "[", "]":
                tokens.append(IDLToken(text: String(scalar), line: line))
                index += 1
            case "-" where index + 1 < scalars.count && scalars[index + 1] == ">":
                tokens.append(IDLToken(text: "->", line: line))
                index += 2
            case _ where isWordCharacter(scalar) && scalar != "-":
                var word = ""
                while index < scalars.count, isWordCharacter(scalars[index]) {
                    if scalars[index] == "-", index + 1 < scalars.count, scalars[index + 1] == ">" { break }
                    word.unicodeScalars.append(scalars[index])
                    index += 1
                }
                tokens.append(IDLToken(text: word, line: line))
            default:
                throw VarlinkIDLError(line: line, reason: "unexpected character \"\(scalar)\"")
            }
        }
        return tokens
    }
}

private struct IDLParser {
    let tokens: [IDLToken]
    var position = 0
    /// Every use of a named type, checked once all types are known.
    var typeReferences: [IDLToken] = []

    init(tokens: [IDLToken]) {
        self.tokens = tokens
    }

    var line: Int { position < tokens.count ? tokens[position].line : (tokens.last?.line ?? 1) }
    var current: String? { position < tokens.count ? tokens[position].text : nil }

    func fail(_ reason: String) -> VarlinkIDLError {
        VarlinkIDLError(line: line, reason: reason)
    }

    mutating func take(_ text: String) -> Bool {
        guard current == text else { return false }
        position += 1
        return true
    }

    mutating func expect(_ text: String) throws(VarlinkIDLError) {
        guard take(text) else { throw fail("expected \"\(text)\", found \(current.map { "\"\($0)\"" } ?? "the end")") }
    }

    mutating func word(_ what: String) throws(VarlinkIDLError) -> String {
        guard let text = current, let first = text.unicodeScalars.first, IDLTokenizer.isWordCharacter(first) else {
            throw fail("expected \(what), found \(current.map { "\"\($0)\"" } ?? "the end")")
        }
        position += 1
        return text
    }

    static func isInterfaceName(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, let first = parts.first, first.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return false
        }
        return parts.dropFirst().allSatisfy { part in
            guard let head = part.first, let tail = part.last, head.isASCII, head.isLetter || head.isNumber,
                tail != "-"
            else { return false }
            return part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }

    static func isMemberName(_ text: String) -> Bool {
        guard let first = text.first, first.isASCII, first.isUppercase else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    static func isFieldName(_ text: String) -> Bool {
        // Checked on the bytes: Foundation's `contains` would search through CoreFoundation's Unicode tables.
        let twoUnderscores = zip(text.utf8, text.utf8.dropFirst()).contains { $0 == UInt8(ascii: "_") && $1 == $0 }
        guard let first = text.first, first.isASCII, first.isLetter, text.last != "_", !twoUnderscores else {
            return false
        }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    mutating func parseInterface() throws(VarlinkIDLError) -> VarlinkInterfaceDefinition {
        try expect("interface")
        let name = try word("an interface name")
        guard Self.isInterfaceName(name) else { throw fail("\"\(name)\" is not a reverse-domain interface name") }
        var definition = VarlinkInterfaceDefinition(name: name, types: [:], methods: [:], errors: [:])
        var memberNames: Set<String> = []
        while current != nil {
            let keyword = try word("\"type\", \"method\" or \"error\"")
            let memberLine = line
            let memberName = try word("a member name")
            guard Self.isMemberName(memberName) else {
                throw fail("\"\(memberName)\" is not a member name (it must start with a capital letter)")
            }
            guard memberNames.insert(memberName).inserted else {
                throw VarlinkIDLError(line: memberLine, reason: "\"\(memberName)\" is defined twice")
            }
            switch keyword {
            case "type":
                definition.types[memberName] = try parseStructOrEnum()
            case "method":
                let input = try parseStruct(of: "method \(memberName) input")
                try expect("->")
                let output = try parseStruct(of: "method \(memberName) output")
                definition.methods[memberName] = VarlinkMethodSignature(
                    name: memberName, input: input, output: output)
            case "error":
                definition.errors[memberName] = try parseStruct(of: "error \(memberName)")
            default:
                throw VarlinkIDLError(
                    line: memberLine, reason: "expected \"type\", \"method\" or \"error\", found \"\(keyword)\"")
            }
        }
        return definition
    }

    mutating func parseStruct(of what: String) throws(VarlinkIDLError) -> [VarlinkField] {
        guard case .structure(let fields) = try parseStructOrEnum() else {
            throw fail("\(what) must be a struct, not an enum")
        }
        return fields
    }

    mutating func parseStructOrEnum() throws(VarlinkIDLError) -> VarlinkType {
        try expect("(")
        if take(")") { return .structure([]) }
        var fields: [VarlinkField] = []
        var cases: [String] = []
        var names: Set<String> = []
        repeat {
            let name = try word("a field name")
            guard Self.isFieldName(name) else { throw fail("\"\(name)\" is not a field name") }
            guard names.insert(name).inserted else { throw fail("field \"\(name)\" appears twice") }
            if take(":") {
                guard cases.isEmpty else { throw fail("an enum cannot have typed fields") }
                fields.append(VarlinkField(name, try parseType()))
            } else {
                guard fields.isEmpty else { throw fail("expected \":\" after field \"\(name)\"") }
                cases.append(name)
            }
        } while take(",")
        try expect(")")
        if cases.isEmpty { return .structure(fields) }
        guard cases.count > 1 else {
            throw fail("an enum needs at least two values (\"(\(cases[0]))\" cannot be read by every client)")
        }
        return .enumeration(cases)
    }

    mutating func parseType() throws(VarlinkIDLError) -> VarlinkType {
        if take("?") {
            guard current != "?" else { throw fail("\"??\" is not a type") }
            return .optional(try parseType())
        }
        if take("[") {
            if take("]") { return .array(try parseType()) }
            try expect("string")
            try expect("]")
            return .map(try parseType())
        }
        if current == "(" { return try parseStructOrEnum() }
        let name = try word("a type")
        switch name {
        case "bool": return .bool
        case "int": return .int
        case "float": return .float
        case "string": return .string
        case "object": return .object
        case _ where Self.isMemberName(name):
            typeReferences.append(IDLToken(text: name, line: tokens[position - 1].line))
            return .named(name)
        default: throw fail("\"\(name)\" is not a type")
        }
    }
}
