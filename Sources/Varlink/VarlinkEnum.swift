/// An enum of a Varlink interface (every generated one is): its cases are the IDL's values, named as on the wire.
///
/// Its `init(from:)` calls ``decodeValue(from:)``, so that a name it does not list is a
/// ``VarlinkUnknownEnumValue`` rather than any `DecodingError`: the error of a peer that speaks a newer version
/// of the interface (one that added a value), which a client can tell from a reply that is plainly wrong.
/// ``JSONValueDecoder/forReplies`` reads such a value in an optional field as absent.
public protocol VarlinkEnum: RawRepresentable<String>, CaseIterable, Decodable, Sendable {}

extension VarlinkEnum {
    /// The value the string in `decoder` names; a name this enum does not list throws ``VarlinkUnknownEnumValue``.
    public static func decodeValue(from decoder: any Decoder) throws -> Self {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(rawValue: name) else {
            throw VarlinkUnknownEnumValue(value: name, codingPath: decoder.codingPath, knownValues: Self.knownValues)
        }
        return value
    }

    /// Every name this enum lists, in declaration order.
    static var knownValues: [String] { allCases.map(\.rawValue) }
}

/// A name that a Varlink enum does not list: the peer speaks a newer version of the interface than this side.
public struct VarlinkUnknownEnumValue: Error, Equatable, Sendable, CustomStringConvertible {
    /// The name that came.
    public var value: String
    /// The field that held it: the member names from the decoded value down, array indices left out
    /// (`event.buzzer.kind`, `teams.kind`), so that one field has one name however many elements carry it. Empty
    /// when the decoded value is the enum itself.
    public var field: String
    /// The whole coding path, with indices and map keys (`teams.2.kind`), as a refused parameter is named.
    public var codingPath: [String]
    /// The names the enum lists.
    public var knownValues: [String]

    /// The value `value` met at `codingPath`, of an enum listing `knownValues`.
    public init(value: String, codingPath: [any CodingKey], knownValues: [String]) {
        self.value = value
        self.codingPath = codingPath.map(\.stringValue)
        field = codingPath.filter { $0.intValue == nil }.map(\.stringValue).joined(separator: ".")
        self.knownValues = knownValues
    }

    public var description: String {
        let place = field.isEmpty ? "" : "\(field): "
        return "\(place)“\(value)” is none of \(knownValues.joined(separator: ", "))"
    }
}
