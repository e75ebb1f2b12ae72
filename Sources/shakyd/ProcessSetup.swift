import NIOCore
import ShakyDrivers

/// Process-wide choices made first thing in `main`, before any thread starts: few threads and few malloc arenas,
/// so that the daemon's resident memory stays near that of a small C daemon.
enum ProcessSetup {
    /// Applies the choices; call once, before anything else runs.
    static func apply() {
        MallocTuning.apply()
        // One thread does what NIO does off its event loops. The loops stay one per core: a single loop spreads a
        // broadcast to 200 watchers too slowly (LoadTests).
        NIOSingletons.blockingPoolThreadCountSuggestion = 1
    }
}
