import ArgumentParser
import ShakyDrivers

/// `shakyd serve --input`: a sensor spec (`auto`, `iio[:NAME]`, `evdev[:PATH]`, `trace:FILE[,speed=max][,loop]`),
/// the bundled demo trace, or no sensor at all.
enum ServeInput: ExpressibleByArgument, Equatable, Sendable, CustomStringConvertible {
    /// A sensor or a trace.
    case sensor(InputSpec)
    /// The bundled demo trace, looped.
    case demo
    /// No sensor: hints are manual.
    case none

    init?(argument: String) {
        switch argument {
        case "demo": self = .demo
        case "none": self = .none
        default:
            guard let spec = try? InputSpec(parsing: argument) else { return nil }
            self = .sensor(spec)
        }
    }

    /// The forms `--help`, the manual and an invalid value's error list.
    static var allValueStrings: [String] {
        ["auto", "iio[:NAME]", "evdev[:PATH]", "trace:FILE[,speed=max][,loop]", "demo", "none"]
    }

    /// What each form reads, listed under the option in `--help` and the manual.
    static var allValueDescriptions: [String: String] {
        [
            "auto": "The first accelerometer found, in table order (the default).",
            "iio[:NAME]": "An IIO accelerometer, or the one of that name or id (iio:mpu6050, iio:iio:device1).",
            "evdev[:PATH]": "An evdev accelerometer, or the one at that path (evdev:/dev/input/event3).",
            "trace:FILE[,speed=max][,loop]":
                "Replay a recorded trace at real speed, or as fast as it is read; loop repeats it.",
            "demo": "Loop the bundled demo trace.",
            "none": "No sensor: hints are manual.",
        ]
    }

    /// The input in `--input` syntax, as the configuration file also writes it.
    var description: String {
        switch self {
        case .sensor(let spec): spec.description
        case .demo: "demo"
        case .none: "none"
        }
    }
}
