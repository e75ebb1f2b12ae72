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

    /// The forms `--help` and an invalid value's error list.
    static var allValueStrings: [String] {
        ["auto", "iio[:NAME]", "evdev[:PATH]", "trace:FILE[,speed=max][,loop]", "demo", "none"]
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
