import Foundation
import ShakeDetection
import ShakyCore
import ShakyTesting
import Synchronization
import Testing

@testable import ShakyDrivers

/// The reading path around the devices: the filter on the reader thread, the pacing, polled attribute reads.
@Suite struct ReaderPathTests {
    /// Yields the given samples on the reader thread, then returns.
    final class ListReading: AccelerometerReading {
        let samples: [AccelSample]
        /// The thread `run` ran on.
        let thread = Mutex<UInt?>(nil)
        /// That thread's name, as the kernel has it.
        let threadName = Mutex<String?>(nil)
        init(_ samples: [AccelSample]) { self.samples = samples }
        func run(_ session: ReaderSession) throws {
            thread.withLock { $0 = UInt(bitPattern: Int(bitPattern: pthread_self())) }
            let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
            threadName.withLock { $0 = name }
            for sample in samples { session.yield(sample) }
        }
    }

    /// Yields ``shake`` on the reader thread, noting the pacing's period after each sample.
    final class PeriodReading: AccelerometerReading {
        let periods = Mutex<[Double]>([])
        func run(_ session: ReaderSession) throws {
            for sample in ReaderPathTests.shake {
                session.yield(sample)
                periods.withLock { $0.append(session.currentPeriod) }
            }
        }
    }

    /// 0.2 s at rest, then a 4 Hz ±2 g shake across gravity, at 100 Hz: 1.5 s in all.
    static let shake = (0..<150).map { index in
        let time = 10 + Double(index) / 100
        let motion = index < 20 ? 0 : 2 * 9.80665 * sin(2 * Double.pi * 4 * (time - 10.2))
        return AccelSample(timestamp: time, x: motion, y: 0, z: 9.81)
    }

    private static func samples(_ count: Int) -> [AccelSample] {
        (0..<count).map { AccelSample(timestamp: Double($0) / 100, x: Double($0), y: 0, z: 9.8) }
    }

    @Test func onlyTheSamplesTheFilterKeepsCrossIntoTheStream() async throws {
        let threads = Mutex<Set<UInt>>([])
        let slot = ReaderSessionSlot()
        let reading = ListReading(Self.samples(20))
        let stream = try slot.start(
            name: "reader-test",
            keeping: {
                var seen = 0
                return { _ in
                    seen += 1
                    _ = threads.withLock { $0.insert(UInt(bitPattern: Int(bitPattern: pthread_self()))) }
                    return seen % 4 == 0 ? .kept : .dropped
                }
            },
            opening: { reading })
        var kept: [Double] = []
        for try await sample in stream { kept.append(sample.x) }
        #expect(kept == [3, 7, 11, 15, 19], "the filter's state lives across samples, and it decides")
        let readingThread = try #require(reading.thread.withLock { $0 })
        #expect(threads.withLock { $0 } == [readingThread], "the filter runs on the reader thread only")
    }

    @Test func withoutAFilterEverySampleArrives() async throws {
        let slot = ReaderSessionSlot()
        let stream = try slot.start(name: "reader", opening: { ListReading(Self.samples(7)) })
        var count = 0
        for try await _ in stream { count += 1 }
        #expect(count == 7)
    }

    @Test("The reader thread carries its name, for top -H, ps -L and the benchmark's thread list")
    func theReaderThreadIsNamed() async throws {
        let slot = ReaderSessionSlot()
        let reading = ListReading(Self.samples(1))
        let stream = try slot.start(name: "iio-buffer", opening: { reading })
        for try await _ in stream {}
        #expect(reading.threadName.withLock { $0 } == "iio-buffer\n")
    }

    @Test func theDefaultFilteringRunsOverTheSourcesStream() async throws {
        let source = ScriptedAccelerometerSource()
        let stream = try source.start(keeping: { { $0.x > 2 ? .kept : .dropped } })
        source.feed(Self.samples(6))
        source.stop()
        var kept: [Double] = []
        for try await sample in stream { kept.append(sample.x) }
        #expect(kept == [3, 4, 5])
    }

