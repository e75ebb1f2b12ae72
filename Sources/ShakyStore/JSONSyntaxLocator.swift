import Foundation

/// Finds where JSON text first breaks the grammar, so an import error can name the line and column
/// (Foundation's decoder reports only that the data is not valid JSON), and where the questions of a
/// well-formed pack file are, so that a bad question is named by its line.
struct JSONSyntaxLocator {
    /// A syntax error: 1-based line and column (in characters) and what was expected.
    struct Problem: Equatable {
        var line: Int
        var column: Int
        var problem: String
        /// Whether the grammar allows what is wrong (a name given twice in one object, half of a surrogate pair, a
        /// number too large for a `Double`), which Foundation's decoder then takes silently or reports without a
        /// place.
        var isAllowedByGrammar = false
    }

    private let bytes: [UInt8]
    private var index = 0
    /// How far ``line(at:)`` has counted line breaks, and the line it reached there.
    private var countedUpTo = 0
    private var linesCounted = 1

    /// A locator at the start of `data`'s JSON value, after a UTF-8 byte order mark.
    private init(_ data: Data) {
        bytes = Array(data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// The first syntax error in `data`, or nil if it is well-formed JSON.
    static func firstProblem(in data: Data) -> Problem? {
        var locator = JSONSyntaxLocator(data)
        do throws(Problem) {
            try locator.value(depth: 0)
            locator.skipSpace()
            if locator.index < locator.bytes.count { throw locator.failure("text after the end of the JSON value") }
            return nil
        } catch {
            return error
        }
    }

    /// Where one question of a pack file is: the line its object (or other value) begins on, and the line of
    /// the value of each of its members that is a question's field (``PackFile/questionFields``, in any case), by
    /// the member's name as written.
    struct QuestionPlace: Equatable {
        var line: Int
        var fields: [String: Int] = [:]
    }

    /// Where the values of a pack file are: its questions', and the line of each member of the file's object.
    struct FilePlaces: Equatable {
        var questions: [QuestionPlace] = []
        var members: [String: Int] = [:]
    }

    /// The places of the elements of the `questions` list of the object `data` holds, in order; empty when
    /// `data` is not an object with such a list. It stops at the first syntax error, which the decoder then reports.
    ///
    /// Throws the first problem the grammar allows but a pack file may not hold (``Problem/isAllowedByGrammar``):
    /// a name given twice in one object (`{"answer": "A", "answer": "B"}`), which Foundation's decoder takes the last
    /// of silently, so a pack file's typo would import a question other than the one its author sees first; a lone
    /// half of a surrogate pair (`"\ud800"`), which is no character; a number too large to read (`1e999`).
    static func questionPlaces(in data: Data) throws(Problem) -> [QuestionPlace] {
        try filePlaces(in: data).questions
    }

    /// The places of the values of the pack file `data`, as ``questionPlaces(in:)`` finds them.
    static func filePlaces(in data: Data) throws(Problem) -> FilePlaces {
        var locator = JSONSyntaxLocator(data)
        var places = FilePlaces()
        do throws(Problem) {
            try locator.members { locator, name throws(Problem) in
                let text = locator.decodedString(name)
                places.members[text] = locator.line(at: locator.index)
                guard locator.current == UInt8(ascii: "["), text == "questions" else {
                    try locator.value(depth: 1)
                    return
                }
                places.questions = try locator.questionList()
            }
        } catch {
            // The decoder reports any other problem (a syntax error, a file that is not a pack's shape).
            if error.isAllowedByGrammar { throw error }
        }
        return places
    }

    /// Reads the list of questions the index is at: each element's place.
    private mutating func questionList() throws(Problem) -> [QuestionPlace] {
        var places: [QuestionPlace] = []
        try elements { locator throws(Problem) in
            var place = QuestionPlace(line: locator.line(at: locator.index))
            if locator.current == UInt8(ascii: "{") {
                try locator.members { locator, name throws(Problem) in
                    // Only a question's fields are looked up: a question may hold any number of other members.
                    let text = locator.decodedString(name)
                    let field = text.trimmingCharacters(in: .whitespaces).lowercased()
                    if PackFile.questionFields.contains(field) { place.fields[text] = locator.line(at: locator.index) }
                    try locator.value(depth: 3)
                }
            } else {
                try locator.value(depth: 2)
            }
            places.append(place)
        }
        return places
    }

    /// Reads the object the index is at, calling `member` for each member with the place of its quoted name, the
    /// index at its value (after spaces); `member` must read the value.
    private mutating func members(
        _ member: (inout JSONSyntaxLocator, Range<Int>) throws(Problem) -> Void
    ) throws(Problem) {
        try expect("{", "an object")
        skipSpace()
        if current == UInt8(ascii: "}") {
            index += 1
            return
        }
        var namesSeen: [String: Int] = [:]
        while true {
            skipSpace()
            let start = index
            guard current == UInt8(ascii: "\"") else { throw failure("expected a quoted name") }
            try string()
            let name = start..<index
            let text = decodedString(name)
            if let first = namesSeen.updateValue(line(at: start), forKey: text) {
                index = start
                var problem = failure(
                    "\(PackRules.quoted(text)) is given twice in one object (first on line \(first)); "
                        + "keep the one you mean")
                problem.isAllowedByGrammar = true
                throw problem
            }
            try expect(":", "“:” after a name")
            skipSpace()
            try member(&self, name)
            skipSpace()
            if current == UInt8(ascii: ",") {
                index += 1
            } else if current == UInt8(ascii: "}") {
                index += 1
                return
            } else {
                throw failure("expected “,” or “}” (is a comma missing?)")
            }
        }
    }

    /// Reads the list the index is at, calling `element` with the index at each element (after spaces); `element`
    /// must read it.
    private mutating func elements(_ element: (inout JSONSyntaxLocator) throws(Problem) -> Void) throws(Problem) {
        try expect("[", "a list")
        skipSpace()
        if current == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            skipSpace()
            try element(&self)
            skipSpace()
            if current == UInt8(ascii: ",") {
                index += 1
            } else if current == UInt8(ascii: "]") {
                index += 1
                return
            } else {
                throw failure("expected “,” or “]” (is a comma missing?)")
            }
        }
    }

    /// The text of the quoted JSON string at `range` (its quotes included), its escapes read.
    private func decodedString(_ range: Range<Int>) -> String {
        let quoted = bytes[range]
        let inner = quoted.dropFirst().dropLast()
        guard inner.contains(UInt8(ascii: "\\")) else { return String(decoding: inner, as: UTF8.self) }
        return (try? JSONDecoder().decode(String.self, from: Data(quoted))) ?? String(decoding: inner, as: UTF8.self)
    }

    /// The line (from 1) of the byte at `position`.
    private mutating func line(at position: Int) -> Int {
        // Counted on from the last answer: places are asked for in the order of the text.
        if position < countedUpTo {
            countedUpTo = 0
            linesCounted = 1
        }
        for byte in bytes[countedUpTo..<min(position, bytes.count)] where byte == UInt8(ascii: "\n") {
            linesCounted += 1
        }
        countedUpTo = max(countedUpTo, min(position, bytes.count))
        return linesCounted
    }

    private func failure(_ problem: String) -> Problem {
        var line = 1
        var lineStart = 0
        for position in 0..<min(index, bytes.count) where bytes[position] == UInt8(ascii: "\n") {
            line += 1
            lineStart = position + 1
        }
        let prefix = bytes[lineStart..<min(index, bytes.count)]
        let column = String(decoding: prefix, as: UTF8.self).count + 1
        return Problem(line: line, column: column, problem: problem)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func expect(_ character: Character, _ what: String) throws(Problem) {
        skipSpace()
        guard current == character.asciiValue else { throw failure("expected \(what)") }
        index += 1
    }

    private mutating func value(depth: Int) throws(Problem) {
        guard depth < 512 else { throw failure("the JSON nests too deeply") }
        skipSpace()
        guard let byte = current else { throw failure("the file ends where a value was expected") }
        switch byte {
        case UInt8(ascii: "{"):
            try members { locator, _ throws(Problem) in try locator.value(depth: depth + 1) }
        case UInt8(ascii: "["):
            try elements { locator throws(Problem) in try locator.value(depth: depth + 1) }
        case UInt8(ascii: "\""):
            try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try number()
        default:
            for word in ["true", "false", "null"] where bytes[index...].starts(with: Array(word.utf8)) {
                index += word.utf8.count
                return
            }
            throw failure("expected a value (a quoted string, a number, an object, a list, true, false or null)")
        }
    }

    private mutating func string() throws(Problem) {
        let start = index
        index += 1
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                try escape()
            case 0..<0x20:
                throw failure("a line break or control character inside a string (write \\n)")
            default:
                index += 1
            }
        }
        index = start
        throw failure("a string that is never closed")
    }

