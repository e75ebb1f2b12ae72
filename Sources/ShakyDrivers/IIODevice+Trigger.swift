import CIIO
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension IIODevice {
    /// Makes sure the device has a trigger when it needs one; returns the trigger's name (`nil`: none needed).
    ///
    /// A device whose `trigger/current_trigger` is empty needs one: the data-ready trigger its own driver
    /// registered (see ``chooseTrigger(udevDevices:)``).
    @discardableResult
    func ensureTrigger() throws -> String? {
        var current: OpaquePointer?
        let result = iio.iio_device_get_trigger(pointer, &current)
        if result == -ENOENT || result == -EINVAL { return nil }
        try checkNegativeErrno(result, "read the current trigger", device: devicePath)
        if let current {
            return iio.iio_device_get_name(current).map { String(cString: $0) }
                ?? iio.iio_device_get_id(current).map { String(cString: $0) }
        }
        let udevDevices = (try? UdevContext().enumerate(subsystem: "iio")) ?? []
        guard let chosen = chooseTrigger(udevDevices: udevDevices) else {
            throw IIOSetupError(
                device: devicePath,
                problem: "needs a trigger but its driver registered none (no trigger beside it in sysfs, none named "
                    + "\"\(name)-dev\(index ?? 0)\" or \"\(name)-trigger\"); is its interrupt line in the device tree?")
        }
        try checkNegativeErrno(
            iio.iio_device_set_trigger(pointer, chosen.pointer), "set trigger \(chosen.name)", device: devicePath)
        return chosen.name
    }

    /// The trigger this device should use: the data-ready trigger its own driver registered.
    ///
    /// A driver registers its triggers on the same parent device as the IIO device (`…/1-0018/iio:device0` and
    /// `…/1-0018/trigger0`), whatever it names them (`lis3dh-trigger`, `mpu6050-dev0`, `accel_3d-dev0`); among
    /// those, event triggers (any-motion, tap) are passed over. Without sysfs parents to compare, the kernel's
    /// usual names `<name>-dev<N>` and `<name>-trigger` are taken.
    func chooseTrigger(udevDevices: [UdevDevice]) -> (name: String, pointer: OpaquePointer)? {
        let triggers = context.triggers()
        let parentOf: (String) -> String? = { sysname in
            udevDevices.first { $0.sysname == sysname }.map {
                URL(fileURLWithPath: $0.sysfsPath).deletingLastPathComponent().path
            }
        }
        if let parent = parentOf(id) {
            let siblings = triggers.filter { parentOf($0.id) == parent }
            let chosen = Self.dataReadyTrigger(among: siblings.map(\.name))
            if let chosen, let trigger = siblings.first(where: { $0.name == chosen }) {
                return (trigger.name, trigger.pointer)
            }
        }
        for wanted in ["\(name)-dev\(index ?? 0)", "\(name)-trigger"] {
            if let own = triggers.first(where: { $0.name == wanted }) { return (own.name, own.pointer) }
        }
        return nil
    }

    /// Of the trigger names a driver registered, the data-ready one: the first that is not an event trigger.
    static func dataReadyTrigger(among names: [String]) -> String? {
        let eventWords = ["motion", "tap", "event", "thresh"]
        return names.first { name in !eventWords.contains { name.lowercased().contains($0) } }
    }
}
