import ShakyCore

/// An IIO accelerometer (`/dev/iio:deviceN`), read through its buffer or by polling its attributes.
///
/// Buffered: ``start()`` enables the scan elements `accel_x/y/z` (and `timestamp`), sets the device's trigger when
/// it needs one, sets the sampling frequency nearest to the wanted rate and enables the buffer; each scan is a
/// sample with the kernel's timestamp. Polled (the fallback when the buffer cannot be used: no buffer support, no
/// trigger, busy): `in_accel_{x,y,z}_raw` are read at the wanted rate, timestamped on CLOCK_MONOTONIC.
/// ``stop()`` destroys the buffer or stops polling, so the sensor is idle between rounds.
public final class IIOAccelerometer: AccelerometerSource {
    /// How samples are read.
    public enum Mode: Sendable {
        /// One scan per sample from the device's buffer.
        case buffered
        /// Attribute reads at a fixed rate.
        case polled
    }

    public let info: SourceInfo
    /// How this source reads its device.
    public let mode: Mode
    private let deviceID: String
    private let rate: Double
    private let udev: UdevDevice?
    private let slot = ReaderSessionSlot()

    /// Creates a source for the IIO device `deviceID` (`iio:device0`); nothing is opened until ``start()``.
    init(mode: Mode, info: SourceInfo, deviceID: String, rate: Double, udev: UdevDevice?) {
        self.mode = mode
        self.info = info
        self.deviceID = deviceID
        self.rate = rate
        self.udev = udev
    }

    deinit {
        slot.stop()
    }

    public func start() throws -> AsyncThrowingStream<AccelSample, any Error> {
        try start(keeping: { { _ in true } })
    }

    public func start(
        keeping makeFilter: @escaping @Sendable () -> SampleFilter
    ) throws -> AsyncThrowingStream<AccelSample, any Error> {
        try slot.start(name: "\(info.driver) \(deviceID)", keeping: makeFilter) {
            switch mode {
            case .buffered: try IIOBufferedReading(deviceID: deviceID, rate: rate, udev: udev)
            case .polled: try IIOPolledReading(deviceID: deviceID, rate: rate, udev: udev)
            }
        }
    }

    public func stop() {
        slot.stop()
    }
}
