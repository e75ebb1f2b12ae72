import Foundation
import Testing

@testable import ShakyCore

/// Timestamps in the daemon's log and its game history are written as Foundation writes them, without ICU.
@Suite("UTC date text")
struct UTCDateTextTests {
    @Test("ISO 8601 as Foundation's default style writes it, over seeded random dates from 1600 to 9999")
    func iso8601MatchesFoundation() {
        var state: UInt64 = 0x1509
        func draw(_ range: ClosedRange<Int64>) -> Int64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Int64((state >> 11) % UInt64(range.upperBound - range.lowerBound + 1))
        }
        var dates = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.5), Date(timeIntervalSince1970: 0.999_999),
            Date(timeIntervalSince1970: 951_782_400), Date(timeIntervalSince1970: -11_676_096_000),
            Date(timeIntervalSince1970: 253_402_300_799.9),
        ]
        for index in 0..<5000 {
            let seconds =
                index % 4 == 0 ? draw(-11_676_096_000...253_402_300_799) : draw(-2_000_000_000...5_000_000_000)
            dates.append(Date(timeIntervalSince1970: Double(seconds) + Double(draw(0...999_999)) / 1_000_000))
        }
        let mismatches = dates.filter { UTCDateText.nativeISO8601($0) != $0.formatted(.iso8601) }
        #expect(
            mismatches.isEmpty,
            "\(mismatches.count) differ, first: \(mismatches.prefix(3).map { "\($0.timeIntervalSince1970): \(UTCDateText.nativeISO8601($0) ?? "nil") vs \($0.formatted(.iso8601))" })"
        )
    }

    @Test("Outside years 1600 to 9999, and for what is not a time, Foundation writes the text, without trapping")
    func outOfRange() {
        for date in [
            Date.distantPast, Date(timeIntervalSince1970: -11_676_096_000.5),
            Date(timeIntervalSince1970: 253_402_300_800),
            Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: -.infinity),
            Date(timeIntervalSince1970: 1e300),
        ] {
            #expect(UTCDateText.nativeISO8601(date) == nil)
            #expect(UTCDateText.iso8601(date) == date.formatted(.iso8601), "Foundation writes it")
            #expect(UTCDateText.storage(date) == nil)
        }
    }
}
