import Foundation

/// What shakyd knows about accelerometers whose kernel driver does not say everything it needs, and the frame
/// (which way the axes point) of the common ones — the role systemd's `60-sensor.hwdb` and iio-sensor-proxy's
/// quirks play elsewhere.
///
/// An entry is matched by the device's name as its kernel driver sets it (exactly, or by a trailing `*`), and by
/// the input IDs when it gives them. An entry for an evdev device may give its axes (the Wii Remote reports on
/// `ABS_RX/RY/RZ`), its units per g (none of these drivers sets a resolution) and the raw value at 0 g.
/// Devices not in the table can be described by udev properties (see ``EvdevAxisOverrides``).
public struct KnownAccelerometer: Sendable, Equatable {
    /// What the device is, for people (`Nintendo Wii Remote`).
    public var model: String
    /// The kernel module that creates the device (`hid-wiimote`).
    public var kernelDriver: String
    /// The device's name pattern: an exact name, where `*` stands for any text.
    public var namePattern: String
    /// The input IDs (`bus`, `vendor`, `product`) the device must have, when the name alone is not enough.
    public var inputID: InputID?
    /// How to read the axes of an evdev device; `nil` when the kernel's ABS_X/Y/Z and resolution are right.
    public var axes: EvdevAxes?
    /// Which way the axes point, in words; every reading is reported in this frame.
    public var frame: String
    /// Why the kernel's driver delivers nothing a shake can be read from, when it does not (a device description
    /// in the configuration file or a udev property still makes it readable, for a kernel that fixed it).
    public var unreadable: String?

    /// An input device's bus type, vendor and product.
    public struct InputID: Sendable, Equatable, Hashable {
        /// `BUS_USB` (3), `BUS_BLUETOOTH` (5), `BUS_HOST` (0x19), …
        public var bus: UInt16
        /// The vendor ID.
        public var vendor: UInt16
        /// The product ID.
        public var product: UInt16

        /// Creates IDs.
        public init(bus: UInt16, vendor: UInt16, product: UInt16) {
            self.bus = bus
            self.vendor = vendor
            self.product = product
        }
    }

    /// Creates an entry.
    public init(
        model: String, kernelDriver: String, namePattern: String, inputID: InputID? = nil, axes: EvdevAxes? = nil,
        frame: String, unreadable: String? = nil
    ) {
        self.unreadable = unreadable
        self.model = model
        self.kernelDriver = kernelDriver
        self.namePattern = namePattern
        self.inputID = inputID
        self.axes = axes
        self.frame = frame
    }

    /// Whether `name` matches `pattern`, where `*` stands for any text.
    static func name(_ name: String, matches pattern: String) -> Bool {
        let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false)
        guard pieces.count > 1 else { return name == pattern }
        guard name.hasPrefix(pieces[0]), name.hasSuffix(pieces[pieces.count - 1]),
            name.count >= pieces[0].count + pieces[pieces.count - 1].count
        else { return false }
        var rest = name.dropFirst(pieces[0].count).dropLast(pieces[pieces.count - 1].count)
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let found = rest.range(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    /// Whether a device called `name` with `inputID` is this entry.
    public func matches(name: String, inputID: InputID?) -> Bool {
        guard Self.name(name, matches: namePattern) else { return false }
        guard let wanted = self.inputID else { return true }
        return wanted == inputID
    }
}

/// The table of ``KnownAccelerometer``s, evdev and IIO.
public enum KnownAccelerometers {
    /// The frame of IIO drivers and of udev's mount matrix: for a device lying face-up, z points up.
    public static let deviceFrame = "device: x right, y up the screen, z out of the screen (face-up at rest: +z)"
    /// The frame when nothing turns the chip's axes into the device's.
    public static let chipFrame = "chip axes as soldered (no mount matrix: set ACCEL_MOUNT_MATRIX to turn them)"

