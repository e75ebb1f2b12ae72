import Foundation
import ShakyCore
import TriviaEngine

/// The file formats a pack can be imported from and exported to.
///
/// **JSON**: an object `{"name": "…", "questions": [{"question": "…", "answer": "…",
/// "difficulty": "easy", "alternates": ["…"]}]}`. Only `question` and `answer` are needed: a question without
/// `difficulty` (or with `null` or `""`) is medium, one without `alternates` has none, and `alternates` may also be
/// one string with the alternates separated by `|`, as in CSV. Member names are read in any case. Built-in pack
/// files add `"id"` (a stable identifier) and `"version"` (a whole number raised whenever the file changes).
///
/// **CSV** (RFC 4180, UTF-8, a byte order mark and CRLF line ends tolerated): a header line naming the
/// columns `question,answer,difficulty,alternates` (any order, any case; `difficulty` and `alternates` may be left
/// out), then one question per line. Alternate answers are separated by `|` (a character no answer needs, and
/// not the `;` some spreadsheets use between fields). A file whose header holds `;` but no `,` is read
/// with `;` between fields. Fields holding commas, quotes or line breaks are quoted with `"`, and a
/// quote inside is doubled. Lines whose fields are all empty are skipped.
///
/// Both are read by the same rules: an empty difficulty is ``PackRules/defaultDifficulty``, each question is checked
/// by ``PackRules``, and a repeated question or a field that is not a question's (a column, a JSON member) is taken
/// with a warning; of each kind of warning the first ``PackFile/mostListedProblems`` are said, and one more counts the
/// others. A file with bad questions imports nothing; the error names the first ``PackFile/mostListedProblems`` of
/// them, each by its line.
public enum PackFileFormat: String, CaseIterable, Codable, Sendable {
    /// The JSON pack format.
    case json
    /// The CSV pack format, for spreadsheets.
    case csv
    /// The CSV pack format with tabs between the fields, as spreadsheets copy and save it; read as CSV is.
    case tsv
}

/// A pack file's content: the pack's name (if the file has one) and its checked questions.
struct PackFile: Equatable {
    /// The fields of a question: the columns of the CSV format in the order they are written, and the members of a
    /// question in the JSON format.
    static let questionFields = ["question", "answer", "difficulty", "alternates"]
    /// The fields a question must have (a CSV file's columns); without `difficulty` a question is medium.
    static let requiredFields = ["question", "answer"]
    /// The most bad questions one import error names, and the most warnings of one kind an import gives; each
    /// counts the others.
    static let mostListedProblems = 20
    /// The longest problem, in characters, that an import error says (its quoted values are cut shorter already).
    static let longestProblem = 300

    var name: String?
    var questions: [Question]
    /// A built-in pack file's stable identifier.
    var id: String?
    /// A built-in pack file's version.
    var version: Int?
    /// What was accepted but looks wrong (repeated rows, ignored columns), one sentence each.
    var warnings: [String] = []

    // MARK: Reading

    /// Reads a pack from `data` in `format`.
    ///
    /// - Throws: ``StoreError/importFailed(problems:unlisted:)`` naming where the file is wrong.
    static func read(_ data: Data, format: PackFileFormat) throws -> PackFile {
        var file =
            switch format {
            case .json: try readJSON(data)
            case .csv, .tsv: try readCSV(data)
            }
        // Kept (an empty pack exports to a bare header and imports back), but said: a sheet saved before its rows
        // were filled in looks the same.
        if file.questions.isEmpty { file.warnings.append("the file holds no questions: the pack is empty") }
        return file
    }

    /// One question as a file gives it, before it is checked: the value of each field, `nil` for one left out.
    struct WrittenQuestion {
        var text: String?
        var answer: String?
        var difficulty: String?
        var alternates: [String] = []
    }

    /// `written` checked by ``PackRules`` (a difficulty left out is the default one), or the rule it breaks.
    static func checkedQuestion(_ written: WrittenQuestion) throws(PackRules.Violation) -> Question {
        guard let text = written.text else { throw missing("question") }
        guard let answer = written.answer else { throw missing("answer") }
        let difficulty = try PackRules.difficulty(written.difficulty)
        return try PackRules.question(
            Question(text: text, answer: answer, alternates: written.alternates, difficulty: difficulty))
    }

