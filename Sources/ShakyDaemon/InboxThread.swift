import CTimerFD
import Foundation
import ShakyCore
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A serial executor on a thread of its own, whose wait for work is also the wait for its one alarm: the game
/// runtime's inbox.
///
/// A serial dispatch queue would run the jobs on dispatch's worker threads, and a dispatch timer fires from
/// dispatch's own timer thread, which then wakes a worker for the queue: two wake-ups for every tick of a countdown.
/// Here the thread that runs the jobs sleeps in `poll` until the next job or the alarm's deadline, whichever comes
/// first, so a tick is one wake-up. It is apart from where every other task runs: a job may block (a synchronous
/// SQLite write to a slow SD card) without holding up the event loop that serves the sockets.
///
/// The deadline is on CLOCK_BOOTTIME (a timer descriptor), which counts the time the system spends suspended, as
/// the runtime's continuous clock does: an alarm that fell due while a tablet was suspended fires as the system
/// wakes, and the runtime, seeing that it slept, pauses the countdown. (A condition variable's timed wait runs on
/// CLOCK_MONOTONIC at best, which a suspend stops: it would fire that much later.)
///
/// It is a task executor as well: a task that prefers it (`Task(executorPreference:)`) runs on the same thread, so a
/// task that only waits for something and then calls the actor (a sensor's shakes) wakes this thread only.
///
/// The thread ends once the executor is released and the work handed to it is done.
final class InboxThread: SerialExecutor, TaskExecutor {
    private let mailbox: Mailbox

    /// How the thread waits on its descriptors: `poll(2)`'s arguments and result, `errno` set on failure.
    typealias Wait = @Sendable (UnsafeMutablePointer<pollfd>, nfds_t, Int32) -> Int32

    /// Starts a thread named `name` (at most 15 bytes: the kernel's limit); `onExit` runs on it as it ends.
    ///
    /// A POSIX thread rather than Foundation's `Thread`, whose `start()` says nothing when the thread cannot be
    /// made; it takes its name on itself, as `Thread(named:body:)` (ShakyCore) does. `wait` and `pauseAfterFailedWait`
    /// are `poll(2)` and a 10-ms sleep but in tests.
    init(
        name: String, onExit: (@Sendable () -> Void)? = nil,
        wait: @escaping Wait = { poll($0, $1, $2) },
        pauseAfterFailedWait: @escaping @Sendable () -> Void = InboxThread.pauseAfterFailedWait
    ) {
        let mailbox = Mailbox(wait: wait, pauseAfterFailedWait: pauseAfterFailedWait)
        self.mailbox = mailbox
        let body = Unmanaged.passRetained(
            ThreadBody {
                Thread.nameCurrentThread(name)
                mailbox.run()
                onExit?()
            }
        ).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, Self.threadEntry, body)
        // Only at start-up, when the system has no thread left to give: nothing to serve the game with.
        precondition(created == 0, "cannot start the game's inbox thread: \(String(cString: strerror(created)))")
        pthread_detach(thread)
    }

    deinit {
        mailbox.close()
    }

    /// The new thread's entry: runs the body it is handed, then releases it.
    private static let threadEntry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { body in
        guard let body else { return nil }
        Unmanaged<ThreadBody>.fromOpaque(body).takeRetainedValue().run()
        return nil
    }

    func enqueue(_ job: consuming ExecutorJob) {
        mailbox.post(.job(UnownedJob(job), asUnownedSerialExecutor(), asUnownedTaskExecutor()))
    }

    /// Runs `work` on the thread, after the work handed to it before.
    func async(_ work: @escaping @Sendable () -> Void) {
        mailbox.post(.work(work))
    }

    /// Runs `fire` on the thread once CLOCK_BOOTTIME reaches `deadline` nanoseconds (at once if it has), in place
    /// of any earlier setting. One alarm per thread: ``InboxAlarm`` sets and clears it.
    func setAlarm(atBoottimeNanoseconds deadline: Int, fire: @escaping @Sendable () -> Void) {
        mailbox.setAlarm(deadline, fire)
    }

    /// Fires the alarm no more until it is set again.
    func clearAlarm() {
        mailbox.setAlarm(nil, nil)
    }

    /// Whether the caller runs on this executor's thread.
    var isCurrent: Bool { mailbox.isCurrent }

    /// How many times the thread has woken from a wait (for a job, the alarm, or neither), for tests.
    var wakeUps: Int { mailbox.wakeUps }

    /// Stops the process unless called on the thread: how `assumeIsolated` knows that work the thread runs itself
    /// (the alarm's) is on the actor's executor.
    func checkIsolated() {
        precondition(isCurrent, "not on the game's inbox thread")
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Sleeps 10 ms: a wait the kernel refused for want of memory (`ENOMEM`, the one failure left to a `poll` on two
    /// descriptors of the thread's own) is tried again after it rather than at once, which would spin a core.
    static func pauseAfterFailedWait() {
        var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
        _ = nanosleep(&pause, nil)
    }

    /// Nanoseconds on CLOCK_BOOTTIME, the clock of the alarm's deadline.
    static func boottimeNanoseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
    }
}