    /// Input (evdev) accelerometers.
    public static let evdev: [KnownAccelerometer] = [
        // drivers/hid/hid-wiimote-modules.c (wiimod_accel_in_accel, wiimod_accel_probe): ABS_RX/RY/RZ are the
        // ADXL330's 10-bit readings minus 0x200, range ±500, no resolution, no INPUT_PROP_ACCELEROMETER, and no
        // calibration applied (the driver never reads the remote's calibration block). 1 g is 104 counts: the
        // factory calibration typically holds 0x80 at 0 g and 0x9A at 1 g in the upper 8 bits, (0x9A − 0x80) × 4 =
        // 104 (the ADXL330's ratiometric 10 % of its supply per g gives 102); a remote may be a few % off. Lying
        // on a table, buttons up, it reads +1 g on z (WiiBrew's Wii Remote accelerometer page).
        KnownAccelerometer(
            model: "Nintendo Wii Remote", kernelDriver: "hid-wiimote",
            namePattern: "Nintendo Wii Remote Accelerometer",
            axes: EvdevAxes(codes: (0x03, 0x04, 0x05), unitsPerG: (104, 104, 104)),
            frame: "Wii Remote: x toward its left side, y toward the pointer end, z out of the buttons (lying "
                + "buttons-up: +z)"),
        // drivers/misc/lis3lv02d/lis3lv02d.c: joystick axes in milli-g, no resolution or property (udev's hwdb
        // tags it ID_INPUT_ACCELEROMETER).
        KnownAccelerometer(
            model: "ST LIS3LV02DL/LIS331DL laptop accelerometer (HP, Nokia N900)", kernelDriver: "lis3lv02d",
            namePattern: "ST LIS3LV02DL Accelerometer",
            axes: EvdevAxes(codes: (0x00, 0x01, 0x02), unitsPerG: (1000, 1000, 1000)),
            frame: "laptop base as the driver maps it (lying open on a table: +z)"),
        // drivers/hid/hid-udraw-ps3.c (clamp_accel, udraw_setup_accel): ABS_X/Y/Z declared ±512 ("1G accel is
        // reported as ~256"), but each raw reading is clamped to 490…534 (z 492…536) and then divided by
        // (534 − 490) × 0xFF in integers, so every value the node reports is 0 and it never sends an event.
        KnownAccelerometer(
            model: "THQ uDraw tablet (PS3)", kernelDriver: "hid-udraw-ps3",
            namePattern: "THQ uDraw Game Tablet for PS3 Accelerometer",
            frame: "tablet: lying flat, drawing side up: +z",
            unreadable: "its kernel driver (hid-udraw-ps3) scales every accelerometer reading to 0 (clamp_accel "
                + "divides by (max − min) × 255), so this node never reports motion; it cannot detect a shake"),
        // drivers/input/misc/adxl34x.c: ABS_X/Y/Z in full-resolution counts (4 mg each), no resolution or property.
        KnownAccelerometer(
            model: "Analog Devices ADXL345 (input driver)", kernelDriver: "adxl34x",
            namePattern: "ADXL345 accelerometer",
            axes: EvdevAxes(codes: (0x00, 0x01, 0x02), unitsPerG: (256, 256, 256)), frame: chipFrame),
        KnownAccelerometer(
            model: "Analog Devices ADXL346 (input driver)", kernelDriver: "adxl34x",
            namePattern: "ADXL346 accelerometer",
            axes: EvdevAxes(codes: (0x00, 0x01, 0x02), unitsPerG: (256, 256, 256)), frame: chipFrame),
        // drivers/hid/hid-playstation.c: motion sensors with resolution 8192 per g and MSC_TIMESTAMP.
        KnownAccelerometer(
            model: "Sony DualSense", kernelDriver: "hid-playstation",
            namePattern: "Sony Interactive Entertainment DualSense*Motion Sensors",
            frame: "controller: x right, y out of the touchpad, z toward the player (lying flat: +y)"),
        // drivers/hid/hid-sony.c (6.1; hid-playstation from 6.2): DualShock 4, 8192 per g.
        KnownAccelerometer(
            model: "Sony DualShock 4", kernelDriver: "hid-sony / hid-playstation",
            namePattern: "Sony Interactive Entertainment Wireless Controller Motion Sensors",
            frame: "controller: x right, y out of the touchpad, z toward the player (lying flat: +y)"),
        KnownAccelerometer(
            model: "Sony DualShock 3 / Sixaxis", kernelDriver: "hid-sony",
            namePattern: "Sony PLAYSTATION(R)3 Controller Motion Sensors",
            frame: "controller: x right, y out of the face, z toward the player (lying flat: +y)"),
        // drivers/hid/hid-nintendo.c: "<controller> (IMU)", JC_IMU_ACCEL_RES_PER_G = 4096 per g (±8 g over 16
        // bits) as the axes' resolution; three samples per report, told apart by MSC_TIMESTAMP. joycon_parse_imu_report
        // turns the right Joy-Con's y and z around so every controller reports x toward the triggers, y to the left,
        // z out of the buttons and sticks.
        KnownAccelerometer(
            model: "Nintendo Switch controller", kernelDriver: "hid-nintendo", namePattern: "Nintendo Switch *(IMU)",
            frame: "controller: x toward the triggers, y to its left, z out of the buttons and sticks (lying flat, "
                + "buttons up: +z)"),
    ]

    /// IIO accelerometers: the kernel gives axes and scale; the table gives the frame.
    public static let iio: [KnownAccelerometer] = [
        // drivers/iio/accel/hid-sensor-accel-3d.c: HID sensor hubs report in the device's frame.
        KnownAccelerometer(
            model: "HID sensor hub accelerometer", kernelDriver: "hid-sensor-accel-3d", namePattern: "accel_3d",
            frame: deviceFrame),
        KnownAccelerometer(
            model: "HID sensor hub accelerometer (second)", kernelDriver: "hid-sensor-accel-3d",
            namePattern: "accel_3d_*", frame: deviceFrame),
    ]

    /// The evdev entry for a device called `name` with `inputID`, if any.
    public static func evdevEntry(name: String, inputID: KnownAccelerometer.InputID?) -> KnownAccelerometer? {
        evdev.first { $0.matches(name: name, inputID: inputID) }
    }

    /// The IIO entry for a device called `name`, if any.
    public static func iioEntry(name: String) -> KnownAccelerometer? {
        iio.first { $0.matches(name: name, inputID: nil) }
    }

    /// The frame IIO readings are in: a table entry's, the device frame when a mount matrix turns the chip,
    /// the chip's otherwise.
    public static func iioFrame(name: String, hasMountMatrix: Bool) -> String {
        if let entry = iioEntry(name: name) { return entry.frame }
        return hasMountMatrix ? deviceFrame : chipFrame
    }
}
