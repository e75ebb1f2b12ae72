/// Decodes `Decodable` values straight from a parsed ``JSONValue``: no second parse of the text.
///
/// A call is parsed strictly into a tree once (and checked against the interface there); its parameters are
/// decoded from that tree. Numbers follow the IDL: an `int` is any integer (or a float with no fraction that
/// fits), a `float` any number. `null` and an absent key both decode as `nil` through `decodeIfPresent`.
/// Failures are `DecodingError`s with the coding path of the offending value, as `JSONDecoder` throws them, and
/// ``VarlinkUnknownEnumValue`` for a name a ``VarlinkEnum`` does not list.
public struct JSONValueDecoder: Sendable {
    /// Values handed to `init(from:)` as `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Whether an optional field holding a name its ``VarlinkEnum`` does not list reads as absent (`nil`) instead
    /// of failing: on for replies (``forReplies``), whose service may be newer than this side's interface; off
    /// (the default) for the calls a server receives, which it refuses.
    public var readsUnknownOptionalEnumValuesAsAbsent = false

    /// Creates a decoder.
    public init() {}

    /// The decoder for a service's replies: an optional enum field with a value this side's interface does not
    /// list reads as absent, as from a service that does not say; a required one still throws
    /// ``VarlinkUnknownEnumValue``.
    public static let forReplies: JSONValueDecoder = {
        var decoder = JSONValueDecoder()
        decoder.readsUnknownOptionalEnumValuesAsAbsent = true
        return decoder
    }()

    /// Decodes `type` from `value`.
    public func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue) throws -> Value {
        if let value = value as? Value { return value }
        return try TreeDecoder(
            value: value, codingPath: [], userInfo: userInfo,
            readsUnknownOptionalEnumValuesAsAbsent: readsUnknownOptionalEnumValuesAsAbsent
        ).decodeValue(type)
    }
}

/// The `Decoder` over one node of the tree.
private struct TreeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let userInfoStorage: [CodingUserInfoKey: any Sendable]
    /// ``JSONValueDecoder/readsUnknownOptionalEnumValuesAsAbsent``.
    let readsUnknownOptionalEnumValuesAsAbsent: Bool

    init(
        value: JSONValue, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable],
        readsUnknownOptionalEnumValuesAsAbsent: Bool
    ) {
        self.value = value
        self.codingPath = codingPath
        self.userInfoStorage = userInfo
        self.readsUnknownOptionalEnumValuesAsAbsent = readsUnknownOptionalEnumValuesAsAbsent
    }

    var userInfo: [CodingUserInfoKey: Any] { userInfoStorage }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw mismatch([String: JSONValue].self, at: codingPath, found: value)
        }
        return KeyedDecodingContainer(TreeKeyedContainer<Key>(members: members, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw mismatch([JSONValue].self, at: codingPath, found: value)
        }
        return TreeUnkeyedContainer(elements: elements, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TreeSingleValueContainer(decoder: self)
    }

    /// A decoder for a child value at `key`.
    func child(_ value: JSONValue, key: any CodingKey) -> TreeDecoder {
        TreeDecoder(
            value: value, codingPath: codingPath + [key], userInfo: userInfoStorage,
            readsUnknownOptionalEnumValuesAsAbsent: readsUnknownOptionalEnumValuesAsAbsent)
    }

    func decodeValue<Value: Decodable>(_ type: Value.Type) throws -> Value {
        // Leaves and trees are taken as they are; everything else through its `init(from:)`.
        if type == JSONValue.self, let value = value as? Value { return value }
        if type == String.self, let text = try decodeString() as? Value { return text }
        if type == Int.self, let number = try decodeInteger(Int.self) as? Value { return number }
        if type == Double.self, let number = try decodeDouble() as? Value { return number }
        if type == Bool.self, let flag = try decodeBool() as? Value { return flag }
        return try Value(from: self)
    }

    func decodeBool() throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(Bool.self, at: codingPath, found: value) }
        return flag
    }

    func decodeString() throws -> String {
        guard case .string(let text) = value else { throw mismatch(String.self, at: codingPath, found: value) }
        return text
    }

    func decodeDouble() throws -> Double {
        switch value {
        case .int(let number): return Double(number)
        // -0 is read as 0: no value a client sets means a negative zero, and it would be written back as `-0`.
        case .double(let number) where number.isFinite: return number == 0 ? 0 : number
        case .double:
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath, debugDescription: "\(value) is beyond any number"))
        default: throw mismatch(Double.self, at: codingPath, found: value)
        }
    }

    func decodeInteger<Number: FixedWidthInteger>(_ type: Number.Type) throws -> Number {
        let converted: Number?
        switch value {
        case .int(let number): converted = Number(exactly: number)
        case .double(let number): converted = Number(exactly: number)
        default: throw mismatch(type, at: codingPath, found: value)
        }
        guard let converted else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath, debugDescription: "\(value) does not fit in \(type)"))
        }
        return converted
    }
}

/// The error for a value of the wrong JSON type.
private func mismatch(_ type: Any.Type, at path: [any CodingKey], found value: JSONValue) -> DecodingError {
    if value == .null {
        return .valueNotFound(type, DecodingError.Context(codingPath: path, debugDescription: "found null"))
    }
    return .typeMismatch(
        type, DecodingError.Context(codingPath: path, debugDescription: "expected \(type), found \(value.typeName)"))
}

private struct TreeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let decoder: TreeDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    func member(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "no \"\(key.stringValue)\""))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        try decoder.child(try member(key), key: key).decodeValue(type)
    }

    func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        guard let value = members[key.stringValue], value != .null else { return nil }
        do {
            return try decoder.child(value, key: key).decodeValue(type)
        } catch is VarlinkUnknownEnumValue
            where decoder.readsUnknownOptionalEnumValuesAsAbsent && type is any VarlinkEnum.Type
        {
            // The field is the enum itself (an unknown value deeper down, in a struct or an array, fails as ever).
            return nil
        }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(try member(key), key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(try member(key), key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.child(members["super"] ?? .null, key: JSONValueCodingKey("super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(members[key.stringValue] ?? .null, key: key)
    }
}

private struct TreeUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let decoder: TreeDecoder
    var currentIndex = 0

    init(elements: [JSONValue], decoder: TreeDecoder) {
        self.elements = elements
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func next(_ type: Any.Type) throws -> TreeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: codingPath, debugDescription: "no more elements"))
        }
        defer { currentIndex += 1 }
        return decoder.child(elements[currentIndex], key: JSONValueCodingKey(index: currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try next(type).decodeValue(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next(type).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([JSONValue].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next(JSONValue.self)
    }
}

private struct TreeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: TreeDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool() }
    func decode(_ type: String.Type) throws -> String { try decoder.decodeString() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decodeDouble() }
    func decode(_ type: Float.Type) throws -> Float { Float(try decoder.decodeDouble()) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(type) }
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try decoder.decodeValue(type) }
}

/// A coding key for array indices and `super`.
struct JSONValueCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init(index: Int) {
        stringValue = "\(index)"
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}