extension InboxThread {
    /// What a new thread runs, handed to `pthread_create` as its argument.
    private final class ThreadBody {
        let run: () -> Void

        init(_ run: @escaping () -> Void) {
            self.run = run
        }
    }

    /// What the thread runs: a job of Swift concurrency, with the executors it runs on, or a closure.
    fileprivate enum Item: @unchecked Sendable {
        case job(UnownedJob, UnownedSerialExecutor, UnownedTaskExecutor)
        case work(@Sendable () -> Void)

        func run() {
            switch self {
            case .job(let job, let serialExecutor, let taskExecutor):
                job.runSynchronously(isolatedTo: serialExecutor, taskExecutor: taskExecutor)
            case .work(let work):
                work()
            }
        }
    }

    /// The state the thread and its callers share, under one pthread mutex, and the two descriptors the thread waits
    /// on: an event descriptor that a caller writes to wake it, and a timer descriptor on CLOCK_BOOTTIME set to the
    /// alarm's deadline. Kept alive by the thread until it ends.
    fileprivate final class Mailbox: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        /// Readable once a caller woke the thread (`eventfd`).
        private let wakeDescriptor: Int32
        /// Readable once CLOCK_BOOTTIME reaches the deadline it is set to (`timerfd`).
        private let timerDescriptor: Int32
        private var items: [Item] = []
        /// The batch being run, kept to reuse its storage.
        private var running: [Item] = []
        private var alarmDeadline: Int?
        private var alarmFire: (@Sendable () -> Void)?
        /// The deadline the timer descriptor is set to, if any.
        private var timerDeadline: Int?
        private var isWaiting = false
        /// Whether the thread was woken since it began to wait (one write to the event descriptor is enough).
        private var isWoken = false
        private var isClosed = false
        private var thread: pthread_t?
        private var wakeUpCount = 0
        /// What the thread's `poll` waits on (the thread's own).
        private var waitSet: [pollfd]
        private let wait: Wait
        private let pauseAfterFailedWait: @Sendable () -> Void

