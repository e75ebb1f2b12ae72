import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A failure at the Linux edge, with the device, what was being done, and what a person can do about it.
///
/// Every C call in this module reports failure through ``checkNegativeErrno(_:_:device:)`` (libiio, libevdev
/// and ALSA return a negative errno) or ``checkSyscall(_:device:_:)`` (libc's `-1` and `errno`), which wrap
/// the `SystemCalls` module's funnel (the one place where an errno becomes a Swift error, shared with the
/// Varlink module) and add the device.
public struct DeviceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The device path or name (`/dev/iio:device0`, `hw:1,0`, a trace file…).
    public var device: String
    /// What was being done, as a short phrase ("open", "enable buffer", "set hardware parameters").
    public var operation: String
    /// The positive errno value.
    public var code: Int32

    /// Creates an error from a positive errno value.
    public init(device: String, operation: String, code: Int32) {
        self.device = device
        self.operation = operation
        self.code = code
    }

    /// Wraps a failed system call on `device`.
    public init(device: String, _ error: SystemCallError) {
        self.init(device: device, operation: error.operation, code: error.code)
    }

    /// The operation named when a sound device (an ALSA PCM) cannot be opened.
    public static let openSoundDevice = "open sound device"

    /// The C library's text for the errno.
    public var reason: String { SystemCallError.reason(for: code) }

    /// What the person running the daemon can do, when the errno says.
    public var advice: String? {
        switch code {
        case EACCES, EPERM:
            "install the udev rules (udev/) or add your user to group shaky"
        case ENOENT, ENODEV, ENXIO:
            operation == Self.openSoundDevice
                ? "no such sound device; `aplay -L` lists the ones ALSA knows (set sound-device to one of them)"
                : "the device is gone or was never there; `shakyd list-devices` shows what is found"
        case EINVAL where operation == Self.openSoundDevice:
            // alsa-lib's answer to a card number past its last (`hw:99`) or a name it cannot parse.
            "ALSA takes no such name; `aplay -L` lists the ones it knows (set sound-device to one of them)"
        case EBUSY:
            "another program holds the device; stop it or choose another device"
        default:
            nil
        }
    }

    public var description: String {
        var text = "\(operation) failed on \(device): \(reason)"
        if let advice { text += ": \(advice)" }
        return text
    }
}

/// Returns `result` when it is zero or positive; throws ``DeviceError`` when it is a negative errno.
///
/// For libiio, libevdev and alsa-lib, which return `-errno` on failure.
@discardableResult
public func checkNegativeErrno<Result: BinaryInteger>(
    _ result: Result,
    _ operation: @autoclosure () -> String,
    device: @autoclosure () -> String
) throws(DeviceError) -> Result {
    do {
        return try SystemCalls.checkNegativeErrno(result, operation())
    } catch {
        throw DeviceError(device: device(), error)
    }
}

/// Runs a libc call that returns `-1` and sets `errno` on failure, retrying on `EINTR`.
@discardableResult
public func checkSyscall<Result: BinaryInteger>(
    _ operation: @autoclosure () -> String,
    device: @autoclosure () -> String,
    _ call: () -> Result
) throws(DeviceError) -> Result {
    do {
        return try SystemCalls.checkSyscall(operation(), call)
    } catch {
        throw DeviceError(device: device(), error)
    }
}
