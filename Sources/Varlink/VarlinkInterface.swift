/// An interface a service serves: its description, verbatim, and the handlers of its methods.
public struct VarlinkInterface: Sendable {
    /// The description in the interface definition language, served verbatim by `GetInterfaceDescription`.
    public let description: String
    /// The description parsed, used to check every call's parameters.
    public let definition: VarlinkInterfaceDefinition
    /// Handlers by method name (without the interface). A declared method without one answers
    /// `MethodNotImplemented`.
    public let methods: [String: VarlinkMethod]

    /// The interface name from the description.
    public var name: String { definition.name }

    /// Creates an interface; throws when the description does not parse or a handler's method is not declared.
    public init(description: String, methods: [String: VarlinkMethod]) throws {
        let definition = try VarlinkInterfaceDefinition(parsing: description)
        for name in methods.keys.sorted() where definition.methods[name] == nil {
            throw VarlinkIDLError(
                line: 0, reason: "interface \(definition.name) declares no method \(name), but a handler is given")
        }
        self.description = description
        self.definition = definition
        self.methods = methods
    }
}
