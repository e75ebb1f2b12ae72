import Logging
import ShakeDetection
import ShakyCore
import ShakyDrivers

/// The accelerometer side of the daemon: opens the sensor, reads it only while a round is open, turns shakes
/// into hints on the runtime, and survives the sensor being unplugged (waiting for udev to bring it back).
public actor SensorPipeline {
    private let spec: InputSpec?
    private let options: AccelerometerOptions
    private let table: AccelerometerDriverTable
    private let runtime: GameRuntime
    private let logger: Logger
    private var sensitivity: ShakeSensitivity
    private var source: (any AccelerometerSource)?
    private var readingTask: Task<Void, Never>?
    private var readingGeneration = 0
    private var hotplugTask: Task<Void, Never>?
    private let returns: @Sendable (SourceInfo) throws -> AsyncStream<Void>
    private var wanted = false
    private var state: SensorReport.State = .absent
    private var message: String?

    /// Creates the pipeline; `spec` `nil` means no sensor (`--input none`). `returns` reports when an unplugged
    /// sensor may be back (udev hotplug by default); the pipeline then opens `spec` again through `table`.
    public init(
        spec: InputSpec?, options: AccelerometerOptions, table: AccelerometerDriverTable = .standard,
        runtime: GameRuntime, sensitivity: ShakeSensitivity, logger: Logger,
        returns: @escaping @Sendable (SourceInfo) throws -> AsyncStream<Void> = SensorPipeline.udevReturns(of:)
    ) {
        self.returns = returns
        self.spec = spec
        self.options = options
        self.table = table
        self.runtime = runtime
        self.sensitivity = sensitivity
        self.logger = logger
    }

    /// Finds the sensor. Without one the daemon goes on with manual hints, and says so once.
    public func start() async {
        guard let spec else {
            message = "no sensor (--input none): hints are manual"
            logger.notice("\(message!)")
            await report()
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
            message = "no accelerometer: \(error); hints are manual"
            logger.notice("no accelerometer found; the game goes on with manual hints", metadata: ["why": "\(error)"])
        }
        await report()
        if wanted { await startReading() }
    }

    /// Reads the sensor when `wanted` (a round is open) and stops reading otherwise.
    public func setWanted(_ wanted: Bool) async {
        self.wanted = wanted
        if wanted { await startReading() } else { await stopReading() }
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
        await report()
    }

    /// Stops reading and watching.
    public func stop() async {
        await stopReading()
        hotplugTask?.cancel()
        hotplugTask = nil
    }

    private func startReading() async {
        guard readingTask == nil, let source, state == .ready else { return }
        let sensitivity = sensitivity
        // The detector runs where the samples are read; only the sample completing a shake reaches this task.
        let stream: AsyncThrowingStream<AccelSample, any Error>
        do {
            stream = try source.start(keeping: {
                var detector = ShakeDetector(sensitivity: sensitivity)
                return { sample in detector.process(sample) != nil }
            })
        } catch {
            sensorFailed(error)
            await report()
            return
        }
        state = .reading
        readingGeneration += 1
        let generation = readingGeneration
        let runtime = runtime
        readingTask = Task { [weak self] in
            do {
                for try await _ in stream { await runtime.shake() }
                await self?.readingEnded(generation, nil)
            } catch {
                await self?.readingEnded(generation, error)
            }
        }
        await report()
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
            logger.warning(
                "the accelerometer is gone; the game goes on with manual hints", metadata: ["device": "\(source.info)"])
            watchForReturn(of: source.info)
        } else {
            state = .absent
            message = "\(error)"
            self.source = nil
            logger.error(
                "the accelerometer failed; the game goes on with manual hints", metadata: ["error": "\(error)"])
        }
    }

    private func watchForReturn(of info: SourceInfo) {
        guard hotplugTask == nil, let spec else { return }
        let returns = returns
        hotplugTask = Task { [weak self, table, options, logger] in
            do {
                for try await _ in try returns(info) {
                    if let reopened = try? table.open(spec, options: options) {
                        await self?.reattached(reopened)
                        return
                    }
                }
            } catch {
                logger.error("cannot watch for the accelerometer's return", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Each time udev reports a device matching `info` again (the real way the sensor comes back).
    public static func udevReturns(of info: SourceInfo) throws -> AsyncStream<Void> {
        let monitor = try UdevHotplugMonitor(watching: info)
        monitor.markGone()
        return AsyncStream { continuation in
            let forward = Task {
                for await event in monitor.events {
                    if case .back = event { continuation.yield() }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                forward.cancel()
                monitor.stop()
            }
        }
    }

    private func reattached(_ reopened: any AccelerometerSource) async {
        hotplugTask = nil
        source = reopened
        state = .ready
        message = nil
        logger.notice("the accelerometer is back", metadata: ["device": "\(reopened.info)"])
        await report()
        if wanted { await startReading() }
    }

    private func report() async {
        let info = source?.info
        await runtime.updateSensor(
            SensorReport(
                state: state, driver: info?.driver, device: info?.devicePath, rate: info?.rate,
                sensitivity: sensitivity, message: message))
    }
}
