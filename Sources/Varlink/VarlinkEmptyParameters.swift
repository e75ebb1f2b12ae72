/// No parameters: the input of a method that takes none, or the reply of a method that returns none (`{}`).
public struct VarlinkEmptyParameters: Codable, Equatable, Sendable {
    /// Creates the empty object.
    public init() {}
}
