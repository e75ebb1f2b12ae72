import Foundation
import GRDB
import ShakyCore

/// How a record's dates are stored: as GRDB stores them ("yyyy-MM-dd HH:mm:ss.SSS" in UTC), written and read
/// without ICU (``UTCDateText``).
///
/// GRDB writes a `Date` through a `DateFormatter` and reads one through a `Calendar` with a POSIX locale: the first
/// use of either loaded ICU's locale data, so the daemon's first finished game (its history row), or the first
/// `History` call, kept 1.5 to 2.5 MiB more resident for the rest of its life. The text is the same, so rows
/// written before and after read and sort alike.
enum StorageDateText {
    /// The encoding strategy for a record's dates: ``UTCDateText/storage(_:)``, else GRDB's own.
    static let encodingStrategy = DatabaseDateEncodingStrategy.custom { date in
        UTCDateText.storage(date) ?? date
    }

    /// The decoding strategy for a record's dates: ``UTCDateText/date(fromStorage:)``, else GRDB's own (another
    /// text, a number).
    static let decodingStrategy = DatabaseDateDecodingStrategy.custom { value in
        String.fromDatabaseValue(value).flatMap(UTCDateText.date(fromStorage:)) ?? Date.fromDatabaseValue(value)
    }
}
