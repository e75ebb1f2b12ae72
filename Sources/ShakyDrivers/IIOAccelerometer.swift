import ShakyCore
import Synchronization

/// An IIO accelerometer (`/dev/iio:deviceN`), read through its buffer or by polling its attributes.
///
/// Buffered: ``start(keeping:)`` enables the scan elements `accel_x/y/z` (and `timestamp`), sets the device's
/// trigger when it needs one, sets the sampling frequency nearest to the wanted rate and enables the buffer; each
/// scan is a sample with the kernel's timestamp. A buffer that delivers nothing within a few sample periods (an
/// interrupt line that is not wired) is given up for polling, for the rest of the source's life; ``info`` then
/// says so and the handler given to ``onInfoChange(_:)`` hears it. Polled (the fallback when the buffer cannot be
/// used: no buffer support, no trigger, busy): `in_accel_{x,y,z}_raw` are read at the wanted rate, timestamped on
/// CLOCK_MONOTONIC; a failed read is retried while the device is still in sysfs. ``stop()`` destroys the buffer or
/// stops polling, so the sensor is idle between rounds.
public final class IIOAccelerometer: AccelerometerSource {
    /// How samples are read.
    public enum Mode: Sendable {
        /// One scan per sample from the device's buffer.
        case buffered
        /// Attribute reads at a fixed rate.
        case polled
    }

    /// What this source reads; after a fallback to polling, the driver is `iio-poll` and the note says why.
    public var info: SourceInfo { state.withLock { $0.info } }
    /// How this source reads its device now.
    public var mode: Mode { state.withLock { $0.mode } }
    private let state: Mutex<(mode: Mode, info: SourceInfo)>
    private let infoChanged = Mutex<(@Sendable () -> Void)?>(nil)
    private let deviceID: String
    private let rate: Double
    private let udev: UdevDevice?
    private let slot = ReaderSessionSlot()

    /// Creates a source for the IIO device `deviceID` (`iio:device0`); nothing is opened until ``start()``.
    init(mode: Mode, info: SourceInfo, deviceID: String, rate: Double, udev: UdevDevice?) {
        state = Mutex((mode, info))
        self.deviceID = deviceID
        self.rate = rate
        self.udev = udev
    }

    deinit {
        slot.stop()
    }

    public func start() throws -> AsyncThrowingStream<AccelSample, any Error> {
        try start(keeping: { { _ in .kept } })
    }

    public func start(
        keeping makeFilter: @escaping @Sendable () -> SampleFilter
    ) throws -> AsyncThrowingStream<AccelSample, any Error> {
        let (deviceID, rate, udev) = (deviceID, rate, udev)
        switch mode {
        case .polled:
            return try slot.start(name: "iio-poll", keeping: makeFilter) {
                try IIOPolledReading(deviceID: deviceID, rate: rate, udev: udev)
            }
        case .buffered:
            slot.stop()
            let reading = HandOver(try IIOBufferedReading(deviceID: deviceID, rate: rate, udev: udev))
            return try slot.start(name: "iio-buffer", keeping: makeFilter) { [weak self] session in
                var buffered: IIOBufferedReading? = reading.take()
                do {
                    try buffered?.run(session)
                } catch let starved as BufferNeverDeliveredError {
                    buffered = nil  // disables the buffer, so the attributes can be read
                    self?.fellBackToPolling(starved)
                    try IIOPolledReading(deviceID: deviceID, rate: rate, udev: udev).run(session)
                }
            }
        }
    }

    public func stop() {
        slot.stop()
    }

    public func onInfoChange(_ handler: @escaping @Sendable () -> Void) {
        infoChanged.withLock { $0 = handler }
    }

    /// Remembers that the buffer never delivered, so this and later runs poll, and says so.
    private func fellBackToPolling(_ reason: BufferNeverDeliveredError) {
        state.withLock { state in
            state.mode = .polled
            state.info.driver = "iio-poll"
            state.info.rate = rate
            state.info.note = "\(reason); reading it by polling instead"
        }
        infoChanged.withLock { $0 }?()
    }
}
