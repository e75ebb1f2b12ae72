import Logging
import ShakeDetection
import ShakyCore
import ShakyDrivers
import ShakyStore
import Varlink

/// The accelerometer side of the daemon: opens the sensor, reads it only while a round is open, turns shakes
/// into hints on the runtime, and survives the sensor being unplugged (waiting for udev to bring it back).
///
/// Next to the board's own sensor, motion controllers (a DualSense's or DualShock 4's motion sensors, a Joy-Con's
/// IMU) can shake for hints too, each with a detector of its own: they are looked for each time a round opens (so
/// one plugged in or paired between questions joins at the next), read while it is open, and dropped when it
/// closes or when one goes away. A shake from any of them is a hint, and the hint says which device gave it.
public actor SensorPipeline {
    /// A motion controller being read while a round is open.
    private struct ControllerReading {
        var source: any AccelerometerSource
        var task: Task<Void, Never>
        /// Tells this reading from a later one of the same controller (its task may end after that one began).
        var generation: Int
    }

    private let spec: InputSpec?
    /// Where the configuration file set the input; `nil` when `--input` or the default did.
    private let inputPlace: ConfigurationFilePlace?
    private let options: AccelerometerOptions
    private let table: AccelerometerDriverTable
    private let runtime: GameRuntime
    private let logger: Logger
    private var sensitivity: ShakeSensitivity
    private var source: (any AccelerometerSource)?
    private var readingTask: Task<Void, Never>?
    private var readingGeneration = 0
    private var hotplugTask: Task<Void, Never>?
    /// Tells the running hotplug watch from a later one (its task may end after that one began).
    private var hotplugGeneration = 0
    /// What repeats (a sensor coming and going, the controllers read again at each question) is logged at most once a
    /// minute.
    private var logThrottle = LogThrottle()
    private let returns: @Sendable (SourceInfo) throws -> AsyncStream<Void>
    private let appearances: @Sendable () throws -> AsyncStream<String>
    private var wanted = false
    private var state: SensorReport.State = .absent
    private var message: String?
    private var reportedInfo: SourceInfo?
    private let calibrations: SensorCalibrations?
    private let clock: any Clock<Duration>
    private var calibrating = false
    /// Samples the running calibration has received, which its watchdog checks for progress.
    private var calibrationSamples = 0
    /// Whether the watchdog ended the running calibration because the sensor went silent.
    private var calibrationWentSilent = false
    /// Finds the motion controllers to read next to the board's sensor (not the paths given); `nil`: none.
    private let controllers: (@Sendable (Set<String>) -> [MotionController])?
    /// The motion controllers being read, by device node.
    private var controllerReadings: [String: ControllerReading] = [:]
    private var controllerGeneration = 0

    /// Creates the pipeline; `spec` `nil` means no sensor (`--input none`). `returns` reports when an unplugged
    /// sensor may be back, `appearances` the node of each device that appears while there is none (udev hotplug by
    /// default); the pipeline then opens `spec` again through `table`. `clock` times a calibration's wait for samples
    /// (``calibrationSilenceLimit``). `controllers` finds the motion controllers that shake next to the sensor
    /// (``MotionControllerDiscovery/discover(excluding:)``); `nil` reads only the board's sensor.
    public init(
        spec: InputSpec?, inputPlace: ConfigurationFilePlace? = nil, options: AccelerometerOptions,
        table: AccelerometerDriverTable = .standard,
        runtime: GameRuntime, sensitivity: ShakeSensitivity, logger: Logger, calibrations: SensorCalibrations? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        controllers: (@Sendable (Set<String>) -> [MotionController])? = nil,
        returns: @escaping @Sendable (SourceInfo) throws -> AsyncStream<Void> = SensorPipeline.udevReturns(of:),
        appearances: @escaping @Sendable () throws -> AsyncStream<String> = SensorPipeline.udevAppearances
    ) {
        self.returns = returns
        self.appearances = appearances
        self.controllers = controllers
        self.calibrations = calibrations
        self.clock = clock
        self.spec = spec
        self.inputPlace = inputPlace
        self.options = options
        self.table = table
        self.runtime = runtime
        self.sensitivity = sensitivity
        self.logger = logger
    }

    /// Finds the sensor. Without one the daemon goes on with manual hints (and motion controllers), and says so once.
    public func start() async {
        guard let spec else {
            message = "no sensor (\(inputName("none"))): hints are manual"
            logger.notice("\(message!)")
            await report()
            if wanted { await startControllers() }
            return
        }
        do {
            let opened = try table.open(spec, options: options)
            source = opened
            state = .ready
            message = nil
            logger.info("accelerometer found", metadata: ["device": "\(opened.info)"])
        } catch {
            state = .absent
            let why = (error as? AccelerometerDriverError)?.description(naming: inputName("\(spec)")) ?? "\(error)"
            // `shaky sensor` shows this: the listing says what each driver saw and why it was not used.
            message =
                "no accelerometer: \(why); hints are manual. `shakyd list-devices` lists the accelerometers "
                + "found and why none was used"
            logger.notice("no accelerometer found; the game goes on with manual hints", metadata: ["why": "\(why)"])
            watchForNewDevices()
        }
        await report()
        if wanted {
            await startReading()
            await startControllers()
        }
    }

    /// The input as the host gave it: `--input X`, or `input X` with the configuration file's line that set it.
    private func inputName(_ text: String) -> String {
        ConfigurationFilePlace.inputName(text, setIn: inputPlace)
    }

    /// Reads the sensor (and the motion controllers) when `wanted` (a round is open) and stops reading otherwise.
    public func setWanted(_ wanted: Bool) async {
        self.wanted = wanted
        if wanted {
            await startReading()
            await startControllers()
        } else {
            await stopReading()
            await stopControllers()
        }
    }

    /// A handler for ``GameRuntime/setSensorDemandHandler(_:)``: demands are applied one at a time, in order, and
    /// only the latest counts when several arrive at once.
    public nonisolated func demandHandler() -> @Sendable (Bool) -> Void {
        let (demands, continuation) = AsyncStream<Bool>.makeStream(bufferingPolicy: .bufferingNewest(1))
        Task { [weak self] in
            for await wanted in demands {
                guard let self else { return }
                await self.setWanted(wanted)
            }
        }
        return { wanted in continuation.yield(wanted) }
    }

    /// Switches the detector to another preset (from the next round on).
    public func setSensitivity(_ sensitivity: ShakeSensitivity) async {
        self.sensitivity = sensitivity
        if readingTask != nil {
            await stopReading()
            await startReading()
        }
        if !controllerReadings.isEmpty {
            await stopControllers()
            await startControllers()
        }
        await report()
    }

    /// Stops reading and watching.
    public func stop() async {
        await stopReading()
        await stopControllers()
        hotplugTask?.cancel()
        hotplugTask = nil
    }

    /// The motion controllers being read now, by device node.
    public var controllerPaths: [String] { controllerReadings.keys.sorted() }

    /// Looks for the motion controllers (not the board's sensor) and reads each with a detector of its own.
    private func startControllers() async {
        guard wanted, let controllers, controllerReadings.isEmpty else { return }
        let board: Set<String> = source.map { [$0.info.devicePath] } ?? []
        for controller in controllers(board) {
            let path = controller.device.devicePath
            let shaker = Shaker(
                kind: .controller, device: path, name: controller.device.deviceName,
                buttons: controller.buttonsIdentity)
            do {
                let opened = try controller.device.makeSource()
                let stream = try opened.start(keeping: detecting(settings: detectorSettings(for: opened.info)))
                let runtime = runtime
                controllerGeneration += 1
                let generation = controllerGeneration
                let task = Task(executorPreference: runtime.inboxTaskExecutor) { [weak self] in
                    var failure: (any Error)?
                    do {
                        for try await _ in stream { await runtime.shake(from: shaker) }
                    } catch {
                        failure = error
                    }
                    await self?.controllerEnded(path, generation, failure)
                }
                controllerReadings[path] = ControllerReading(source: opened, task: task, generation: generation)
                // Controllers are read again at each question, resume and sensitivity change: said once a minute.
                logThrottle.log(
                    .info, "reading a motion controller as a shaker", key: "controller \(path)",
                    metadata: ["device": "\(path)", "name": "\(shaker.name)", "buttons": "\(shaker.buttons ?? "-")"],
                    to: logger)
            } catch {
                logThrottle.log(
                    .notice, "cannot read a motion controller; it gives no hints", key: "controller failed \(path)",
                    metadata: ["device": "\(path)", "error": "\(error)"], to: logger)
            }
        }
        if !controllerReadings.isEmpty { await report() }
    }

    /// Stops reading every motion controller (the round closed).
    private func stopControllers() async {
        guard !controllerReadings.isEmpty else { return }
        for (_, reading) in controllerReadings {
            reading.task.cancel()
            reading.source.stop()
        }
        controllerReadings.removeAll()
        await report()
    }

    /// A motion controller's stream ended by itself: it went away (or failed). It is dropped; the next round looks
    /// for it again.
    private func controllerEnded(_ path: String, _ generation: Int, _ error: (any Error)?) async {
        // A reading that ``stopControllers()`` already ended (and perhaps replaced) says nothing.
        guard controllerReadings[path]?.generation == generation,
            let reading = controllerReadings.removeValue(forKey: path)
        else { return }
        reading.source.stop()
        logger.notice(
            "a motion controller stopped giving shakes; it is looked for again at the next question",
            metadata: ["device": "\(path)", "why": "\(error.map { "\($0)" } ?? "its input ended")"])
        await report()
    }

    /// A shake detector for one device's samples, with `settings` (the preset when they are invalid).
    private func detecting(settings: ShakeDetectorTuning) -> @Sendable () -> SampleFilter {
        let sensitivity = sensitivity
        let logger = logger
        return {
            let detector: ShakeDetector
            do {
                detector = try ShakeDetector(settings: settings)
            } catch {
                logger.error(
                    "the detector's settings are invalid; using the preset",
                    metadata: ["sensitivity": "\(sensitivity.rawValue)", "error": "\(error)"])
                detector = ShakeDetector(sensitivity: sensitivity)
            }
            return detector.sampleFilter()
        }
    }

    private func startReading() async {
        guard wanted, readingTask == nil, !calibrating else { return }
        await lookAgainIfMissing()
        // Checked again: the look may have waited, and the round closed or another start began meanwhile.
        guard wanted, readingTask == nil, !calibrating, let source, state == .ready else { return }
        let settings = detectorSettings(for: source.info)
        let shaker = Shaker(kind: .board, device: source.info.devicePath, name: source.info.deviceName)
        // The detector runs where the samples are read; only the sample completing a shake reaches this task.
        let stream: AsyncThrowingStream<AccelSample, any Error>
        // The stream carries shakes only, so a source that changes how it reads (a buffer that never delivered,
        // now polled) says so here; the status is refreshed then.
        source.onInfoChange { [weak self] in
            Task { await self?.sourceInfoMayHaveChanged() }
        }
        do {
            stream = try source.start(keeping: detecting(settings: settings))
        } catch {
            sensorFailed(error)
            await report()
            return
        }
        state = .reading
        readingGeneration += 1
        let generation = readingGeneration
        let runtime = runtime
        // On the runtime's inbox thread: a shake wakes that thread only, not the event loop first.
        readingTask = Task(executorPreference: runtime.inboxTaskExecutor) { [weak self] in
            do {
                for try await _ in stream { await runtime.shake(from: shaker) }
                await self?.readingEnded(generation, nil)
            } catch {
                await self?.readingEnded(generation, error)
            }
        }
        await report()
    }

    /// Reports the source again when its description changed while reading started (a fallback to polling),
    /// and logs why, once.
    private func sourceInfoMayHaveChanged() async {
        guard let info = source?.info, info != reportedInfo else { return }
        if let note = info.note, note != reportedInfo?.note {
            logger.warning("the accelerometer is read another way", metadata: ["device": "\(info)", "why": "\(note)"])
        }
        await report()
    }

    /// The preset, or for `medium` the device's calibration when it has one (the presets stay otherwise).
    private func detectorSettings(for info: SourceInfo) -> ShakeDetectorTuning {
        let preset = ShakeDetectorTuning(sensitivity: sensitivity)
        guard sensitivity == .medium, let calibrations else { return preset }
        do {
            guard let saved = try calibrations.load(Self.calibrationKey(of: info)) else { return preset }
            return preset.calibrated(by: saved.result)
        } catch {
            logger.error("cannot read the sensor's calibration; using the preset", metadata: ["error": "\(error)"])
            return preset
        }
    }

    /// Seconds of shaking a calibration may ask for.
    public static let shakingSecondsRange = 3.0...60
    /// Seconds of holding still a calibration may ask for.
    public static let stillSecondsRange = 2.0...60
    /// How long a calibration waits for the sensor's next sample before it gives up.
    public static let calibrationSilenceLimit = Duration.seconds(5)

    /// Why a calibration on a replayed trace gave no result, in the trace's terms: the advice for a device ("shake
    /// the device … harder") cannot be followed when the samples come from a file.
    static func traceCalibrationProblem(
        _ error: ShakeCalibrationError, shakingSeconds: Double, stillSeconds: Double
    ) -> String {
        guard case .tooGentle(let peak, let noise) = error else { return "\(error)" }
        let shaking = Int(shakingSeconds)
        let still = Int(stillSeconds)
        return "the trace's shaking stretch (peaks of \(Self.tenths(peak)) m/s²) cannot be told from its still one "
            + "(noise \(Self.tenths(noise)) m/s²): the daemon replays a recorded trace and takes its next \(shaking) s "
            + "as the shaking and, a second later, \(still) s as holding still; replay a trace shaken that long and "
            + "then still (the demo is shaken for a second every 6 s, so it is seldom still that long), or calibrate "
            + "the sensor itself"
    }

    private static func tenths(_ value: Double) -> String {
        value.isFinite ? "\((value * 10).rounded() / 10)" : "\(value)"
    }

    /// The key a device's calibration is kept under: the interface it is read through and the device's own name
    /// (`iio:mpu6050`, `evdev:Nintendo Wii Remote Accelerometer`), which survive re-plugging and a change of reading
    /// mode: an IIO device read through its buffer (`iio-buffer`) or, after a fallback, by polling (`iio-poll`) is
    /// the same device with the same calibration.
    public static func calibrationKey(of info: SourceInfo) -> String {
        "\(deviceInterface(ofDriver: info.driver)):\(info.deviceName)"
    }

    /// The interface a driver reads devices through, without its reading mode: `iio` for `iio-buffer` and
    /// `iio-poll`, the driver's name itself otherwise.
    public static func deviceInterface(ofDriver driver: String) -> String {
        switch driver {
        case "iio-buffer", "iio-poll": "iio"
        default: driver
        }
    }

    /// Teaches the detector this device's shake: reads the sensor for `shakingSeconds` while the player shakes
    /// it, then, after a second to stop, for `stillSeconds` while they hold it still, and saves the thresholds
    /// found for `medium` (within safe bounds) for this device. `step` hears each step as it begins. Durations are
    /// measured on the samples' own timestamps. A sensor that sends nothing for ``calibrationSilenceLimit`` (by
    /// the pipeline's clock) ends the calibration with ``SensorCalibrationError/sensorSilent(_:)``.
    ///
    /// Refused while a round is open (the sensor then serves the game) or another calibration runs.
    public func calibrate(
        shakingSeconds: Double, stillSeconds: Double, step: @escaping @Sendable (SensorCalibrationStep) -> Void
    ) async throws(SensorCalibrationError) -> SensorCalibration {
        guard let calibrations else { throw .unavailable("this daemon keeps no calibrations") }
        guard Self.shakingSecondsRange.contains(shakingSeconds), Self.stillSecondsRange.contains(stillSeconds) else {
            throw .invalidDuration(
                "shake for \(Self.shakingSecondsRange.lowerBound)–\(Self.shakingSecondsRange.upperBound) s and hold "
                    + "still for \(Self.stillSecondsRange.lowerBound)–\(Self.stillSecondsRange.upperBound) s")
        }
        if readingTask == nil, !calibrating { await lookAgainIfMissing() }
        guard let source, state == .ready || state == .reading else { throw .unavailable(nothingToCalibrate) }
        guard !calibrating else {
            throw .unavailable("another calibration is running: wait for it to end, then calibrate again")
        }
        guard readingTask == nil else {
            throw .unavailable(
                "a question is open, and the sensor is reading the players' shakes for hints: calibrate between "
                    + "questions (once this one is answered, skipped or out of time), or pause the game first "
                    + "(`shaky pause`)")
        }
        calibrating = true
        defer { calibrating = false }
        let stream: AsyncThrowingStream<AccelSample, any Error>
        do {
            stream = try source.start()
        } catch {
            sensorFailed(error)
            await report()
            throw .unavailable("the accelerometer cannot be read: \(error)")
        }
        logger.info("calibrating the accelerometer", metadata: ["device": "\(source.info)"])
        calibrationSamples = 0
        calibrationWentSilent = false
        let watchdog = watchForSilence()
        defer { watchdog.cancel() }
        var calibration = ShakeCalibration()
        var phases = SensorCalibrationPhases(shakingSeconds: shakingSeconds, stillSeconds: stillSeconds)
        step(.shake)
        do {
            for try await sample in stream {
                calibrationSamples += 1
                switch phases.phase(of: sample.timestamp) {
                case .shaking: calibration.addShaking(sample)
                case .stopping: break
                case .holdingStill: calibration.addHoldingStill(sample)
                case .done: break
                }
                if phases.enteredStopping { step(.holdStill) }
                if phases.isDone { break }
            }
        } catch {
            source.stop()
            sensorFailed(error)
            await report()
            throw .unavailable("the accelerometer failed during the calibration: \(error)")
        }
        source.stop()
        defer { Task { await self.resumeAfterCalibration() } }
        if calibrationWentSilent {
            logger.warning(
                "the accelerometer went silent during the calibration", metadata: ["device": "\(source.info)"])
            throw .sensorSilent(
                "the accelerometer sent no samples for \(Self.calibrationSilenceLimit.components.seconds) s: "
                    + "check that it is connected and calibrate again")
        }
        guard phases.isDone else { throw .unavailable("the calibration was interrupted") }
        let result: ShakeCalibrationResult
        do {
            result = try calibration.result()
        } catch {
            throw .failed(
                source.info.driver == "trace"
                    ? Self.traceCalibrationProblem(error, shakingSeconds: shakingSeconds, stillSeconds: stillSeconds)
                    : "\(error)")
        }
        let saved = SensorCalibration(
            device: Self.calibrationKey(of: source.info), threshold: result.threshold,
            sustainedThreshold: result.sustainedThreshold, strokePeak: result.strokePeak, noise: result.noise)
        do {
            // On the blocking pool: the save waits for the disk to sync, and this actor runs on the event loop.
            try await BlockingWork.run { try calibrations.save(saved) }
        } catch {
            throw .failed("the calibration cannot be saved: \(error)")
        }
        logger.notice(
            "the accelerometer is calibrated",
            metadata: [
                "device": "\(saved.device)", "threshold": "\(saved.threshold)",
                "sustainedThreshold": "\(saved.sustainedThreshold)",
            ])
        return saved
    }

    /// Why there is no sensor to calibrate, and what to do about it.
    private var nothingToCalibrate: String {
        switch spec {
        case nil:
            return "there is no accelerometer to calibrate: the daemon was started with --input none (or `input: none` "
                + "in its configuration file); start it with --input auto to read one"
        case .trace(let path, _, _)?:
            return "the recorded trace \(path) has ended, so there is nothing left to calibrate on: restart the daemon "
                + "to replay it (with --input trace:FILE,loop it replays without end)"
        case _? where state == .gone:
            return "\(message ?? "the accelerometer is gone"): plug it back in, then calibrate again"
        case _?:
            return "no accelerometer was found: plug one in, then calibrate again (`shaky sensor` says why none "
                + "was found)"
        }
    }

    /// Checks, every ``calibrationSilenceLimit``, that the running calibration received a sample since the last
    /// check; stops the source when it did not, which ends the calibration's stream.
    private func watchForSilence() -> Task<Void, Never> {
        let clock = clock
        return Task { [weak self] in
            var seen = 0
            while true {
                do {
                    try await Self.sleep(for: Self.calibrationSilenceLimit, on: clock)
                } catch {
                    return
                }
                guard let self, let received = await self.calibrationProgress(since: seen) else { return }
                seen = received
            }
        }
    }

    /// The samples received so far, or `nil` (after stopping the source) when none came since `seen`.
    private func calibrationProgress(since seen: Int) -> Int? {
        guard calibrating else { return nil }
        guard calibrationSamples == seen else { return calibrationSamples }
        calibrationWentSilent = true
        source?.stop()
        return nil
    }

    private static func sleep<C: Clock<Duration>>(for duration: Duration, on clock: C) async throws {
        try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
    }

    /// A round that opened during the calibration starts reading now.
    private func resumeAfterCalibration() async {
        if wanted { await startReading() }
    }

    private func stopReading() async {
        guard let task = readingTask else { return }
        readingTask = nil
        task.cancel()
        source?.stop()
        if state == .reading { state = .ready }
        await report()
    }

    /// The reading task of `generation` ended by itself (an error, or the end of a trace); a task that
    /// ``stopReading()`` already replaced says nothing.
    private func readingEnded(_ generation: Int, _ error: (any Error)?) async {
        guard generation == readingGeneration, readingTask != nil else { return }
        readingTask = nil
        if let error, !(error is CancellationError) {
            sensorFailed(error)
        } else if error == nil {
            inputEnded()
        } else if state == .reading {
            state = .ready
        }
        await report()
    }

    /// The input ran out of samples without being stopped: a trace without `loop` at its end. It is gone for
    /// good (nothing brings it back), so watchers hear "sensor gone" and hints stay manual.
    private func inputEnded() {
        guard let source else { return }
        source.stop()
        state = .gone
        message = "the input \(source.info.devicePath) ended (a trace replays once without loop); hints are manual"
        logger.notice(
            "the accelerometer input ended; the game goes on with manual hints",
            metadata: ["device": "\(source.info.devicePath)"])
    }

    private func sensorFailed(_ error: any Error) {
        guard let source else { return }
        source.stop()
        if error is AccelerometerGoneError {
            state = .gone
            message = "\(error)"
            // A sensor that keeps coming and going (a loose cable) is logged once a minute.
            logThrottle.log(
                .warning, "the accelerometer is gone; the game goes on with manual hints",
                metadata: ["device": "\(source.info)"], to: logger)
            watchForReturn(of: source.info)
        } else {
            // Busy (another program holds an IIO buffer, which is single-open), renumbered, out of descriptors: the
            // device may well be there. It is looked for again at the next question and calibration, and on a plug.
            state = .absent
            message = "\(error); looked for again at the next question"
            self.source = nil
            logThrottle.log(
                .error, "the accelerometer failed; the game goes on with manual hints until the next question",
                metadata: ["error": "\(error)"], to: logger)
            watchForNewDevices()
        }
    }

    /// With no sensor to read (none found, one that failed, or one gone), looks for it again through the driver
    /// table: a device that was busy, renumbered on a re-plug, or back before udev's watch began is found here, and
    /// a watch that ended (its monitor failed) is started again. Called as a question opens and before a
    /// calibration, so a sensor lost by a passing error comes back at the next question at the latest.
    private func lookAgainIfMissing() async {
        guard let spec, spec.isLive, state == .absent || state == .gone else { return }
        do {
            let opened = try table.open(spec, options: options)
            await reattached(opened, startingToRead: false)
        } catch {
            // Still missing: the udev watch goes on (or starts again, if it ended).
            if state == .gone, let source {
                watchForReturn(of: source.info)
            } else {
                watchForNewDevices()
            }
        }
    }

    /// Starts a hotplug watch running `body`; it forgets itself when it ends, so a later failure can watch again.
    private func startHotplugWatch(_ body: @escaping @Sendable () async -> Void) {
        hotplugGeneration += 1
        let generation = hotplugGeneration
        hotplugTask = Task { [weak self] in
            await body()
            await self?.hotplugWatchEnded(generation)
        }
    }

    private func hotplugWatchEnded(_ generation: Int) {
        if generation == hotplugGeneration { hotplugTask = nil }
    }

    /// While there is no sensor, tries `spec` again each time udev reports a new device (one plugged in after
    /// the daemon started); a device that gives no accelerometer is logged, so the host sees the plug was noticed.
    private func watchForNewDevices() {
        guard hotplugTask == nil, let spec, spec.isLive else { return }
        let appearances = appearances
        startHotplugWatch { [weak self, table, options, logger] in
            // Any device plugged in is tried (a keyboard, a gamepad that keeps reconnecting): logged once a minute.
            var logThrottle = LogThrottle()
            do {
                for try await device in try appearances() {
                    do {
                        let opened = try table.open(spec, options: options)
                        await self?.reattached(opened)
                        return
                    } catch {
                        logThrottle.log(
                            .info, "a device was plugged in, but it gives no accelerometer; still waiting for one",
                            metadata: ["device": "\(device)", "input": "\(spec)", "why": "\(error)"], to: logger)
                    }
                }
            } catch {
                logger.error("cannot watch for a new accelerometer", metadata: ["error": "\(error)"])
            }
        }
    }

    /// The node of each new IIO device or input event node udev reports.
    public static func udevAppearances() throws -> AsyncStream<String> {
        let monitor = try UdevHotplugMonitor(waitingForAnyDevice: ())
        // Only the newest is kept while one is tried: a burst of devices (one flapping) makes one more try, not one
        // each.
        return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let forward = Task {
                for await event in monitor.events {
                    if case .appeared(let device) = event { continuation.yield(device) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                forward.cancel()
                monitor.stop()
            }
        }
    }

    private func watchForReturn(of info: SourceInfo) {
        guard hotplugTask == nil, let spec else { return }
        let returns = returns
        startHotplugWatch { [weak self, table, options, logger] in
            var logThrottle = LogThrottle()
            do {
                for try await _ in try returns(info) {
                    do {
                        let reopened = try table.open(spec, options: options)
                        await self?.reattached(reopened)
                        return
                    } catch {
                        logThrottle.log(
                            .info,
                            "a device was plugged in, but the accelerometer does not open yet; still waiting for it",
                            metadata: ["device": "\(info.devicePath)", "why": "\(error)"], to: logger)
                    }
                }
            } catch {
                logger.error("cannot watch for the accelerometer's return", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Each time udev reports a device matching `info` again (the real way the sensor comes back), or any new
    /// device (another sensor plugged in instead).
    public static func udevReturns(of info: SourceInfo) throws -> AsyncStream<Void> {
        let monitor = try UdevHotplugMonitor(watching: info, reportsNewDevices: true)
        monitor.markGone()
        return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let forward = Task {
                for await event in monitor.events {
                    switch event {
                    case .back, .appeared: continuation.yield()
                    case .gone: break
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                forward.cancel()
                monitor.stop()
            }
        }
    }

    /// `reopened` replaces the sensor that was missing; the hotplug watch, if any, ends. Reading starts when a round
    /// is open, unless the caller is about to start it (`startingToRead: false`).
    private func reattached(_ reopened: any AccelerometerSource, startingToRead: Bool = true) async {
        hotplugTask?.cancel()
        hotplugTask = nil
        hotplugGeneration += 1
        let first = state == .absent
        source = reopened
        state = .ready
        message = nil
        await report()  // before the log line, so that Sensor.Status shows what the log says
        logThrottle.log(
            .notice, first ? "an accelerometer was plugged in" : "the accelerometer is back",
            metadata: ["device": "\(reopened.info)"], to: logger)
        if startingToRead, wanted { await startReading() }
    }

    private func report() async {
        let info = source?.info
        reportedInfo = info
        var sensorReport = SensorReport(
            state: state, driver: info?.driver, device: info?.devicePath, rate: info?.rate,
            sensitivity: sensitivity, message: message ?? info?.note, frame: info?.frame)
        sensorReport.controllers = controllerPaths
        await runtime.updateSensor(sensorReport)
    }
}