    /// The warning when alternates of `written` were left out of `question`, its checked form, for repeating its
    /// answer or an alternate before them (ignoring case) or for being blank, at `place` ("line 4"; `nil` for a
    /// question given alone, as `AddQuestion` takes it); `nil` when none was. Such an alternate changes no match, but
    /// whoever wrote it may have meant another word.
    static func leftOutAlternates(_ written: WrittenQuestion, kept question: Question, at place: String?) -> String? {
        guard written.alternates.count > question.alternates.count else { return nil }
        var repeated: [String] = []
        var blank = 0
        var kept = question.alternates[...]
        for raw in written.alternates {
            let alternate = PackRules.normalized(raw)
            if alternate.isEmpty {
                blank += 1
            } else if kept.first == alternate {
                kept = kept.dropFirst()
            } else {
                repeated.append(alternate)
            }
        }
        var parts: [String] = []
        if !repeated.isEmpty {
            let named =
                repeated.prefix(3).map(PackRules.quoted) + (repeated.count > 3 ? ["\(repeated.count - 3) more"] : [])
            parts.append(
                "the \(repeated.count == 1 ? "alternate" : "alternates") \(named.spokenList("and")) "
                    + "\(repeated.count == 1 ? "repeats" : "repeat") the answer or an alternate before it")
        }
        if blank > 0 { parts.append(blank == 1 ? "an alternate is blank" : "\(blank) alternates are blank") }
        let warning = "\(parts.joined(separator: ", and ")); left out"
        return place.map { "\($0): \(warning)" } ?? warning
    }

    private static func missing(_ field: String) -> PackRules.Violation {
        PackRules.Violation(field: field, problem: "the “\(field)” value is missing")
    }

    /// The bad questions of a file, gathered as it is read: the first ``mostListedProblems``, and how many others.
    struct BadQuestions {
        private(set) var listed: [PackFileProblem] = []
        private(set) var unlisted = 0

        mutating func append(_ problem: PackFileProblem) {
            if listed.count < mostListedProblems {
                listed.append(bounded(problem))
            } else {
                unlisted += 1
            }
        }

        /// Throws ``StoreError/importFailed(problems:unlisted:)`` when a question is bad.
        func throwIfAny() throws(StoreError) {
            if !listed.isEmpty { throw .importFailed(problems: listed, unlisted: unlisted) }
        }
    }

    /// The warnings of a file, gathered as it is read: of each kind, the first ``mostListedProblems`` in the order
    /// they were found, and a count of the others, which one last warning of that kind says. A person reads twenty
    /// "line 812 repeats …" and acts; five thousand of them hide the one ignored column beside them.
    struct Warnings {
        /// What a warning is about; each kind is listed and counted apart.
        enum Kind: CaseIterable {
            case repeatedQuestion, leftOutAlternates, ignoredColumn, ignoredField, ignoredMember

            /// The warning that counts `count` warnings of this kind left unsaid.
            func more(_ count: Int) -> String {
                let fields = questionFields.joined(separator: ", ")
                return switch self {
                case .repeatedQuestion:
                    "and \(count) more \(count == 1 ? "question repeats" : "questions repeat") the question and answer "
                        + "of an earlier one"
                case .leftOutAlternates:
                    "and \(count) more \(count == 1 ? "question has" : "questions have") alternates left out for "
                        + "repeating the answer or an alternate before them, or for being blank"
                case .ignoredColumn:
                    "and \(count) more \(count == 1 ? "column" : "columns") that are not one of \(fields) "
                        + "\(count == 1 ? "was" : "were") ignored"
                case .ignoredField:
                    "and \(count) more \(count == 1 ? "field" : "fields") of other names that are not one of "
                        + "\(fields) \(count == 1 ? "was" : "were") ignored"
                case .ignoredMember:
                    "and \(count) more \(count == 1 ? "member" : "members") that are not one of name, questions "
                        + "\(count == 1 ? "was" : "were") ignored"
                }
            }
        }

        private(set) var listed: [String] = []
        private var unlisted: [Kind: Int] = [:]
        private var listedOfKind: [Kind: Int] = [:]

        /// Adds `warning`, made only when it is listed.
        mutating func append(_ kind: Kind, _ warning: @autoclosure () -> String) {
            if listedOfKind[kind, default: 0] < mostListedProblems {
                listedOfKind[kind, default: 0] += 1
                listed.append(warning())
            } else {
                unlisted[kind, default: 0] += 1
            }
        }