    @Test func pacingWakesMoreOftenForHalfASecondAfterMotion() {
        var pacing = ReadPacing()
        pacing.note(AccelSample(timestamp: 1.00, x: 0, y: 0, z: 9.8))
        #expect(!pacing.isMoving, "at rest samples gather in batches")
        #expect(pacing.period == ReadPacing.restPeriod)
        pacing.note(AccelSample(timestamp: 1.01, x: 15, y: 0, z: 9.8))
        #expect(pacing.isMoving)
        #expect(pacing.period == ReadPacing.motionPeriod && ReadPacing.motionPeriod <= 0.025)
        pacing.note(AccelSample(timestamp: 1.50, x: 0, y: 0, z: 9.8))
        #expect(pacing.isMoving, "still within 0.5 s of the moving sample")
        pacing.note(AccelSample(timestamp: 1.52, x: 0, y: 0, z: 9.8))
        #expect(!pacing.isMoving)
        pacing.note(AccelSample(timestamp: 1.53, x: 0, y: 0, z: 0))
        #expect(pacing.isMoving, "free fall is motion too")
    }

    /// Sample times stepped three years forward, then an hour back: no shake at the steps, a pace within its bounds,
    /// and the shake after them is found.
    @Test func sampleTimesThatJumpNeitherFireNorStall() {
        let g = AccelSample.standardGravity
        var detector = ShakeDetector(sensitivity: .medium)
        var pacing = ReadPacing()
        var shakes: [Double] = []
        var periods: [Double] = []
        /// One second at 100 Hz from `start`, at rest or shaken at 4 Hz with 3 g.
        func second(from start: Double, shaken: Bool) {
            for index in 0..<100 {
                let t = Double(index) / 100
                let x = shaken ? 3 * g * sin(2 * Double.pi * 4 * t) : 0
                let sample = AccelSample(timestamp: start + t, x: x, y: 0, z: g)
                if let shake = detector.process(sample) { shakes.append(shake.timestamp) }
                pacing.note(sample, keepsNoneBefore: detector.firesNoSoonerThan)
                periods.append(pacing.period)
            }
        }
        let threeYears = 3 * 365 * 86_400.0
        second(from: 10, shaken: false)
        second(from: 11, shaken: true)  // a shake, then its cooldown
        second(from: 12 + threeYears, shaken: false)
        second(from: 13 + threeYears - 3600, shaken: false)
        second(from: 14 + threeYears - 3600, shaken: true)
        #expect(shakes.count == 2, "\(shakes)")
        #expect(shakes.last.map { $0 > 14 + threeYears - 3600 } == true)
        #expect(periods.allSatisfy { $0 >= ReadPacing.motionPeriod && $0 <= ReadPacing.longestQuietPeriod })
    }

    @Test func aFilterThatSaysHowSoonItCouldKeepASampleSetsThePace() {
        var pacing = ReadPacing()
        pacing.note(AccelSample(timestamp: 1.00, x: 0, y: 0, z: 9.8), keepsNoneBefore: 1.15)
        pacing.note(AccelSample(timestamp: 1.01, x: 0, y: 0, z: 9.8), keepsNoneBefore: 1.16)
        // The sample of 1.16 is taken at most 0.15 s after this wake-up (the 1.01 one is at most 0.01 s old), so a
        // wake-up 0.14 + 0.025 s from now finds it at most a motion period old.
        #expect(abs(pacing.period - (0.15 - 0.01 + ReadPacing.motionPeriod)) < 1e-9)
        #expect(pacing.period > ReadPacing.restPeriod, "at rest, longer than without the filter's word")
        pacing.note(AccelSample(timestamp: 1.02, x: 15, y: 0, z: 9.8), keepsNoneBefore: 1.77)
        #expect(pacing.period == ReadPacing.longestQuietPeriod, "a cooldown: never longer than the quiet period")
        pacing.note(AccelSample(timestamp: 1.75, x: 15, y: 0, z: 9.8), keepsNoneBefore: 1.77)
        #expect(pacing.period == ReadPacing.motionPeriod, "never sooner than the motion period")
        pacing.note(AccelSample(timestamp: 1.76, x: 15, y: 0, z: 9.8), keepsNoneBefore: 1.76)
        #expect(pacing.period == ReadPacing.motionPeriod, "the next sample may be kept: the motion period")
    }

