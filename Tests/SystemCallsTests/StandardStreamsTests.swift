import Glibc
import SystemCalls
import Testing

@Suite("Writing standard output and error without trapping")
struct StandardStreamsTests {
    @Test("All of the text is written, and a failure is told by its errno: a full disk, a closed descriptor")
    func failuresAreToldNotTrapped() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let text = String(repeating: "line of text\n", count: 100)
        #expect(FileAccess.writeAll(text, to: ends[1]) == nil)
        close(ends[1])
        var bytes = [UInt8](repeating: 0, count: 4096)
        var read = 0
        while case let count = Glibc.read(ends[0], &bytes[read], bytes.count - read), count > 0 { read += count }
        #expect(String(decoding: bytes[..<read], as: UTF8.self) == text)

        let full = open("/dev/full", O_WRONLY)
        defer { close(full) }
        #expect(FileAccess.writeAll("lost", to: full) == ENOSPC)
        let readOnly = open("/dev/null", O_RDONLY)
        defer { close(readOnly) }
        #expect(FileAccess.writeAll("lost", to: readOnly) == EBADF)
    }

    @Test("Output lost is said with its reason; a reader gone away is not")
    func outputLostIsSaid() {
        #expect(
            StandardStreams.outputLost(errno: ENOSPC, by: "shaky")
                == "shaky: cannot write to standard output: the disk is full; what was to be written is lost\n")
        #expect(StandardStreams.outputLost(errno: EBADF, by: "shakyd detect")?.contains(": it is closed;") == true)
        #expect(StandardStreams.outputLost(errno: EPIPE, by: "shaky") == nil)
    }
}
