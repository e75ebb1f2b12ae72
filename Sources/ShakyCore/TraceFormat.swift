import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The recorded-trace format: CSV with the header `t,x,y,z`, seconds and m/s², plus `#` comment lines.
///
/// ```
/// # device: iio:device0 (mpu6050)
/// # rate: 100
/// t,x,y,z
/// 0.0,0.12,-0.03,9.81
/// 0.01,0.11,-0.02,9.80
/// ```
///
/// Comment lines before the header of the form `# key: value` are metadata (``TraceMetadata``);
/// other comment lines and blank lines are ignored anywhere. `t` must increase strictly.
public enum TraceFormat {
    /// The one header line.
    public static let header = "t,x,y,z"
}

/// What a trace says about itself in its `# key: value` comment lines.
public struct TraceMetadata: Sendable, Equatable {
    /// Keys and values in file order.
    public var entries: [(key: String, value: String)]

    /// Creates metadata from ordered entries.
    public init(_ entries: [(key: String, value: String)] = []) {
        self.entries = entries
    }

    /// The value of the first entry named `key`, if any.
    public subscript(key: String) -> String? {
        entries.first { $0.key == key }?.value
    }

    public static func == (lhs: TraceMetadata, rhs: TraceMetadata) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.key == $1.key && $0.value == $1.value }
    }
}

/// A malformed trace: which file, which line, and what is wrong there.
public struct TraceFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The trace's path as given.
    public var file: String
    /// The 1-based line number, or 0 when the problem is not on one line (an empty file).
    public var line: Int
    /// What is wrong, for a person.
    public var problem: String

    /// Creates an error.
    public init(file: String, line: Int, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    public var description: String {
        line > 0 ? "\(file):\(line): \(problem)" : "\(file): \(problem)"
    }
}

/// Parses one line of a trace at a time; the streaming core of the file reader (`TraceReader`, in `ShakyDrivers`).
///
/// Feed it lines in order with ``parse(line:number:)``; it returns a sample for each data line. Data lines are
/// parsed from their bytes (no string is made for them); a number the fast path does not take (more than 19
/// significant digits, a hexadecimal float) is handed to the standard library's exact conversion.
public struct TraceLineParser: Sendable {
    /// The file name used in errors.
    public let file: String
    /// Metadata read so far (complete once the header has been seen).
    public private(set) var metadata = TraceMetadata()
    /// Whether the header line has been read.
    public private(set) var sawHeader = false
    private var lastTimestamp = -Double.infinity

    /// Creates a parser for the file named `file` (used in errors only).
    public init(file: String) {
        self.file = file
    }

    /// Parses one line (without its line terminator). Returns the sample on a data line, `nil` otherwise.
    public mutating func parse(line: Substring, number: Int) throws(TraceFormatError) -> AccelSample? {
        let bytes = Array(line.utf8)
        let result = bytes.withUnsafeBufferPointer { bytes in
            Result { () throws(TraceFormatError) in try parse(bytes: bytes, number: number) }
        }
        return try result.get()
    }

