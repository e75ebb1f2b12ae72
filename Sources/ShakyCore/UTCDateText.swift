import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Dates as text in UTC, written and read with the C library (`gmtime_r`, `timegm`) instead of Foundation's
/// formatters.
///
/// Foundation's `Date.formatted(.iso8601)` looks up the current time zone and GRDB's `DateFormatter` a POSIX
/// locale: with Foundation's internationalization linked, as the daemon has it, the first use of either loads
/// ICU's zone or locale data, about 1 to 2.5 MiB that stay resident for the rest of the daemon's life. These write
/// the same text (`UTCDateTextTests` and `StorageDateTextTests` check them against Foundation's and GRDB's over
/// many dates). Both cover years 1600 to 9999: before the Gregorian calendar's adoption Foundation counts Julian
/// days, so other dates are left to Foundation (by ``iso8601(_:)`` itself, by GRDB for ``storage(_:)``).
public enum UTCDateText {
    /// `date` as `Date.ISO8601FormatStyle` writes it by default ("2026-11-26T21:52:00Z", the seconds rounded
    /// down): by ``nativeISO8601(_:)`` from 1600 to 9999, by Foundation outside (which does not trap on any date).
    public static func iso8601(_ date: Date) -> String {
        nativeISO8601(date) ?? date.formatted(.iso8601)
    }

    /// ``iso8601(_:)`` with the C library, or `nil` outside years 1600 to 9999.
    static func nativeISO8601(_ date: Date) -> String? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard let fields = fields(ofSecond: seconds) else { return nil }
        return fields.date + "T" + fields.time + "Z"
    }

    /// `date` as GRDB stores one ("2026-11-26 21:52:00.123", to the nearest millisecond, as its `DateFormatter`
    /// rounds), or `nil` outside years 1600 to 9999.
    public static func storage(_ date: Date) -> String? {
        let milliseconds =
            ((date.timeIntervalSinceReferenceDate + Date.timeIntervalBetween1970AndReferenceDate)
            * 1000 + 0.5).rounded(.down)
        guard milliseconds.isFinite else { return nil }
        let seconds = (milliseconds / 1000).rounded(.down)
        guard let fields = fields(ofSecond: seconds) else { return nil }
        return fields.date + " " + fields.time + "." + padded(Int(milliseconds - seconds * 1000), 3)
    }

    /// The date of a text that ``storage(_:)`` writes, or `nil` for any other text.
    public static func date(fromStorage text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 23, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: ".")
        else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for byte in bytes[start..<start + count] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2), let millisecond = number(20, 3),
            (1600...9999).contains(year), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 60
        else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month - 1)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(hour)
        fields.tm_min = Int32(minute)
        fields.tm_sec = Int32(second)
        let seconds = timegm(&fields)
        // timegm moves a day past the month's end into the next month: such a text is not a date.
        guard fields.tm_mday == Int32(day), fields.tm_mon == Int32(month - 1) else { return nil }
        return Date(timeIntervalSince1970: Double(seconds) + Double(millisecond) / 1000)
    }

    /// The UTC calendar date ("2026-11-26") and time of day ("21:52:00") of a whole second since 1970, or `nil`
    /// outside years 1600 to 9999 (and for a NaN).
    private static func fields(ofSecond seconds: Double) -> (date: String, time: String)? {
        // 1600-01-01 to the end of 9999: well inside time_t.
        guard seconds >= -11_676_096_000, seconds < 253_402_300_800 else { return nil }
        var time = time_t(seconds)
        var fields = tm()
        guard gmtime_r(&time, &fields) != nil else { return nil }
        return (
            padded(Int(fields.tm_year) + 1900, 4) + "-" + padded(Int(fields.tm_mon) + 1, 2) + "-"
                + padded(Int(fields.tm_mday), 2),
            padded(Int(fields.tm_hour), 2) + ":" + padded(Int(fields.tm_min), 2) + ":" + padded(Int(fields.tm_sec), 2)
        )
    }

    /// `value` in decimal with leading zeros to `width` digits.
    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
