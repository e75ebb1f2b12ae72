import Dispatch
import Glibc

/// Ctrl-C, a `kill` and a terminal that closes (SIGINT, SIGTERM, SIGHUP: an SSH connection that drops) for a tool
/// that ends cleanly on them and keeps what it did (`shakyd record`'s trace).
enum StopSignals {
    /// Turns the signals' default action (the process ends at once) off and runs `action` on a dispatch queue for
    /// each; cancel the sources returned to stop. Install before the work starts: a signal that comes earlier ends
    /// the process as by default.
    static func handle(_ action: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler(handler: action)
            source.resume()
            return source
        }
    }
}
