/// The engine's next wake-up: runs its work on the runtime's inbox once the clock reaches the reading it was set to.
///
/// Set, cleared and fired on the inbox only (the runtime actor's own), so it needs no lock. Setting the reading it
/// is already set to changes nothing: the engine names its next wake-up after every event, and most events leave it
/// where it was.
protocol RuntimeAlarm: AnyObject, Sendable {
    /// Fires once the clock reaches `reading` (at once if it has), instead of any earlier setting.
    func set(at reading: Duration)
    /// Fires no more until set again.
    func clear()
}

/// An alarm on the continuous clock: the inbox thread's own (``InboxThread/setAlarm(atBoottimeNanoseconds:fire:)``),
/// the deadline of the wait in which it sleeps between jobs.
///
/// A tick of a countdown is then one wake-up of that thread, and the next tick, set while the last is handled,
/// only moves the deadline the thread waits for next. The deadline is on CLOCK_BOOTTIME, the continuous clock's own
/// (a firing that finds the clock short of the reading, by rounding to whole nanoseconds, waits again): an alarm
/// that fell due while the system was suspended fires as it wakes, and the runtime, seeing that the system slept,
/// pauses the countdown as it stood then.
final class InboxAlarm: RuntimeAlarm, @unchecked Sendable {
    private let inbox: InboxThread
    private let now: @Sendable () -> Duration
    private let fire: @Sendable () -> Void
    /// The reading the alarm is set to, if any.
    private var nextReading: Duration?

    init(inbox: InboxThread, now: @escaping @Sendable () -> Duration, fire: @escaping @Sendable () -> Void) {
        self.inbox = inbox
        self.now = now
        self.fire = fire
    }

    deinit {
        if nextReading != nil { inbox.clearAlarm() }
    }

    /// Whether the alarm will fire, read on the inbox.
    var isArmed: Bool { nextReading != nil }

    func set(at reading: Duration) {
        guard reading != nextReading else { return }
        nextReading = reading
        arm(reading)
    }

    func clear() {
        guard nextReading != nil else { return }
        nextReading = nil
        inbox.clearAlarm()
    }

    private func arm(_ reading: Duration) {
        let delay = RuntimeClock.nanoseconds(reading - now())
        let (deadline, overflow) = InboxThread.boottimeNanoseconds().addingReportingOverflow(delay)
        // Weakly: the thread keeps its alarm's work, and the alarm keeps the thread's executor.
        inbox.setAlarm(atBoottimeNanoseconds: overflow ? .max : deadline) { [weak self] in self?.deadlineReached() }
    }

    /// Runs on the inbox when the thread's wait reached the deadline.
    private func deadlineReached() {
        guard let reading = nextReading else { return }
        guard now() >= reading else {
            arm(reading)
            return
        }
        nextReading = nil
        fire()
    }
}

/// An alarm on any other clock (a `ManualClock` in tests): a task sleeps until the reading, then hands the work to
/// the inbox.
final class TaskRuntimeAlarm: RuntimeAlarm, @unchecked Sendable {
    private let inbox: InboxThread
    private let sleepUntil: @Sendable (Duration) async throws -> Void
    private let fire: @Sendable () -> Void
    private var nextReading: Duration?
    private var sleeper: Task<Void, Never>?
    /// Counts settings, so that a sleeper that woke for an earlier one does nothing.
    private var generation = 0

    init(
        inbox: InboxThread, sleepUntil: @escaping @Sendable (Duration) async throws -> Void,
        fire: @escaping @Sendable () -> Void
    ) {
        self.inbox = inbox
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
        let (inbox, sleepUntil, generation) = (inbox, sleepUntil, generation)
        sleeper = Task { [weak self] in
            do {
                try await sleepUntil(reading)
            } catch {
                return
            }
            guard let alarm = self else { return }
            inbox.async { alarm.sleeperWoke(generation) }
        }
    }

    func clear() {
        sleeper?.cancel()
        sleeper = nil
        nextReading = nil
        generation += 1
    }

    /// Runs on the inbox when a sleeper reached its reading.
    private func sleeperWoke(_ generation: Int) {
        guard generation == self.generation else { return }
        sleeper = nil
        nextReading = nil
        fire()
    }
}