    @Test func aDevicesQueueCapsTheQuietPeriodAndNoTimeIsNoLongSleep() {
        var pacing = ReadPacing()
        pacing.longestPeriod = 0.04
        pacing.note(AccelSample(timestamp: 1.00, x: 0, y: 0, z: 9.8), keepsNoneBefore: 5)
        #expect(pacing.period == 0.04, "the queue's limit holds while the filter can keep nothing")
        pacing.longestPeriod = .infinity
        pacing.note(AccelSample(timestamp: .nan, x: 15, y: 0, z: 9.8), keepsNoneBefore: .nan)
        #expect(pacing.period == ReadPacing.motionPeriod || pacing.period == ReadPacing.restPeriod)
        pacing.note(AccelSample(timestamp: 2, x: 15, y: 0, z: 9.8), keepsNoneBefore: .infinity)
        #expect(pacing.period == ReadPacing.longestQuietPeriod)
    }

    @Test func theDetectorsVerdictReachesThePacingFromTheReaderThread() async throws {
        let slot = ReaderSessionSlot()
        let reading = PeriodReading()
        let stream = try slot.start(
            name: "reader", keeping: { ShakeDetector(sensitivity: .medium).sampleFilter() }, opening: { reading })
        var shakes: [Double] = []
        for try await sample in stream { shakes.append(sample.timestamp) }
        let first = try #require(shakes.first, "the 4 Hz shake fires")
        let recorded = reading.periods.withLock { $0 }
        let afterFirst = try #require(Self.shake.firstIndex { $0.timestamp == first })
        // Medium needs 0.15 s above its threshold: at rest the reader waits for the 15th sample from now to be due.
        #expect(abs(recorded[10] - (0.15 - 0.01 + ReadPacing.motionPeriod)) < 1e-5, "at rest")
        #expect(recorded[afterFirst - 1] == ReadPacing.motionPeriod, "a shake about to complete: the motion period")
        #expect(recorded[afterFirst] == ReadPacing.longestQuietPeriod, "right after a shake, the cooldown")
    }

    @Test func aDevicesQueueCapsThePeriodAtRestAndInMotion() {
        var pacing = ReadPacing()
        pacing.longestPeriod = 0.04
        pacing.note(AccelSample(timestamp: 1.00, x: 0, y: 0, z: 9.8))
        #expect(pacing.period == 0.04, "the queue's limit is below the rest period")
        pacing.note(AccelSample(timestamp: 1.01, x: 15, y: 0, z: 9.8))
        #expect(pacing.period == ReadPacing.motionPeriod, "the motion period is below the limit")
    }

    @Test(arguments: [(4, 64), (8, 64), (11, 128), (14, 128), (16, 128), (17, 256), (0, 64), (Int.max, 1 << 23)])
    func evdevBufferIsEightEstimatedReportsAtLeast64EventsAPowerOfTwo(events: Int, buffer: Int) {
        #expect(EvdevQueuePacing.buffer(forReportsOf: events) == buffer)
    }

    @Test func evdevPacingSleepsAtMostHalfWhatTheKernelsBufferHolds() {
        // An accelerometer: three axes (a buffer of 128 events); ABS_X, ABS_Y, ABS_Z, SYN_REPORT at 100 Hz.
        var queue = EvdevQueuePacing(axes: 3)
        #expect(queue.bufferEvents == 128)
        #expect(queue.longestPeriod == ReadPacing.motionPeriod, "short sleeps until the rate is known")
        for _ in 0..<30 { queue.reportEnded(events: 4) }
        queue.read(events: 0, at: 10.000, dropped: false)
        queue.read(events: 30, at: 10.075, dropped: false)
        #expect(abs(queue.eventsPerSecond - 400) < 1e-6)
        #expect(abs(queue.longestPeriod - 0.16) < 1e-9, "half of 128 events at 400 a second")
        #expect(ReadPacing.restPeriod <= queue.longestPeriod, "so an accelerometer at 100 Hz keeps the rest period")
        // A DualSense's motion node: six axes; six values, MSC_TIMESTAMP and SYN_REPORT at 250 Hz.
        var dualSense = EvdevQueuePacing(axes: 6)
        dualSense.reportEnded(events: 8)
        dualSense.read(events: 0, at: 0, dropped: false)
        dualSense.read(events: 50, at: 0.025, dropped: false)
        #expect(abs(dualSense.longestPeriod - 0.032) < 1e-9, "half of 128 events at 2 000 a second")
        // A report longer than the kernel's estimate (a driver that raised it) counts eightfold too.
        dualSense.reportEnded(events: 20)
        #expect(dualSense.bufferEvents == 256)
    }

