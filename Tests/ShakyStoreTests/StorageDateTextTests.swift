import Foundation
import GRDB
import ShakyCore
import Testing
import TriviaEngine

@testable import ShakyStore

/// A finished game's date is stored as GRDB itself stores one, without its `DateFormatter` (and so without ICU).
@Suite("Storage date text")
struct StorageDateTextTests {
    /// GRDB's own text for `date` (its `DateFormatter`).
    static func grdbText(_ date: Date) -> String? {
        String.fromDatabaseValue(date.databaseValue)
    }

    @Test("The same text as GRDB's formatter, to the millisecond, over seeded random dates and their edges")
    func matchesGRDB() {
        var generator = SeededRandomGenerator(seed: 0x5eed)
        var dates: [Date] = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.0004), Date(timeIntervalSince1970: -0.0006),
            Date(timeIntervalSince1970: 951_782_400),  // 2000-02-29
            Date(timeIntervalSince1970: 1_798_761_599.9996),  // a year's last half millisecond
            Date(timeIntervalSince1970: 4_102_444_800.0005), Date(timeIntervalSinceReferenceDate: 0),
            Date(timeIntervalSince1970: -11_676_096_000),  // 1600-01-01, the first day it writes itself
            Date.distantFuture,  // 4001-01-01
            Date(timeIntervalSince1970: 253_402_300_799.999),  // 9999-12-31 23:59:59.999
        ]
        for draw in 0..<5000 {
            // One in eight from 1600 to 9999, the others around now.
            let seconds = Double(
                draw % 8 == 0
                    ? Int64.random(in: -11_676_096_000..<253_402_300_799, using: &generator)
                    : Int64.random(in: -2_000_000_000...5_000_000_000, using: &generator))
            let fraction = Double(Int.random(in: 0..<1_000_000, using: &generator)) / 1_000_000
            dates.append(Date(timeIntervalSince1970: seconds + fraction))
            // Right on and either side of a millisecond's half, where rounding tells.
            let millisecond = Double(Int.random(in: 0..<1000, using: &generator)) / 1000
            for offset in [0.0005, 0.000_499_9, 0.000_500_1] {
                dates.append(Date(timeIntervalSince1970: seconds + millisecond + offset))
            }
        }
        var mismatches: [String] = []
        for date in dates {
            let text = UTCDateText.storage(date)
            let grdb = Self.grdbText(date)
            // Read back as GRDB reads it: the same millisecond (a Double holds a date in year 6000 to about 30 µs),
            // written again as the same text.
            let readBack = text.flatMap(UTCDateText.date(fromStorage:))
            let grdbReadBack = grdb.flatMap { Date.fromDatabaseValue($0.databaseValue) }
            if text != grdb || readBack == nil || grdbReadBack == nil
                || abs(readBack!.timeIntervalSince(grdbReadBack!)) > 0.0001
                || UTCDateText.storage(readBack!) != text || UTCDateText.storage(grdbReadBack!) != text
            {
                mismatches.append("\(date.timeIntervalSince1970): \(text ?? "nil") vs \(grdb ?? "nil")")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) differ, first: \(mismatches.prefix(5))")
    }

    @Test("Outside years 1600 to 9999 it leaves the date to GRDB, and does not trap")
    func outOfRangeFallsBack() {
        for date in [
            Date.distantPast, Date(timeIntervalSince1970: -11_676_096_000.001), Date(timeIntervalSince1970: 1e300),
            Date(timeIntervalSince1970: -1e300), Date(timeIntervalSince1970: .nan),
            Date(timeIntervalSince1970: .infinity),
        ] {
            #expect(UTCDateText.storage(date) == nil)
        }
    }

    @Test("Texts of another form, or not a date, are not read as one")
    func otherTextsAreRefused() {
        for text in [
            "2026-11-26 21:52:00", "2026-11-26T21:52:00.000", "2026-02-30 00:00:00.000", "2026-13-01 00:00:00.000",
            "2026-11-26 24:00:00.000", "2026-11-26 21:60:00.000", "1599-12-31 23:59:59.999", "2026-11-26 21:52:0x.000",
            "+026-11-26 21:52:00.000", "2026-11-26 21:52:00.0000", "", "２０２６-11-26 21:52:00.000",
        ] {
            #expect(UTCDateText.date(fromStorage: text) == nil, "\(text)")
        }
        #expect(
            UTCDateText.date(fromStorage: "2024-02-29 12:00:00.250") == Date(timeIntervalSince1970: 1_709_208_000.25))
    }

    @Test("A finished game's record writes and reads its date with it (GRDB's defaults load ICU)")
    func finishedGameRecordUsesIt() {
        if case .custom = FinishedGameRecord.databaseDateEncodingStrategy(for: "finishedAt") {
        } else {
            Issue.record("the record encodes its dates with GRDB's default strategy")
        }
        if case .custom = FinishedGameRecord.databaseDateDecodingStrategy(for: "finishedAt") {
        } else {
            Issue.record("the record decodes its dates with GRDB's default strategy")
        }
    }

    @Test("A finished game's date is stored as that text and read back to the millisecond")
    func finishedGameDateRoundTrips() throws {
        let database = try AppDatabase.inMemory()
        let finishedAt = Date(timeIntervalSince1970: 1_795_000_123.4567)
        let result = StoreFixtures.result([("Owls", 30, 1), ("Foxes", 20, 2)], winners: ["Owls"])
        let id = try database.finishGame(try StoreFixtures.gameInPlay(), result: result, finishedAt: finishedAt)
        let stored = try database.read { db in
            try String.fetchOne(db, sql: "SELECT finishedAt FROM finishedGame WHERE id = ?", arguments: [id])
        }
        #expect(stored == "2026-11-18 11:08:43.457")
        #expect(stored == Self.grdbText(finishedAt))
        let readBack = try #require(try database.history().first?.finishedAt)
        #expect(abs(readBack.timeIntervalSince(finishedAt)) < 0.001)
    }
}
