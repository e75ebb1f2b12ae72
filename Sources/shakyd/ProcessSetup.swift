import NIOCore
import ShakyDrivers

/// Process-wide choices made first thing in `main`, before any thread starts: few threads and few malloc arenas,
/// so that the daemon's resident memory stays near that of a small C daemon.
enum ProcessSetup {
    /// Applies the choices; call once, before anything else runs.
    static func apply() {
        MallocTuning.apply()
        // One thread does what NIO does off its event loops, and one event loop serves every connection: a broadcast
        // is then one hand-over to one thread, however many watchers there are.
        NIOSingletons.groupLoopCountSuggestion = 1
        NIOSingletons.blockingPoolThreadCountSuggestion = 1
    }
}