    @Test func evdevPacingFollowsAFasterRateAtOnceASlowerOneSlowlyAndBacksOffAfterADrop() {
        var queue = EvdevQueuePacing(axes: 3)
        queue.read(events: 0, at: 0, dropped: false)
        queue.read(events: 40, at: 0.1, dropped: false)
        #expect(abs(queue.eventsPerSecond - 400) < 1e-6)
        queue.read(events: 80, at: 0.2, dropped: false)
        #expect(abs(queue.eventsPerSecond - 800) < 1e-6, "a faster rate counts at once")
        queue.read(events: 0, at: 0.3, dropped: false)
        #expect(abs(queue.eventsPerSecond - 800) < 1e-6, "an empty read says nothing of the rate")
        queue.read(events: 40, at: 0.4, dropped: false)
        #expect(abs(queue.eventsPerSecond - 750) < 1e-6, "a slower one moves it by an eighth of the gap")
        let before = queue.longestPeriod
        queue.read(events: 75, at: 0.5, dropped: true)
        #expect(abs(queue.longestPeriod - before / 2) < 1e-9, "SYN_DROPPED halves the share of the buffer used")
        for step in 0..<20 { queue.read(events: 75, at: 0.6 + Double(step) / 10, dropped: true) }
        #expect(abs(queue.longestPeriod - 128.0 / 64 / 750) < 1e-9, "down to a 64th of the buffer at the least")
        queue.read(events: 1_000_000_000, at: 2.6 + 1e-9, dropped: false)
        #expect(queue.longestPeriod == EvdevQueuePacing.shortestPeriod, "a flood is read every millisecond")
    }

    @Test func theReaderSeesMotionBeforeAnyPresetsShakeCanComplete() {
        // A shake completes after window × activeFraction seconds above the threshold at the least; the first
        // moving sample (already below the threshold) switches to the motion period at the next rest wake-up.
        for settings in [ShakeDetectorTuning.light, .medium, .hard] {
            #expect(ReadPacing.restPeriod < settings.window * settings.activeFraction)
            #expect(
                ReadPacing.restTolerance < settings.threshold && ReadPacing.restTolerance < settings.sustainedThreshold)
        }
    }

    @Test(arguments: [
        ("123\n", 123 as Int64?), ("-45\n", -45), ("+7", 7), ("0\n", 0), ("9223372036854775807\n", Int64.max),
        ("9223372036854775808\n", nil), ("", nil), ("-\n", nil), ("12a\n", nil), ("1.5\n", nil), (" 1\n", nil),
    ])
    func rawAttributeTextIsParsedInPlace(text: String, value: Int64?) {
        let parsed = Array(text.utf8).withUnsafeBytes { RawAttributeFile.parse($0) }
        #expect(parsed == value)
    }

    @Test func anOpenAttributeIsReadAgainAfterEachRewrite() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("raw-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "512\n".write(toFile: path, atomically: false, encoding: .utf8)
        let file = try RawAttributeFile(path: path, device: "/dev/iio:device9")
        #expect(try file.read() == 512)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        #expect(try file.read() == 512, "an empty read (mid-rewrite) repeats the last value")
        try handle.write(contentsOf: Data("-900\n".utf8))
        try handle.close()
        #expect(try file.read() == -900)
        try "garbage\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: IIOSetupError.self) { _ = try file.read() }
    }
}
