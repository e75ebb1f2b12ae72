import Foundation
import ShakyCore
import ShakyStore
import Synchronization

/// Pack files sent in parts (`BeginUpload`, `UploadPart`, `ImportUpload`), kept until they are imported.
///
/// The Varlink message limit stays the daemon's guard against a client that sends without end; an upload
/// has its own bounds instead: its size is announced first and is at most ``largestFile``, its parts must
/// come in order and fill exactly that size, and at most ``mostOpen`` uploads are kept (beginning one more
/// drops the one least recently sent to, so an abandoned upload cannot block imports). An upload belongs to
/// the user id that began it; to everyone else it does not exist.
final class PackUploads: Sendable {
    /// The largest pack file taken, in bytes of UTF-8: the largest a pack may be as JSON, its largest export.
    static let largestFile = PackRules.largestPackFile
    /// The most uploads kept at once.
    static let mostOpen = 4

    /// Why an upload call was refused.
    enum Refusal: Error, Equatable {
        /// No upload with this identifier for this user.
        case notFound(String)
        /// The upload breaks a bound; the message says which, for people.
        case refused(String)
    }

    private struct Upload {
        var owner: UInt32
        var size: Int
        var text: String
        var received: Int
        /// When it was last sent to, in calls counted by ``State/clock``.
        var lastUse: UInt64
    }

    private struct State {
        var uploads: [String: Upload] = [:]
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Begins an upload of `size` bytes for `owner`, and returns its identifier.
    func begin(size: Int, owner: UInt32) throws(Refusal) -> String {
        guard size >= 0 else { throw .refused("the size \(size) is negative: give the file's size in bytes") }
        guard size > 0 else { throw .refused("the file is empty") }
        guard size <= Self.largestFile else {
            throw .refused(
                "the file is \(MebibyteText.roundedUp(size)) MiB; the daemon imports pack files of up to "
                    + "\(Self.largestFile >> 20) MiB: split it into smaller files and import each")
        }
        let identifier = UUID().uuidString.lowercased()
        state.withLock { state in
            state.clock += 1
            while state.uploads.count >= Self.mostOpen,
                let oldest = state.uploads.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state.uploads[oldest] = nil
            }
            state.uploads[identifier] = Upload(owner: owner, size: size, text: "", received: 0, lastUse: state.clock)
        }
        return identifier
    }

    /// Appends `data`, which must start at byte `offset`, and returns how many bytes have arrived.
    ///
    /// A part that would make the file larger than announced drops the upload.
    func append(_ data: String, at offset: Int, to identifier: String, owner: UInt32) throws(Refusal) -> Int {
        try state.withLock { state throws(Refusal) -> Int in
            // Taken out while it grows: a copy of an upload still in the dictionary shares its text, and appending
            // to it would copy the whole text at every part (16 MiB for a byte).
            guard var upload = state.uploads.removeValue(forKey: identifier) else { throw .notFound(identifier) }
            guard upload.owner == owner else {
                state.uploads[identifier] = upload
                throw .notFound(identifier)
            }
            guard offset == upload.received else {
                state.uploads[identifier] = upload
                throw .refused(
                    "a part came out of order: it starts at byte \(offset), but \(upload.received) have arrived")
            }
            let length = data.utf8.count
            guard length <= upload.size - upload.received else {
                throw .refused(
                    "the parts hold more than the \(upload.size) bytes announced; the upload was dropped, send it again"
                )
            }
            state.clock += 1
            upload.text += data
            upload.received += length
            upload.lastUse = state.clock
            state.uploads[identifier] = upload
            return upload.received
        }
    }

    /// Ends the upload and returns the whole file; refuses (and keeps the upload) when parts are missing.
    func finish(_ identifier: String, owner: UInt32) throws(Refusal) -> String {
        try state.withLock { state throws(Refusal) -> String in
            guard let upload = state.uploads[identifier], upload.owner == owner else { throw .notFound(identifier) }
            guard upload.received == upload.size else {
                throw .refused("only \(upload.received) of the \(upload.size) bytes announced have arrived")
            }
            state.uploads[identifier] = nil
            return upload.text
        }
    }

    /// How many uploads are kept.
    var count: Int { state.withLock { $0.uploads.count } }
}
