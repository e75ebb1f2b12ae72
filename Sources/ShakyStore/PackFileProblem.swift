/// What is wrong at one place of a pack file: a bad question, or what stops the whole file from being read.
public struct PackFileProblem: Equatable, Sendable {
    /// The line (from 1): where a bad CSV row starts, where a bad JSON value is (or its question begins), or where
    /// the text stops being CSV or JSON; `nil` when the problem has no one place.
    public var line: Int?
    /// The CSV column or the JSON path (`questions[3].answer`) of the bad value, when there is one.
    public var field: String?
    /// What is wrong, in words.
    public var problem: String

    /// Creates a problem at `line` and `field`.
    public init(line: Int? = nil, field: String? = nil, problem: String) {
        self.line = line
        self.field = field
        self.problem = problem
    }

    /// Where the problem is, in words: "line 4, field “difficulty”", "line 4", "questions[2].answer", or "".
    public var place: String {
        switch (line, field) {
        case (let line?, let field?): "line \(line), field “\(field)”"
        case (let line?, nil): "line \(line)"
        case (nil, let field?): field
        case (nil, nil): ""
        }
    }
}
