/// A pack with all its questions, in the order they were added.
public struct PackDetails: Codable, Equatable, Sendable {
    /// The pack's name, kind and counts.
    public var summary: PackSummary
    /// The pack's questions.
    public var questions: [StoredQuestion]

    /// Creates pack details.
    public init(summary: PackSummary, questions: [StoredQuestion]) {
        self.summary = summary
        self.questions = questions
    }
}
