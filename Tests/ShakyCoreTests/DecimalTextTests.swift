import Testing

@testable import ShakyCore

@Suite("Numbers typed on a command line: decimal digits only")
struct DecimalTextTests {
    @Test(
        "Decimal numbers read as Double reads them",
        arguments: ["16", "0", "-2", "+2", "0.5", ".5", "5.", "1e3", "2.5E-1", "-1e+2", "007", "3600.0000001"])
    func decimalNumbersAreRead(text: String) {
        #expect(DecimalText.number(text) == Double(text))
        #expect(DecimalText.number(text) != nil)
    }

    @Test(
        "What Double reads besides decimal digits, and what is no number, is refused",
        arguments: [
            "0x10", "0X1F", "0x1p3", "inf", "-inf", "infinity", "nan", "NaN", "", "-", ".", "e5", "1e", "1e+", "1.2.3",
            " 1", "1 ", "1_000", "1,5", "١٢", "1e3x", "--1", "1e999", "-1e400",
        ])
    func othersAreRefused(text: String) {
        #expect(DecimalText.number(text) == nil)
        #expect(throws: DecimalText.NotDecimal.self) { try DecimalText.argument(text) }
    }

    @Test("Whole numbers read as Int reads them", arguments: ["10", "0", "-2", "+3", "007", "9223372036854775807"])
    func wholeNumbersAreRead(text: String) throws {
        #expect(try DecimalText.wholeNumberArgument(text) == Int(text))
    }

    @Test(
        "What is no whole number in decimal digits says so",
        arguments: ["1.5", "0x10", "1e3", "", "-", "ten", " 1", "1_000", "١٢", "--1"])
    func otherWholeNumbersAreRefused(text: String) {
        #expect(throws: DecimalText.NotWholeNumber.self) { try DecimalText.wholeNumberArgument(text) }
    }

    /// `Int(_:)` refused a number of too many digits as it refuses a word, and the parser said only that it was
    /// invalid: `shaky new --seed 18446744073709551615`.
    @Test func aWholeNumberBeyondIntSaysItIsTooLarge() {
        #expect(throws: DecimalText.TooLarge(isNegative: false)) {
            try DecimalText.wholeNumberArgument("18446744073709551615")
        }
        #expect(throws: DecimalText.TooLarge(isNegative: true)) {
            try DecimalText.wholeNumberArgument("-9223372036854775809")
        }
        #expect(
            DecimalText.TooLarge(isNegative: false).description
                == "the number is too large: the most is 9223372036854775807")
    }
}

@Suite("Refused numbers said as a person reads them")
struct DecimalTextSaidTests {
    @Test(
        "Two decimals at most, the digits a tiny number needs, a power of ten beyond any time",
        arguments: [
            (90.0, "90"), (0.25, "0.25"), (-3.5, "-3.5"), (0.001, "0.001"), (1e300, "1e+300"), (-1e308, "-1e+308"),
            (1e15, "1e+15"), (999_999_999.5, "999999999.5"),
        ])
    func said(value: Double, text: String) {
        #expect(DecimalText.said(value) == text)
    }
}