    /// Parses one line given as its bytes (without the line terminator).
    public mutating func parse(
        bytes line: UnsafeBufferPointer<UInt8>, number: Int
    ) throws(TraceFormatError) -> AccelSample? {
        var end = line.count
        if end > 0 && line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        var start = 0
        while start < end && line[start].isBlank { start += 1 }
        if start == end { return nil }
        let content = UnsafeBufferPointer(rebasing: line[start..<end])
        if content[0] == UInt8(ascii: "#") {
            let text = try decode(content, number: number)
            if !sawHeader, let colon = text.firstIndex(of: ":") {
                let key = text[text.index(after: text.startIndex)..<colon].trimmingBlanks()
                let value = text[text.index(after: colon)...].trimmingBlanks()
                if !key.isEmpty { metadata.entries.append((key: key, value: value)) }
            }
            return nil
        }
        guard sawHeader else {
            let text = try decode(content, number: number)
            let columns = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingBlanks() }
            guard columns == ["t", "x", "y", "z"] else {
                throw TraceFormatError(
                    file: file, line: number,
                    problem: "expected the header \"\(TraceFormat.header)\", found \"\(text)\"")
            }
            sawHeader = true
            return nil
        }
        let sample: AccelSample
        if let fast = TraceNumberScanner.sample(content) {
            sample = fast
        } else {
            sample = try slowSample(try decode(content, number: number), number: number)
        }
        guard abs(sample.timestamp) <= TraceFormat.timestampLimit else {
            throw TraceFormatError(
                file: file, line: number,
                problem:
                    "t=\(sample.timestamp) is out of range: timestamps are seconds within ±\(Int(TraceFormat.timestampLimit))"
            )
        }
        guard sample.timestamp > lastTimestamp else {
            throw TraceFormatError(
                file: file, line: number,
                problem: "time goes backwards or repeats: t=\(sample.timestamp) after t=\(lastTimestamp)")
        }
        lastTimestamp = sample.timestamp
        return sample
    }

    /// A data line the fast scanner did not take: split and convert it with the standard library, and say
    /// exactly what is wrong when it is not four finite numbers.
    private func slowSample(_ text: String, number: Int) throws(TraceFormatError) -> AccelSample {
        var values: [Double] = []
        for field in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard values.count < 4 else {
                throw TraceFormatError(file: file, line: number, problem: "more than 4 columns")
            }
            let field = field.trimmingBlanks()
            guard let value = Double(field), value.isFinite else {
                let name = ["t", "x", "y", "z"][values.count]
                throw TraceFormatError(
                    file: file, line: number, problem: "column \(name) is not a finite number: \"\(field)\"")
            }
            values.append(value)
        }
        guard values.count == 4 else {
            throw TraceFormatError(
                file: file, line: number, problem: "expected 4 columns (t,x,y,z), found \(values.count)")
        }
        return AccelSample(timestamp: values[0], x: values[1], y: values[2], z: values[3])
    }

    private func decode(_ bytes: UnsafeBufferPointer<UInt8>, number: Int) throws(TraceFormatError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TraceFormatError(file: file, line: number, problem: "not valid UTF-8 text")
        }
        return text
    }

    /// Checks the end of input: a trace without a header line is an error.
    public func finish() throws(TraceFormatError) {
        guard sawHeader else {
            throw TraceFormatError(
                file: file, line: 0, problem: "no \"\(TraceFormat.header)\" header: empty or not a trace")
        }
    }
}

extension TraceFormat {
    /// The largest timestamp magnitude a trace may hold, seconds: 2³² s, about 136 years, which covers both
    /// monotonic and wall-clock recordings and keeps every later computation with times far from overflow.
    public static let timestampLimit = 4_294_967_296.0
}

/// The fast path of trace parsing: four plain decimal numbers separated by commas, read straight from bytes.
enum TraceNumberScanner {
    /// Powers of ten that are exact doubles.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// The sample in `line` (already stripped of leading blanks and the line end), or `nil` when the line is
    /// anything but four plain decimal numbers whose value this path can round exactly.
    static func sample(_ line: UnsafeBufferPointer<UInt8>) -> AccelSample? {
        var index = 0
        guard let t = number(line, &index), separator(line, &index),
            let x = number(line, &index), separator(line, &index),
            let y = number(line, &index), separator(line, &index),
            let z = number(line, &index)
        else { return nil }
        while index < line.count && line[index].isBlank { index += 1 }
        guard index == line.count else { return nil }
        return AccelSample(timestamp: t, x: x, y: y, z: z)
    }

