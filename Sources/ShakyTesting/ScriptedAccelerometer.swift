import Foundation
import ShakyCore
import ShakyDrivers
import Synchronization

/// An accelerometer whose samples the test feeds by hand; it records when it is switched on and off.
public final class ScriptedAccelerometerSource: AccelerometerSource {
    public var info: SourceInfo { state.withLock { $0.info } }
    private struct State {
        var info: SourceInfo
        var continuation: AsyncThrowingStream<AccelSample, any Error>.Continuation?
        var starts = 0
        var stops = 0
        var infoChanged: (@Sendable () -> Void)?
        var refusal: (any Error)?
    }
    private let state: Mutex<State>

    /// Creates a source that describes itself as `info`.
    public init(info: SourceInfo = SourceInfo(driver: "scripted", devicePath: "/dev/scripted0", deviceName: "scripted"))
    {
        state = Mutex(State(info: info))
    }

    public func start() throws -> AsyncThrowingStream<AccelSample, any Error> {
        if let refusal = state.withLock({ $0.refusal }) { throw refusal }
        let (stream, continuation) = AsyncThrowingStream<AccelSample, any Error>.makeStream()
        state.withLock { state in
            state.continuation?.finish()
            state.continuation = continuation
            state.starts += 1
        }
        return stream
    }

    public func stop() {
        let continuation = state.withLock { state -> AsyncThrowingStream<AccelSample, any Error>.Continuation? in
            defer { state.continuation = nil }
            if state.continuation != nil { state.stops += 1 }
            return state.continuation
        }
        continuation?.finish()
    }

    public func onInfoChange(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.infoChanged = handler }
    }

    /// Describes the source as `info` from now on and tells the handler given to ``onInfoChange(_:)``, as a
    /// source that falls back to another way of reading does.
    public func changeInfo(_ info: SourceInfo) {
        let handler = state.withLock { state in
            state.info = info
            return state.infoChanged
        }
        handler?()
    }

    /// Makes every start from now on throw `error` (a device another program holds), or start again with `nil`.
    public func refuseStarts(with error: (any Error)?) {
        state.withLock { $0.refusal = error }
    }

    /// How many times the sensor was switched on.
    public var starts: Int { state.withLock { $0.starts } }
    /// How many times a running sensor was switched off.
    public var stops: Int { state.withLock { $0.stops } }
    /// Whether the sensor is on now.
    public var isReading: Bool { state.withLock { $0.continuation != nil } }

    /// Delivers samples to the reader, if the sensor is on.
    public func feed(_ samples: [AccelSample]) {
        guard let continuation = state.withLock({ $0.continuation }) else { return }
        for sample in samples { continuation.yield(sample) }
    }

    /// Ends the stream as an unplugged device does.
    public func unplug() {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.finish(throwing: AccelerometerGoneError(device: info.devicePath, reason: "unplugged"))
    }
}

/// A driver that offers whatever scripted source the test has plugged in (none: nothing found).
public final class ScriptedAccelerometerDriver: AccelerometerDriver {
    public let name = "scripted"
    private let plugged = Mutex<ScriptedAccelerometerSource?>(nil)
    private let discoveries = Mutex(0)

    /// How many times the daemon has looked for a device.
    public var discoveryCount: Int { discoveries.withLock { $0 } }

    /// Creates a driver with `source` plugged in.
    public init(_ source: ScriptedAccelerometerSource?) {
        plugged.withLock { $0 = source }
    }

    /// Plugs in `source` (or unplugs, with `nil`) for the next discovery.
    public func plug(_ source: ScriptedAccelerometerSource?) {
        plugged.withLock { $0 = source }
    }

    public func discover(_ spec: InputSpec, options: AccelerometerOptions) -> [DiscoveredDevice] {
        discoveries.withLock { $0 += 1 }
        guard let source = plugged.withLock({ $0 }) else { return [] }
        return [
            DiscoveredDevice(driver: name, devicePath: source.info.devicePath, deviceName: source.info.deviceName) {
                source
            }
        ]
    }
}

/// Samples of a firm hand shake: `duration` seconds of 4 Hz, ±3 g along x, starting at `start`, on a device
/// lying face-up, at `rate` Hz.
public func shakeSamples(start: Double, duration: Double = 1.5, rate: Double = 100) -> [AccelSample] {
    let count = Int(duration * rate)
    return (0..<count).map { index in
        let t = Double(index) / rate
        let x = 3 * AccelSample.standardGravity * sin(2 * Double.pi * 4 * t)
        return AccelSample(timestamp: start + t, x: x, y: 0, z: AccelSample.standardGravity)
    }
}
