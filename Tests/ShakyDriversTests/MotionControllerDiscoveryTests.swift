import ShakyCore
import Testing

@testable import ShakyDrivers

/// Which evdev accelerometers are game controllers, and which buttons belong to each.
struct MotionControllerDiscoveryTests {
    static let hid = "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.3/0003:054C:0CE6.0003"

    static func node(_ number: Int, name: String, hid: String = hid, properties: [String: String] = [:]) -> UdevDevice {
        UdevDevice(
            sysfsPath: "\(hid)/input/input\(number)/event\(number)", sysname: "event\(number)", subsystem: "input",
            devicePath: "/dev/input/event\(number)", name: name, properties: properties)
    }

    static func motion(_ name: String, sysfsPath: String) -> DiscoveredDevice {
        let info = SourceInfo(driver: "evdev", devicePath: "/dev/input/event30", deviceName: name, sysfsPath: sysfsPath)
        return DiscoveredDevice(driver: "evdev", devicePath: "/dev/input/event30", deviceName: name, info: info) {
            throw DeviceError(device: "/dev/input/event30", operation: "open", code: 2)
        }
    }

    @Test(arguments: [
        ("Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors", true),
        ("Sony Interactive Entertainment Wireless Controller Motion Sensors", true),
        ("Nintendo Switch Left Joy-Con IMU", true),
        ("Nintendo Switch Pro Controller (IMU)", true),
        ("Nintendo Wii Remote Accelerometer", true),
        ("ST LIS3LV02DL Accelerometer", false),
        ("ADXL345 accelerometer", false),
    ])
    func motionControllersAreToldFromTheBoardsSensorsByName(_ name: String, _ isController: Bool) {
        #expect(MotionControllerDiscovery.isMotionController(name: name) == isController)
    }

    @Test func theButtonsAreTheNodeBesideTheMotionSensorsUnderTheSameHIDDevice() {
        let name = "Sony Interactive Entertainment DualSense Wireless Controller"
        let inputs = [
            Self.node(30, name: name + " Motion Sensors", properties: ["ID_INPUT_ACCELEROMETER": "1"]),
            Self.node(32, name: name + " Touchpad", properties: ["ID_PATH": "pci-0000:00:14.0-usb-0:2:1.3"]),
            Self.node(31, name: name, properties: ["ID_PATH": "pci-0000:00:14.0-usb-0:2:1.3"]),
            // Another controller of the same model elsewhere: not this one's buttons.
            Self.node(
                41, name: name, hid: "/sys/devices/virtual/misc/uhid/0005:054C:0CE6.0004",
                properties: ["ID_SERIAL": "other"]),
        ]
        let motion = Self.motion(name + " Motion Sensors", sysfsPath: "\(Self.hid)/input/input30/event30")
        #expect(
            MotionControllerDiscovery.buttonsIdentity(of: motion, among: inputs) == "pci-0000:00:14.0-usb-0:2:1.3")
        // Without udev's identity properties the buttons are named as the buzzer discovery names them.
        let bare = inputs.map { input in
            var copy = input
            copy.properties["ID_PATH"] = nil
            return copy
        }
        #expect(MotionControllerDiscovery.buttonsIdentity(of: motion, among: bare) == "name:\(name)")
        #expect(MotionControllerDiscovery.buttonsIdentity(of: motion, among: [inputs[0], inputs[3]]) == nil)
    }

    @Test func theHardwareIsTheHIDDeviceAboveTheInputNode() {
        #expect(
            MotionControllerDiscovery.hardwarePath(of: "\(Self.hid)/input/input30/event30")
                == "/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.3/0003:054C:0CE6.0003")
        #expect(
            MotionControllerDiscovery.hardwarePath(
                of: "/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.3/0003:054C:0CE6.0003/input/input31")
                == MotionControllerDiscovery.hardwarePath(of: "\(Self.hid)/input/input31/event31"))
    }
}
