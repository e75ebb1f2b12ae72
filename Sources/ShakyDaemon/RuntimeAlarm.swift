import Dispatch

/// The engine's next wake-up: runs its work on the runtime's queue once the clock reaches the reading it was set to.
///
/// Set, cleared and fired on that queue only (the runtime actor's own), so it needs no lock. Setting the reading it
/// is already set to changes nothing: the engine names its next wake-up after every event, and most events leave it
/// where it was.
protocol RuntimeAlarm: AnyObject, Sendable {
    /// Fires once the clock reaches `reading` (at once if it has), instead of any earlier setting.
    func set(at reading: Duration)
    /// Fires no more until set again.
    func clear()
}

/// An alarm on a dispatch timer of the queue, on the continuous clock.
///
/// Each change of deadline is handed to libdispatch's timer thread (a wake-up of its own), so a wake-up set one
/// interval after the one that is firing (the countdown's next tick, set while the last one is handled) makes the
/// timer repeat at that interval: its next deadline is then already known, and a tick costs the timer thread's
/// wake-up and the queue's, nothing more. When the firing work sets another reading or none, the timer is
/// changed or stopped.
final class DispatchRuntimeAlarm: RuntimeAlarm, @unchecked Sendable {
    private let timer: DispatchSourceTimer
    private let now: @Sendable () -> Duration
    private let fire: @Sendable () -> Void
    /// The reading the timer fires at next, if armed.
    private var nextReading: Duration?
    /// The time between firings of a repeating timer; `nil` for a single firing.
    private var interval: Duration?
    /// The reading being fired, while the work runs.
    private var firingReading: Duration?
    /// Whether the work that is running set or cleared the alarm.
    private var changedWhileFiring = false
    /// How many deadlines were handed to dispatch (each a wake-up of its timer thread), read on the queue.
    private(set) var deadlinesHandedOver = 0
    /// Whether the timer will fire, read on the queue.
    var isArmed: Bool { nextReading != nil }

    init(queue: DispatchQueue, now: @escaping @Sendable () -> Duration, fire: @escaping @Sendable () -> Void) {
        self.now = now
        self.fire = fire
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.timerFired() }
        timer.activate()
    }

    deinit {
        timer.cancel()
    }

    func set(at reading: Duration) {
        changedWhileFiring = true
        guard reading != nextReading else { return }
        let repeating: Duration? =
            if let firingReading, reading > firingReading { reading - firingReading } else { nil }
        schedule(reading, repeating: repeating)
    }

    func clear() {
        changedWhileFiring = true
        guard nextReading != nil else { return }
        nextReading = nil
        interval = nil
        deadlinesHandedOver += 1
        timer.schedule(deadline: .distantFuture, repeating: .never)
    }

    private func schedule(_ reading: Duration, repeating: Duration?) {
        nextReading = reading
        interval = repeating
        deadlinesHandedOver += 1
        let deadline = DispatchTime.now() + .nanoseconds(RuntimeClock.nanoseconds(reading - now()))
        if let repeating {
            timer.schedule(deadline: deadline, repeating: .nanoseconds(RuntimeClock.nanoseconds(repeating)))
        } else {
            timer.schedule(deadline: deadline, repeating: .never)
        }
    }

    /// Runs on the queue when dispatch fires the timer.
    private func timerFired() {
        // A firing dispatch had already queued when the alarm was cleared or moved later.
        guard let reading = nextReading else { return }
        guard now() >= reading else {
            schedule(reading, repeating: interval)
            return
        }
        if let interval {
            nextReading = reading + interval
        } else {
            nextReading = nil
        }
        firingReading = reading
        changedWhileFiring = false
        fire()
        firingReading = nil
        // The work did not ask for the repeat that dispatch will fire: stop it.
        if !changedWhileFiring { clear() }
    }
}

/// An alarm on any other clock (a `ManualClock` in tests): a task sleeps until the reading, then hands the work to
/// the queue.
final class TaskRuntimeAlarm: RuntimeAlarm, @unchecked Sendable {
    private let queue: DispatchQueue
    private let sleepUntil: @Sendable (Duration) async throws -> Void
    private let fire: @Sendable () -> Void
    private var nextReading: Duration?
    private var sleeper: Task<Void, Never>?
    /// Counts settings, so that a sleeper that woke for an earlier one does nothing.
    private var generation = 0

    init(
        queue: DispatchQueue, sleepUntil: @escaping @Sendable (Duration) async throws -> Void,
        fire: @escaping @Sendable () -> Void
    ) {
        self.queue = queue
        self.sleepUntil = sleepUntil
        self.fire = fire
    }

    deinit {
        sleeper?.cancel()
    }

    func set(at reading: Duration) {
        guard reading != nextReading else { return }
        sleeper?.cancel()
        generation += 1
        nextReading = reading
        let (queue, sleepUntil, generation) = (queue, sleepUntil, generation)
        sleeper = Task { [weak self] in
            do {
                try await sleepUntil(reading)
            } catch {
                return
            }
            guard let alarm = self else { return }
            queue.async { alarm.sleeperWoke(generation) }
        }
    }

    func clear() {
        sleeper?.cancel()
        sleeper = nil
        nextReading = nil
        generation += 1
    }

    /// Runs on the queue when a sleeper reached its reading.
    private func sleeperWoke(_ generation: Int) {
        guard generation == self.generation else { return }
        sleeper = nil
        nextReading = nil
        fire()
    }
}
