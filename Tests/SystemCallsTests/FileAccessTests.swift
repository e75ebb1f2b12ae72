import Foundation
import Testing

@testable import SystemCalls

/// Whole files written as a shell's `>` would write them, never half: a regular file replaced once complete with its
/// permissions kept, a link followed, a FIFO or device written in place, and a FIFO read once its writer writes.
@Suite struct FileAccessTests {
    /// A folder of the test's own, removed after `body`.
    static func inFolder(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("file-access-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder.path)
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    static func status(_ path: String, following: Bool = true) throws -> stat {
        var status = stat()
        let result = following ? stat(path, &status) : lstat(path, &status)
        try #require(result == 0, "\(path): \(String(cString: strerror(errno)))")
        return status
    }

    /// The process's umask, read without changing it (another test may create a file meanwhile).
    static func currentUmask() throws -> mode_t {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        return try #require(mode_t(line.split(separator: "\t").last ?? "", radix: 8))
    }

    @Test func aNewFileIsCreatedAsTheShellWouldCreateIt() throws {
        try Self.inFolder { folder in
            let path = folder + "/pack.csv"
            try FileAccess.write(Data("one\n".utf8), to: path)
            #expect(try Self.text(path) == "one\n")
            #expect(try Self.status(path).st_mode & 0o777 == 0o666 & ~Self.currentUmask())
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["pack.csv"], "no file left beside")
        }
    }

    @Test func aFileReplacedKeepsItsPermissions() throws {
        try Self.inFolder { folder in
            let path = folder + "/private.csv"
            try Data("old".utf8).write(to: URL(fileURLWithPath: path))
            #expect(chmod(path, 0o600) == 0)
            try FileAccess.write(Data("new".utf8), to: path)
            #expect(try Self.text(path) == "new")
            #expect(try Self.status(path).st_mode & 0o777 == 0o600, "a private file stays private")
        }
    }

    @Test func aSymbolicLinkIsFollowedAndStays() throws {
        try Self.inFolder { folder in
            try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/target.csv"))
            #expect(symlink("target.csv", folder + "/link.csv") == 0)
            try FileAccess.write(Data("new".utf8), to: folder + "/link.csv")
            #expect(try Self.status(folder + "/link.csv", following: false).st_mode & S_IFMT == S_IFLNK)
            #expect(try Self.text(folder + "/target.csv") == "new")

            // A link to a file not there yet: the file is made where it points.
            #expect(symlink(folder + "/made.csv", folder + "/dangling.csv") == 0)
            try FileAccess.write(Data("made".utf8), to: folder + "/dangling.csv")
            #expect(try Self.text(folder + "/made.csv") == "made")
            #expect(try Self.status(folder + "/dangling.csv", following: false).st_mode & S_IFMT == S_IFLNK)

            #expect(symlink("loop-b", folder + "/loop-a") == 0 && symlink("loop-a", folder + "/loop-b") == 0)
            #expect(throws: FileAccessError(path: folder + "/loop-a", errno: ELOOP)) {
                try FileAccess.write(Data(), to: folder + "/loop-a")
            }
        }
    }

    @Test func aFileWithOtherHardLinksIsWrittenInPlace() throws {
        try Self.inFolder { folder in
            try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/one.csv"))
            #expect(link(folder + "/one.csv", folder + "/two.csv") == 0)
            try FileAccess.write(Data("new".utf8), to: folder + "/one.csv")
            #expect(try Self.text(folder + "/two.csv") == "new")
            #expect(try Self.status(folder + "/one.csv").st_ino == Self.status(folder + "/two.csv").st_ino)
        }
    }

    @Test func aFIFOIsWrittenInPlace() throws {
        try Self.inFolder { folder in
            let path = folder + "/fifo"
            #expect(mkfifo(path, 0o600) == 0)
            // A reader already there: the writer's open does not wait, and the bytes stay in the pipe for it.
            let reader = open(path, O_RDONLY | O_NONBLOCK)
            try #require(reader >= 0)
            defer { close(reader) }
            try FileAccess.write(Data("through".utf8), to: path)
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(reader, &buffer, buffer.count)
            #expect(count == 7 && String(decoding: buffer.prefix(7), as: UTF8.self) == "through")
            #expect(try Self.status(path).st_mode & S_IFMT == S_IFIFO, "still a FIFO")
        }
    }

    @Test func aDeviceIsWrittenInPlaceAndItsErrorsAreSaid() throws {
        // /dev/full fails every write with ENOSPC: said, and the device is still the device (it was replaced with a
        // regular file when the export ran as root).
        #expect(throws: FileAccessError(path: "/dev/full", reason: "the disk is full")) {
            try FileAccess.write(Data("nowhere".utf8), to: "/dev/full")
        }
        #expect(try Self.status("/dev/full").st_mode & S_IFMT == S_IFCHR)
        try FileAccess.write(Data("gone".utf8), to: "/dev/null")
        #expect(try Self.status("/dev/null").st_mode & S_IFMT == S_IFCHR)
    }

    @Test func anEmptyPathOrAFolderIsRefused() throws {
        #expect(throws: FileAccessError(path: "", reason: "the path is empty")) {
            try FileAccess.write(Data(), to: "")
        }
        try Self.inFolder { folder in
            #expect(throws: FileAccessError(path: folder, errno: EISDIR)) { try FileAccess.write(Data(), to: folder) }
            #expect(throws: FileAccessError(path: folder + "/no/x.csv", reason: "there is no folder \(folder)/no")) {
                try FileAccess.write(Data(), to: folder + "/no/x.csv")
            }
        }
    }

    @Test("A FIFO is read once its writer has written, as cat reads it, when the reader may wait")
    func aFIFOIsReadOnceItsWriterWrites() throws {
        try Self.inFolder { folder in
            let path = folder + "/fifo"
            #expect(mkfifo(path, 0o600) == 0)
            // The writer's open waits for the reader's, and the reader's wait for what the writer writes: neither
            // needs a sleep to come second.
            let writer = Thread {
                let descriptor = open(path, O_WRONLY)
                guard descriptor >= 0 else { return }
                _ = "question,answer\n".withCString { write(descriptor, $0, 16) }
                close(descriptor)
            }
            writer.start()
            let data = try FileAccess.read(path, waitingForAWriter: true)
            #expect(String(decoding: data, as: UTF8.self) == "question,answer\n")
        }
    }
}
