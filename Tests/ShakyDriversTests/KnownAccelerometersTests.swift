import ShakyCore
import Testing

@testable import ShakyDrivers

@Suite struct KnownAccelerometersTests {
    typealias Axis = EvdevCapabilities.Axis

    static func axes(_ codes: [UInt16], _ axis: Axis) -> [UInt16: Axis] {
        Dictionary(uniqueKeysWithValues: codes.map { ($0, axis) })
    }

    @Test func theWiiRemoteIsReadOnItsRotationAxesAtAHundredPerG() throws {
        let wiimote = EvdevCapabilities(
            name: "Nintendo Wii Remote Accelerometer", isAccelerometer: false,
            axes: Self.axes([3, 4, 5], Axis(minimum: -500, maximum: 500, resolution: 0)))
        let profile = try EvdevAccelerometerProfile.resolve(wiimote)
        #expect(profile.axes.codes == (3, 4, 5))
        #expect(profile.axes.convert(x: 0, y: 0, z: 100).z == AccelSample.standardGravity)
        #expect(profile.known?.kernelDriver == "hid-wiimote")
        #expect(profile.frame.contains("Wii Remote"))
    }

    @Test func theUDrawIsCentredOnItsRestValue() throws {
        let udraw = EvdevCapabilities(
            name: "THQ uDraw Game Tablet for PS3 Accelerometer", isAccelerometer: true,
            axes: Self.axes([0, 1, 2], Axis(minimum: 490, maximum: 534, resolution: 0)))
        let axes = try EvdevAccelerometerProfile.resolve(udraw).axes
        let reading = axes.convert(x: 512, y: 534, z: 514)
        #expect(reading.x == 0 && reading.z == 0)
        #expect(abs(reading.y - AccelSample.standardGravity) < 1e-12)
    }

    @Test(arguments: [
        ("ST LIS3LV02DL Accelerometer", 1000.0), ("ADXL345 accelerometer", 256.0), ("ADXL346 accelerometer", 256.0),
    ])
    func chipsWithoutAResolutionGetTheirUnitsFromTheTable(name: String, unitsPerG: Double) throws {
        let device = EvdevCapabilities(
            name: name, isAccelerometer: false,
            axes: Self.axes([0, 1, 2], Axis(minimum: -4096, maximum: 4096, resolution: 0)))
        #expect(try EvdevAccelerometerProfile.resolve(device).axes.unitsPerG == (unitsPerG, unitsPerG, unitsPerG))
    }

    @Test func controllersKeepTheKernelsResolutionAndGainAFrame() throws {
        let dualSense = EvdevCapabilities(
            name: "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors", isAccelerometer: true,
            axes: Self.axes([0, 1, 2, 3, 4, 5], Axis(minimum: -32768, maximum: 32768, resolution: 8192)),
            sendsTimestamps: true)
        let profile = try EvdevAccelerometerProfile.resolve(dualSense)
        #expect(profile.axes.unitsPerG == (8192, 8192, 8192))
        #expect(profile.frame.contains("lying flat: +y"))
        let nintendo = EvdevCapabilities(
            name: "Nintendo Switch Left Joy-Con (IMU)", isAccelerometer: true,
            axes: Self.axes([0, 1, 2], Axis(minimum: -32767, maximum: 32767, resolution: 4096)))
        #expect(try EvdevAccelerometerProfile.resolve(nintendo).known?.kernelDriver == "hid-nintendo")
    }

    @Test func anUnknownDeviceWithoutAResolutionIsRefusedWithTheRuleToAdd() {
        let device = EvdevCapabilities(
            name: "Acme Tilt Sensor", isAccelerometer: true,
            axes: Self.axes([0, 1, 2], Axis(minimum: -512, maximum: 512, resolution: 0)))
        #expect {
            try EvdevAccelerometerProfile.resolve(device, node: "/dev/input/event7")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("/dev/input/event7: ABS_X/ABS_Y/ABS_Z report no resolution")
                && text.contains(#"ATTRS{name}=="Acme Tilt Sensor", ENV{SHAKY_ACCEL_UNITS_PER_G}="N""#)
        }
    }

