import ShakyDrivers
import Testing

@Suite struct InputSpecTests {
    @Test(arguments: [
        ("auto", InputSpec.auto),
        ("iio", .iio(name: nil)),
        ("iio:mpu6050", .iio(name: "mpu6050")),
        ("iio:iio:device1", .iio(name: "iio:device1")),
        ("evdev", .evdev(path: nil)),
        ("evdev:/dev/input/event3", .evdev(path: "/dev/input/event3")),
        ("trace:shake.csv", .trace(path: "shake.csv", speed: .realTime, loop: false)),
        ("trace:/tmp/a b.csv,speed=max", .trace(path: "/tmp/a b.csv", speed: .max, loop: false)),
        ("trace:demo.csv,loop", .trace(path: "demo.csv", speed: .realTime, loop: true)),
        ("trace:demo.csv,loop,speed=max", .trace(path: "demo.csv", speed: .max, loop: true)),
    ])
    func parses(text: String, spec: InputSpec) throws {
        #expect(try InputSpec(parsing: text) == spec)
    }

    @Test(arguments: [
        ("", "unknown input"),
        ("usb", "unknown input \"usb\""),
        ("auto:x", "auto takes no argument"),
        ("iio:", "empty device name"),
        ("evdev:event3", "absolute device path"),
        ("trace", "expected a file"),
        ("trace:", "expected a file"),
        ("trace:,loop", "empty trace file name"),
        ("trace:a.csv,speed=2", "unknown trace option \"speed=2\""),
        ("trace:a.csv,fast", "unknown trace option \"fast\""),
        ("demo", "demo is for shakyd serve only; here use auto"),
        ("none", "none is for shakyd serve only; here use auto"),
    ])
    func rejectsWithTheReason(text: String, problem: String) {
        #expect {
            try InputSpec(parsing: text)
        } throws: { error in
            let description = "\(error)"
            return description.contains(problem) && description.hasPrefix("invalid input \"\(text)\"")
        }
    }

    @Test(arguments: ["auto", "iio", "iio:mma8451", "evdev:/dev/input/event2", "trace:x.csv,speed=max,loop"])
    func printsBackAsParsed(text: String) throws {
        #expect(try InputSpec(parsing: text).description == text)
    }
}
