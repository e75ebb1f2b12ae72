/// The fast path of trace parsing: four plain decimal numbers separated by commas, read straight from bytes.
///
/// A number's digits are read eight at a time: one 64-bit load, the length of its run of digits found from a
/// mask of the bytes that are not digits, and the run's value combined pairwise (two digits, then four, then
/// eight). A number of up to 19 digits (leading zeros included) without an exponent is converted here, exactly:
/// Clinger's fast path when its digits fit in 53 bits, otherwise a guess from two floating-point operations that is
/// checked, and moved to a neighbour when needed, with one 128-bit comparison against the midpoint. Anything else
/// (an exponent, more digits, a hexadecimal float) goes through ``generalNumber(_:_:)``, which ends, when it must,
/// at the standard library's correctly rounded conversion.
enum TraceNumberScanner {
    /// The sample in the line starting at `index`, leaving `index` just past its end, or `nil` when the line is
    /// anything but four plain decimal numbers whose value this path can round exactly (then `index` is
    /// meaningless).
    ///
    /// Blanks may stand before and after each number. With `untilNewline`, the line must end in `\n` (after an
    /// optional `\r`) inside `line`, and `index` is left after it; otherwise the line is all of `line` from `index`.
    @inline(__always)
    static func sample(
        _ line: UnsafeBufferPointer<UInt8>, from index: inout Int, untilNewline: Bool
    ) -> AccelSample? {
        let count = line.count
        while index < count && line[index].isBlank { index += 1 }
        guard let t = number(line, &index), separator(line, &index),
            let x = number(line, &index), separator(line, &index),
            let y = number(line, &index), separator(line, &index),
            let z = number(line, &index)
        else { return nil }
        while index < count && line[index].isBlank { index += 1 }
        if untilNewline {
            if index < count && line[index] == UInt8(ascii: "\r") { index += 1 }
            guard index < count && line[index] == UInt8(ascii: "\n") else { return nil }
            index += 1
        } else {
            guard index == count else { return nil }
        }
        return AccelSample(timestamp: t, x: x, y: y, z: z)
    }

    /// The sample in `line` (already stripped of leading blanks and the line end), or `nil` when the line is
    /// anything but four plain decimal numbers whose value this path can round exactly.
    static func sample(_ line: UnsafeBufferPointer<UInt8>) -> AccelSample? {
        var index = 0
        return sample(line, from: &index, untilNewline: false)
    }

