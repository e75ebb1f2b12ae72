import ShakyDrivers
import Testing

@testable import ShakyDaemon

/// The configuration file's `accelerometers:` list: descriptions of input accelerometers shakyd does not know,
/// each bad value refused with its file and line.
@Suite struct AccelerometerOptionsTests {
    @Test func entriesDescribeDevicesByNameIDOrDriver() throws {
        let text = """
            log-level: info
            accelerometers:
              - name: "Acme Tilt Sensor"
                units-per-g: 256
              - id: "1234:abcd"
                axes: [ABS_RX, ABS_RY, ABS_RZ]
                units-per-g: [100, 100, 98]
                center: 2
                frame: lid
            """
        let settings = try DaemonOptions.parse(text, path: "shakyd.conf")
        #expect(
            settings.accelerometers == [
                AccelerometerDescription(name: "Acme Tilt Sensor", unitsPerG: (256, 256, 256)),
                AccelerometerDescription(
                    vendorProduct: .init(vendor: 0x1234, product: 0xABCD), axes: (3, 4, 5), unitsPerG: (100, 100, 98),
                    center: (2, 2, 2), frame: "lid"),
            ])
        #expect(DaemonConfiguration(resolving: settings).accelerometers.count == 2)
        #expect(DaemonConfiguration(resolving: DaemonOptions()).accelerometers.isEmpty)
    }

    @Test(arguments: [
        (
            "accelerometers:\n  - name: A\n    units-per-g: -4\n", 3,
            "units-per-g “-4” must be one positive number or three"
        ),
        ("accelerometers:\n  - name: A\n\n    axis: ABS_X\n", 4, "unknown key “axis” in an accelerometer entry"),
        ("accelerometers:\n  - units-per-g: 9\n", 2, "must say which device it is: name, id or driver"),
        ("log-level: info\naccelerometers: 256\n", 2, "accelerometers must be a list of entries"),
        (
            "accelerometers:\n  - name: A\n    units-per-g: {x: 1}\n", 3,
            "units-per-g must be a value or a list of values"
        ),
    ])
    func aBadEntryIsRefusedOnItsLine(text: String, line: Int, problem: String) {
        #expect {
            try DaemonOptions.parse(text, path: "shakyd.conf")
        } throws: { error in
            guard let error = error as? ConfigurationFileError else { return false }
            return error.line == line && error.problem.contains(problem)
        }
    }
}
