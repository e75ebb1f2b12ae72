import Foundation
import Logging
import ShakeDetection
import ShakyCore
import ShakyDaemon
import ShakyDrivers
import ShakyProtocol
import ShakyStore
import ShakyTesting
import Synchronization
import Testing
import TriviaEngine

/// The sensor side of the daemon with a scripted accelerometer: read only while a round is open, shakes become
/// hints, and an unplugged sensor leaves the game running until it comes back.
@Suite struct SensorPipelineTests {
    struct Harness {
        let runtime: GameRuntime
        let pipeline: SensorPipeline
        let source: ScriptedAccelerometerSource
        let driver: ScriptedAccelerometerDriver
        let returns: AsyncStream<Void>.Continuation
        let database: AppDatabase
        /// The pipeline's clock, which times a calibration's wait for samples.
        let sensorClock: ManualClock
    }

    /// A pipeline and a runtime with a new game; `followingTheRuntime` hands the runtime's demands (read while a round
    /// is open) to the pipeline, which applies them on a task of its own.
    static func harness(followingTheRuntime: Bool = true) async throws -> Harness {
        let database = try AppDatabase.inMemory()
        try database.createPack(named: "Quiz")
        for (text, answer) in [("Largest ocean?", "Pacific"), ("Tallest animal?", "Giraffe")] {
            try database.addQuestion(Question(text: text, answer: answer, difficulty: .easy), toPack: "Quiz")
        }
        let logger = Logger(label: "test")
        let runtime = GameRuntime(
            database: database, clock: RuntimeClock(ManualClock()), sound: RecordingSoundPlayer(), logger: logger)
        let source = ScriptedAccelerometerSource()
        let driver = ScriptedAccelerometerDriver(source)
        let (returnStream, returns) = AsyncStream<Void>.makeStream()
        let sensorClock = ManualClock()
        let pipeline = SensorPipeline(
            spec: .auto, options: AccelerometerOptions(), table: AccelerometerDriverTable(drivers: [driver]),
            runtime: runtime, sensitivity: .medium, logger: logger,
            calibrations: SensorCalibrations(database: database), clock: sensorClock, returns: { _ in returnStream })
        if followingTheRuntime { await runtime.setSensorDemandHandler(pipeline.demandHandler()) }
        await pipeline.start()
        _ = try await runtime.newGame(NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 2, seed: 1))
        return Harness(
            runtime: runtime, pipeline: pipeline, source: source, driver: driver, returns: returns, database: database,
            sensorClock: sensorClock)
    }

    /// Waits (bounded) until `condition` holds; the pipeline reacts on its own tasks.
    static func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out waiting until \(what)")
                return
            }
            await Task.yield()
        }
    }

    @Test func theSensorIsReadOnlyWhileARoundIsOpen() async throws {
        let harness = try await Self.harness()
        #expect(harness.source.starts == 0)
        #expect(await harness.runtime.sensorReport().state == .ready)

        _ = try await harness.runtime.makeMove(.nextQuestion)
        try await Self.eventually("the sensor is on") { harness.source.isReading }
        // The source reads as soon as it starts; the pipeline reports it just after.
        try await Self.eventually("the status says it is read") {
            await harness.runtime.sensorReport().state == .reading
        }

        _ = try await harness.runtime.makeMove(.pause)
        try await Self.eventually("the sensor is off while paused") { !harness.source.isReading }
        _ = try await harness.runtime.makeMove(.resume)
        try await Self.eventually("the sensor is on again") { harness.source.isReading }

        _ = try await harness.runtime.makeMove(.skipQuestion)
        try await Self.eventually("the sensor is off between rounds") { !harness.source.isReading }
        #expect(harness.source.starts == 2)
        #expect(harness.source.stops == 2)
    }

    @Test func aShakeRevealsAHint() async throws {
        let harness = try await Self.harness()
        _ = try await harness.runtime.makeMove(.nextQuestion)
        try await Self.eventually("the sensor is on") { harness.source.isReading }
        let rest = (0..<50).map { AccelSample(timestamp: Double($0) / 100, x: 0, y: 0, z: AccelSample.standardGravity) }
        harness.source.feed(rest + shakeSamples(start: 0.5, duration: 1))
        try await Self.eventually("a hint is shown") { try await harness.runtime.status().hintsUsed == 1 }
        #expect(await harness.runtime.sensorReport().shakes == 1)
        #expect(try await harness.runtime.status().points == 8)
    }

    @Test func aSourceReadAnotherWayIsReportedWhileItReads() async throws {
        let harness = try await Self.harness()
        _ = try await harness.runtime.makeMove(.nextQuestion)
        try await Self.eventually("the sensor is on") { harness.source.isReading }
        #expect(await harness.runtime.sensorReport().driver == "scripted")

        // No sample crosses into the pipeline (only shakes do), so the source itself says it changed.
        var polled = harness.source.info
        polled.driver = "iio-poll"
        polled.note = "the buffer delivered nothing; reading it by polling instead"
        harness.source.changeInfo(polled)
        try await Self.eventually("the new way of reading is reported") {
            await harness.runtime.sensorReport().driver == "iio-poll"
        }
        let report = await harness.runtime.sensorReport()
        #expect(report.state == .reading)
        #expect(report.message == polled.note)
    }

    @Test func anUnpluggedSensorLeavesTheGameRunningUntilItReturns() async throws {
        let harness = try await Self.harness()
        _ = try await harness.runtime.makeMove(.nextQuestion)
        try await Self.eventually("the sensor is on") { harness.source.isReading }

        harness.driver.plug(nil)
        harness.source.unplug()
        try await Self.eventually("the sensor is gone") { await harness.runtime.sensorReport().state == .gone }
        // The game goes on with manual hints.
        let status = try await harness.runtime.makeMove(.hint(source: .manual))
        #expect(status.hintsUsed == 1)

        // udev reports a device, but it cannot be opened yet: still gone.
        harness.returns.yield()
        for _ in 0..<100 { await Task.yield() }
        #expect(await harness.runtime.sensorReport().state == .gone)

        let replacement = ScriptedAccelerometerSource()
        harness.driver.plug(replacement)
        harness.returns.yield()
        try await Self.eventually("the sensor is read again") { replacement.isReading }
        try await Self.eventually("the sensor is reported back") {
            await harness.runtime.sensorReport().state == .reading
        }
    }

    @Test func withoutASensorTheDaemonSaysSoAndHintsStayManual() async throws {
        let database = try AppDatabase.inMemory()
        let runtime = GameRuntime(
            database: database, clock: RuntimeClock(ManualClock()), sound: RecordingSoundPlayer(),
            logger: Logger(label: "test"))
        let pipeline = SensorPipeline(
            spec: .auto, options: AccelerometerOptions(), table: AccelerometerDriverTable(drivers: []),
            runtime: runtime, sensitivity: .medium, logger: Logger(label: "test"),
            appearances: { AsyncStream { _ in } })
        await pipeline.start()
        let sensor = await runtime.sensorReport()
        #expect(sensor.state == .absent)
        #expect(sensor.message?.contains("hints are manual") == true)
        // `shaky sensor` shows the message: it points to the listing of what was found and why it was not used.
        #expect(
            sensor.message?.hasSuffix("`shakyd list-devices` lists the accelerometers found and why none was used")
                == true, "\(sensor.message ?? "")")
    }

    @Test("An input the configuration file set is named with the file's line in what shaky sensor shows, not --input")
    func anInputFromTheConfigurationFileIsNamedSo() async throws {
        let place = ConfigurationFilePlace(path: "/etc/shaky/shakyd.conf", line: 2)
        for (spec, expected) in [
            (
                InputSpec.auto,
                "no accelerometer: no accelerometer found for input auto, set in /etc/shaky/shakyd.conf:2"
            ),
            (nil, "no sensor (input none, set in /etc/shaky/shakyd.conf:2): hints are manual"),
        ] {
            let runtime = GameRuntime(
                database: try AppDatabase.inMemory(), clock: RuntimeClock(ManualClock()),
                sound: RecordingSoundPlayer(), logger: Logger(label: "test"))
            let pipeline = SensorPipeline(
                spec: spec, inputPlace: place, options: AccelerometerOptions(),
                table: AccelerometerDriverTable(drivers: []), runtime: runtime, sensitivity: .medium,
                logger: Logger(label: "test"), appearances: { AsyncStream { _ in } })
            await pipeline.start()
            let message = await runtime.sensorReport().message ?? ""
            #expect(message.hasPrefix(expected), "\(message)")
            #expect(!message.contains("--input auto") && !message.contains("--input none"), "\(message)")
        }
    }

    @Test func aSensorPluggedInAfterTheStartIsUsed() async throws {
        let runtime = GameRuntime(
            database: try AppDatabase.inMemory(), clock: RuntimeClock(ManualClock()), sound: RecordingSoundPlayer(),
            logger: Logger(label: "test"))
        let driver = ScriptedAccelerometerDriver(nil)
        let (appearances, appeared) = AsyncStream<String>.makeStream()
        let pipeline = SensorPipeline(
            spec: .auto, options: AccelerometerOptions(), table: AccelerometerDriverTable(drivers: [driver]),
            runtime: runtime, sensitivity: .medium, logger: Logger(label: "test"), appearances: { appearances })
        await pipeline.start()
        #expect(await runtime.sensorReport().state == .absent)

        appeared.yield("/dev/input/event3")  // something unrelated appeared: still nothing to read
        let source = ScriptedAccelerometerSource()
        driver.plug(source)
        appeared.yield("/dev/input/event4")
        try await Self.eventually("the new sensor is attached") { await runtime.sensorReport().state == .ready }
        #expect(await runtime.sensorReport().device == source.info.devicePath)
        await pipeline.stop()
    }

    @Test("A device plugged in that gives no accelerometer is logged with its node, and the wait goes on")
    func aPluggedDeviceThatGivesNoAccelerometerIsLogged() async throws {
        let runtime = GameRuntime(
            database: try AppDatabase.inMemory(), clock: RuntimeClock(ManualClock()), sound: RecordingSoundPlayer(),
            logger: Logger(label: "test"))
        let driver = ScriptedAccelerometerDriver(nil)
        let (appearances, appeared) = AsyncStream<String>.makeStream()
        let lines = DaemonLogHandlerTests.Lines()
        let logger = Logger(label: "shakyd") { DaemonLogHandler(label: $0, forJournal: true, write: lines.append) }
        let pipeline = SensorPipeline(
            spec: .evdev(path: "/dev/input/event7"), options: AccelerometerOptions(),
            table: AccelerometerDriverTable(drivers: [driver]), runtime: runtime, sensitivity: .medium, logger: logger,
            appearances: { appearances })
        await pipeline.start()
        let plugged = "<6>a device was plugged in, but it gives no accelerometer; still waiting for one"
        #expect(!lines.all.contains { $0.hasPrefix(plugged) })

        appeared.yield("/dev/input/event7")
        try await Self.eventually("the plug is logged") { lines.all.contains { $0.hasPrefix(plugged) } }
        let line = lines.all.first { $0.hasPrefix(plugged) } ?? ""
        #expect(line.contains(" device=/dev/input/event7 "), "\(line)")
        #expect(line.contains(" input=evdev:/dev/input/event7 "), "\(line)")
        #expect(await runtime.sensorReport().state == .absent)
        // A device that keeps coming back (a gamepad reconnecting) is tried each time, logged once a minute.
        let looked = driver.discoveryCount
        for _ in 0..<30 { appeared.yield("/dev/input/event7") }
        try await Self.eventually("every plug is tried") { driver.discoveryCount >= looked + 30 }
        #expect(lines.all.filter { $0.hasPrefix(plugged) }.count == 1)

        driver.plug(ScriptedAccelerometerSource())
        appeared.yield("/dev/input/event7")
        try await Self.eventually("the sensor is attached") { await runtime.sensorReport().state == .ready }
        #expect(lines.all.filter { $0.hasPrefix(plugged) }.count == 1)
        await pipeline.stop()
    }

    @Test("A sensor that is busy as a question opens is looked for again at the next question and calibration")
    func aBusySensorIsTriedAgainAtTheNextQuestion() async throws {
        let harness = try await Self.harness()
        // Another program holds the IIO buffer (single-open) as the question opens.
        let busy = DeviceError(device: "/dev/iio:device0", operation: "enable buffer", code: EBUSY)
        harness.source.refuseStarts(with: busy)
        _ = try await harness.runtime.makeMove(.nextQuestion)
        try await Self.eventually("the failure is reported") { await harness.runtime.sensorReport().state == .absent }
        let report = await harness.runtime.sensorReport()
        #expect(report.message?.contains("next question") == true, "\(String(describing: report.message))")
        // Nothing is plugged in (no udev event comes): the device was there all along.
        harness.source.refuseStarts(with: nil)
        _ = try await harness.runtime.makeMove(.skipQuestion)
        #expect(!harness.source.isReading)
        _ = try await harness.runtime.makeMove(.nextQuestion)
        try await Self.eventually("the sensor is read at the next question") { harness.source.isReading }
        try await Self.eventually("and reported read") { await harness.runtime.sensorReport().state == .reading }

        // The same between questions: a calibration finds the device again after a busy start.
        _ = try await harness.runtime.makeMove(.skipQuestion)
        try await Self.eventually("the sensor is off") { !harness.source.isReading }
        harness.source.refuseStarts(with: busy)
        await #expect(throws: SensorCalibrationError.self) {
            _ = try await harness.pipeline.calibrate(shakingSeconds: 3, stillSeconds: 2) { _ in }
        }
        #expect(await harness.runtime.sensorReport().state == .absent)
        harness.source.refuseStarts(with: nil)
        let calibration = Task {
            try await harness.pipeline.calibrate(shakingSeconds: 3, stillSeconds: 2) { _ in }
        }
        try await Self.eventually("the calibration reads the sensor") { harness.source.isReading }
        calibration.cancel()
        harness.source.stop()
        _ = try? await calibration.value
    }

    @Test("A sensor back before udev's watch began, or whose watch ended, is found at the next question")
    func aSensorWhoseWatchEndedIsFoundAtTheNextQuestion() async throws {
        let database = try AppDatabase.inMemory()
        try database.createPack(named: "Quiz")
        for answer in ["Pacific", "Giraffe"] {
            try database.addQuestion(Question(text: "?", answer: answer, difficulty: .easy), toPack: "Quiz")
        }
        let runtime = GameRuntime(
            database: database, clock: RuntimeClock(ManualClock()), sound: RecordingSoundPlayer(),
            logger: Logger(label: "test"))
        let driver = ScriptedAccelerometerDriver(nil)
        let watches = Mutex(0)
        // The udev monitor fails at once (its netlink socket closed): the watch ends with nothing seen.
        let pipeline = SensorPipeline(
            spec: .auto, options: AccelerometerOptions(), table: AccelerometerDriverTable(drivers: [driver]),
            runtime: runtime, sensitivity: .medium, logger: Logger(label: "test"),
            appearances: {
                watches.withLock { $0 += 1 }
                return AsyncStream { $0.finish() }
            })
        await runtime.setSensorDemandHandler(pipeline.demandHandler())
        await pipeline.start()
        #expect(await runtime.sensorReport().state == .absent)
        try await Self.eventually("the watch began") { watches.withLock { $0 } == 1 }

        let source = ScriptedAccelerometerSource()
        driver.plug(source)  // no udev event reaches the pipeline
        _ = try await runtime.newGame(NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 2, seed: 1))
        _ = try await runtime.makeMove(.nextQuestion)
        try await Self.eventually("the sensor is read") { source.isReading }
        // The pipeline reports the reading to the runtime just after it has switched the source on.
        try await Self.eventually("and reported read") { await runtime.sensorReport().state == .reading }
        await pipeline.stop()
    }

    @Test("A sensitivity change as the question closes leaves the sensor off between questions")
    func aSensitivityChangeAsTheQuestionClosesLeavesTheSensorOff() async throws {
        // The test is the runtime here: the runtime's own "no round open", applied late by the demand handler's
        // task, would switch the sensor off after the test switched it on.
        let harness = try await Self.harness(followingTheRuntime: false)
        for round in 0..<40 {
            await harness.pipeline.setWanted(true)
            #expect(harness.source.isReading)
            async let changed: Void = harness.pipeline.setSensitivity(round.isMultiple(of: 2) ? .hard : .medium)
            async let closed: Void = harness.pipeline.setWanted(false)
            _ = await (changed, closed)
            #expect(!harness.source.isReading, "round \(round)")
            #expect(await harness.runtime.sensorReport().state == .ready, "round \(round)")
        }
    }

    @Test("A trace without loop that ends is reported gone: logged, \"sensor gone\" to watchers, shown in the status")
    func anEndedTraceIsReportedGone() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("short.csv")
        let samples = (0..<20).map { String(format: "%.2f,0,0,9.81", Double($0) / 100) }
        try (["# rate: 100", "t,x,y,z"] + samples).joined(separator: "\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        let database = try AppDatabase.inMemory()
        try database.createPack(named: "Quiz")
        try database.addQuestion(Question(text: "Largest ocean?", answer: "Pacific", difficulty: .easy), toPack: "Quiz")
        let runtime = GameRuntime(
            database: database, clock: RuntimeClock(ManualClock()), sound: RecordingSoundPlayer(),
            logger: Logger(label: "test"))
        let events = Mutex<[RuntimeEvent]>([])
        await runtime.setEventObserver { event in events.withLock { $0.append(event) } }
        let logs = LogRecorder()
        let pipeline = SensorPipeline(
            spec: .trace(path: path, speed: .max, loop: false), options: AccelerometerOptions(),
            table: AccelerometerDriverTable(drivers: [TraceReplayDriver()]), runtime: runtime, sensitivity: .medium,
            logger: Logger(label: "test") { _ in logs })
        await runtime.setSensorDemandHandler(pipeline.demandHandler())
        await pipeline.start()
        #expect(await runtime.sensorReport().state == .ready)
        _ = try await runtime.newGame(NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 1, seed: 1))
        _ = try await runtime.makeMove(.nextQuestion)

        try await Self.eventually("the trace is reported gone") { await runtime.sensorReport().state == .gone }
        let report = await runtime.sensorReport()
        #expect(report.message?.contains("ended") == true, "\(String(describing: report.message))")
        #expect(report.device == path)
        #expect(events.withLock { $0 }.contains(.sensor(present: false, device: path)))
        #expect(logs.messages.withLock { $0 }.contains { $0.contains("input ended") })
        // Nothing brings a trace back: it stays gone.
        _ = try await runtime.makeMove(.hint(source: .manual))
        #expect(await runtime.sensorReport().state == .gone)
    }

    /// Samples of a 5 Hz shake of `amplitude` along y (across gravity), at 100 Hz from `start`.
    static func shaking(amplitude: Double, from start: Double, seconds: Double) -> [AccelSample] {
        (0..<Int(seconds * 100)).map { index in
            let t = Double(index) / 100
            let y = amplitude * sin(2 * Double.pi * 5 * t)
            return AccelSample(timestamp: start + t, x: 0, y: y, z: AccelSample.standardGravity)
        }
    }

    /// Runs a calibration of 4 s of shaking at `amplitude` and 3 s of holding still; returns its steps and result.
    static func calibrate(
        _ harness: Harness, amplitude: Double
    ) async throws -> ([SensorCalibrationStep], SensorCalibration) {
        let steps = Mutex<[SensorCalibrationStep]>([])
        let calibration = Task {
            try await harness.pipeline.calibrate(shakingSeconds: 4, stillSeconds: 3) { step in
                steps.withLock { $0.append(step) }
            }
        }
        try await eventually("the sensor is read for the calibration") { harness.source.isReading }
        // The source reads as soon as it starts; the calibration says its first step just after.
        try await eventually("the first step is said") { !steps.withLock { $0 }.isEmpty }
        #expect(steps.withLock { $0 } == [.shake])
        let still = (0..<500).map {
            AccelSample(timestamp: 4 + Double($0) / 100, x: 0, y: 0, z: AccelSample.standardGravity)
        }
        harness.source.feed(shaking(amplitude: amplitude, from: 0, seconds: 4) + still)
        let result = try await calibration.value
        return (steps.withLock { $0 }, result)
    }

    @Test func aCalibrationIsSavedForTheDeviceAndUsedByMedium() async throws {
        let harness = try await Self.harness()
        let g = AccelSample.standardGravity
        let (steps, calibration) = try await Self.calibrate(harness, amplitude: 8 * g)
        #expect(steps == [.shake, .holdStill])
        #expect(calibration.device == "scripted:scripted")
        // A violent player: both thresholds at their upper bounds.
        #expect(calibration.threshold == ShakeCalibration.thresholdBounds.upperBound)
        #expect(calibration.sustainedThreshold == ShakeCalibration.sustainedThresholdBounds.upperBound)
        #expect(try harness.database.sensorCalibration(device: "scripted:scripted") == calibration)
        #expect(!harness.source.isReading)

        // A gentle steady shake (±0.75 g) that the medium preset takes is too gentle for this device now.
        _ = try await harness.runtime.makeMove(.nextQuestion)
        try await Self.eventually("the sensor is on") { harness.source.isReading }
        harness.source.feed(Self.shaking(amplitude: 0.75 * g, from: 100, seconds: 2))
        for _ in 0..<1000 { await Task.yield() }
        #expect(await harness.runtime.sensorReport().shakes == 0)
        #expect(try await harness.runtime.status().hintsUsed == 0)
        harness.source.feed(shakeSamples(start: 103, duration: 1))
        try await Self.eventually("the firm shake shows a hint") { try await harness.runtime.status().hintsUsed == 1 }
    }

    @Test func aCalibrationSurvivesTheFallbackFromBufferedToPolledReading() async throws {
        let harness = try await Self.harness()
        let buffered = SourceInfo(driver: "iio-buffer", devicePath: "/dev/iio:device0", deviceName: "mpu6050")
        harness.source.changeInfo(buffered)
        let (_, calibration) = try await Self.calibrate(harness, amplitude: 8 * AccelSample.standardGravity)
        #expect(calibration.device == "iio:mpu6050")
        var polled = buffered
        polled.driver = "iio-poll"
        polled.note = "the buffer cannot be enabled"
        harness.source.changeInfo(polled)
        #expect(SensorPipeline.calibrationKey(of: polled) == SensorPipeline.calibrationKey(of: buffered))

        // Still calibrated for a violent player: the gentle steady shake is not taken, a firm one is.
        _ = try await harness.runtime.makeMove(.nextQuestion)
        try await Self.eventually("the sensor is on") { harness.source.isReading }
        harness.source.feed(Self.shaking(amplitude: 0.75 * AccelSample.standardGravity, from: 100, seconds: 2))
        for _ in 0..<1000 { await Task.yield() }
        #expect(await harness.runtime.sensorReport().shakes == 0)
        harness.source.feed(shakeSamples(start: 103, duration: 1))
        try await Self.eventually("the firm shake shows a hint") { try await harness.runtime.status().hintsUsed == 1 }
    }

    @Test func withoutACalibrationMediumTakesAGentleSteadyShake() async throws {
        let harness = try await Self.harness()
        _ = try await harness.runtime.makeMove(.nextQuestion)
        try await Self.eventually("the sensor is on") { harness.source.isReading }
        harness.source.feed(Self.shaking(amplitude: 0.75 * AccelSample.standardGravity, from: 100, seconds: 2))
        try await Self.eventually("the gentle shake shows a hint") {
            try await harness.runtime.status().hintsUsed == 1
        }
    }

    @Test func aStoredCalibrationOutOfBoundsLeavesMediumOnItsPreset() async throws {
        let harness = try await Self.harness()
        // A row no calibration could write (say, edited by hand): thresholds outside the safe bounds.
        try harness.database.saveSensorCalibration(
            SensorCalibration(
                device: "scripted:scripted", threshold: 90, sustainedThreshold: 90, strokePeak: 1, noise: 0))
        _ = try await harness.runtime.makeMove(.nextQuestion)
        try await Self.eventually("the sensor is on") { harness.source.isReading }
        harness.source.feed(Self.shaking(amplitude: 0.75 * AccelSample.standardGravity, from: 100, seconds: 2))
        try await Self.eventually("the gentle shake shows a hint") {
            try await harness.runtime.status().hintsUsed == 1
        }
    }

    @Test func aCalibrationIsRefusedWhileAQuestionIsOpen() async throws {
        let harness = try await Self.harness()
        _ = try await harness.runtime.makeMove(.nextQuestion)
        try await Self.eventually("the sensor is on") { harness.source.isReading }
        await #expect(throws: SensorCalibrationError.self) {
            try await harness.pipeline.calibrate(shakingSeconds: 4, stillSeconds: 3) { _ in }
        }
        await #expect(throws: SensorCalibrationError.self) {
            try await harness.pipeline.calibrate(shakingSeconds: .infinity, stillSeconds: 3) { _ in }
        }
        #expect(try harness.database.sensorCalibration(device: "scripted:scripted") == nil)
    }

    @Test("A calibration without a sensor is refused in words that say what to do")
    func aCalibrationWithoutASensorSaysWhatToDo() async throws {
        let harness = try await Self.harness()
        _ = try await harness.runtime.makeMove(.nextQuestion)
        try await Self.eventually("the sensor is on") { harness.source.isReading }
        await #expect(
            throws: SensorCalibrationError.unavailable(
                "a question is open, and the sensor is reading the players' shakes for hints: calibrate between "
                    + "questions (once this one is answered, skipped or out of time), or pause the game first "
                    + "(`shaky pause`)")
        ) {
            try await harness.pipeline.calibrate(shakingSeconds: 4, stillSeconds: 3) { _ in }
        }
        harness.driver.plug(nil)
        harness.source.unplug()
        try await Self.eventually("the sensor is gone") { await harness.runtime.sensorReport().state == .gone }
        await #expect(
            throws: SensorCalibrationError.unavailable(
                "the accelerometer /dev/scripted0 is gone (unplugged): plug it back in, then calibrate again")
        ) {
            try await harness.pipeline.calibrate(shakingSeconds: 4, stillSeconds: 3) { _ in }
        }

        let database = try AppDatabase.inMemory()
        let runtime = GameRuntime(
            database: database, clock: RuntimeClock(ManualClock()), sound: RecordingSoundPlayer(),
            logger: Logger(label: "test"))
        let driver = ScriptedAccelerometerDriver(nil)
        let nothingPlugged = SensorPipeline(
            spec: .auto, options: AccelerometerOptions(), table: AccelerometerDriverTable(drivers: [driver]),
            runtime: runtime, sensitivity: .medium, logger: Logger(label: "test"),
            calibrations: SensorCalibrations(database: database), returns: { _ in AsyncStream { _ in } },
            appearances: { AsyncStream { _ in } })
        await nothingPlugged.start()
        await #expect(
            throws: SensorCalibrationError.unavailable(
                "no accelerometer was found: plug one in, then calibrate again (`shaky sensor` says why none was "
                    + "found)")
        ) {
            try await nothingPlugged.calibrate(shakingSeconds: 4, stillSeconds: 3) { _ in }
        }
    }

    @Test func aCalibrationEndsWhenTheSensorSendsNothing() async throws {
        let harness = try await Self.harness()
        let calibration = Task {
            try await harness.pipeline.calibrate(shakingSeconds: 4, stillSeconds: 3) { _ in }
        }
        try await Self.eventually("the calibration waits for samples") {
            harness.source.isReading && harness.sensorClock.sleeperCount == 1
        }
        harness.sensorClock.advance(by: SensorPipeline.calibrationSilenceLimit)
        await #expect {
            _ = try await calibration.value
        } throws: { error in
            guard case .sensorSilent(let message) = error as? SensorCalibrationError else { return false }
            return message.contains("no samples for 5 s")
        }
        #expect(!harness.source.isReading)
        #expect(try harness.database.sensorCalibration(device: "scripted:scripted") == nil)
    }

    @Test func aCalibrationWaitsWhileSamplesArriveAndEndsWhenTheyStop() async throws {
        let harness = try await Self.harness()
        let steps = Mutex<[SensorCalibrationStep]>([])
        let calibration = Task {
            try await harness.pipeline.calibrate(shakingSeconds: 4, stillSeconds: 3) { step in
                steps.withLock { $0.append(step) }
            }
        }
        try await Self.eventually("the calibration waits for samples") {
            harness.source.isReading && harness.sensorClock.sleeperCount == 1
        }
        // The shaking and the first sample of the pause to stop arrive, then the sensor falls silent. That sample
        // is the last fed and the one that asks to hold still: once it is asked, every sample has been counted, so
        // none can reach the watchdog's second look as progress (a calibration still reading, and a test waiting).
        harness.source.feed(Self.shaking(amplitude: 2 * AccelSample.standardGravity, from: 0, seconds: 4))
        harness.source.feed([AccelSample(timestamp: 4.2, x: 0, y: 0, z: AccelSample.standardGravity)])
        try await Self.eventually("the samples are taken") { steps.withLock { $0 } == [.shake, .holdStill] }
        harness.sensorClock.advance(by: SensorPipeline.calibrationSilenceLimit)
        try await Self.eventually("the watchdog saw samples and waits again") {
            harness.sensorClock.sleeperCount == 1
        }
        #expect(harness.source.isReading)
        harness.sensorClock.advance(by: SensorPipeline.calibrationSilenceLimit)
        await #expect(throws: SensorCalibrationError.self) { _ = try await calibration.value }
        #expect(!harness.source.isReading)
        #expect(try harness.database.sensorCalibration(device: "scripted:scripted") == nil)
    }
}