        /// Counts `count` warnings of `kind` that are not listed.
        mutating func count(_ count: Int, of kind: Kind) {
            if count > 0 { unlisted[kind, default: 0] += count }
        }

        /// The listed warnings, then for each kind with others the one that counts them.
        var all: [String] {
            listed + Kind.allCases.compactMap { kind in unlisted[kind].map { kind.more($0) } }
        }
    }

    /// The members of a file's questions that are none of ``questionFields``: the first ``mostListedProblems`` names
    /// with how many questions hold each, and a count of the others, so that what is kept of a file whose one
    /// question holds 800 000 such members stays small (and each is found in constant time).
    struct IgnoredMembers {
        struct Named {
            var name: String
            var questions = 0
            /// The line of the first question holding it whose line is known.
            var firstLine: Int?
        }

        private(set) var named: [Named] = []
        private var indexes: [String: Int] = [:]
        /// How many members of names that are not in ``named`` were found.
        private(set) var others = 0

        /// Notes the member `name` of a question at `line`.
        mutating func note(_ name: String, line: Int?) {
            if let index = indexes[name] {
                named[index].questions += 1
                if named[index].firstLine == nil { named[index].firstLine = line }
            } else if named.count < mostListedProblems {
                indexes[name] = named.count
                named.append(Named(name: name, questions: 1, firstLine: line))
            } else {
                others += 1
            }
        }
    }

    /// Warns of questions that repeat an earlier one (ignoring case, accents and spacing, as a game's draw does).
    struct RepeatCheck {
        private var seen: [String: (line: Int?, index: Int?)] = [:]

        /// The warning when `question`, at `line` of the file or the `index` of a JSON file's `questions` (or
        /// both), repeats an earlier question. The place is said by line, or by index where both are on one line
        /// (a JSON file written on one line).
        mutating func warning(for question: Question, line: Int?, index: Int? = nil) -> String? {
            let key = question.repeatKey
            guard let earlier = seen[key] else {
                seen[key] = (line, index)
                return nil
            }
            if let line, let first = earlier.line, line != first || index == nil || earlier.index == nil {
                return "line \(line) repeats the question and answer of line \(first)"
            }
            func place(_ line: Int?, _ index: Int?) -> String {
                let path = index.map { "questions[\($0)]" } ?? ""
                return line.map { path.isEmpty ? "line \($0)" : "\(path) (line \($0))" } ?? path
            }
            return "\(place(line, index)) repeats the question and answer of \(place(nil, earlier.index))"
        }
    }

    /// An import error for one problem, which stops the whole file from being read.
    static func failure(line: Int? = nil, field: String? = nil, problem: String) -> StoreError {
        .importFailed(problems: [bounded(PackFileProblem(line: line, field: field, problem: problem))])
    }

    /// `problem` with its words and its field cut to a length a report can hold many of.
    private static func bounded(_ problem: PackFileProblem) -> PackFileProblem {
        func cut(_ text: String) -> String {
            text.count > longestProblem ? text.prefix(longestProblem - 1) + "…" : text
        }
        return PackFileProblem(line: problem.line, field: problem.field.map(cut), problem: cut(problem.problem))
    }

