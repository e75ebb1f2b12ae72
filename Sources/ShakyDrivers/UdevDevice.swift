import CUdev
import Foundation

/// What udev knows about one device: paths, name and properties, copied out of libudev.
public struct UdevDevice: Sendable, Hashable {
    /// `/sys/devices/…/iio:device0`.
    public var sysfsPath: String
    /// `iio:device0`, `event3`.
    public var sysname: String
    /// `iio`, `input`.
    public var subsystem: String
    /// `/dev/iio:device0`, `/dev/input/event3`, when the device has a node.
    public var devicePath: String?
    /// The device's name: its `name` attribute, or its parent's for an input event node.
    public var name: String?
    /// The udev properties (`ID_INPUT_ACCELEROMETER`, `ACCEL_MOUNT_MATRIX`, …).
    public var properties: [String: String]
    /// The udev action for a hotplug event (`add`, `remove`, `change`), `nil` from enumeration.
    public var action: String?
    /// The kernel driver bound to the device or its nearest ancestor that has one (`wiimote`, `playstation`).
    public var driver: String?
    /// The parent's `PRODUCT` property (an event node's input device has it).
    var parentProduct: String?
    /// The input device's `uniq` attribute, of the device or, for an event node, of its input device (a Bluetooth
    /// pad's address, a USB device's serial); `nil` when empty.
    public var uniq: String?

    /// Creates a description (for tests and injected events).
    public init(
        sysfsPath: String, sysname: String, subsystem: String, devicePath: String? = nil, name: String? = nil,
        properties: [String: String] = [:], action: String? = nil, driver: String? = nil, uniq: String? = nil
    ) {
        self.uniq = uniq
        self.driver = driver
        self.sysfsPath = sysfsPath
        self.sysname = sysname
        self.subsystem = subsystem
        self.devicePath = devicePath
        self.name = name
        self.properties = properties
        self.action = action
    }

    /// The udev `ACCEL_MOUNT_MATRIX` property (systemd hwdb), if set.
    public var accelMountMatrix: String? { properties["ACCEL_MOUNT_MATRIX"] }

    /// An input device's bus, vendor and product from udev's `PRODUCT` (`bus/vendor/product/version`, hexadecimal)
    /// of the device or, for an event node, of its input device.
    var inputID: KnownAccelerometer.InputID? {
        guard let product = properties["PRODUCT"] ?? parentProduct else { return nil }
        let parts = product.split(separator: "/").map { UInt16($0, radix: 16) }
        guard parts.count >= 3, let bus = parts[0], let vendor = parts[1], let productID = parts[2] else { return nil }
        return KnownAccelerometer.InputID(bus: bus, vendor: vendor, product: productID)
    }

    /// Whether the device is on Bluetooth: udev's `ID_BUS`, else the input device's bus type (`BUS_BLUETOOTH`).
    var isBluetooth: Bool {
        properties["ID_BUS"] == "bluetooth" || inputID?.bus == 0x05
    }
}

/// The one owner of a `struct udev *` context.
final class UdevContext: @unchecked Sendable {
    let pointer: OpaquePointer

    init() throws(DeviceError) {
        var context: OpaquePointer?
        try checkSyscall("create a udev context", device: "udev") {
            context = udev_new()
            return context == nil ? -1 : 0
        }
        pointer = context!
    }

    deinit {
        udev_unref(pointer)
    }

    /// Every device of `subsystem`, in udev's order.
    func enumerate(subsystem: String) throws(DeviceError) -> [UdevDevice] {
        guard let enumerator = udev_enumerate_new(pointer) else {
            throw DeviceError(device: "udev", operation: "enumerate \(subsystem) devices", code: ENOMEM)
        }
        defer { udev_enumerate_unref(enumerator) }
        try checkNegativeErrno(
            udev_enumerate_add_match_subsystem(enumerator, subsystem), "match subsystem \(subsystem)", device: "udev")
        try checkNegativeErrno(
            udev_enumerate_scan_devices(enumerator), "enumerate \(subsystem) devices", device: "udev")
        var devices: [UdevDevice] = []
        var entry = udev_enumerate_get_list_entry(enumerator)
        while let current = entry {
            if let syspath = udev_list_entry_get_name(current), let device = device(sysfsPath: String(cString: syspath))
            {
                devices.append(device)
            }
            entry = udev_list_entry_get_next(current)
        }
        return devices
    }

    /// The device at `sysfsPath`, or `nil` when udev does not know it.
    func device(sysfsPath: String) -> UdevDevice? {
        guard let handle = udev_device_new_from_syspath(pointer, sysfsPath) else { return nil }
        defer { udev_device_unref(handle) }
        return UdevDevice(copying: handle)
    }

    /// The device whose node is `devicePath` (`/dev/input/event3`), looked up among `subsystem`'s devices.
    func device(devicePath: String, subsystem: String) -> UdevDevice? {
        (try? enumerate(subsystem: subsystem))?.first { $0.devicePath == devicePath }
    }
}

extension UdevDevice {
    /// Copies what is needed out of a libudev device handle (which the caller keeps owning).
    init(copying handle: OpaquePointer) {
        func text(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
        var properties: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(handle)
        while let current = entry {
            if let key = text(udev_list_entry_get_name(current)) {
                properties[key] = text(udev_list_entry_get_value(current)) ?? ""
            }
            entry = udev_list_entry_get_next(current)
        }
        var name = text(udev_device_get_sysattr_value(handle, "name"))
        var uniq = text(udev_device_get_sysattr_value(handle, "uniq"))
        var parentProduct: String?
        if let parent = udev_device_get_parent(handle) {
            if name == nil { name = text(udev_device_get_sysattr_value(parent, "name")) }
            if uniq == nil { uniq = text(udev_device_get_sysattr_value(parent, "uniq")) }
            parentProduct = text(udev_device_get_property_value(parent, "PRODUCT"))
        }
        var driver: String?
        var ancestor: OpaquePointer? = handle
        while driver == nil, let current = ancestor {
            driver = text(udev_device_get_driver(current))
            ancestor = udev_device_get_parent(current)
        }
        self.init(
            sysfsPath: text(udev_device_get_syspath(handle)) ?? "",
            sysname: text(udev_device_get_sysname(handle)) ?? "",
            subsystem: text(udev_device_get_subsystem(handle)) ?? "",
            devicePath: text(udev_device_get_devnode(handle)),
            name: name?.trimmingWhitespace(),
            properties: properties,
            action: text(udev_device_get_action(handle)), driver: driver,
            uniq: uniq.map { $0.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 })
        self.parentProduct = parentProduct
    }
}
