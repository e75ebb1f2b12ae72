extension VarlinkInterfaceDefinition {
    /// Checks `parameters` against `fields`; returns the first offending parameter's path, or `nil` when all fit.
    ///
    /// Unknown keys, missing non-optional fields (absent or `null`) and wrongly typed values all fail.
    /// The path names a top-level parameter (`name`), a struct member (`team.name`), an array element
    /// (`scores[2]`) or a map value (`labels[key]`), so the caller can reply `InvalidParameter` with it.
    public func firstInvalidParameter(in parameters: VarlinkObject, against fields: [VarlinkField]) -> String? {
        invalidPath(in: parameters, against: fields, prefix: "")
    }

    private func invalidPath(in object: VarlinkObject, against fields: [VarlinkField], prefix: String) -> String? {
        let known = Set(fields.map(\.name))
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            return prefix + unknown
        }
        for field in fields {
            let path = prefix + field.name
            if let value = object[field.name] {
                if let invalid = invalidPath(in: value, against: field.type, path: path) { return invalid }
            } else if !field.type.isOptional {
                return path
            }
        }
        return nil
    }

    private func invalidPath(in value: JSONValue, against type: VarlinkType, path: String) -> String? {
        switch (type, value) {
        case (.optional, .null):
            return nil
        case (.optional(let inner), _):
            return invalidPath(in: value, against: inner, path: path)
        case (.object, _), (.bool, .bool), (.int, .int), (.float, .int), (.string, .string):
            return nil
        case (.float, .double(let number)):
            return number.isFinite ? nil : path
        case (.int, .double(let number)):
            return number.rounded() == number && Double(Int.min) <= number && number < Double(Int.max) ? nil : path
        case (.named(let name), _):
            guard let definition = types[name] else { return path }
            return invalidPath(in: value, against: definition, path: path)
        case (.enumeration(let cases), .string(let text)):
            return cases.contains(text) ? nil : path
        case (.array(let element), .array(let elements)):
            for (index, item) in elements.enumerated() {
                if let invalid = invalidPath(in: item, against: element, path: "\(path)[\(index)]") { return invalid }
            }
            return nil
        case (.map(let element), .object(let members)):
            for key in members.keys.sorted() {
                if let invalid = invalidPath(in: members[key]!, against: element, path: "\(path)[\(key)]") {
                    return invalid
                }
            }
            return nil
        case (.structure(let fields), .object(let members)):
            return invalidPath(in: members, against: fields, prefix: path + ".")
        default:
            return path
        }
    }
}

extension VarlinkType {
    /// Whether the field may be absent or `null`.
    public var isOptional: Bool {
        if case .optional = self { true } else { false }
    }
}
