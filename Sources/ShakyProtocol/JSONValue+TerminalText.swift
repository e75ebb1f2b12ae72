import ShakyCore
import Varlink

extension JSONValue {
    /// This value with every string (keys too) made printable by `TerminalText.printable(_:)`: what the client
    /// applies to everything a daemon sends before any of it can reach a terminal.
    public var printable: JSONValue {
        switch self {
        case .string(let text): .string(TerminalText.printable(text))
        case .array(let elements): .array(elements.map(\.printable))
        case .object(let object): .object(object.printable)
        default: self
        }
    }

    /// The path (`teams[1]`, `question.answer`) of the first string in this value that
    /// `TerminalText.isSafe(_:allowingLineBreaks:)` refuses, or `nil`. Strings at a path in `multiLine` may hold
    /// line feeds and tabs; those at a path in `unchecked` are left to their own, finer check.
    public func firstUnsafeString(
        at path: String = "", multiLine: Set<String> = [], unchecked: Set<String> = []
    ) -> String? {
        if unchecked.contains(path) { return nil }
        switch self {
        case .string(let text):
            let unsafe = TerminalText.firstUnsafeScalar(in: text, allowingLineBreaks: multiLine.contains(path))
            return unsafe == nil ? nil : path
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                let elementPath = "\(path)[\(index)]"
                if let found = element.firstUnsafeString(at: elementPath, multiLine: multiLine, unchecked: unchecked) {
                    return found
                }
            }
            return nil
        case .object(let object):
            for key in object.keys.sorted() {
                let keyPath = path.isEmpty ? key : path + "." + key
                if TerminalText.firstUnsafeScalar(in: key) != nil { return keyPath }
                if let found = object[key]?.firstUnsafeString(at: keyPath, multiLine: multiLine, unchecked: unchecked) {
                    return found
                }
            }
            return nil
        default:
            return nil
        }
    }
}

extension JSONValue {
    /// The value at `path` (`teams[1]`, `question.alternates[0]`), as ``firstUnsafeString(at:multiLine:unchecked:)``
    /// names it, or `nil` when there is none.
    public func value(at path: String) -> JSONValue? {
        var value = self
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = component[...]
            let key = rest.prefix { $0 != "[" }
            rest = rest.dropFirst(key.count)
            if !key.isEmpty {
                guard case .object(let object) = value, let member = object[String(key)] else { return nil }
                value = member
            }
            while rest.first == "[" {
                guard let close = rest.firstIndex(of: "]"),
                    let index = Int(rest[rest.index(after: rest.startIndex)..<close]),
                    case .array(let elements) = value, elements.indices.contains(index)
                else { return nil }
                value = elements[index]
                rest = rest[rest.index(after: close)...]
            }
            guard rest.isEmpty else { return nil }
        }
        return value
    }
}

extension VarlinkObject {
    /// This object with every string made printable (see `JSONValue.printable`).
    public var printable: VarlinkObject {
        var result: VarlinkObject = [:]
        for (key, value) in self { result[TerminalText.printable(key)] = value.printable }
        return result
    }
}
