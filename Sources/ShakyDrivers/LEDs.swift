import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes LED class devices in sysfs: on, off, or a colour for multicolour LEDs (light bars).
///
/// `brightness` takes 0…`max_brightness`; a multicolour LED also takes `multi_intensity`, one value per
/// colour in the order its `multi_index` lists (`red green blue`). Writing needs the udev rules that give
/// group `shaky` write access. Failures are returned, never thrown at the game: a light is a nicety.
public struct LEDs: Sendable {
    /// Creates a writer.
    public init() {}

    /// Lights `light`, in `colour` (red, green, blue 0–255) when it is a multicolour LED.
    @discardableResult
    public func turnOn(_ light: BuzzerLight, colour: (red: Int, green: Int, blue: Int)? = nil) -> DeviceError? {
        let maximum = Int(read("\(light.path)/max_brightness") ?? "") ?? 1
        if light.isMulticolour, let colour {
            let order = (read("\(light.path)/multi_index") ?? "red green blue").split(separator: " ")
            let values = order.map { channel -> String in
                switch channel {
                case "red": "\(min(max(colour.red, 0), 255))"
                case "green": "\(min(max(colour.green, 0), 255))"
                case "blue": "\(min(max(colour.blue, 0), 255))"
                default: "0"
                }
            }
            if let error = write(values.joined(separator: " "), to: "\(light.path)/multi_intensity") { return error }
        }
        return write("\(max(1, maximum))", to: "\(light.path)/brightness")
    }

    /// Turns `light` off.
    @discardableResult
    public func turnOff(_ light: BuzzerLight) -> DeviceError? {
        write("0", to: "\(light.path)/brightness")
    }

    /// Whether `light` is on now (its `brightness` is above zero).
    public func isOn(_ light: BuzzerLight) -> Bool {
        (Int(read("\(light.path)/brightness") ?? "") ?? 0) > 0
    }

    private func read(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func write(_ value: String, to path: String) -> DeviceError? {
        let descriptor: Int32
        do {
            descriptor = try checkSyscall("open the LED", device: path) { open(path, O_WRONLY | O_TRUNC | O_CLOEXEC) }
        } catch {
            return error
        }
        let bytes = Array((value + "\n").utf8)
        var failure: DeviceError?
        do {
            let written = try checkSyscall("write the LED", device: path) {
                bytes.withUnsafeBufferPointer { systemWrite(descriptor, $0.baseAddress, $0.count) }
            }
            if written != bytes.count { failure = DeviceError(device: path, operation: "write the LED", code: EIO) }
        } catch {
            failure = error
        }
        do {
            // A sysfs attribute reports a refused value on close as well as on write.
            try closeDescriptor(descriptor)
        } catch {
            failure = failure ?? DeviceError(device: path, error)
        }
        return failure
    }
}

/// libc's `write`, named apart from ``LEDs``' own method.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
