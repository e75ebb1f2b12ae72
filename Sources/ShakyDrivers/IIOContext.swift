import CIIO
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one owner of a libiio local context (`struct iio_context *`): every IIO device and channel
/// pointer borrowed from it lives as long as this object.
final class IIOContext: @unchecked Sendable {
    let pointer: OpaquePointer
    /// libiio's functions, for this context and everything borrowed from it.
    let iio: shaky_iio_functions

    /// Scans `/sys/bus/iio/devices` with `library`.
    init(library: LibIIO) throws(DeviceError) {
        let iio = library.functions
        var context: OpaquePointer?
        try checkSyscall("scan IIO devices", device: "/sys/bus/iio/devices") {
            context = iio.iio_create_local_context()
            return context == nil ? -1 : 0
        }
        pointer = context!
        self.iio = iio
    }

    /// Scans `/sys/bus/iio/devices` with the process's libiio, loading it at the first call.
    convenience init() throws {
        try self.init(library: LibIIO.shared.get())
    }

    deinit {
        iio.iio_context_destroy(pointer)
    }

    /// Every IIO device that is not a trigger.
    func devices() -> [IIODevice] {
        (0..<iio.iio_context_get_devices_count(pointer)).compactMap { index in
            guard let device = iio.iio_context_get_device(pointer, index), !iio.iio_device_is_trigger(device) else {
                return nil
            }
            return IIODevice(context: self, pointer: device)
        }
    }

    /// Every trigger device, as (id, name, pointer).
    func triggers() -> [(id: String, name: String, pointer: OpaquePointer)] {
        (0..<iio.iio_context_get_devices_count(pointer)).compactMap { index in
            guard let device = iio.iio_context_get_device(pointer, index), iio.iio_device_is_trigger(device) else {
                return nil
            }
            let id = iio.iio_device_get_id(device).map { String(cString: $0) } ?? ""
            let name = iio.iio_device_get_name(device).map { String(cString: $0) } ?? id
            return (id, name, device)
        }
    }
}

/// One IIO device borrowed from an ``IIOContext``, with the questions the accelerometer drivers ask it.
final class IIODevice {
    let context: IIOContext
    let pointer: OpaquePointer
    /// `iio:device0`.
    let id: String
    /// The driver's name, e.g. `mpu6050`; the id when it has none.
    let name: String

    /// libiio's functions (the context's).
    var iio: shaky_iio_functions { context.iio }

    init(context: IIOContext, pointer: OpaquePointer) {
        let iio = context.iio
        self.context = context
        self.pointer = pointer
        let id = iio.iio_device_get_id(pointer).map { String(cString: $0) } ?? ""
        self.id = id
        name = iio.iio_device_get_name(pointer).map { String(cString: $0) } ?? id
    }

    /// `/dev/iio:device0`.
    var devicePath: String { "/dev/\(id)" }

    /// The number in the id (`0` for `iio:device0`).
    var index: Int? { Int(id.drop { !$0.isNumber }) }

    /// Whether the device is still listed in sysfs (a failed read of a device that is still there is a glitch).
    var isPresentInSysfs: Bool { access("/sys/bus/iio/devices/\(id)", F_OK) == 0 }

    /// Whether `name` names this device (its name or its id).
    func matches(_ wanted: String) -> Bool { wanted == name || wanted == id || wanted == devicePath }

    /// The input channels accel_x, accel_y and accel_z, or `nil` when this is not an accelerometer.
    func accelerationChannels() -> [OpaquePointer]? {
        let identifiers: [String] = ["accel_x", "accel_y", "accel_z"]
        let channels = identifiers.compactMap { identifier in iio.iio_device_find_channel(pointer, identifier, false) }
        return channels.count == 3 ? channels : nil
    }

    /// The input channel `timestamp`, when it is a scan element.
    func timestampChannel() -> OpaquePointer? {
        guard let channel = iio.iio_device_find_channel(pointer, "timestamp", false),
            iio.iio_channel_is_scan_element(channel)
        else { return nil }
        return channel
    }

    /// A device attribute's text, or `nil` when it does not exist or cannot be read.
    func attribute(_ name: String) -> String? {
        guard iio.iio_device_find_attr(pointer, name) != nil else { return nil }
        var buffer = [CChar](repeating: 0, count: 512)
        guard iio.iio_device_attr_read(pointer, name, &buffer, buffer.count) >= 0 else { return nil }
        return Self.text(of: buffer)
    }

