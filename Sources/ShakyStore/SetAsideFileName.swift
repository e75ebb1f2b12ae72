import Foundation
import ShakyCore

/// The name of a file set aside beside the database, so that nothing of it is lost:
/// `PREFIX-20261127T203015Z.EXTENSION`, the time in UTC.
///
/// A file of that name already there is kept, and the new one gets a number (`PREFIX-20261127T203015Z-2.EXTENSION`,
/// `-3`…): a board without a real-time clock starts every boot at the same wall-clock time until NTP answers.
enum SetAsideFileName {
    /// The first such name in `folder` that no file has, nor any file of that name followed by one of
    /// `companionSuffixes` (a database's `-wal` and `-shm`, set aside with it).
    static func unused(
        in folder: URL, prefix: String, fileExtension: String, at time: Date, companionSuffixes: [String] = []
    ) -> URL {
        // "2026-11-27T20:30:15Z" → "20261127T203015Z".
        let stamp = UTCDateText.iso8601(time).filter { $0 != "-" && $0 != ":" }
        var name = folder.appendingPathComponent("\(prefix)-\(stamp).\(fileExtension)")
        var number = 1
        while ([""] + companionSuffixes).contains(where: { FileManager.default.fileExists(atPath: name.path + $0) }) {
            number += 1
            name = folder.appendingPathComponent("\(prefix)-\(stamp)-\(number).\(fileExtension)")
        }
        return name
    }
}
