import CSndfile
import Foundation
import Testing

@testable import ShakyDrivers

#if canImport(Glibc)
    import Glibc
#endif

/// What the stand-in for `sf_open_fd` below was handed: the descriptor, whether libsndfile is to close it, and
/// whether it was open then. Set by one test at a time (the suite is serialized).
nonisolated(unsafe) private var handed: (descriptor: Int32, closesIt: Int32, wasOpen: Bool)?
/// libsndfile's own `sf_open_fd`, which the stand-in calls.
nonisolated(unsafe) private var realOpenFD:
    (@convention(c) (Int32, Int32, UnsafeMutablePointer<SF_INFO>?, Int32) -> OpaquePointer?)?

/// Who closes the descriptor a sound file is read through. libsndfile closes the descriptor it is handed when it
/// cannot read the file, whatever it is told, so decoding closed that one a second time: in a process with other
/// threads, the second close could take a descriptor another thread had just opened under the same number (a socket
/// the daemon served a client on). libsndfile is now handed a copy of its own, which it closes on every path.
@Suite(.serialized)
struct SoundFileDescriptorTests {
    private func decode(_ contents: Data) throws -> Result<[Int16], SoundFileError> {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sound-\(UUID().uuidString).wav")
        try contents.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var functions = try LibSndfile.shared.get().functions
        realOpenFD = functions.sf_open_fd
        functions.sf_open_fd = { descriptor, mode, info, closesIt in
            handed = (descriptor, closesIt, fcntl(descriptor, F_GETFD) != -1)
            return realOpenFD?(descriptor, mode, info, closesIt)
        }
        handed = nil
        return Result { () throws(SoundFileError) in try SoundBank.decode(file, sndfile: functions) }
    }

    @Test("A file libsndfile cannot read: it is handed an open descriptor of its own to close")
    func anUnreadableFile() throws {
        let result = try decode(Data("not a sound".utf8))
        #expect(throws: SoundFileError.self) { try result.get() }
        let handed = try #require(handed)
        #expect(handed.wasOpen)
        #expect(handed.closesIt == 1, "libsndfile closes what it is handed; decode closes only its own descriptor")
    }

    @Test("A file it reads: the same, and the samples come")
    func aReadableFile() throws {
        let file = SoundWAV.builtinFolder.appendingPathComponent("tick.wav")
        let result = try decode(try Data(contentsOf: file))
        #expect(try result.get() == (try SoundWAV.read(file).samples))
        #expect(handed?.closesIt == 1)
    }
}
