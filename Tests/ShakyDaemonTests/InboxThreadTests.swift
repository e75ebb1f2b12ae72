import Foundation
import Synchronization
import Testing

@testable import ShakyDaemon

extension InboxThread {
    /// Runs `work` on the thread and returns what it returns, once the work handed over before has run.
    func perform<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            async { continuation.resume(returning: work()) }
        }
    }
}

/// The runtime's inbox: one thread that runs what it is handed in order, and fires its one alarm at the deadline.
@Suite struct InboxThreadTests {
    @Test("Work runs on the thread, one item at a time, in the order it was handed over")
    func workRunsInOrderOnTheThread() async {
        let inbox = InboxThread(name: "inbox-test")
        let seen = Mutex<[Int]>([])
        let offThread = Mutex(0)
        for number in 0..<500 {
            inbox.async {
                if !inbox.isCurrent { offThread.withLock { $0 += 1 } }
                seen.withLock { $0.append(number) }
            }
        }
        await inbox.perform {}
        #expect(seen.withLock { $0 } == Array(0..<500))
        #expect(offThread.withLock { $0 } == 0)
        #expect(!inbox.isCurrent, "the test runs elsewhere")
    }

    @Test("The thread carries its name, for ps, top and the benchmark's thread list")
    func theThreadIsNamed() async throws {
        let inbox = InboxThread(name: "inbox-test")
        let name = await inbox.perform { try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) }
        #expect(name == "inbox-test\n")
    }

    @Test("An alarm whose deadline has passed fires at once, on the thread")
    func anAlarmDueFiresAtOnce() async {
        let inbox = InboxThread(name: "inbox-test")
        let onThread = await withCheckedContinuation { continuation in
            inbox.setAlarm(atBoottimeNanoseconds: InboxThread.boottimeNanoseconds() - 1_000_000) {
                continuation.resume(returning: inbox.isCurrent)
            }
        }
        #expect(onThread)
    }

    @Test("A new setting replaces the alarm, and a cleared alarm does not fire")
    func aNewSettingReplacesTheAlarm() async {
        let inbox = InboxThread(name: "inbox-test")
        let fired = Mutex<[String]>([])
        let now = InboxThread.boottimeNanoseconds()
        let heard = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            inbox.setAlarm(atBoottimeNanoseconds: now + 1_000_000) { fired.withLock { $0.append("cleared") } }
            inbox.clearAlarm()
            inbox.setAlarm(atBoottimeNanoseconds: now + 2_000_000) { fired.withLock { $0.append("replaced") } }
            // Later than both: had either fired, it would be heard first.
            inbox.setAlarm(atBoottimeNanoseconds: now + 20_000_000) {
                continuation.resume(returning: fired.withLock { $0 + ["last"] })
            }
        }
        #expect(heard == ["last"])
        #expect(InboxThread.boottimeNanoseconds() >= now + 20_000_000, "it fired at its deadline, not before")
    }

    @Test("An earlier deadline set while the thread waits for a later one fires at its own time")
    func anEarlierDeadlineWakesTheWaitingThread() async {
        let inbox = InboxThread(name: "inbox-test")
        await inbox.perform {
            inbox.setAlarm(atBoottimeNanoseconds: InboxThread.boottimeNanoseconds() + 3_600_000_000_000) {}
        }
        // The thread now waits for the hour's deadline; from here it is set again, 20 ms ahead.
        let wakeUps = inbox.wakeUps
        let start = InboxThread.boottimeNanoseconds()
        let firedAt = await withCheckedContinuation { continuation in
            inbox.setAlarm(atBoottimeNanoseconds: start + 20_000_000) {
                continuation.resume(returning: InboxThread.boottimeNanoseconds())
            }
        }
        #expect(firedAt >= start + 20_000_000, "not before its deadline")
        #expect(firedAt < start + 10_000_000_000, "not an hour later")
        #expect(inbox.wakeUps > wakeUps)
    }

    @Test("Work handed over keeps the alarm waiting until it has run; the alarm then fires")
    func workComesBeforeTheAlarm() async {
        let inbox = InboxThread(name: "inbox-test")
        let order = Mutex<[String]>([])
        let heard = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            inbox.async {
                // The alarm is due before this work ends; it fires after it, and after the work queued behind it.
                inbox.setAlarm(atBoottimeNanoseconds: InboxThread.boottimeNanoseconds()) {
                    continuation.resume(returning: order.withLock { $0 + ["alarm"] })
                }
                inbox.async { order.withLock { $0.append("queued") } }
                order.withLock { $0.append("work") }
            }
        }
        #expect(heard == ["work", "queued", "alarm"])
    }

    @Test("The thread ends once the executor is released, after the work handed to it has run")
    func theThreadEndsWithItsExecutor() async {
        let ran = Mutex(false)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            var inbox: InboxThread? = InboxThread(name: "inbox-test") { continuation.resume() }
            inbox?.setAlarm(atBoottimeNanoseconds: .max) {}
            inbox?.async { ran.withLock { $0 = true } }
            inbox = nil
        }
        #expect(ran.withLock { $0 }, "the work handed over before the release ran")
    }

    /// A wait that fails with `error` the first `count` times, then is `poll(2)`; counts the waits and the pauses.
    final class RefusingWait: Sendable {
        let refusals: Int
        let error: Int32
        let waits = Mutex(0)
        let pauses = Mutex(0)

        init(refusing refusals: Int, with error: Int32) {
            self.refusals = refusals
            self.error = error
        }

        func makeInbox() -> InboxThread {
            InboxThread(
                name: "inbox-test",
                wait: { descriptors, count, timeout in
                    let number = self.waits.withLock { waits in
                        waits += 1
                        return waits
                    }
                    guard number > self.refusals else {
                        errno = self.error
                        return -1
                    }
                    return poll(descriptors, count, timeout)
                },
                pauseAfterFailedWait: { self.pauses.withLock { $0 += 1 } })
        }

        /// Sets `inbox`'s alarm 20 ms ahead and waits until it fires: the thread has waited on past the refusals.
        func alarmIn20Milliseconds(on inbox: InboxThread) async {
            await withCheckedContinuation { continuation in
                inbox.setAlarm(atBoottimeNanoseconds: InboxThread.boottimeNanoseconds() + 20_000_000) {
                    continuation.resume()
                }
            }
        }
    }

    @Test("A wait the kernel refuses (ENOMEM) is tried again after a pause, not at once, and the work still runs")
    func aRefusedWaitIsRetriedAfterAPause() async {
        let wait = RefusingWait(refusing: 3, with: ENOMEM)
        let inbox = wait.makeInbox()
        // Nothing handed over yet: the thread waits at once, and is refused three times.
        await wait.alarmIn20Milliseconds(on: inbox)
        #expect(wait.pauses.withLock { $0 } == 3, "one pause for each refused wait")
        #expect(await inbox.perform { "work" } == "work")
    }

    @Test("An interrupted wait (EINTR) is tried again at once")
    func anInterruptedWaitIsRetriedAtOnce() async {
        let wait = RefusingWait(refusing: 2, with: EINTR)
        let inbox = wait.makeInbox()
        await wait.alarmIn20Milliseconds(on: inbox)
        #expect(wait.waits.withLock { $0 } > 2)
        #expect(wait.pauses.withLock { $0 } == 0)
    }
}
