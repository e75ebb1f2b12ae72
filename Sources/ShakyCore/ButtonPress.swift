/// One button, named so that it is found again after a replug or a reboot: the device's stable identity (a
/// Bluetooth device's address, else udev's `ID_PATH`, else `ID_SERIAL`, else its name, with `#2`, `#3`… for further
/// devices present with the same) and the key code on that device.
public struct ButtonID: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The device's stable identity (`pci-0000:00:14.0-usb-0:2:1.0`, `platform-gpio-keys`…).
    public var device: String
    /// The evdev key code (`KEY_A` is 30, `BTN_TRIGGER_HAPPY1` is 0x2c0).
    public var key: Int

    /// Creates a button name.
    public init(device: String, key: Int) {
        self.device = device
        self.key = key
    }

    public var description: String { "\(device) key \(key)" }

    /// `identity` numbered `number` (`name:Wireless Controller#2`): the identity of a further device present with the
    /// same one, which nothing of its own tells apart from one start to the next.
    public static func numbered(_ identity: String, _ number: Int) -> String {
        "\(identity)#\(number)"
    }

    /// Whether `identity` is one ``numbered(_:_:)`` made.
    public static func isNumbered(_ identity: String) -> Bool {
        identity.contains(/#[0-9]+$/)
    }
}

/// A key or button going down on a buzzer device, with the kernel's time for it.
public struct ButtonPress: Sendable, Equatable {
    /// Which button.
    public var button: ButtonID
    /// The key's name (`KEY_SPACE`, `BTN_TRIGGER_HAPPY6`), for people.
    public var keyName: String
    /// The device node it came from (`/dev/input/event5`).
    public var devicePath: String
    /// The event's time as the kernel stamped it, on CLOCK_MONOTONIC: what the buzz order is decided by.
    public var kernelTime: Duration
    /// How long before it was handed on the press happened (kernel time to delivery, never negative).
    public var age: Duration

    /// Creates a press.
    public init(button: ButtonID, keyName: String, devicePath: String, kernelTime: Duration, age: Duration) {
        self.button = button
        self.keyName = keyName
        self.devicePath = devicePath
        self.kernelTime = kernelTime
        self.age = age
    }
}
