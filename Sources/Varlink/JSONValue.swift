import Foundation

/// A JSON value as Varlink carries it: every key of every object is kept, so unknown keys can be detected.
///
/// Integers and floating-point numbers are kept apart (`42` is ``int(_:)``, `42.0` and `4.2e1` are
/// ``double(_:)``), because Varlink's `int` and `float` types differ.
public enum JSONValue: Sendable, Equatable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in `Int`.
    case int(Int)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])
}

/// The parameters of a Varlink call, reply or error: a JSON object.
public typealias VarlinkObject = [String: JSONValue]

extension JSONValue {
    /// The name of this value's JSON type (`"string"`, `"object"`…), for messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .double: "float"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The object's members, or `nil` when this is not an object.
    public var objectValue: VarlinkObject? {
        if case .object(let members) = self { members } else { nil }
    }

    /// The string, or `nil` when this is not a string.
    public var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The integer, or `nil` when this is not an integer.
    public var intValue: Int? {
        if case .int(let number) = self { number } else { nil }
    }

    /// The number as a `Double` (integers included), or `nil` when this is not a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    /// The Boolean, or `nil` when this is not a Boolean.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { flag } else { nil }
    }

    /// The elements, or `nil` when this is not an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// The member named `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .int(number)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else if let members = try? container.decode([String: JSONValue].self) {
            self = .object(members)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .int(let number): try container.encode(number)
        case .double(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}

extension JSONValue {
    /// Converts any `Encodable` value to a JSON value: a ``JSONWritable`` value through its own writer, anything
    /// else through `JSONEncoder`.
    public init(encoding value: some Encodable) throws {
        if let writable = value as? any JSONWritable {
            var writer = JSONWriter()
            writable.writeJSON(to: &writer)
            self = try JSONValue(parsing: writer.bytes)
        } else {
            self = try JSONValue(parsing: Array(try JSONEncoder().encode(value)))
        }
    }

    /// Decodes this value as `type`, straight from the tree (``JSONValueDecoder``).
    public func decode<Value: Decodable>(as type: Value.Type = Value.self) throws -> Value {
        try JSONValueDecoder().decode(type, from: self)
    }
}
