import ShakyCore
import ShakyDrivers
import Testing

/// The small pieces the reading loops use to recover by themselves and keep time right.
@Suite struct ReadRecoveryTests {
    @Test func nintendoReportsAreSpacedByTheirHardwareTimestamps() {
        var clock = EvdevSampleClock()
        var times: [Double] = []
        // Three samples per report, event times a microsecond apart, MSC_TIMESTAMP 5 ms apart.
        for report in 0..<3 {
            for sample in 0..<3 {
                clock.hardwareTimestamp(Int32(7000 + (report * 3 + sample) * 5000))
                let eventTime = 10 + Double(report) * 0.015 + Double(sample) * 1e-6
                if case .sample(let time) = clock.sampleTime(eventTime: eventTime) { times.append(time) }
            }
        }
        #expect(times.count == 9)
        for (index, time) in times.enumerated() {
            #expect(abs(time - (10 + Double(index) * 0.005)) < 1e-9, "sample \(index) at \(time)")
        }
    }

    /// Linux 6.1's hid-nintendo advances MSC_TIMESTAMP by 30 ms per 15 ms report (its samples 5 ms apart within
    /// one): once the counter's pace is judged, samples are 5 ms apart at the reports' real pace, none dropped.
    @Test func aNintendoCounterRunningAtTwiceRealTimeIsFollowedAtTheReportsPace() {
        var clock = EvdevSampleClock()
        var times: [Double] = []
        for report in 0..<40 {
            for sample in 0..<3 {
                clock.hardwareTimestamp(Int32(7000 + report * 30000 + sample * 5000))
                let eventTime = 10 + Double(report) * 0.015 + Double(sample) * 1e-6
                if case .sample(let time) = clock.sampleTime(eventTime: eventTime) { times.append(time) }
            }
        }
        #expect(times.count == 120, "no sample dropped")
        let judged = Int((EvdevSampleClock.paceWindow / 0.030).rounded(.up)) * 3 + 3
        let intervals = zip(times.dropFirst(judged), times.dropFirst(judged - 1)).map { $0 - $1 }
        #expect(intervals.allSatisfy { abs($0 - 0.005) < 1e-9 }, "\(intervals)")
        #expect(times.last.map { $0 - (10 + 39 * 0.015) } ?? 1 < EvdevSampleClock.maximumDrift)
    }

    @Test func theHardwareCounterWrapsAndDriftReanchors() {
        var clock = EvdevSampleClock()
        clock.hardwareTimestamp(Int32(bitPattern: UInt32.max - 999))
        let first = clock.sampleTime(eventTime: 5)
        #expect(first == .sample(5))
        clock.hardwareTimestamp(Int32(bitPattern: 4000))  // 5 ms later, across the wrap
        let second = clock.sampleTime(eventTime: 5.004)
        #expect(second == .sample(5.005))
        clock.hardwareTimestamp(Int32(bitPattern: 9000))
        guard case .sample(let reanchored) = clock.sampleTime(eventTime: 7) else {
            Issue.record("a far-off event time re-anchors rather than drops")
            return
        }
        #expect(reanchored == 7)
    }

    @Test func withoutHardwareTimesEventTimesMustAdvance() {
        var clock = EvdevSampleClock()
        let first = clock.sampleTime(eventTime: 1)
        #expect(first == .sample(1))
        guard case .dropped(let reason) = clock.sampleTime(eventTime: 1) else {
            Issue.record("a repeated time is dropped")
            return
        }
        #expect(reason.contains("not after the previous"))
        let later = clock.sampleTime(eventTime: 1.01)
        #expect(later == .sample(1.01))
        #expect(!clock.usesHardwareTime)
    }

    @Test func failedReadsAreRetriedWithGrowingPausesUntilTheDeviceLeaves() {
        var policy = ReadRetryPolicy(initialDelay: 0.01, maximumDelay: 0.05)
        let run = (0..<4).map { _ in policy.failed(devicePresent: true) }
        #expect(
            run == [
                .retry(after: 0.01, firstInARow: true), .retry(after: 0.02, firstInARow: false),
                .retry(after: 0.04, firstInARow: false), .retry(after: 0.05, firstInARow: false),
            ])
        let recovered = policy.succeeded()
        #expect(recovered == 4)
        let next = policy.failed(devicePresent: true)
        #expect(next == .retry(after: 0.01, firstInARow: true))
        let left = policy.failed(devicePresent: false)
        #expect(left == .gone)
    }

    @Test func aBufferThatNeverDeliversIsStarvedAfterItsTimeout() {
        var watchdog = SampleWatchdog(period: 0.01, startedAt: 100)
        #expect(watchdog.timeout == 1, "ten periods, but at least a second")
        #expect(watchdog.remaining(at: 100.2) == 800)
        #expect(!watchdog.isStarved(at: 100.99))
        #expect(watchdog.isStarved(at: 101))
        watchdog.sampleArrived()
        #expect(!watchdog.isStarved(at: 200))
        #expect(watchdog.remaining(at: 200) == -1)
        #expect(SampleWatchdog(period: 0.2, startedAt: 0).timeout == 2)
    }

    @Test func sampleTimesThatDoNotAdvanceAreDroppedAndCounted() {
        var times = SampleTimeGuard()
        let sample = { (t: Double) in AccelSample(timestamp: t, x: 0, y: 0, z: 9.8) }
        let admitted = [1, 1, 0.5, .nan, 1.01].map { times.admit(sample($0)) }
        #expect(admitted == [true, false, false, false, true])
        #expect(times.dropped == 3)
    }

    @Test("Event times on a wall clock set an hour back: the samples go on from the last one, none is dropped")
    func eventTimesSetBackGoOnFromTheLastSample() {
        var clock = EvdevSampleClock()
        var times: [Double] = []
        var dropped = 0
        for index in 0..<200 {
            let eventTime = 1_795_000_000 + Double(index) / 100 - (index >= 100 ? 3600 : 0)
            switch clock.sampleTime(eventTime: eventTime) {
            case .sample(let time): times.append(time)
            case .dropped: dropped += 1
            }
        }
        #expect(dropped == 0)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { $0 < 0.011 }, "no jump forward either")
        // A time repeated, or half a second back, is still a late report, dropped.
        for late in [1.99, 1.49] {
            guard case .dropped = clock.sampleTime(eventTime: 1_795_000_000 - 3600 + late) else {
                Issue.record("a time \(1.99 - late) s back is a late report, to be dropped")
                continue
            }
        }
    }

    @Test func wallClockBufferTimestampsAreShiftedToTheMonotonicClock() {
        let realtime = IIOTimestampClock(clockName: "realtime", realtimeMinusMonotonic: 1000, boottimeMinusMonotonic: 2)
        #expect(realtime.monotonic(1005) == 5)
        let boottime = IIOTimestampClock(clockName: "boottime", realtimeMinusMonotonic: 1000, boottimeMinusMonotonic: 2)
        #expect(boottime.monotonic(7) == 5)
        #expect(IIOTimestampClock(clockName: nil, realtimeMinusMonotonic: 9, boottimeMinusMonotonic: 9).offset == 0)
    }
}
