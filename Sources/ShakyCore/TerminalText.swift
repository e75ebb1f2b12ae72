/// The rule for text that ends up on someone's terminal: team and pack names, questions, answers, reasons.
///
/// Control characters (C0, DEL, C1: NUL, escape sequences, carriage returns) and the bidirectional
/// embedding, override and isolate marks can make a terminal show something other than the text, so the
/// daemon refuses them in what clients and pack files send, and the client replaces any that still reach it.
public enum TerminalText {
    /// The character shown in place of one that is not safe to print.
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// Whether `scalar` may be printed: not a control character (line feed and tab only when
    /// `allowingLineBreaks`) and not a bidirectional control.
    public static func isSafe(_ scalar: Unicode.Scalar, allowingLineBreaks: Bool = false) -> Bool {
        if allowingLineBreaks, scalar == "\n" || scalar == "\t" { return true }
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return false
        // Left-to-right/right-to-left marks, embeddings, overrides, isolates and the Arabic letter mark.
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: return false
        default: return true
        }
    }

    /// The first character of `text` that ``isSafe(_:allowingLineBreaks:)`` refuses, or `nil`. Allowing line breaks,
    /// the carriage return of a CRLF line break (a file written on Windows) is one too: ``withLineFeeds(_:)`` makes
    /// it a line feed.
    public static func firstUnsafeScalar(in text: String, allowingLineBreaks: Bool = false) -> Unicode.Scalar? {
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if allowingLineBreaks, scalar == "\r", scalars.first == "\n" { continue }
            if !isSafe(scalar, allowingLineBreaks: allowingLineBreaks) { return scalar }
        }
        return nil
    }

    /// `text` with each CRLF line break made a line feed, as the project keeps line breaks.
    public static func withLineFeeds(_ text: String) -> String {
        guard text.unicodeScalars.contains("\r") else { return text }
        var scalars = String.UnicodeScalarView()
        var rest = text.unicodeScalars[...]
        while let scalar = rest.popFirst() {
            if scalar == "\r", rest.first == "\n" { continue }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// Why `text` is refused, naming the character (`"holds the control character U+001B"`), or `nil` when
    /// it is safe.
    public static func problem(in text: String, allowingLineBreaks: Bool = false) -> String? {
        guard let scalar = firstUnsafeScalar(in: text, allowingLineBreaks: allowingLineBreaks) else { return nil }
        return "holds the control character \(codePoint(scalar)), which cannot be shown"
    }

    /// `text` with every unsafe character replaced by ``replacement``; line feeds and tabs are kept unless
    /// `allowingLineBreaks` is false (a name, which is one line), and so is the carriage return of a CRLF line break
    /// (an exported CSV file's), which a terminal shows as the line break it is. A carriage return alone, which would
    /// let later text overwrite the line, is replaced.
    public static func printable(_ text: String, allowingLineBreaks: Bool = true) -> String {
        guard firstUnsafeScalar(in: text, allowingLineBreaks: allowingLineBreaks) != nil else { return text }
        var scalars = String.UnicodeScalarView()
        var rest = text.unicodeScalars[...]
        while let scalar = rest.popFirst() {
            let lineBreak = allowingLineBreaks && scalar == "\r" && rest.first == "\n"
            scalars.append(lineBreak || isSafe(scalar, allowingLineBreaks: allowingLineBreaks) ? scalar : replacement)
        }
        return String(scalars)
    }

    /// `U+001B`.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