    @inline(__always)
    private static func separator(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Bool {
        let count = line.count
        // Most often a comma right after the number and a digit or sign right after the comma.
        if index < count - 1 && line[index] == UInt8(ascii: ",") && !line[index + 1].isBlank {
            index += 1
            return true
        }
        while index < count && line[index].isBlank { index += 1 }
        guard index < count && line[index] == UInt8(ascii: ",") else { return false }
        index += 1
        while index < count && line[index].isBlank { index += 1 }
        return true
    }

    /// `[-+]digits[.digits]` with up to 19 digits in all, read a word at a time; any other number is handed to
    /// ``generalNumber(_:_:)``.
    @inline(__always)
    static func number(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Double? {
        let start = index
        var word = word(line, at: index)
        let sign = word & 0xFF
        let negative = sign == UInt64(UInt8(ascii: "-"))
        if negative || sign == UInt64(UInt8(ascii: "+")) {
            index += 1
            word = Self.word(line, at: index)
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var run = leadingDigitCount(word)
        // An integer part of eight digits or more, eight at a time.
        while run == 8 && digits < 16 {
            mantissa = mantissa &* 100_000_000 &+ value(ofLeadingDigits: word, count: 8)
            digits += 8
            index += 8
            word = Self.word(line, at: index)
            run = leadingDigitCount(word)
        }
        if (word >> (8 &* UInt64(run))) & 0xFF == UInt64(UInt8(ascii: ".")) && run < 8 {
            // The integer digits left in this word and the first places after the point, as one word of digits.
            let places = Self.word(line, at: index + run + 1)
            let integerDigits = run
            word = (word & ((1 &<< (8 &* UInt64(run))) &- 1)) | (places &<< (8 &* UInt64(run)))
            run = leadingDigitCount(word)
            fractionDigits = run - integerDigits
            index += 1
            while run == 8 && digits < 16 {
                mantissa = mantissa &* 100_000_000 &+ value(ofLeadingDigits: word, count: 8)
                digits += 8
                index += 8
                word = Self.word(line, at: index)
                run = leadingDigitCount(word)
                fractionDigits += run
            }
        }
        // `run` < 8 digits left in `word`, then the byte after the number: an exponent when it is `e` or `E`
        // (the only bytes that are `e` with bit 5 set).
        let after = (word >> (8 &* UInt64(run))) & 0xFF
        if run < 8, digits + run <= 19, digits + run > 0, after | 0x20 != UInt64(UInt8(ascii: "e")) {
            if run > 0 {
                mantissa = mantissa &* integerPowersOfTen[run] &+ value(ofLeadingDigits: word, count: run)
                index += run
            }
            if let value = value(mantissa, dividedByPowerOfTen: fractionDigits) { return negative ? -value : value }
        }
        index = start
        return generalNumber(line, &index)
    }

    /// The eight bytes of `line` from `index` as a little-endian word, with zero bytes (which are not digits) for
    /// those past its end.
    @inline(__always)
    static func word(_ line: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64 {
        // Eight bytes inside the buffer: it has a base address, as every buffer that is not empty has.
        if index <= line.count &- 8 {
            let bytes = UnsafeRawPointer(line.baseAddress.unsafelyUnwrapped + index)
            return UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
        }
        return wordNearTheEnd(line, at: index)
    }

    /// ``word(_:at:)`` within eight bytes of the end of `line`.
    @inline(never)
    private static func wordNearTheEnd(_ line: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64 {
        var word: UInt64 = 0
        var position = line.count - 1
        while position >= index {
            word = word << 8 | UInt64(line[position])
            position -= 1
        }
        return word
    }

    /// How many of the bytes of `word` (first byte lowest) are ASCII digits before the first that is not, 0 to 8.
    @inline(__always)
    static func leadingDigitCount(_ word: UInt64) -> Int {
        // A byte is 0x30...0x39 exactly when neither it minus 0x30 nor it plus 0x46 has its top bit set. A byte that
        // is not a digit may borrow from or carry into the next one, so the bytes up to the first that is not a
        // digit are judged correctly, and the later ones do not matter.
        let nonDigits = ((word &- 0x3030_3030_3030_3030) | (word &+ 0x4646_4646_4646_4646)) & 0x8080_8080_8080_8080
        return nonDigits.trailingZeroBitCount >> 3
    }

    /// The value of the first `count` (1...8) bytes of `word`, which are ASCII digits, first byte most significant.
    @inline(__always)
    static func value(ofLeadingDigits word: UInt64, count: Int) -> UInt64 {
        // The digits' values moved to the top of the word, below them zeros: leading zeros of an eight-digit number.
        var value = (word &- 0x3030_3030_3030_3030) &<< UInt64(64 - 8 * count)
        value = (value &* 10) &+ (value >> 8)
        let low = (value & 0x0000_00FF_0000_00FF) &* (100 &+ (1_000_000 << 32))
        let high = ((value >> 16) & 0x0000_00FF_0000_00FF) &* (1 &+ (10_000 << 32))
        return (low &+ high) >> 32
    }

    /// `mantissa / 10^power` correctly rounded, for `mantissa` below 10¹⁹ and `power` in 0...19, or `nil` in the
    /// rare cases left to the slower paths.
    @inline(__always)
    private static func value(_ mantissa: UInt64, dividedByPowerOfTen power: Int) -> Double? {
        if mantissa == 0 { return 0 }
        // Both exact, so one correctly rounded operation (Clinger's fast path).
        if power == 0 { return Double(mantissa) }
        if mantissa <= 1 << 53 { return Double(mantissa) / exactPowersOfTen[power] }
        return nearest(mantissa, dividedByPowerOfTen: power)
    }

    /// `mantissa / 10^power` correctly rounded, for `mantissa` in 2⁵³...10¹⁹ and `power` in 1...19.
    ///
    /// `Double(mantissa)` rounds once and the division once, so the guess is less than one and a half units in the
    /// last place from the exact quotient. With the guess `M·2^E`, the exact difference
    /// `D = mantissa·2^(1-E) − 2M·10^power` is the quotient's distance from the guess in units of half a unit in the
    /// last place, times `10^power`: within `±10^power` the guess is the nearest double; between one and three
    /// times that, the neighbour on that side is; exactly on a midpoint, the even one of the two.
    @inline(never)
    private static func nearest(_ mantissa: UInt64, dividedByPowerOfTen power: Int) -> Double? {
        let guess = Double(mantissa) / exactPowersOfTen[power]
        let significand = guess.significandBitPattern | (1 << 52)
        let shift = 1076 - Int(guess.bitPattern >> 52 & 0x7FF)  // 1 − E for the guess M·2^E
        // The shift keeps `mantissa·2^shift` within 128 bits; a significand above 2⁵² + 1 keeps the next two values
        // down in the same binade, where the midpoints are as far apart as above.
        guard shift >= 1, shift <= 64, significand > (1 << 52) + 1 else {
            return correctlyRounded(mantissa, dividedByPowerOfTen: power)
        }
        let scale = UInt128(integerPowersOfTen[power])
        let decimal = UInt128(mantissa) &<< shift
        let binary = UInt128(significand << 1) &* scale
        let even = significand & 1 == 0
        if decimal >= binary {
            let distance = decimal &- binary
            if distance < scale || (distance == scale && even) { return guess }
            if distance < 3 &* scale { return guess.nextUp }
        } else {
            let distance = binary &- decimal
            if distance < scale || (distance == scale && even) { return guess }
            if distance < 3 &* scale { return guess.nextDown }
        }
        return correctlyRounded(mantissa, dividedByPowerOfTen: power)
    }
}

extension TraceNumberScanner {
    /// Powers of ten that are exact doubles.
    static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ]

    /// Powers of ten up to 10¹⁹, the largest that fits in 64 bits.
    static let integerPowersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]

    /// `[-+]digits[.digits][(e|E)[-+]digits]`, finite, read a digit at a time: the path for what
    /// ``number(_:_:)`` does not take. Converted here when its significant digits fit in 53 bits and the power of
    /// ten is exact (Clinger's fast path), or when there are at most 19 of them and at most 19 places
    /// (``correctlyRounded(_:dividedByPowerOfTen:)``); otherwise the token alone goes to the standard library's
    /// correctly rounded conversion.
    static func generalNumber(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Double? {
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
    var isBlank: Bool { self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") }
}
