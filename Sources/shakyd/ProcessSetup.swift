import CConcurrencyHook
import NIOCore
import NIOPosix
import ShakyDrivers
import SystemCalls

/// Process-wide choices made first thing in `main`, before any thread starts: few threads and few malloc arenas,
/// so that the daemon's resident memory stays near that of a small C daemon.
enum ProcessSetup {
    /// Whether Swift concurrency's tasks run on NIO's event loop (``apply()`` set it so), not on libdispatch.
    nonisolated(unsafe) private(set) static var tasksRunOnEventLoop = false

    /// Applies the choices; call once, from the main thread, before anything else runs.
    static func apply() {
        // Before any file or socket is opened: none may take the number of a closed standard stream.
        StandardStreams.holdClosedDescriptors()
        MallocTuning.apply()
        // One thread does what NIO does off its event loops, and one event loop serves every connection: a broadcast
        // is then one hand-over to one thread, however many watchers there are.
        NIOSingletons.groupLoopCountSuggestion = 1
        NIOSingletons.blockingPoolThreadCountSuggestion = 1
        tasksRunOnEventLoop = shaky_install_enqueue_global(runOnEventLoop)
    }

    /// Swift concurrency's tasks with no executor of their own run on that event loop, not on libdispatch's worker
    /// threads: the first of those starts a monitor that wakes the process every second for as long as it runs.
    /// With the daemon's sleeps scheduled on the loop too (`EventLoopClock`), a daemon with nothing to do never
    /// wakes. (NIO's `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()` does the same
    /// through `dlsym`, which finds nothing in a binary with the Swift runtime linked in; `CConcurrencyHook` says why.)
    private static let runOnEventLoop: shaky_enqueue_global = { job, _ in
        guard let job else { return }
        // The runtime passes its job pointer, which is what an `UnownedJob` holds.
        let unowned = unsafeBitCast(job, to: UnownedJob.self)
        // `any()` keeps a task that is already on the loop there, with no hand-over.
        MultiThreadedEventLoopGroup.singleton.any().enqueue(ExecutorJob(unowned))
    }
}
