import Dispatch

/// A serial executor on a dispatch queue of its own, for an actor whose work may block.
///
/// A serial `DispatchQueue` runs on dispatch's overcommitting threads, which are added as others block, not on
/// the cooperative pool that runs every other task (as wide as the machine has cores): an actor on this
/// executor can make a synchronous call that takes long (an SQLite write to a slow SD card) without taking a
/// thread from that pool.
///
/// It is a task executor as well: a task that prefers it (`Task(executorPreference:)`) runs on the same queue, so a
/// task that only waits for something and then calls the actor (a sensor's shakes) wakes one thread, the queue's,
/// instead of a thread of the pool and then the queue's.
final class DispatchQueueExecutor: SerialExecutor, TaskExecutor {
    /// The queue every job runs on; work handed to it directly (a timer's) runs on the actor's executor too.
    let queue: DispatchQueue

    /// Creates an executor on a new serial queue named `label`.
    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.labelKey, value: label)
    }

    private static let labelKey = DispatchSpecificKey<String>()

    /// The label of the executor whose queue runs the caller, or `nil` off every such queue (on the pool).
    static var currentLabel: String? {
        DispatchQueue.getSpecific(key: labelKey)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Stops the process unless called on the queue: how `assumeIsolated` knows that work dispatch runs on the queue
    /// (a timer's) is on the actor's executor.
    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }
}
