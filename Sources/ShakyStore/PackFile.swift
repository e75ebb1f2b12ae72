import Foundation
import TriviaEngine

/// The file formats a pack can be imported from and exported to.
///
/// **JSON**: an object `{"name": "…", "questions": [{"question": "…", "answer": "…",
/// "difficulty": "easy", "alternates": ["…"]}]}`; `alternates` may be left out. Built-in pack files add
/// `"id"` (a stable identifier) and `"version"` (a whole number raised whenever the file changes).
///
/// **CSV** (RFC 4180, UTF-8, a byte order mark and CRLF line ends tolerated): a header line naming the
/// columns `question,answer,difficulty,alternates` (any order, any case; `alternates` may be left out),
/// then one question per line. Alternate answers are separated by `|` (a character no answer needs, and
/// not the `;` some spreadsheets use between fields). A file whose header holds `;` but no `,` is read
/// with `;` between fields. Fields holding commas, quotes or line breaks are quoted with `"`, and a
/// quote inside is doubled. Lines whose fields are all empty are skipped.
public enum PackFileFormat: String, CaseIterable, Codable, Sendable {
    /// The JSON pack format.
    case json
    /// The CSV pack format, for spreadsheets.
    case csv
}

/// A pack file's content: the pack's name (if the file has one) and its checked questions.
struct PackFile: Equatable {
    /// The columns of the CSV format, in the order they are written.
    static let csvColumns = ["question", "answer", "difficulty", "alternates"]
    /// The columns a CSV file must have; without `difficulty` every question is medium.
    static let requiredCSVColumns = ["question", "answer"]

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
    /// - Throws: ``StoreError/importFailed(line:field:problem:)`` naming where the file is wrong.
    static func read(_ data: Data, format: PackFileFormat) throws -> PackFile {
        var file =
            switch format {
            case .json: try readJSON(data)
            case .csv: try readCSV(data)
            }
        // Kept (an empty pack exports to a bare header and imports back), but said: a sheet saved before its rows
        // were filled in looks the same.
        if file.questions.isEmpty { file.warnings.append("the file holds no questions: the pack is empty") }
        return file
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
            throw StoreError.importFailed(line: error.line, field: nil, problem: error.problem)
        }
        let rows = records.filter { record in
            record.fields.contains { field in field.unicodeScalars.contains { !isBlank($0) } }
        }
        guard let header = rows.first else {
            throw StoreError.importFailed(
                line: 1, field: nil,
                problem: "the file is empty; it needs the header “question,answer,difficulty,alternates”")
        }
        var warnings: [String] = []
        let columns = try columnIndexes(header, warnings: &warnings)
        var questions: [Question] = []
        var problems: [(line: Int, field: String?, problem: String)] = []
        var seen: [String: Int] = [:]
        for row in rows.dropFirst() {
            // A spreadsheet leaves out a row's empty fields at its end, and keeps empty columns after the last one:
            // both are fine; a value beyond the header's columns is not.
            let beyond = row.fields.dropFirst(header.fields.count)
            guard beyond.allSatisfy({ $0.unicodeScalars.allSatisfy(isBlank) }) else {
                problems.append(
                    (row.line, nil, "expected \(header.fields.count) fields like the header, found \(row.fields.count)")
                )
                continue
            }
            func value(_ column: String) -> String? {
                guard let index = columns[column] else { return nil }
                return index < row.fields.count ? row.fields[index] : ""
            }
            let alternates = (value("alternates") ?? "").split(separator: PackRules.alternateSeparator).map(String.init)
            // An empty or missing difficulty means medium, as `shaky pack add` without --difficulty.
            let given = value("difficulty") ?? ""
            let difficulty = given.unicodeScalars.allSatisfy(isBlank) ? "medium" : given
            do {
                let question = try checkedQuestion(
                    text: value("question"), answer: value("answer"), difficulty: difficulty,
                    alternates: alternates, line: row.line, field: { $0 })
                let key = question.repeatKey
                if let earlier = seen[key] {
                    warnings.append("line \(row.line) repeats the question and answer of line \(earlier)")
                } else {
                    seen[key] = row.line
                }
                questions.append(question)
            } catch StoreError.importFailed(let line, let field, let problem) {
                problems.append((line ?? row.line, field, problem))
            }
        }
        if let first = problems.first {
            var problem = first.problem
            if problems.count > 1 {
                let rest = problems.dropFirst().map { item in
                    "line \(item.line)" + (item.field.map { ", field “\($0)”" } ?? "") + ": " + item.problem
                }
                problem +=
                    "; also "
                    + within(
                        reportLength - problem.utf8.count, rest,
                        more: { count in
                            "and \(count) more bad \(count == 1 ? "line" : "lines")"
                        }
                    ).joined(separator: "; ")
            }
            throw StoreError.importFailed(line: first.line, field: first.field, problem: problem)
        }
        let kept = within(
            reportLength, warnings,
            more: { count in
                "and \(count) more \(count == 1 ? "warning" : "warnings") like these"
            })
        return PackFile(name: nil, questions: questions, warnings: kept)
    }

    /// The most text, in bytes, that the problems or the warnings of one file may fill: every one of them is
    /// reported when they fit, and the reply stays well under the 1 MiB of a Varlink message.
    static let reportLength = 256 << 10

    /// As many of `items` as fit in `length` bytes, then, when some are left, what `more` says of them.
    static func within(_ length: Int, _ items: [String], more: (Int) -> String) -> [String] {
        var used = 0
        for (index, item) in items.enumerated() {
            used += item.utf8.count + 2
            if used > length { return Array(items[..<index]) + [more(items.count - index)] }
        }
        return items
    }

    /// Whether `scalar` is in Foundation's `.whitespaces` (a space separator or a tab), without its cost per call.
    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
    }

    private static func columnIndexes(_ header: CSVCodec.Record, warnings: inout [String]) throws -> [String: Int] {
        var columns: [String: Int] = [:]
        for (index, raw) in header.fields.enumerated() {
            let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
            // A column without a name is a spreadsheet's empty one: nothing to say about it.
            if name.isEmpty { continue }
            guard csvColumns.contains(name) else {
                warnings.append(
                    "the column “\(raw)” is not one of \(csvColumns.joined(separator: ", ")) and was ignored")
                continue
            }
            if columns[name] != nil {
                throw StoreError.importFailed(
                    line: header.line, field: raw, problem: "the column “\(name)” appears twice")
            }
            columns[name] = index
        }
        for required in requiredCSVColumns where columns[required] == nil {
            throw StoreError.importFailed(
                line: header.line, field: required, problem: "the header has no “\(required)” column")
        }
        return columns
    }

    /// The file's text, or an error naming the first line that is not UTF-8.
    private static func utf8Text(_ data: Data) throws -> String {
        if let text = String(data: data, encoding: .utf8) { return text }
        var line = 1
        for chunk in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if String(data: Data(chunk), encoding: .utf8) == nil { break }
            line += 1
        }
        throw StoreError.importFailed(line: line, field: nil, problem: "the text is not UTF-8; save the file as UTF-8")
    }

    /// The loose shape of a JSON pack file, so a missing or wrong value gets a precise message.
    private struct RawFile: Decodable {
        var id: String?
        var version: Int?
        var name: String?
        var questions: [RawQuestion]?
    }

    private struct RawQuestion: Decodable {
        var question: String?
        var answer: String?
        var difficulty: String?
        var alternates: [String]?
    }

    static func readJSON(_ data: Data) throws -> PackFile {
        let raw: RawFile
        do {
            raw = try JSONDecoder().decode(RawFile.self, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted = error, let syntax = JSONSyntaxLocator.firstProblem(in: data) {
                throw StoreError.importFailed(
                    line: syntax.line, field: nil,
                    problem: "the file is not valid JSON at column \(syntax.column): \(syntax.problem)")
            }
            throw StoreError.importFailed(line: nil, field: path(of: error), problem: describe(error))
        }
        guard let rawQuestions = raw.questions else {
            throw StoreError.importFailed(line: nil, field: "questions", problem: "the file has no “questions” list")
        }
        var questions: [Question] = []
        for (index, rawQuestion) in rawQuestions.enumerated() {
            questions.append(
                try checkedQuestion(
                    text: rawQuestion.question, answer: rawQuestion.answer, difficulty: rawQuestion.difficulty,
                    alternates: rawQuestion.alternates ?? [], line: nil, field: { "questions[\(index)].\($0)" }))
        }
        return PackFile(name: raw.name, questions: questions, id: raw.id, version: raw.version)
    }

    private static func checkedQuestion(
        text: String?, answer: String?, difficulty: String?, alternates: [String], line: Int?,
        field: (String) -> String
    ) throws -> Question {
        do throws(PackRules.Violation) {
            for (name, value) in [("question", text), ("answer", answer), ("difficulty", difficulty)] where value == nil
            {
                throw PackRules.Violation(field: name, problem: "the “\(name)” value is missing")
            }
            let question = Question(
                text: text!, answer: answer!, alternates: alternates, difficulty: try PackRules.difficulty(difficulty!))
            return try PackRules.question(question)
        } catch {
            throw StoreError.importFailed(line: line, field: field(error.field), problem: error.problem)
        }
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

    /// The pack as a file in `format`.
    func data(format: PackFileFormat) throws -> Data {
        switch format {
        case .json: try jsonData()
        case .csv: Data(csvText().utf8)
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
        let file = ExportFile(
            name: name ?? "",
            questions: questions.map {
                ExportQuestion(
                    question: $0.text, answer: $0.answer, difficulty: $0.difficulty.rawValue, alternates: $0.alternates)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Only a non-finite number can fail to encode, and the file holds strings only.
        return try encoder.encode(file) + Data("\n".utf8)
    }

    func csvText() -> String {
        let rows = questions.map { question in
            [
                question.text, question.answer, question.difficulty.rawValue,
                question.alternates.joined(separator: String(PackRules.alternateSeparator)),
            ]
        }
        return CSVCodec.format([Self.csvColumns] + rows)
    }
}
