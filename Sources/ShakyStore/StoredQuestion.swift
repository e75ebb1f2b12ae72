import TriviaEngine

/// A question as stored: its id (for editing and deleting), its pack, and the question itself.
public struct StoredQuestion: Codable, Equatable, Hashable, Sendable {
    /// The question's database id.
    public var id: Int64
    /// The name of the pack holding the question.
    public var packName: String
    /// The question.
    public var question: Question

    /// Creates a stored question.
    public init(id: Int64, packName: String, question: Question) {
        self.id = id
        self.packName = packName
        self.question = question
    }
}
