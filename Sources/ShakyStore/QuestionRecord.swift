import GRDB
import TriviaEngine

/// A row of the `question` table.
struct QuestionRecord: Codable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "question"

    var id: Int64?
    var packId: Int64
    var text: String
    var answer: String
    /// Stored as a JSON array of strings.
    var alternates: [String]
    var difficulty: String
    /// The folded text, answer and alternates that search compares (see ``SearchKey``).
    var searchText: String

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let packId = Column(CodingKeys.packId)
        static let difficulty = Column(CodingKeys.difficulty)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// A record for `question` (already checked by ``PackRules``) in the pack `packId`.
    init(id: Int64? = nil, packId: Int64, question: Question) {
        self.id = id
        self.packId = packId
        self.text = question.text
        self.answer = question.answer
        self.alternates = question.alternates
        self.difficulty = question.difficulty.rawValue
        self.searchText = SearchKey.searchText(
            text: question.text, answer: question.answer, alternates: question.alternates)
    }

    /// The question this row holds.
    var question: Question {
        // The schema's CHECK admits only the three raw values; a file that holds another still reads.
        Question(
            text: text, answer: answer, alternates: alternates, difficulty: Difficulty(rawValue: difficulty) ?? .medium)
    }
}
