import Foundation

/// Numbers as people write them on a command line: decimal digits, with a sign, a point and an exponent if need be.
///
/// Swift's `Double(_:)` reads more than that: hexadecimal (`0x10` is 16, `0x1p3` is 8), `inf`, `infinity` and
/// `nan`. A typo of that shape would set a rule or a rate to a value no one meant, where a person expects to be told.
public enum DecimalText {
    /// The value of `text` when it is a decimal number (`16`, `-2`, `0.5`, `.5`, `5.`, `1e3`, `+2.5E-1`); `nil` for
    /// anything else, hexadecimal, infinities and NaN among them, and a number too large for a `Double` (`1e999`).
    public static func number(_ text: String) -> Double? {
        var bytes = text.utf8[...]
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let integerDigits = bytes.prefix(while: isDigit).count
        bytes = bytes.dropFirst(integerDigits)
        var fractionDigits = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fractionDigits = bytes.prefix(while: isDigit).count
            bytes = bytes.dropFirst(fractionDigits)
        }
        guard integerDigits + fractionDigits > 0 else { return nil }
        if let letter = bytes.first, letter == UInt8(ascii: "e") || letter == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                bytes = bytes.dropFirst()
            }
            let exponentDigits = bytes.prefix(while: isDigit).count
            guard exponentDigits > 0 else { return nil }
            bytes = bytes.dropFirst(exponentDigits)
        }
        guard bytes.isEmpty, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// ``number(_:)`` for a command-line parser's `transform:`: throws ``NotDecimal`` for what is not a decimal number.
    @Sendable public static func argument(_ text: String) throws -> Double {
        guard let value = number(text) else { throw NotDecimal() }
        return value
    }

    /// A whole number for a command-line parser's `transform:` (`10`, `-2`, `+3`): throws ``NotWholeNumber`` for what
    /// is not one (`1.5`, `0x10`, `1e3`) and ``TooLarge`` for one beyond `Int`'s range, where the parser's own reading
    /// refused both without saying why.
    @Sendable public static func wholeNumberArgument(_ text: String) throws -> Int {
        if let value = Int(text) { return value }
        var digits = text.utf8[...]
        if let sign = digits.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.allSatisfy(isDigit) else { throw NotWholeNumber() }
        throw TooLarge(isNegative: text.utf8.first == UInt8(ascii: "-"))
    }

    /// A number refused because it is not a whole number in decimal digits.
    public struct NotWholeNumber: Error, CustomStringConvertible {
        public var description: String { "write a whole number in decimal digits, such as 10" }
    }

    /// A whole number refused because no 64-bit integer holds it.
    public struct TooLarge: Error, CustomStringConvertible, Equatable {
        /// Whether the number was below the least one rather than above the greatest.
        public var isNegative: Bool

        public var description: String {
            isNegative
                ? "the number is too far below zero: the least is \(Int.min)"
                : "the number is too large: the most is \(Int.max)"
        }
    }

    /// A number refused because it is not written in decimal digits; the parser puts the value and option before it.
    public struct NotDecimal: Error, CustomStringConvertible {
        public var description: String { "write a number in decimal digits, such as 16 or 2.5" }
    }

    /// A refused number of seconds outside `range`, as ``said(_:)`` says it unless its two decimals would round it
    /// into the range (`3600.0000001` said as `3600`, which is allowed): then with every digit it has.
    public static func said(_ value: Double, outside range: ClosedRange<Double>) -> String {
        let short = said(value)
        guard let shown = Double(short), range.contains(shown) else { return short }
        return value.description
    }

    /// A number of seconds as a person reads it: at most two decimals, no trailing zeros.
    public static func said(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        // Beyond any time a person counts in, as a power of ten: "1e+308", not 309 digits.
        guard value.magnitude < 1e15 else { return String(format: "%g", value) }
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        // A value too small for two decimals is never said as a bare "0": with the decimals it needs.
        if value != 0, text == "0" || text == "-0" {
            text = String(format: "%.10f", value)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text = String(format: "%g", value) }
        }
        return text
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
