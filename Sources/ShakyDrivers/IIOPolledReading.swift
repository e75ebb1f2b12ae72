import CIIO
import Foundation
import ShakyCore

/// An IIO device set up for polled reading.
final class IIOPolledReading: AccelerometerReading {
    private let device: IIODevice
    private let channels: [OpaquePointer]
    private let calibration: [(scale: Double, offset: Double)]
    private let mountMatrix: MountMatrix
    private let period: Double
    private var retry = ReadRetryPolicy()

    init(deviceID: String, rate: Double, udev: UdevDevice?) throws {
        let context = try IIOContext()
        guard let device = context.devices().first(where: { $0.id == deviceID }) else {
            throw AccelerometerGoneError(device: "/dev/\(deviceID)", reason: "no longer listed in /sys/bus/iio")
        }
        guard let channels = device.accelerationChannels(),
            channels.allSatisfy({ iio_channel_find_attr($0, "raw") != nil })
        else {
            throw IIOSetupError(device: device.devicePath, problem: "no in_accel_{x,y,z}_raw attributes")
        }
        self.device = device
        self.channels = channels
        calibration = try device.calibration(of: channels)
        mountMatrix = try device.mountMatrix(udev: udev, channel: channels[0])
        device.configureSamplingFrequency(rate, channel: channels[0])
        period = 1 / max(rate, 0.001)
    }

    /// Reads one sample per period until stopped.
    func run(_ session: ReaderSession) throws {
        var deadline = monotonicSeconds()
        reading: while true {
            let time = monotonicSeconds()
            var values = [0.0, 0.0, 0.0]
            for index in 0..<3 {
                var raw: Int64 = 0
                let channel = channels[index]
                do {
                    try checkNegativeErrno(
                        iio_channel_attr_read_longlong(channel, "raw", &raw),
                        "read in_accel_\(["x", "y", "z"][index])_raw",
                        device: device.devicePath)
                } catch {
                    if session.isStopRequested { return }
                    switch retry.failed(devicePresent: device.isPresentInSysfs) {
                    case .gone: throw error.classified
                    case .retry(let delay, _):
                        guard try session.sleep(untilMonotonic: monotonicSeconds() + delay) else { return }
                        deadline = monotonicSeconds()
                        continue reading
                    }
                }
                retry.succeeded()
                values[index] = (Double(raw) + calibration[index].offset) * calibration[index].scale
            }
            let (x, y, z) = mountMatrix.apply(x: values[0], y: values[1], z: values[2])
            session.yield(AccelSample(timestamp: time, x: x, y: y, z: z))
            deadline += period
            if deadline < monotonicSeconds() { deadline = monotonicSeconds() }
            guard try session.sleep(untilMonotonic: deadline) else { return }
        }
    }
}
