import TriviaEngine

/// A quiz pack as listed: its name, whether it is built in, and how many questions of each difficulty it holds.
public struct PackSummary: Codable, Equatable, Hashable, Sendable {
    /// The pack's database id.
    public var id: Int64
    /// The pack's name, unique ignoring case.
    public var name: String
    /// Whether the pack ships with Shaky Words (and so is read-only).
    public var isBuiltin: Bool
    /// The installed version of a built-in pack, `nil` for a custom pack.
    public var builtinVersion: Int?
    /// The number of easy questions.
    public var easyCount: Int
    /// The number of medium questions.
    public var mediumCount: Int
    /// The number of hard questions.
    public var hardCount: Int

    /// The number of questions of every difficulty.
    public var questionCount: Int { easyCount + mediumCount + hardCount }

    /// The number of questions that pass `filter`.
    public func count(passing filter: DifficultyFilter) -> Int {
        (filter.admits(.easy) ? easyCount : 0) + (filter.admits(.medium) ? mediumCount : 0)
            + (filter.admits(.hard) ? hardCount : 0)
    }

    /// Creates a pack summary.
    public init(
        id: Int64, name: String, isBuiltin: Bool, builtinVersion: Int?, easyCount: Int, mediumCount: Int,
        hardCount: Int
    ) {
        self.id = id
        self.name = name
        self.isBuiltin = isBuiltin
        self.builtinVersion = builtinVersion
        self.easyCount = easyCount
        self.mediumCount = mediumCount
        self.hardCount = hardCount
    }
}
