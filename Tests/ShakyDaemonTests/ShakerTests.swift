import Logging
import ShakyCore
import ShakyDaemon
import ShakyDrivers
import ShakyProtocol
import ShakyStore
import ShakyTesting
import Synchronization
import Testing
import TriviaEngine

/// Motion controllers shake for hints next to the board's own sensor, each with its own detector, and the hint
/// says which device gave it and whose team the controller is.
@Suite struct ShakerTests {
    static let controllerPath = "/dev/input/event30"
    static let controllerName = "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors"
    static let buttons = "pci-0000:01:00.0-usb-0:1.2:1.3"

    struct Harness {
        let runtime: GameRuntime
        let pipeline: SensorPipeline
        let board: ScriptedAccelerometerSource
        let controller: ScriptedAccelerometerSource
        let clock: ManualClock
        let database: AppDatabase
        let log: Log
    }

    /// What the observer and the discovery saw.
    final class Log: Sendable {
        /// Every shake hint the observer heard, with its device.
        let hints = Mutex<[Shaker]>([])
        /// The device nodes each discovery was told to leave out.
        let excluded = Mutex<[Set<String>]>([])
    }

    static func harness(
        logger: Logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
    ) async throws -> Harness {
        let database = try AppDatabase.inMemory()
        try database.createPack(named: "Quiz")
        for (text, answer) in [("Largest ocean?", "Pacific"), ("Tallest animal?", "Giraffe")] {
            try database.addQuestion(Question(text: text, answer: answer, difficulty: .easy), toPack: "Quiz")
        }
        let clock = ManualClock()
        let runtime = GameRuntime(
            database: database, clock: RuntimeClock(clock), sound: RecordingSoundPlayer(), logger: logger)
        let log = Log()
        await runtime.setEventObserver { event in
            if case .shakeHint(_, let shaker) = event { log.hints.withLock { $0.append(shaker) } }
        }
        let board = ScriptedAccelerometerSource(
            info: SourceInfo(driver: "scripted", devicePath: "/dev/iio:device0", deviceName: "mpu6050"))
        let controller = ScriptedAccelerometerSource(
            info: SourceInfo(driver: "evdev", devicePath: controllerPath, deviceName: controllerName))
        let pipeline = SensorPipeline(
            spec: .auto, options: AccelerometerOptions(),
            table: AccelerometerDriverTable(drivers: [ScriptedAccelerometerDriver(board)]), runtime: runtime,
            sensitivity: .medium, logger: logger,
            controllers: { leftOut in
                log.excluded.withLock { $0.append(leftOut) }
                let device = DiscoveredDevice(
                    driver: "evdev", devicePath: controllerPath, deviceName: controllerName, info: controller.info
                ) { controller }
                return [MotionController(device: device, buttonsIdentity: buttons)]
            })
        await runtime.setSensorDemandHandler(pipeline.demandHandler())
        await pipeline.start()
        _ = try await runtime.newGame(NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 2, seed: 1))
        return Harness(
            runtime: runtime, pipeline: pipeline, board: board, controller: controller, clock: clock,
            database: database, log: log)
    }

    static func still(from start: Double) -> [AccelSample] {
        (0..<50).map { AccelSample(timestamp: start + Double($0) / 100, x: 0, y: 0, z: AccelSample.standardGravity) }
    }

    @Test func aShakeOfEitherDeviceIsAHintThatSaysWhichAndWhoseTeam() async throws {
        let harness = try await Self.harness()
        try harness.database.assignBuzzer(
            BuzzerAssignment(device: Self.buttons, keyCode: 0x130, keyName: "BTN_SOUTH", team: "Foxes"))
        _ = try await harness.runtime.makeMove(.nextQuestion)
        try await SensorPipelineTests.eventually("both devices are read") {
            harness.board.isReading && harness.controller.isReading
        }
        #expect(
            harness.log.excluded.withLock { $0 } == [["/dev/iio:device0"]], "the board's sensor is not a controller")

        // The controller is shaken; the board's sensor lies still.
        harness.board.feed(Self.still(from: 0))
        harness.controller.feed(Self.still(from: 0) + shakeSamples(start: 0.5, duration: 1))
        try await SensorPipelineTests.eventually("a hint") { try await harness.runtime.status().hintsUsed == 1 }
        // After the hint cooldown, the board's sensor is shaken.
        harness.clock.advance(by: .seconds(2))
        harness.board.feed(shakeSamples(start: 0.5, duration: 1))
        try await SensorPipelineTests.eventually("a second hint") {
            try await harness.runtime.status().hintsUsed == 2
        }
        let hints = harness.log.hints.withLock { $0 }
        #expect(
            hints == [
                Shaker(
                    kind: .controller, device: Self.controllerPath, name: Self.controllerName, buttons: Self.buttons,
                    team: "Foxes"),
                Shaker(kind: .board, device: "/dev/iio:device0", name: "mpu6050"),
            ])
        #expect(await harness.pipeline.controllerPaths == [Self.controllerPath])
        try await SensorPipelineTests.eventually("Sensor.Status names the controller") {
            await harness.runtime.sensorReport().controllers == [Self.controllerPath]
        }
    }

    @Test func aControllerIsReadOnlyWhileARoundIsOpenAndLookedForAgainAtTheNext() async throws {
        let recorder = LogRecorder()
        let harness = try await Self.harness(logger: recorder.logger())
        #expect(!harness.controller.isReading)
        _ = try await harness.runtime.makeMove(.nextQuestion)
        try await SensorPipelineTests.eventually("the controller is read") { harness.controller.isReading }
        _ = try await harness.runtime.makeMove(.skipQuestion)
        try await SensorPipelineTests.eventually("the controller is off between rounds") {
            !harness.controller.isReading
        }
        #expect(await harness.pipeline.controllerPaths.isEmpty)
        try await SensorPipelineTests.eventually("Sensor.Status names no controller") {
            await harness.runtime.sensorReport().controllers.isEmpty
        }
        // Unplugged during the next round: the game goes on, and the round after looks for it again.
        _ = try await harness.runtime.makeMove(.nextQuestion)
        try await SensorPipelineTests.eventually("the controller is read again") { harness.controller.isReading }
        harness.controller.unplug()
        try await SensorPipelineTests.eventually("the unplugged controller is dropped") {
            await harness.pipeline.controllerPaths.isEmpty
        }
        #expect(harness.board.isReading, "the board's sensor goes on")
        #expect(harness.log.excluded.withLock { $0.count } == 2)
        // Read at each question, said once a minute.
        #expect(recorder.count(startingWith: "reading a motion controller") == 1)
    }

    @Test func aControllerWhoseButtonsNoTeamOrSeveralTeamsHaveGivesAHintOfNobodysTeam() async throws {
        let harness = try await Self.harness()
        try harness.database.assignBuzzer(
            BuzzerAssignment(device: Self.buttons, keyCode: 0x130, keyName: "BTN_SOUTH", team: "Foxes"))
        try harness.database.assignBuzzer(
            BuzzerAssignment(device: Self.buttons, keyCode: 0x131, keyName: "BTN_EAST", team: "Owls"))
        _ = try await harness.runtime.makeMove(.nextQuestion)
        try await SensorPipelineTests.eventually("the controller is read") { harness.controller.isReading }
        harness.controller.feed(Self.still(from: 0) + shakeSamples(start: 0.5, duration: 1))
        try await SensorPipelineTests.eventually("a hint") { try await harness.runtime.status().hintsUsed == 1 }
        #expect(harness.log.hints.withLock { $0.map(\.team) } == [nil], "shared by two teams: nobody's")
        #expect(harness.log.hints.withLock { $0.map(\.kind) } == [.controller])
    }
}
