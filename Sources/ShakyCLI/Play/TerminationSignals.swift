import Foundation
import ShakyCore
import Synchronization

/// Ctrl-C, a `kill`, SIGQUIT or the terminal closing, heard by `shaky play` through a signal handler of its own.
///
/// `kill %1` on a stopped job sends SIGTERM and then continues it. A dispatch source would hear the SIGTERM on a
/// worker thread of libdispatch's, whenever one was free: a play continued in the background could stop again before
/// that, and stay stopped with the SIGTERM taken. Here a thread of its own takes the signals: their handler only
/// notes the signal (``isEnding``, which ends any stopping again) and wakes that thread, which does the rest.
enum TerminationSignals {
    /// The first termination signal that came, or 0.
    fileprivate static let received = Atomic<Int32>(0)
    /// The write end of the pipe that wakes the handling thread, or -1 before ``handle(_:by:)``.
    fileprivate static let wakeUp = Atomic<Int32>(-1)

    /// The signals heard, once ``handle(_:by:)`` was called.
    private static let heard = Mutex<[Int32]>([])

    /// Whether one of the signals has come: play is ending, and must not stop again or take the terminal.
    ///
    /// Also while the signal waits for the handling thread: continued by `kill %1`, play must not stop again before
    /// that thread has run. Such a signal is pending for the calling thread, which blocks it as all of play's threads
    /// but the handling one do.
    static var isEnding: Bool {
        if received.load(ordering: .acquiring) != 0 { return true }
        var pending = sigset_t()
        guard sigpending(&pending) == 0 else { return false }
        return heard.withLock { $0 }.contains { sigismember(&pending, $0) == 1 }
    }

    /// Hears `numbers` from now on, and when the first of them comes runs `body` on a thread of its own; then does
    /// what the signal would have done (its default action, raised again). Returns what puts the signals back to
    /// their default actions, or `nil` when no pipe could be made (the signals then keep their default actions).
    ///
    /// The pipe stays open until the process exits: a handler still running as the signals are put back may yet write
    /// to it.
    static func handle(_ numbers: [Int32], by body: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        // Both statics are set up here, before the handler may read them.
        wakeUp.store(writeEnd, ordering: .releasing)
        _ = received.load(ordering: .relaxed)

        heard.withLock { $0 = numbers }
        let thread = Thread(named: "play-signals") {
            // The one thread that takes these signals: the others block them, as libdispatch's and NIO's threads
            // block all signals, and the main thread has ended (`dispatch_main`).
            var these = sigset_t()
            sigemptyset(&these)
            for number in numbers { sigaddset(&these, number) }
            pthread_sigmask(SIG_UNBLOCK, &these, nil)
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) < 0, errno == EINTR {}
            // Woken with no signal come: the signals were put back, play is ending on its own.
            let number = received.load(ordering: .acquiring)
            guard number != 0 else { return }
            body()
            signal(number, SIG_DFL)
            kill(getpid(), number)
        }
        thread.start()

        for number in numbers {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = noteTerminationSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        return {
            for number in numbers { signal(number, SIG_DFL) }
            var byte: UInt8 = 0
            _ = write(writeEnd, &byte, 1)
        }
    }
}

/// The signal handler: notes the first termination signal and wakes the handling thread. Only what is safe in a
/// signal handler: atomics and `write`.
private func noteTerminationSignal(_ number: Int32) {
    let savedError = errno
    _ = TerminationSignals.received.compareExchange(expected: 0, desired: number, ordering: .acquiringAndReleasing)
    let descriptor = TerminationSignals.wakeUp.load(ordering: .acquiring)
    if descriptor >= 0 {
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }
    errno = savedError
}
