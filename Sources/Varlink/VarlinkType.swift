/// A type in the Varlink interface definition language.
public indirect enum VarlinkType: Sendable, Equatable {
    /// `bool`.
    case bool
    /// `int`.
    case int
    /// `float` (an integer is accepted too).
    case float
    /// `string`.
    case string
    /// `object`: any JSON value, not checked.
    case object
    /// A type defined with `type Name …` in the same interface.
    case named(String)
    /// `?T`: the field may be absent or `null`.
    case optional(VarlinkType)
    /// `[]T`.
    case array(VarlinkType)
    /// `[string]T`: a JSON object whose values are all `T`. `[string]()` is a set.
    case map(VarlinkType)
    /// `(name: T, …)`, possibly empty.
    case structure([VarlinkField])
    /// `(a, b, c)`: one of the names, as a string.
    case enumeration([String])
}

/// A named field of a struct, a method's input or output, or an error's parameters.
public struct VarlinkField: Sendable, Equatable {
    /// The field's name.
    public var name: String
    /// The field's type.
    public var type: VarlinkType

    /// Creates a field.
    public init(_ name: String, _ type: VarlinkType) {
        self.name = name
        self.type = type
    }
}

/// A method's signature in an interface.
public struct VarlinkMethodSignature: Sendable, Equatable {
    /// The method's name without the interface.
    public var name: String
    /// The parameters the method takes.
    public var input: [VarlinkField]
    /// The parameters each reply carries.
    public var output: [VarlinkField]

    /// Creates a signature.
    public init(name: String, input: [VarlinkField], output: [VarlinkField]) {
        self.name = name
        self.input = input
        self.output = output
    }
}

/// An interface parsed from its description: everything needed to check parameters.
public struct VarlinkInterfaceDefinition: Sendable, Equatable {
    /// The reverse-domain interface name, e.g. `org.varlink.service`.
    public var name: String
    /// Types defined with `type`, by name.
    public var types: [String: VarlinkType]
    /// Methods by name.
    public var methods: [String: VarlinkMethodSignature]
    /// Errors by name, with their parameters.
    public var errors: [String: [VarlinkField]]
}
