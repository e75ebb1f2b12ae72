import NIOCore
import ShakyDrivers

/// Process-wide choices made first thing in `main`, before any thread starts: few threads and few malloc arenas,
/// so that the daemon's resident memory stays near that of a small C daemon.
enum ProcessSetup {
    /// Applies the choices; call once, before anything else runs.
    static func apply() {
        MallocTuning.apply()
        // One event loop serves every connection (each call is a little work; NIO's default is a loop per core),
        // and one thread does what NIO does off its loops.
        NIOSingletons.groupLoopCountSuggestion = 1
        NIOSingletons.blockingPoolThreadCountSuggestion = 1
    }
}
