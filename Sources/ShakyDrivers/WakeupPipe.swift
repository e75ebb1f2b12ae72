import SystemCalls

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
        readEnd = fds[0]
        writeEnd = fds[1]
        for descriptor in fds {
            try checkSyscall("set up a wake-up pipe", device: "pipe") { fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            let flags = try checkSyscall("set up a wake-up pipe", device: "pipe") { fcntl(descriptor, F_GETFL) }
            try checkSyscall("set up a wake-up pipe", device: "pipe") {
                fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
            }
        }
    }

    deinit {
        for descriptor in [readEnd, writeEnd] {
            do {
                try closeDescriptor(descriptor)
            } catch {
                assertionFailure("the wake-up pipe's \(error)")
            }
        }
    }

    /// Wakes the thread; harmless to call more than once (a full pipe is already a wake-up).
    func signal() {
        var byte: UInt8 = 1
        do {
            try checkSyscall("signal a wake-up pipe") { write(writeEnd, &byte, 1) }
        } catch let error where error.code == EAGAIN {
            return
        } catch {
            // Only a closed descriptor (a bug: this object owns both ends while it lives) can fail here.
            assertionFailure("\(error)")
        }
    }
}
