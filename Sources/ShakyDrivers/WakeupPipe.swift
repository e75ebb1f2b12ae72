#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A pipe whose read end becomes readable when a reader thread should stop waiting.
final class WakeupPipe: Sendable {
    /// Watched by the reader thread's `poll`.
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws(DeviceError) {
        var fds: [Int32] = [-1, -1]
        try checkSyscall("create a wake-up pipe", device: "pipe") { pipe(&fds) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Wakes the thread; harmless to call more than once.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
