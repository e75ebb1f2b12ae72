import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension Thread {
    /// A thread that takes `name` as it starts, then runs `body`.
    public convenience init(named name: String, body: @escaping @Sendable () -> Void) {
        self.init {
            Thread.nameCurrentThread(name)
            body()
        }
    }

    /// Gives the calling thread `name` in the kernel, which keeps its first 15 bytes (`top -H`, `ps -L`,
    /// `/proc/PID/task/TID/comm`; Foundation's `Thread.current.name` reads it back from there).
    ///
    /// The kernel's copy is written here, by the thread itself, to `/proc/thread-self/comm` (what
    /// `pthread_setname_np` does for another thread; the Swift module of glibc leaves that GNU function out).
    /// Foundation on Linux passes a `name` on to the kernel only through the thread handle it keeps, which `start()`
    /// stores after the thread is created: a thread that ran first (on a busy machine) took the `name` and kept its
    /// creator's in the kernel; and a name set before `start()` never reaches the kernel at all. A name that cannot
    /// be written (no /proc) only leaves the kernel's name as it was.
    public static func nameCurrentThread(_ name: String) {
        let comm = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard comm >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(comm, $0.baseAddress, $0.count) }
        close(comm)
    }
}