    static func readCSV(_ data: Data) throws -> PackFile {
        let text = try utf8Text(data)
        let firstLine = text.prefix { $0 != "\n" && $0 != "\r" && $0 != "\r\n" }
        // Commas, or what a spreadsheet writes in their place: semicolons (where the comma is the decimal mark) or
        // tabs (copied from a sheet, or saved as "tab-separated").
        let delimiter: Unicode.Scalar = [",", ";", "\t"].first { firstLine.unicodeScalars.contains($0) } ?? ","
        let records: [CSVCodec.Record]
        do throws(CSVCodec.SyntaxError) {
            records = try CSVCodec.parse(text, delimiter: delimiter)
        } catch {
            throw failure(line: error.line, problem: error.problem)
        }
        let rows = records.filter { record in
            record.fields.contains { field in field.unicodeScalars.contains { !isBlank($0) } }
        }
        guard let header = rows.first else {
            throw failure(
                line: 1, problem: "the file is empty; it needs the header “question,answer,difficulty,alternates”")
        }
        var warnings = Warnings()
        let columns = try columnIndexes(header, warnings: &warnings)
        var questions: [Question] = []
        var bad = BadQuestions()
        var repeats = RepeatCheck()
        for row in rows.dropFirst() {
            // A spreadsheet leaves out a row's empty fields at its end, and keeps empty columns after the last one:
            // both are fine; a value beyond the header's columns is not.
            let beyond = row.fields.dropFirst(header.fields.count)
            guard beyond.allSatisfy({ $0.unicodeScalars.allSatisfy(isBlank) }) else {
                bad.append(
                    PackFileProblem(
                        line: row.line,
                        problem: "expected \(header.fields.count) fields like the header, found \(row.fields.count)"))
                continue
            }
            func value(_ column: String) -> String? {
                guard let index = columns[column] else { return nil }
                return index < row.fields.count ? row.fields[index] : ""
            }
            let written = WrittenQuestion(
                text: value("question"), answer: value("answer"), difficulty: value("difficulty"),
                alternates: PackRules.alternates(splitting: value("alternates") ?? ""))
            do throws(PackRules.Violation) {
                let question = try checkedQuestion(written)
                if let warning = repeats.warning(for: question, line: row.line) {
                    warnings.append(.repeatedQuestion, warning)
                }
                if let warning = leftOutAlternates(written, kept: question, at: "line \(row.line)") {
                    warnings.append(.leftOutAlternates, warning)
                }
                questions.append(question)
            } catch {
                bad.append(PackFileProblem(line: row.line, field: error.field, problem: error.problem))
            }
        }
        try bad.throwIfAny()
        return PackFile(name: nil, questions: questions, warnings: warnings.all)
    }

