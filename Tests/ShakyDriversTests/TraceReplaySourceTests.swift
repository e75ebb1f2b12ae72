import Foundation
import ShakyCore
import ShakyDrivers
import Synchronization
import Testing

/// A clock whose sleeps return at once after moving `now` to the deadline, remembering each deadline.
final class ImmediateClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let state = Mutex<(now: Instant, deadlines: [Duration])>((Instant(offset: .seconds(1000)), []))

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// Every deadline slept until, relative to the clock's start.
    var deadlines: [Duration] { state.withLock { $0.deadlines } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLock {
            $0.deadlines.append(deadline.offset - .seconds(1000))
            if $0.now < deadline { $0.now = deadline }
        }
    }
}

@Suite struct TraceReplaySourceTests {
    private func writeTrace(_ samples: [AccelSample], metadata: TraceMetadata = TraceMetadata()) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).csv").path
        let writer = try TraceWriter(path: path, metadata: metadata)
        for sample in samples { try writer.write(sample) }
        try writer.close()
        return path
    }

    private func collect(
        _ stream: AsyncThrowingStream<AccelSample, any Error>, limit: Int = .max
    ) async throws
        -> [AccelSample]
    {
        var samples: [AccelSample] = []
        for try await sample in stream {
            samples.append(sample)
            if samples.count == limit { break }
        }
        return samples
    }

    @Test func realSpeedWaitsForEachTimestampOnTheClock() async throws {
        let samples = [10.0, 10.02, 10.05, 10.5].map { AccelSample(timestamp: $0, x: $0, y: -1, z: 9.81) }
        let path = try writeTrace(
            samples, metadata: TraceMetadata([(key: "device", value: "bench"), (key: "rate", value: "50")]))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = ImmediateClock()
        let source = try TraceReplaySource(path: path, speed: .realTime, loop: false, clock: clock)
        #expect(source.info == SourceInfo(driver: "trace", devicePath: path, deviceName: "bench", rate: 50))
        #expect(try await collect(source.start()) == samples)
        let offsets = clock.deadlines.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
        #expect(offsets.count == 3)
        for (offset, expected) in zip(offsets, [0.02, 0.05, 0.5]) { #expect(abs(offset - expected) < 1e-9) }
    }

    @Test func maxSpeedNeverWaits() async throws {
        let samples = (0..<50).map { AccelSample(timestamp: Double($0), x: 1, y: 2, z: 3) }
        let path = try writeTrace(samples)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = ImmediateClock()
        let source = try TraceReplaySource(path: path, speed: .max, loop: false, clock: clock)
        #expect(try await collect(source.start()) == samples)
        #expect(clock.deadlines.isEmpty)
    }

    @Test func loopingKeepsTimestampsIncreasing() async throws {
        let samples = [0.0, 0.25, 0.5].map { AccelSample(timestamp: $0, x: $0, y: 0, z: 9.81) }
        let path = try writeTrace(samples)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try TraceReplaySource(path: path, speed: .max, loop: true, clock: ImmediateClock())
        let replayed = try await collect(source.start(), limit: 8)
        #expect(replayed.map(\.timestamp) == [0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75])
        #expect(replayed.map(\.x) == [0, 0.25, 0.5, 0, 0.25, 0.5, 0, 0.25], "values repeat, time goes on")
    }

    @Test(
        "a trace of one sample loops forward whatever rate it claims (a file's times never repeat)",
        arguments: ["0", "-5", "inf", "nan", "1e300"])
    func loopingMovesOnWithoutARealRate(rate: String) async throws {
        let path = try writeTrace(
            [AccelSample(timestamp: 2, x: 0, y: 0, z: 9.81)], metadata: TraceMetadata([(key: "rate", value: rate)]))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try TraceReplaySource(path: path, speed: .max, loop: true, clock: ImmediateClock())
        #expect(source.info.rate == nil)
        let replayed = try await collect(source.start(), limit: 6).map(\.timestamp)
        #expect(zip(replayed, replayed.dropFirst()).allSatisfy { abs($1 - $0 - 0.01) < 1e-9 }, "\(replayed)")
    }

    @Test func stopFinishesTheStreamAndStartBeginsAgain() async throws {
        let samples = (0..<10).map { AccelSample(timestamp: Double($0) / 10, x: 0, y: 0, z: 9.81) }
        let path = try writeTrace(samples)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try TraceReplaySource(path: path, speed: .max, loop: true, clock: ImmediateClock())
        var iterator = try source.start().makeAsyncIterator()
        #expect(try await iterator.next() == samples[0])
        source.stop()
        #expect(try await iterator.next() == nil)
        #expect(try await collect(source.start(), limit: 2) == Array(samples.prefix(2)))
    }

    @Test func aMalformedLineEndsTheStreamWithFileAndLine() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).csv").path
        try Data("t,x,y,z\n0,0,0,9.8\n0.01,0,zero,9.8\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try TraceReplaySource(path: path, speed: .max, loop: false, clock: ImmediateClock())
        await #expect(
            throws: TraceFormatError(file: path, line: 3, problem: "column y is not a finite number: \"zero\"")
        ) {
            _ = try await collect(source.start())
        }
    }

    @Test func theDriverTableAnswersTraceSpecs() throws {
        let path = try writeTrace([AccelSample(timestamp: 0, x: 0, y: 0, z: 9.81)])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let options = AccelerometerOptions(clock: ImmediateClock())
        let chosen = try AccelerometerDriverTable.standard.choose(
            .trace(path: path, speed: .max, loop: false), options: options)
        #expect(chosen.driver == "trace" && chosen.devicePath == path && chosen.isUsable)

        let missing = "/nonexistent/trace.csv"
        #expect {
            try AccelerometerDriverTable.standard.choose(
                .trace(path: missing, speed: .max, loop: false), options: options)
        } throws: { error in
            "\(error)".contains("no accelerometer found for --input trace:\(missing),speed=max")
                && "\(error)".contains("cannot open for reading")
        }
    }

    @Test func recordingOverTheTraceItReplaysIsRefusedAndLeavesTheTraceWhole() async throws {
        let samples = (0..<10).map { AccelSample(timestamp: Double($0) / 100, x: 0, y: 0, z: 9.81) }
        let input = try writeTrace(samples)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let recorder = TraceRecorder(
            spec: .trace(path: input, speed: .realTime, loop: false),
            options: AccelerometerOptions(clock: ImmediateClock()))
        // The same file by another spelling of its path.
        let samePath = (input as NSString).deletingLastPathComponent + "/./" + (input as NSString).lastPathComponent
        await #expect {
            _ = try await recorder.record(to: samePath, duration: nil)
        } throws: { error in
            "\(error)".contains("is the trace being replayed")
        }
        #expect(try TraceReader(path: input).readAll() == samples)
    }

    @Test func aTraceThatCannotBeCreatedSaysWhy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)").path
        #expect {
            _ = try TraceWriter(path: folder + "/out.csv")
        } throws: { error in
            "\(error)" == "\(folder)/out.csv: cannot create the file: there is no folder \(folder)"
        }
    }

    @Test func recorderWritesWhatItReplaysSampleForSample() async throws {
        let samples = (0..<300).map { index in
            AccelSample(timestamp: 5 + Double(index) / 100, x: sin(Double(index)), y: cos(Double(index)), z: 9.81)
        }
        let input = try writeTrace(
            samples, metadata: TraceMetadata([(key: "device", value: "phone"), (key: "rate", value: "100")]))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(UUID().uuidString).csv").path
        defer {
            try? FileManager.default.removeItem(atPath: input)
            try? FileManager.default.removeItem(atPath: output)
        }
        let recorder = TraceRecorder(
            spec: .trace(path: input, speed: .realTime, loop: false),
            options: AccelerometerOptions(clock: ImmediateClock()))
        let summary = try await recorder.record(to: output, duration: nil)
        #expect(summary.samples == samples.count)
        let reader = try TraceReader(path: output)
        #expect(try reader.readAll() == samples)
        #expect(reader.metadata["device"] == "phone (\(input))")
        #expect(reader.metadata["driver"] == "trace")
        #expect(reader.metadata["rate"] == "100")
    }
}