        init(wait: @escaping Wait, pauseAfterFailedWait: @escaping @Sendable () -> Void) {
            self.wait = wait
            self.pauseAfterFailedWait = pauseAfterFailedWait
            pthread_mutex_init(mutex, nil)
            wakeDescriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
            timerDescriptor = timerfd_create(CLOCK_BOOTTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
            // Only at start-up, when the process has no descriptor left: nothing to serve the game with.
            precondition(
                wakeDescriptor >= 0 && timerDescriptor >= 0,
                "cannot make the game's inbox thread's descriptors: \(String(cString: strerror(errno)))")
            waitSet = [wakeDescriptor, timerDescriptor].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        }

        deinit {
            for descriptor in [wakeDescriptor, timerDescriptor] {
                do {
                    try closeDescriptor(descriptor)
                } catch {
                    assertionFailure("the game's inbox thread's \(error)")
                }
            }
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        private func locked<T>(_ body: () -> T) -> T {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body()
        }

        /// Wakes the thread if it waits: the state it waits on changed.
        private func wakeIfWaiting() {
            guard isWaiting, !isWoken else { return }
            isWoken = true
            var one: UInt64 = 1
            // Cannot fail but by overflowing the counter, which the thread reads back to zero at each wake-up.
            _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
        }

        func post(_ item: Item) {
            locked {
                items.append(item)
                wakeIfWaiting()
            }
        }

        func setAlarm(_ deadline: Int?, _ fire: (@Sendable () -> Void)?) {
            locked {
                alarmDeadline = deadline
                alarmFire = fire
                wakeIfWaiting()
            }
        }

        func close() {
            locked {
                isClosed = true
                wakeIfWaiting()
            }
        }

        var isCurrent: Bool {
            locked { thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        }

        var wakeUps: Int { locked { wakeUpCount } }

        /// The thread's loop: the jobs first, in order, then the alarm when due; waits for either.
        func run() {
            pthread_mutex_lock(mutex)
            thread = pthread_self()
            while true {
                if !items.isEmpty {
                    swap(&items, &running)
                    pthread_mutex_unlock(mutex)
                    for item in running { item.run() }
                    running.removeAll(keepingCapacity: true)
                    pthread_mutex_lock(mutex)
                    continue
                }
                if isClosed { break }
                if let deadline = alarmDeadline, deadline <= InboxThread.boottimeNanoseconds() {
                    let fire = alarmFire
                    alarmDeadline = nil
                    alarmFire = nil
                    pthread_mutex_unlock(mutex)
                    fire?()
                    pthread_mutex_lock(mutex)
                    continue
                }
                let timeout = setTimer(to: alarmDeadline)
                isWaiting = true
                pthread_mutex_unlock(mutex)
                for index in waitSet.indices { waitSet[index].revents = 0 }
                // An interrupted wait (EINTR) only goes round the loop again; a refused one after a pause.
                let waited = waitSet.withUnsafeMutableBufferPointer { descriptors in
                    descriptors.baseAddress.map { wait($0, nfds_t(descriptors.count), timeout) } ?? 0
                }
                if waited < 0 && errno != EINTR { pauseAfterFailedWait() }
                pthread_mutex_lock(mutex)
                isWaiting = false
                isWoken = false
                var count: UInt64 = 0
                for descriptor in waitSet where descriptor.revents & Int16(POLLIN) != 0 {
                    // Back to zero (the event counter) or to no expiry (the timer): not readable until the next.
                    _ = read(descriptor.fd, &count, MemoryLayout<UInt64>.size)
                    // The timer went off: whatever deadline comes next, even the same, sets it again.
                    if descriptor.fd == timerDescriptor { timerDeadline = nil }
                }
                wakeUpCount &+= 1
            }
            alarmFire = nil
            pthread_mutex_unlock(mutex)
        }

        /// Sets the timer descriptor to `deadline` (CLOCK_BOOTTIME nanoseconds), or stops it, unless it is already;
        /// returns the timeout `poll` waits with: none (-1), or, if the kernel refused the deadline, the time to it
        /// in milliseconds (on CLOCK_MONOTONIC, which is the best left).
        private func setTimer(to deadline: Int?) -> Int32 {
            guard deadline != timerDeadline else { return -1 }
            var setting = itimerspec()
            if let deadline {
                // A deadline of zero would stop the timer: one nanosecond after boot is as good as due.
                let due = max(deadline, 1)
                setting.it_value = timespec(tv_sec: due / 1_000_000_000, tv_nsec: due % 1_000_000_000)
            }
            guard timerfd_settime(timerDescriptor, Int32(TFD_TIMER_ABSTIME), &setting, nil) == 0 else {
                timerDeadline = nil
                guard let deadline else { return -1 }
                let milliseconds = (deadline &- InboxThread.boottimeNanoseconds()) / 1_000_000 + 1
                return Int32(clamping: max(0, milliseconds))
            }
            timerDeadline = deadline
            return -1
        }
    }
}