    /// Whether `scalar` is in Foundation's `.whitespaces` (a space separator or a tab), without its cost per call.
    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
    }

    /// The warning for a field that is not a question's (`what`: "column" or "field"), which was ignored.
    private static func ignoredField(_ what: String, _ name: String, _ where: String = "") -> String {
        "the \(what) \(PackRules.quoted(name))\(`where`) is not one of \(questionFields.joined(separator: ", ")) "
            + "and was ignored"
    }

    private static func columnIndexes(_ header: CSVCodec.Record, warnings: inout Warnings) throws -> [String: Int] {
        var columns: [String: Int] = [:]
        for (index, raw) in header.fields.enumerated() {
            let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
            // A column without a name is a spreadsheet's empty one: nothing to say about it.
            if name.isEmpty { continue }
            guard questionFields.contains(name) else {
                warnings.append(.ignoredColumn, ignoredField("column", raw))
                continue
            }
            if columns[name] != nil {
                throw failure(line: header.line, field: raw, problem: "the column “\(name)” appears twice")
            }
            columns[name] = index
        }
        for required in requiredFields where columns[required] == nil {
            // A file of questions alone (no header, as a spreadsheet saves one) is told what its first line must be.
            throw failure(
                line: header.line, field: required,
                problem: "the header has no “\(required)” column: the first line names the columns, as in "
                    + "question,answer,difficulty,alternates")
        }
        return columns
    }

    /// Refuses text in UTF-16 or UTF-32 (``WideText``): a syntax error in it would not say why.
    static func refuseWideText(_ data: Data) throws {
        if let encoding = WideText.encoding(of: data) {
            throw failure(
                line: 1,
                problem: "the file is \(encoding.name) text (\(encoding.sign)); save it as UTF-8 (in Notepad: Save As, "
                    + "Encoding: UTF-8)")
        }
    }

    /// The file's text, or an error naming the first line that is not UTF-8.
    private static func utf8Text(_ data: Data) throws -> String {
        try refuseWideText(data)
        if let text = String(data: data, encoding: .utf8) { return text }
        var line = 1
        for chunk in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if String(data: Data(chunk), encoding: .utf8) == nil { break }
            line += 1
        }
        throw failure(line: line, problem: "the text is not UTF-8; save the file as UTF-8")
    }

    /// A member name of a JSON object, whatever it is.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The loose shape of a JSON pack file, so a missing or wrong value gets a precise message.
    private struct RawFile: Decodable {
        static let members = ["id", "version", "name", "questions"]

        var id: String?
        var version: Int?
        var name: String?
        var questions: [RawQuestion]?
        /// The members that are none of ``members``, as written.
        var otherMembers: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            id = try container.decodeIfPresent(String.self, forKey: AnyKey("id"))
            // A number that is not a whole one that fits, such as 1.5 or 1e20, fails in Foundation as "not valid
            // JSON", without its place: said as a value of the wrong type instead.
            let versionKey = AnyKey("version")
            if !container.contains(versionKey) || (try? container.decodeNil(forKey: versionKey)) == true {
                version = nil
            } else if let whole = try? container.decode(Int.self, forKey: versionKey) {
                version = whole
            } else {
                throw DecodingError.typeMismatch(
                    Int.self,
                    DecodingError.Context(
                        codingPath: container.codingPath + [versionKey], debugDescription: "not a whole number"))
            }
            name = try container.decodeIfPresent(String.self, forKey: AnyKey("name"))
            questions = try container.decodeIfPresent([RawQuestion].self, forKey: AnyKey("questions"))
            otherMembers = container.allKeys.map(\.stringValue).filter { !Self.members.contains($0) }.sorted()
        }
    }

    /// One element of a JSON file's `questions`: its fields, read whatever their shape, so that every bad question
    /// of a file is found in one reading.
    private struct RawQuestion: Decodable {
        var written = WrittenQuestion()
        /// Each field's member name as written, by the field's name.
        var memberNames: [String: String] = [:]
        /// The members that are not a question's fields, as written.
        var otherMembers: [String] = []
        /// The first value of the wrong shape (the element itself when it is not an object).
        var shapeProblem: PackRules.Violation?

        init(from decoder: any Decoder) {
            let container: KeyedDecodingContainer<AnyKey>
            do {
                container = try decoder.container(keyedBy: AnyKey.self)
            } catch {
                shapeProblem = PackRules.Violation(
                    field: "", problem: "expected an object { … } with a “question” and an “answer” here")
                return
            }
            for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                let field = key.stringValue.trimmingCharacters(in: .whitespaces).lowercased()
                guard PackFile.questionFields.contains(field) else {
                    otherMembers.append(key.stringValue)
                    continue
                }
                guard memberNames[field] == nil else {
                    noteShape(field, "the “\(field)” value is given twice (member names are read in any case)")
                    continue
                }
                memberNames[field] = key.stringValue
                if (try? container.decodeNil(forKey: key)) == true {
                    // Nothing given: a default for the difficulty and the alternates, and missing for the others.
                    if field == "question" || field == "answer" { noteShape(field, "expected a string, found null") }
                    continue
                }
                if field == "alternates" {
                    if let list = try? container.decode([String].self, forKey: key) {
                        written.alternates = list
                    } else if let text = try? container.decode(String.self, forKey: key) {
                        written.alternates = PackRules.alternates(splitting: text)
                    } else {
                        noteShape(field, "expected a list of strings [\"…\", \"…\"] here")
                    }
                    continue
                }
                guard let text = try? container.decode(String.self, forKey: key) else {
                    let number = (try? container.decode(Double.self, forKey: key)) != nil
                    noteShape(
                        field, number ? "expected a string here; write the number in quotes" : "expected a string here")
                    continue
                }
                switch field {
                case "question": written.text = text
                case "answer": written.answer = text
                default: written.difficulty = text
                }
            }
        }

        private mutating func noteShape(_ field: String, _ problem: String) {
            if shapeProblem == nil { shapeProblem = PackRules.Violation(field: field, problem: problem) }
        }
    }

    static func readJSON(_ data: Data) throws -> PackFile {
        try refuseWideText(data)
        let filePlaces: JSONSyntaxLocator.FilePlaces
        do throws(JSONSyntaxLocator.Problem) {
            filePlaces = try JSONSyntaxLocator.filePlaces(in: data)
        } catch {
            throw failure(line: error.line, problem: error.problem)
        }
        let places = filePlaces.questions
        let raw: RawFile
        do {
            raw = try JSONDecoder().decode(RawFile.self, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted = error, let syntax = JSONSyntaxLocator.firstProblem(in: data) {
                throw failure(
                    line: syntax.line,
                    problem: "the file is not valid JSON at column \(syntax.column): \(syntax.problem)")
            }
            let field = path(of: error)
            // A member of the file's object is found by its line; a question's is named by its path.
            let line = field.flatMap { filePlaces.members[$0] }
            if field == "version" {
                throw failure(
                    line: line, field: field,
                    problem: "the version is a whole number of 1 or more (raised by 1 whenever the file changes), "
                        + "such as 2")
            }
            throw failure(line: line, field: field, problem: describe(error))
        }
        guard let rawQuestions = raw.questions else {
            throw failure(field: "questions", problem: "the file has no “questions” list")
        }
        var questions: [Question] = []
        var bad = BadQuestions()
        var repeats = RepeatCheck()
        var warnings = Warnings()
        var otherMembers = IgnoredMembers()
        for (index, rawQuestion) in rawQuestions.enumerated() {
            let place = index < places.count ? places[index] : nil
            let path = "questions[\(index)]"
            for member in rawQuestion.otherMembers { otherMembers.note(member, line: place?.line) }
            do throws(PackRules.Violation) {
                if let problem = rawQuestion.shapeProblem { throw problem }
                let question = try checkedQuestion(rawQuestion.written)
                let at = place.map { "line \($0.line)" } ?? path
                if let warning = repeats.warning(for: question, line: place?.line, index: index) {
                    warnings.append(.repeatedQuestion, warning)
                }
                if let warning = leftOutAlternates(rawQuestion.written, kept: question, at: at) {
                    warnings.append(.leftOutAlternates, warning)
                }
                questions.append(question)
            } catch {
                // The line of the bad value, or of its question when the value is missing.
                let line = rawQuestion.memberNames[error.field].flatMap { place?.fields[$0] } ?? place?.line
                bad.append(
                    PackFileProblem(
                        line: line, field: error.field.isEmpty ? path : "\(path).\(error.field)", problem: error.problem
                    ))
            }
        }
        try bad.throwIfAny()
        for member in otherMembers.named {
            let count = member.questions
            let whereText =
                switch (count, member.firstLine) {
                case (1, let line?): " (line \(line))"
                case (_, let line?): " (in \(count) questions, the first at line \(line))"
                case (1, nil): ""
                case (_, nil): " (in \(count) questions)"
                }
            warnings.append(.ignoredField, ignoredField("field", member.name, whereText))
        }
        warnings.count(otherMembers.others, of: .ignoredField)
        for member in raw.otherMembers {
            warnings.append(
                .ignoredMember, "the member \(PackRules.quoted(member)) is not one of name, questions and was ignored")
        }
        return PackFile(
            name: raw.name, questions: questions, id: raw.id, version: raw.version, warnings: warnings.all)
    }

    private static func path(of error: DecodingError) -> String? {
        let context: DecodingError.Context? =
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
                .dataCorrupted(let context):
                context
            @unknown default: nil
            }
        guard let codingPath = context?.codingPath, !codingPath.isEmpty else { return nil }
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    /// A JSON type in words: "a string", "an object {…}".
    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "a whole number"
        case is [String].Type, is [Any].Type: "a list [ … ]"
        case is [String: Any].Type: "an object { … }"
        default:
            "\(type)".hasPrefix("Array")
                ? "a list [ … ]" : "\(type)".hasPrefix("Dictionary") ? "an object { … }" : "a value"
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, _):
            "expected \(typeName(type)) here"
        case .valueNotFound(let type, _):
            "expected \(type == String.self ? "a string" : "a value"), found null"
        case .keyNotFound(let key, _):
            "the “\(key.stringValue)” value is missing"
        case .dataCorrupted(let context):
            "the file is not valid JSON (\(context.underlyingError.map { "\($0)" } ?? context.debugDescription))"
        @unknown default:
            "the file cannot be read as JSON"
        }
    }

    // MARK: Writing

    /// Refuses a pack whose JSON file, its largest export, would be larger than ``PackRules/largestPackFile``: a
    /// CSV file of short questions is a fraction of their JSON (a row `Q?,A` is 5 bytes, its JSON object some 100),
    /// so a CSV file the daemon takes could give an export it would not take back.
    ///
    /// - Throws: ``StoreError/importFailed(problems:unlisted:)`` saying how large the pack would be.
    func checkExportable() throws {
        if let problem = try exportProblem() {
            throw Self.failure(problem: problem + ": split the file into two packs")
        }
    }

    /// Why the pack is too large to export to a file that imports back, or `nil` when it is not.
    func exportProblem() throws -> String? {
        // A CSV or TSV export is never larger: a field is quoted only when it must be, and a quote in it takes two
        // bytes there as in JSON.
        let length = try jsonLength()
        guard length > PackRules.largestPackFile else { return nil }
        let size = MebibyteText.roundedUp(length)
        return "the pack of \(questions.count) questions would be \(size) MiB as a JSON file, its largest export; a "
            + "pack may be at most \(PackRules.largestPackFile >> 20) MiB as JSON, so that what is exported imports back"
    }

    /// The pack as a file in `format`.
    func data(format: PackFileFormat) throws -> Data {
        switch format {
        case .json: try jsonData()
        case .csv: Data(csvText().utf8)
        case .tsv: Data(csvText(delimiter: "\t").utf8)
        }
    }

    private struct ExportFile: Encodable {
        var name: String
        var questions: [ExportQuestion]
    }

    private struct ExportQuestion: Encodable {
        var question: String
        var answer: String
        var difficulty: String
        var alternates: [String]
    }

    func jsonData() throws -> Data {
        try Self.encodedJSON(
            ExportFile(
                name: name ?? "",
                questions: questions.map {
                    ExportQuestion(
                        question: $0.text, answer: $0.answer, difficulty: $0.difficulty.rawValue,
                        alternates: $0.alternates)
                }))
    }

    private static func encodedJSON(_ file: ExportFile) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Only a non-finite number can fail to encode, and the file holds strings only.
        return try encoder.encode(file) + Data("\n".utf8)
    }

    /// The length in bytes of ``jsonData()``, counted without making it: an import checks it, and the JSON of a
    /// large pack's encoder would hold several times the file's size at once on a Pi.
    ///
    /// The encoder's layout is measured once on packs of empty strings (each member and element adds the same
    /// bytes wherever it is), and each string adds its escaped length.
    func jsonLength() throws -> Int {
        let layout = try Self.jsonLayout()
        var length = layout.emptyFile + Self.escapedLength(name ?? "")
        if !questions.isEmpty { length += layout.firstQuestion + (questions.count - 1) * layout.question }
        for question in questions {
            length += Self.escapedLength(question.text) + Self.escapedLength(question.answer)
            length += Self.escapedLength(question.difficulty.rawValue)
            if !question.alternates.isEmpty {
                length += layout.firstAlternate + (question.alternates.count - 1) * layout.alternate
            }
            for alternate in question.alternates { length += Self.escapedLength(alternate) }
        }
        return length
    }

    /// What the encoder's layout adds: for a file, its first question, each further one, a question's first
    /// alternate and each further one, all of empty strings.
    private struct JSONLayout {
        var emptyFile, firstQuestion, question, firstAlternate, alternate: Int
    }

    private static func jsonLayout() throws -> JSONLayout {
        func length(questions: Int, alternates: Int = 0) throws -> Int {
            let question = ExportQuestion(
                question: "", answer: "", difficulty: "", alternates: Array(repeating: "", count: alternates))
            return try encodedJSON(ExportFile(name: "", questions: Array(repeating: question, count: questions))).count
        }
        let (none, one, two) = (try length(questions: 0), try length(questions: 1), try length(questions: 2))
        let (oneAlternate, twoAlternates) = (
            try length(questions: 1, alternates: 1), try length(questions: 1, alternates: 2)
        )
        return JSONLayout(
            emptyFile: none, firstQuestion: one - none, question: two - one, firstAlternate: oneAlternate - one,
            alternate: twoAlternates - oneAlternate)
    }

    /// The bytes the JSON encoder writes for `text` between its quotes: a quote, a backslash and the control
    /// characters with a short escape take two, the other control characters six (`\u001f`), the rest their UTF-8.
    private static func escapedLength(_ text: String) -> Int {
        var length = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22, 0x5C, 0x08, 0x09, 0x0A, 0x0C, 0x0D: length += 2
            case 0..<0x20: length += 6
            default: length += UTF8.width(scalar)
            }
        }
        return length
    }

    func csvText(delimiter: Character = ",") -> String {
        let rows = questions.map { question in
            [
                question.text, question.answer, question.difficulty.rawValue,
                question.alternates.joined(separator: String(PackRules.alternateSeparator)),
            ]
        }
        return CSVCodec.format([Self.questionFields] + rows, delimiter: delimiter)
    }
}