    /// Writes a device attribute.
    func writeAttribute(_ name: String, _ value: String) throws(DeviceError) {
        try checkNegativeErrno(iio.iio_device_attr_write(pointer, name, value), "write \(name)", device: devicePath)
    }

    /// A channel attribute's text (`scale`, `offset`, `mount_matrix`), or `nil`.
    func attribute(_ name: String, of channel: OpaquePointer) -> String? {
        guard iio.iio_channel_find_attr(channel, name) != nil else { return nil }
        var buffer = [CChar](repeating: 0, count: 512)
        guard iio.iio_channel_attr_read(channel, name, &buffer, buffer.count) >= 0 else { return nil }
        return Self.text(of: buffer)
    }

    /// The text of a NUL-terminated attribute buffer, without surrounding whitespace.
    private static func text(of buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
    }

    /// `(raw + offset) × scale` per axis, from the channels' `scale` and `offset` attributes (1 and 0 when absent).
    func calibration(of channels: [OpaquePointer]) throws(IIOSetupError) -> [(scale: Double, offset: Double)] {
        var result: [(scale: Double, offset: Double)] = []
        for channel in channels {
            var scale = 1.0
            var offset = 0.0
            if let text = attribute("scale", of: channel) {
                guard let value = Double(text) else {
                    throw IIOSetupError(device: devicePath, problem: "unreadable scale \"\(text)\"")
                }
                scale = value
            }
            if let text = attribute("offset", of: channel) {
                guard let value = Double(text) else {
                    throw IIOSetupError(device: devicePath, problem: "unreadable offset \"\(text)\"")
                }
                offset = value
            }
            result.append((scale, offset))
        }
        return result
    }

    /// The mount matrix, as iio-sensor-proxy finds it: udev's `ACCEL_MOUNT_MATRIX` (hwdb) first, then the kernel's
    /// `in_accel_mount_matrix`, then its `in_mount_matrix` (bmc150, bma180, bma400, bmi160: libiio shows that file as
    /// the attribute `matrix` of a channel `mount`), then a device-wide `mount_matrix`.
    func mountMatrix(udev: UdevDevice?, channel: OpaquePointer) throws(MountMatrixError) -> MountMatrix {
        let mountChannel = iio.iio_device_find_channel(pointer, "mount", false)
        let text =
            udev?.accelMountMatrix ?? attribute("mount_matrix", of: channel)
            ?? mountChannel.flatMap { attribute("matrix", of: $0) } ?? attribute("in_accel_mount_matrix")
            ?? attribute("in_mount_matrix") ?? attribute("mount_matrix")
        guard let text else { return .identity }
        return try MountMatrix(parsing: text)
    }

    /// Sets the sampling frequency for `rate` and returns the rate the device reports after.
    ///
    /// A device that lists what it offers (`sampling_frequency_available`) gets the nearest; one that lists
    /// nothing (HID sensor hubs: `in_accel_sampling_frequency`, default 12.5 Hz or less) is asked for `rate`
    /// itself. A hysteresis (`in_accel_hysteresis`, HID sensor hubs) is set to 0, so every change is reported.
    @discardableResult
    func configureSamplingFrequency(_ rate: Double, channel: OpaquePointer) -> Double? {
        let available =
            attribute("sampling_frequency_available") ?? attribute("sampling_frequency_available", of: channel)
        let chosen = available.flatMap { IIOSamplingFrequency.nearest(to: rate, available: $0) } ?? rate
        if available != nil || chosen == rate {
            let text = IIOSamplingFrequency.text(chosen)
            if attribute("sampling_frequency") != nil {
                try? writeAttribute("sampling_frequency", text)
            } else if attribute("sampling_frequency", of: channel) != nil {
                _ = iio.iio_channel_attr_write(channel, "sampling_frequency", text)
            }
        }
        if let hysteresis = attribute("hysteresis", of: channel), Double(hysteresis) != 0 {
            _ = iio.iio_channel_attr_write(channel, "hysteresis", "0")
        }
        let current = attribute("sampling_frequency") ?? attribute("sampling_frequency", of: channel)
        return current.flatMap(Double.init).flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    }
}

/// A device that cannot be set up for reading, with what is missing.
public struct IIOSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device node.
    public var device: String
    /// What is wrong.
    public var problem: String

    public var description: String { "\(device): \(problem)" }
}
