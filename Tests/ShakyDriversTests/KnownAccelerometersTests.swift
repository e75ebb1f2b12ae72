import ShakyCore
import Testing

@testable import ShakyDrivers

@Suite struct KnownAccelerometersTests {
    typealias Axis = EvdevCapabilities.Axis

    static func axes(_ codes: [UInt16], _ axis: Axis) -> [UInt16: Axis] {
        Dictionary(uniqueKeysWithValues: codes.map { ($0, axis) })
    }

    /// hid-wiimote reports the 10-bit reading minus 0x200 with no calibration; 1 g is (0x9A − 0x80) × 4 counts.
    @Test func theWiiRemoteIsReadOnItsRotationAxesAt104PerG() throws {
        let wiimote = EvdevCapabilities(
            name: "Nintendo Wii Remote Accelerometer", isAccelerometer: false,
            axes: Self.axes([3, 4, 5], Axis(minimum: -500, maximum: 500, resolution: 0)))
        let profile = try EvdevAccelerometerProfile.resolve(wiimote)
        #expect(profile.axes.codes == (3, 4, 5))
        #expect(profile.axes.convert(x: 0, y: 0, z: (0x9A - 0x80) * 4).z == AccelSample.standardGravity)
        #expect(profile.known?.kernelDriver == "hid-wiimote")
        #expect(profile.frame.contains("Wii Remote"))
    }

    /// hid-udraw-ps3's clamp_accel divides every reading to 0: the node is refused with that reason, unless the
    /// host describes it (a kernel that fixed the driver).
    @Test func theUDrawIsRefusedForItsDriverReportsOnlyZeros() throws {
        let udraw = EvdevCapabilities(
            name: "THQ uDraw Game Tablet for PS3 Accelerometer", isAccelerometer: true,
            axes: Self.axes([0, 1, 2], Axis(minimum: -512, maximum: 512, resolution: 0)))
        #expect {
            try EvdevAccelerometerProfile.resolve(udraw, node: "/dev/input/event35")
        } throws: { error in
            "\(error)".hasPrefix("/dev/input/event35: its kernel driver (hid-udraw-ps3) scales every accelerometer")
        }
        let described = AccelerometerDescription(name: "THQ uDraw*", unitsPerG: (256, 256, 256))
        #expect(try EvdevAccelerometerProfile.resolve(udraw, description: described).axes.unitsPerG == (256, 256, 256))
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
        let switchProfile = try EvdevAccelerometerProfile.resolve(nintendo)
        #expect(switchProfile.known?.kernelDriver == "hid-nintendo")
        #expect(switchProfile.axes.unitsPerG == (4096, 4096, 4096), "JC_IMU_ACCEL_RES_PER_G")
        #expect(switchProfile.frame.hasPrefix("controller: x toward the triggers, y to its left, z out of the buttons"))
    }

    @Test func anUnknownDeviceWithoutAResolutionIsRefusedWithTheEntryAndRuleToAdd() throws {
        let device = EvdevCapabilities(
            name: "Acme Tilt Sensor", isAccelerometer: true,
            axes: Self.axes([0, 1, 2], Axis(minimum: -512, maximum: 512, resolution: 0, value: 0)).merging(
                [2: Axis(minimum: -512, maximum: 512, resolution: 0, value: 251)]
            ) { $1 })
        let error = try #require(throws: EvdevSetupError.self) {
            try EvdevAccelerometerProfile.resolve(device, node: "/dev/input/event7")
        }
        #expect("\(error)".hasPrefix("/dev/input/event7: ABS_X/ABS_Y/ABS_Z report no resolution"))
        #expect(
            error.suggestion == """
                to read it, add to /etc/shaky/shakyd.conf:
                  accelerometers:
                    - name: "Acme Tilt Sensor"
                      units-per-g: N
                or a udev rule: SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="Acme Tilt Sensor", \
                ENV{SHAKY_ACCEL_UNITS_PER_G}="N"
                N is its reading along gravity at rest; it reads 251 now (that is N if it lies still)
                """)
    }

    @Test func aConfigurationEntryDescribesAnUnknownDeviceAndWinsOverUdev() throws {
        let device = EvdevCapabilities(
            name: "Acme Tilt Sensor", inputID: .init(bus: 0x19, vendor: 0x1234, product: 0xABCD),
            isAccelerometer: false,
            axes: Self.axes([3, 4, 5], Axis(minimum: -512, maximum: 512, resolution: 0)))
        let entry = try AccelerometerDescription(fields: [
            "id": "1234:abcd", "axes": "rx ry rz", "units-per-g": "200 200 190", "frame": "lid",
        ])
        #expect(entry.matches(name: device.name, inputID: device.inputID, driver: nil))
        let otherProduct = KnownAccelerometer.InputID(bus: 0x19, vendor: 0x1234, product: 1)
        let matchesOther = entry.matches(name: device.name, inputID: otherProduct, driver: nil)
        #expect(!matchesOther)
        let profile = try EvdevAccelerometerProfile.resolve(
            device, udevProperties: ["SHAKY_ACCEL_UNITS_PER_G": "50", "SHAKY_ACCEL_FRAME": "udev's"], description: entry
        )
        #expect(profile.axes == EvdevAxes(codes: (3, 4, 5), unitsPerG: (200, 200, 190)))
        #expect(profile.frame == "lid")
        let byDriver = AccelerometerDescription(driver: "hid-acme", unitsPerG: (1, 1, 1))
        #expect(byDriver.matches(name: "x", inputID: nil, driver: "acme"))
        #expect(!byDriver.matches(name: "x", inputID: nil, driver: nil))
    }

    @Test(arguments: [
        (["name": "A", "units-per-g": "0"], "units-per-g “0” must be one positive number or three"),
        (["name": "A", "units-per-g": "1 2"], "units-per-g “1 2” must be one positive number or three"),
        (["name": "A", "axes": "ABS_X ABS_Y"], "axes “ABS_X ABS_Y” must name three axes among ABS_X … ABS_RZ"),
        (["id": "57e-306", "center": "0"], "id “57e-306” must be vendor:product in hexadecimal, such as 057e:0306"),
        (
            ["name": "A", "scale": "2"],
            "unknown key “scale” in an accelerometer entry; known: name, id, driver, axes, units-per-g, center, frame"
        ),
        (["units-per-g": "2"], "an accelerometer entry must say which device it is: name, id or driver"),
        (["name": "A"], "an accelerometer entry must say how to read the device: units-per-g, axes, center or frame"),
    ])
    func aBadConfigurationEntryIsRefusedWithWhatIsWrong(fields: [String: String], problem: String) {
        #expect(throws: AccelerometerDescription.FieldError.self) { try AccelerometerDescription(fields: fields) }
        do {
            _ = try AccelerometerDescription(fields: fields)
        } catch {
            #expect(error.problem == problem)
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
        let described = [AccelerometerDescription(name: "Acme Tilt*", unitsPerG: (256, 256, 256))]
        #expect(EvdevDriver.isCandidate(node("Acme Tilt Sensor"), descriptions: described))
        #expect(!EvdevDriver.isCandidate(node("Acme Tilt Sensor")))
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
