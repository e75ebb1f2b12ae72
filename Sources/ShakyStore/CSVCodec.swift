import Foundation

/// A small RFC 4180 CSV reader and writer.
///
/// Reading accepts quoted fields holding delimiters, doubled quotes and line breaks (each read as a LF); CRLF, LF or
/// CR line ends; and a leading byte order mark. Each record remembers the line where it starts, so errors can
/// name it. Writing quotes a field only when it needs it and ends every record with CRLF.
enum CSVCodec {
    /// One record of a CSV file.
    struct Record: Equatable {
        /// The physical line (from 1) where the record starts.
        var line: Int
        /// The record's fields, unquoted.
        var fields: [String]
    }

    /// A CSV syntax error at a line.
    struct SyntaxError: Error, Equatable {
        var line: Int
        var problem: String
    }

    /// The records of `text`, split at `delimiter`. A final line break does not start an empty record.
    static func parse(_ text: String, delimiter: Unicode.Scalar = ",") throws(SyntaxError) -> [Record] {
        enum State { case fieldStart, unquoted, quoted, afterQuote }
        var records: [Record] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var state = State.fieldStart
        var line = 1
        var recordLine = 1
        var quoteLine = 1
        var previousWasCR = false

        var scalars = text.unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }

        func endField() {
            fields.append(String(field))
            field = String.UnicodeScalarView()
        }
        func endRecord() {
            endField()
            records.append(Record(line: recordLine, fields: fields))
            fields = []
        }

        for scalar in scalars {
            let isLineBreak = scalar == "\r" || scalar == "\n"
            // A LF right after a CR is the second half of one CRLF line break.
            let continuesCRLF = scalar == "\n" && previousWasCR
            previousWasCR = scalar == "\r"
            // Inside quotes it was stored as one LF already.
            if continuesCRLF { continue }
            switch state {
            case .fieldStart, .unquoted:
                if scalar == "\"" && state == .fieldStart {
                    state = .quoted
                    quoteLine = line
                } else if scalar == "\"" {
                    throw SyntaxError(
                        line: line, problem: "a quote (\") inside an unquoted field; quote the whole field")
                } else if scalar == delimiter {
                    endField()
                    state = .fieldStart
                } else if isLineBreak {
                    endRecord()
                    state = .fieldStart
                } else {
                    field.append(scalar)
                    state = .unquoted
                }
            case .quoted:
                if scalar == "\"" {
                    state = .afterQuote
                } else if isLineBreak {
                    // A line break in a field is a LF whatever the file's line ends (a CRLF file's are CRLF, as RFC
                    // 4180 has them): a CR would be a control character in the question.
                    field.append("\n")
                } else {
                    field.append(scalar)
                }
            case .afterQuote:
                if scalar == "\"" {
                    field.append(scalar)
                    state = .quoted
                } else if scalar == delimiter {
                    endField()
                    state = .fieldStart
                } else if isLineBreak {
                    endRecord()
                    state = .fieldStart
                } else {
                    throw SyntaxError(
                        line: line, problem: "“\(Character(scalar))” after the closing quote of a field")
                }
            }
            if isLineBreak {
                line += 1
                if state == .fieldStart && fields.isEmpty { recordLine = line }
            }
        }
        switch state {
        case .quoted:
            throw SyntaxError(line: quoteLine, problem: "a quoted field is never closed")
        case .unquoted, .afterQuote:
            endRecord()
        case .fieldStart:
            if !fields.isEmpty { endRecord() }
        }
        return records
    }

    /// `rows` as CSV text: fields joined by `delimiter`, records ended by CRLF.
    static func format(_ rows: [[String]], delimiter: Character = ",") -> String {
        var text = ""
        for row in rows {
            text += row.map { quotedIfNeeded($0, delimiter: delimiter) }.joined(separator: String(delimiter))
            text += "\r\n"
        }
        return text
    }

    /// `field`, quoted when it holds the delimiter, a quote, a line break, or spaces at either end.
    static func quotedIfNeeded(_ field: String, delimiter: Character) -> String {
        let needsQuotes =
            field.unicodeScalars.contains { $0 == "\"" || $0 == "\r" || $0 == "\n" }
            || field.contains(delimiter) || field.first?.isWhitespace == true || field.last?.isWhitespace == true
        guard needsQuotes else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
