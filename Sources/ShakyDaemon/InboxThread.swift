import Foundation
import ShakyCore

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
/// Here the thread that runs the jobs sleeps on a condition variable until the next job or the alarm's deadline,
/// whichever comes first, so a tick is one wake-up, and the next tick, set while this one is handled, costs no
/// system call at all. It is apart from where every other task runs: a job may block (a synchronous SQLite write to
/// a slow SD card) without holding up the event loop that serves the sockets.
///
/// It is a task executor as well: a task that prefers it (`Task(executorPreference:)`) runs on the same thread, so a
/// task that only waits for something and then calls the actor (a sensor's shakes) wakes this thread only.
///
/// The thread ends once the executor is released and the work handed to it is done.
final class InboxThread: SerialExecutor, TaskExecutor {
    private let mailbox: Mailbox

    /// Starts a thread named `name` (at most 15 bytes: the kernel's limit); `onExit` runs on it as it ends.
    ///
    /// A POSIX thread rather than Foundation's `Thread`, whose `start()` says nothing when the thread cannot be
    /// made; it takes its name on itself, as `Thread(named:body:)` (ShakyCore) does.
    init(name: String, onExit: (@Sendable () -> Void)? = nil) {
        let mailbox = Mailbox()
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

    /// Runs `fire` on the thread once CLOCK_MONOTONIC reaches `deadline` nanoseconds (at once if it has), in place
    /// of any earlier setting. One alarm per thread: ``InboxAlarm`` sets and clears it.
    func setAlarm(atMonotonicNanoseconds deadline: Int, fire: @escaping @Sendable () -> Void) {
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

    /// Nanoseconds on CLOCK_MONOTONIC, the clock the thread's timed wait runs on.
    static func monotonicNanoseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
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

    /// The state the thread and its callers share, under one pthread mutex, and the condition the thread waits on
    /// (on CLOCK_MONOTONIC, so that setting the wall clock moves no deadline). Kept alive by the thread until it ends.
    fileprivate final class Mailbox: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private var items: [Item] = []
        /// The batch being run, kept to reuse its storage.
        private var running: [Item] = []
        private var alarmDeadline: Int?
        private var alarmFire: (@Sendable () -> Void)?
        private var isWaiting = false
        private var isClosed = false
        private var thread: pthread_t?
        private var wakeUpCount = 0

        init() {
            pthread_mutex_init(mutex, nil)
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        }

        deinit {
            pthread_cond_destroy(condition)
            pthread_mutex_destroy(mutex)
            condition.deallocate()
            mutex.deallocate()
        }

        private func locked<T>(_ body: () -> T) -> T {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body()
        }

        /// Wakes the thread if it waits: the state it waits on changed.
        private func wakeIfWaiting() {
            if isWaiting { pthread_cond_signal(condition) }
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
                if let deadline = alarmDeadline, deadline <= InboxThread.monotonicNanoseconds() {
                    let fire = alarmFire
                    alarmDeadline = nil
                    alarmFire = nil
                    pthread_mutex_unlock(mutex)
                    fire?()
                    pthread_mutex_lock(mutex)
                    continue
                }
                isWaiting = true
                if let deadline = alarmDeadline {
                    var until = timespec(tv_sec: deadline / 1_000_000_000, tv_nsec: deadline % 1_000_000_000)
                    pthread_cond_timedwait(condition, mutex, &until)
                } else {
                    pthread_cond_wait(condition, mutex)
                }
                isWaiting = false
                wakeUpCount &+= 1
            }
            alarmFire = nil
            pthread_mutex_unlock(mutex)
        }
    }
}