    @Test func aJoystickIsNotTakenForAnAccelerometer() {
        let joystick = EvdevCapabilities(
            name: "Logitech Extreme 3D", isAccelerometer: false,
            axes: Self.axes([0, 1, 2], Axis(minimum: 0, maximum: 1023, resolution: 0)))
        #expect {
            try EvdevAccelerometerProfile.resolve(joystick)
        } throws: { error in "\(error)".contains("not marked as an accelerometer") }
    }

    @Test func udevPropertiesDescribeAnUnknownDevice() throws {
        let device = EvdevCapabilities(
            name: "Acme Tilt Sensor", isAccelerometer: false,
            axes: Self.axes([3, 4, 5], Axis(minimum: -512, maximum: 512, resolution: 0)))
        let profile = try EvdevAccelerometerProfile.resolve(
            device,
            udevProperties: [
                "SHAKY_ACCEL_UNITS_PER_G": "256", "SHAKY_ACCEL_AXES": "ABS_RX ABS_RY ABS_RZ", "SHAKY_ACCEL_CENTER": "4",
                "SHAKY_ACCEL_FRAME": "lid",
            ])
        #expect(profile.axes == EvdevAxes(codes: (3, 4, 5), unitsPerG: (256, 256, 256), center: (4, 4, 4)))
        #expect(profile.frame == "lid")
        #expect(throws: EvdevSetupError.self) {
            try EvdevAccelerometerProfile.resolve(device, udevProperties: ["SHAKY_ACCEL_UNITS_PER_G": "-1"])
        }
        #expect(throws: EvdevSetupError.self) {
            try EvdevAccelerometerProfile.resolve(
                device, udevProperties: ["SHAKY_ACCEL_UNITS_PER_G": "9", "SHAKY_ACCEL_AXES": "ABS_X ABS_Y"])
        }
    }

    @Test func candidatesAreTaggedKnownOrNamedSo() {
        func node(_ name: String, _ properties: [String: String] = [:]) -> UdevDevice {
            UdevDevice(
                sysfsPath: "/sys/devices/x/input9/event9", sysname: "event9", subsystem: "input",
                devicePath: "/dev/input/event9", name: name, properties: properties)
        }
        #expect(EvdevDriver.isCandidate(node("Nintendo Wii Remote Accelerometer", ["ID_INPUT_JOYSTICK": "1"])))
        #expect(EvdevDriver.isCandidate(node("Foo", ["ID_INPUT_ACCELEROMETER": "1"])))
        #expect(EvdevDriver.isCandidate(node("Foo", ["SHAKY_ACCEL_UNITS_PER_G": "100"])))
        #expect(EvdevDriver.isCandidate(node("Some Gamepad Motion Sensors")))
        #expect(!EvdevDriver.isCandidate(node("AT Translated Set 2 keyboard", ["ID_INPUT_KEYBOARD": "1"])))
        #expect(!EvdevDriver.isCandidate(node("Nintendo Wii Remote")))
    }

    @Test func namePatternsMatchAroundTheirStar() {
        #expect(KnownAccelerometer.name("Nintendo Switch Pro Controller (IMU)", matches: "Nintendo Switch *(IMU)"))
        #expect(!KnownAccelerometer.name("Nintendo Switch Pro Controller", matches: "Nintendo Switch *(IMU)"))
        #expect(KnownAccelerometer.name("accel_3d", matches: "accel_3d"))
        #expect(!KnownAccelerometer.name("accel_3d_2", matches: "accel_3d"))
    }

    @Test func iioFramesComeFromTheTableOrTheMountMatrix() {
        #expect(
            KnownAccelerometers.iioFrame(name: "accel_3d", hasMountMatrix: false) == KnownAccelerometers.deviceFrame)
        #expect(KnownAccelerometers.iioFrame(name: "mpu6050", hasMountMatrix: true) == KnownAccelerometers.deviceFrame)
        #expect(KnownAccelerometers.iioFrame(name: "mpu6050", hasMountMatrix: false) == KnownAccelerometers.chipFrame)
    }

    @Test func theDataReadyTriggerIsNotAnEventTrigger() {
        #expect(IIODevice.dataReadyTrigger(among: ["bma250e-any-motion-dev0", "bma250e-dev0"]) == "bma250e-dev0")
        #expect(IIODevice.dataReadyTrigger(among: ["lis3dh-trigger"]) == "lis3dh-trigger")
        #expect(IIODevice.dataReadyTrigger(among: ["kxcj91008-any-motion-dev0"]) == nil)
    }

    @Test func aRateBelowFiftyHertzIsNoted() {
        #expect(IIODiscovery.rateNote(achieved: 12.5, wanted: 100)?.hasPrefix("runs at 12.5 Hz") == true)
        #expect(IIODiscovery.rateNote(achieved: 100, wanted: 100) == nil)
        #expect(IIODiscovery.rateNote(achieved: 20, wanted: 20) == nil, "asked for")
    }
}