    /// Reads the escape the index is at (`\n`, `\u00e9`), refusing one JSON does not have and half of a UTF-16
    /// surrogate pair without its other half.
    private mutating func escape() throws(Problem) {
        let start = index
        guard let letter = index + 1 < bytes.count ? bytes[index + 1] : nil else {
            throw failure("a string that is never closed")
        }
        guard letter == UInt8(ascii: "u") else {
            guard Array(#""\/bfnrt"#.utf8).contains(letter) else {
                throw failure(
                    "“\\\(String(decoding: [letter], as: UTF8.self))” is not an escape JSON has; write “\\\\” for a "
                        + "backslash")
            }
            index += 2
            return
        }
        guard let unit = hexUnit(at: index + 2) else {
            throw failure("“\\u” is followed by four hexadecimal digits in JSON, as in “\\u00e9”")
        }
        index += 6
        var lone: UInt16?
        if (0xD800...0xDBFF).contains(unit) {
            // A high half must be followed by its low half, another escape.
            let low = bytes[index...].starts(with: Array(#"\u"#.utf8)) ? hexUnit(at: index + 2) : nil
            if let low, (0xDC00...0xDFFF).contains(low) { index += 6 } else { lone = unit }
        } else if (0xDC00...0xDFFF).contains(unit) {
            lone = unit
        }
        if let lone {
            index = start
            var problem = failure(
                "“\\u\(String(lone, radix: 16))” is half of a UTF-16 surrogate pair without its other half, so no "
                    + "character; write the character itself (the file is UTF-8) or both halves, as in "
                    + "“\\ud83d\\ude00”")
            problem.isAllowedByGrammar = true
            throw problem
        }
    }

    /// The four hexadecimal digits at `position`, as a number.
    private func hexUnit(at position: Int) -> UInt16? {
        guard position + 4 <= bytes.count else { return nil }
        let digits = bytes[position..<position + 4]
        // `UInt16(_:radix:)` would take a sign too.
        guard digits.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }) else { return nil }
        return UInt16(String(decoding: digits, as: UTF8.self), radix: 16)
    }

    private mutating func number() throws(Problem) {
        let start = index
        let allowed = Set("+-0123456789.eE".utf8)
        while let byte = current, allowed.contains(byte) { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = Double(text) else {
            index = start
            throw failure("“\(text)” is not a number")
        }
        if !number.isFinite {
            index = start
            var problem = failure(
                "the number \(PackRules.quoted(text)) is too large to be read; write it in quotes if it is text")
            problem.isAllowedByGrammar = true
            throw problem
        }
    }
}

extension JSONSyntaxLocator.Problem: Error {}