    private static func separator(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Bool {
        while index < line.count && line[index].isBlank { index += 1 }
        guard index < line.count && line[index] == UInt8(ascii: ",") else { return false }
        index += 1
        while index < line.count && line[index].isBlank { index += 1 }
        return true
    }

    /// `[-+]digits[.digits][(e|E)[-+]digits]`, finite. Converted here when its digits fit in 53 bits and the
    /// power of ten is exact (Clinger's fast path: exact, no rounding step); otherwise the token alone goes to the
    /// standard library's correctly rounded conversion (17-digit shortest forms such as `0.38306000000000004`).
    private static func number(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Double? {
        let count = line.count
        let start = index
        var negative = false
        if index < count && (line[index] == UInt8(ascii: "-") || line[index] == UInt8(ascii: "+")) {
            negative = line[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var digits = 0
        var exponent = 0
        while index < count, case let digit = line[index] &- UInt8(ascii: "0"), digit < 10 {
            if mantissa != 0 || digit != 0 {
                if significantDigits < 19 { mantissa = mantissa &* 10 &+ UInt64(digit) } else { exponent += 1 }
                significantDigits += 1
            }
            digits += 1
            index += 1
        }
        if index < count && line[index] == UInt8(ascii: ".") {
            index += 1
            // Eight places at a time while the mantissa has room for them (after its leading zeros).
            while mantissa != 0, significantDigits <= 11, count - index >= 8,
                let value = eightDigits(UnsafeRawPointer(line.baseAddress! + index))
            {
                mantissa = mantissa &* 100_000_000 &+ value
                exponent -= 8
                significantDigits += 8
                digits += 8
                index += 8
            }
            while index < count, case let digit = line[index] &- UInt8(ascii: "0"), digit < 10 {
                if mantissa != 0 || digit != 0 {
                    if significantDigits < 19 {
                        mantissa = mantissa &* 10 &+ UInt64(digit)
                        exponent -= 1
                    }
                    significantDigits += 1
                } else {
                    exponent -= 1
                }
                digits += 1
                index += 1
            }
        }
        guard digits > 0 else { return nil }
        if index < count && (line[index] == UInt8(ascii: "e") || line[index] == UInt8(ascii: "E")) {
            index += 1
            var exponentNegative = false
            if index < count && (line[index] == UInt8(ascii: "-") || line[index] == UInt8(ascii: "+")) {
                exponentNegative = line[index] == UInt8(ascii: "-")
                index += 1
            }
            var written = 0
            var exponentDigits = 0
            while index < count, case let digit = line[index] &- UInt8(ascii: "0"), digit < 10 {
                guard written < 10_000 else { return nil }
                written = written * 10 + Int(digit)
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else { return nil }
            exponent += exponentNegative ? -written : written
        }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        if significantDigits <= 19, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            let value =
                exponent < 0
                ? Double(mantissa) / exactPowersOfTen[-exponent] : Double(mantissa) * exactPowersOfTen[exponent]
            return negative ? -value : value
        }
        if significantDigits <= 19, exponent < 0, exponent >= -19,
            let value = correctlyRounded(mantissa, dividedByPowerOfTen: -exponent)
        {
            return negative ? -value : value
        }
        guard index - start <= 64, let value = Double(String(decoding: line[start..<index], as: UTF8.self)),
            value.isFinite
        else { return nil }
        return value
    }
}

extension TraceNumberScanner {
    /// Powers of ten up to 10¹⁹, the largest that fits in 64 bits.
    private static let integerPowersOfTen: [UInt64] = (0...19).map { exponent in
        var value: UInt64 = 1
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// The value of the eight ASCII digits at `bytes`, or `nil` when any of them is not a digit; read as one word
    /// and combined pairwise (two digits, then four, then eight) rather than digit by digit.
    static func eightDigits(_ bytes: UnsafeRawPointer) -> UInt64? {
        let word = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
        // Each byte is 0x30...0x39 exactly when its high nibble is 3, also after adding 6.
        let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        let shifted = ((word &+ 0x0606_0606_0606_0606) & highNibbles) >> 4
        guard (word & highNibbles) | shifted == 0x3333_3333_3333_3333 else { return nil }
        var value = word &- 0x3030_3030_3030_3030
        value = (value &* 10) &+ (value >> 8)
        let low = (value & 0x0000_00FF_0000_00FF) &* (100 &+ (1_000_000 << 32))
        let high = ((value >> 16) & 0x0000_00FF_0000_00FF) &* (1 &+ (10_000 << 32))
        return (low &+ high) >> 32
    }

    /// `mantissa / 10^power` correctly rounded (to nearest, ties to even), for `power` in 1...19: the shortest
    /// forms `shakyd record` writes have up to 17 digits, more than Clinger's 53-bit fast path takes.
    ///
    /// A first guess from two floating-point operations is at most one unit in the last place off; it is then
    /// checked, and moved to a neighbour when needed, by comparing the exact decimal with the midpoints between the
    /// guess and its neighbours in 128-bit integers. `nil` when those products would not fit (not for any value a
    /// trace holds).
    static func correctlyRounded(_ mantissa: UInt64, dividedByPowerOfTen power: Int) -> Double? {
        var guess = Double(mantissa) / exactPowersOfTen[power]
        for _ in 0..<3 {
            guard guess.isNormal else { return nil }
            let significand = guess.significandBitPattern | (1 << 52)
            let exponent = Int(guess.exponent) - 52
            let oddSignificand = significand & 1 == 1
            // Against the midpoint with the next value up: (2M + 1)·2^(E-1).
            guard
                let above = compare(
                    mantissa, power, withMidpoint: 2 * significand + 1, timesPowerOfTwo: exponent - 1)
            else { return nil }
            if above > 0 || (above == 0 && oddSignificand) {
                guess = guess.nextUp
                continue
            }
            // Against the midpoint with the next value down, which is half as far below a power of two.
            let (lower, lowerExponent) =
                significand == 1 << 52 ? (4 * significand - 1, exponent - 2) : (2 * significand - 1, exponent - 1)
            guard let below = compare(mantissa, power, withMidpoint: lower, timesPowerOfTwo: lowerExponent) else {
                return nil
            }
            if below < 0 || (below == 0 && oddSignificand) {
                guess = guess.nextDown
                continue
            }
            return guess
        }
        return nil
    }

    /// The sign of `mantissa / 10^power − midpoint·2^exponent`, exactly; `nil` when a product overflows 128 bits.
    private static func compare(
        _ mantissa: UInt64, _ power: Int, withMidpoint midpoint: UInt64, timesPowerOfTwo exponent: Int
    ) -> Int? {
        var decimal = UInt128(mantissa)
        var binary = UInt128(midpoint) * UInt128(integerPowersOfTen[power])
        if exponent >= 0 {
            guard binary.leadingZeroBitCount > exponent else { return nil }
            binary <<= exponent
        } else {
            guard decimal.leadingZeroBitCount > -exponent else { return nil }
            decimal <<= -exponent
        }
        return decimal < binary ? -1 : decimal == binary ? 0 : 1
    }
}

extension UInt8 {
    /// A space or a tab.
    fileprivate var isBlank: Bool { self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingBlanks() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

extension TraceFormat {
    /// Parses a whole trace held in memory: its metadata and every sample.
    ///
    /// For small traces (fixtures, tests, a pasted snippet); a file of any length is streamed in bounded memory
    /// by `TraceReader` (in `ShakyDrivers`), with the same rules and the same errors.
    ///
    /// - Parameter file: the name used in errors.
    public static func parse(
        _ text: String, file: String
    ) throws(TraceFormatError) -> (metadata: TraceMetadata, samples: [AccelSample]) {
        var parser = TraceLineParser(file: file)
        var samples: [AccelSample] = []
        var number = 0
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            if let sample = try parser.parse(line: Substring(line), number: number) { samples.append(sample) }
        }
        try parser.finish()
        return (parser.metadata, samples)
    }
}
