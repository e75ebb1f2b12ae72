/// Which accelerometer to read, as given to `--input`.
///
/// ```
/// auto                        the first device the driver table finds (IIO buffered, IIO polled, evdev)
/// iio                         the first IIO accelerometer (buffered, else polled)
/// iio:NAME                    the IIO device with that name or id (`mpu6050`, `iio:device1`)
/// evdev                       the first evdev accelerometer
/// evdev:PATH                  that event device (`/dev/input/event3`)
/// trace:FILE[,speed=max][,loop]   replay a recorded trace, at real speed unless speed=max
/// ```
public enum InputSpec: Sendable, Hashable, CustomStringConvertible {
    /// Any live device, in driver-table order.
    case auto
    /// An IIO device: any, or the one with this name or id.
    case iio(name: String?)
    /// An evdev accelerometer: any, or the one at this path.
    case evdev(path: String?)
    /// A recorded trace.
    case trace(path: String, speed: ReplaySpeed, loop: Bool)

    /// How fast a trace is replayed.
    public enum ReplaySpeed: Sendable, Hashable {
        /// At the pace of the trace's timestamps.
        case realTime
        /// As fast as the reader takes samples.
        case max
    }

    /// Parses the `--input` text.
    public init(parsing text: String) throws(InputSpecError) {
        let (kind, argument): (Substring, Substring?) =
            if let colon = text.firstIndex(of: ":") {
                (text[..<colon], text[text.index(after: colon)...])
            } else {
                (text[...], nil)
            }
        switch kind {
        case "auto":
            guard argument == nil else { throw InputSpecError(text: text, problem: "auto takes no argument") }
            self = .auto
        case "iio":
            guard let argument else {
                self = .iio(name: nil)
                return
            }
            guard !argument.isEmpty else {
                throw InputSpecError(text: text, problem: "empty device name after \"iio:\"")
            }
            self = .iio(name: String(argument))
        case "evdev":
            guard let argument else {
                self = .evdev(path: nil)
                return
            }
            guard argument.hasPrefix("/") else {
                throw InputSpecError(text: text, problem: "expected an absolute device path after \"evdev:\"")
            }
            self = .evdev(path: String(argument))
        case "trace":
            guard let argument, !argument.isEmpty else {
                throw InputSpecError(text: text, problem: "expected a file after \"trace:\"")
            }
            var fields = argument.split(separator: ",", omittingEmptySubsequences: false)
            let path = String(fields.removeFirst())
            guard !path.isEmpty else { throw InputSpecError(text: text, problem: "empty trace file name") }
            var speed = ReplaySpeed.realTime
            var loop = false
            for option in fields {
                switch option {
                case "speed=max": speed = .max
                case "speed=real", "speed=1": speed = .realTime
                case "loop": loop = true
                default:
                    throw InputSpecError(
                        text: text, problem: "unknown trace option \"\(option)\" (known: speed=max, loop)")
                }
            }
            self = .trace(path: path, speed: speed, loop: loop)
        case "demo", "none":
            // `shakyd serve` takes these two before it parses a spec; the tools that read a sensor do not.
            throw InputSpecError(
                text: text,
                problem: "\(kind) is for shakyd serve only; here use auto, iio[:NAME], evdev[:PATH] or trace:FILE")
        default:
            throw InputSpecError(
                text: text,
                problem: InputSpecError.unknownKindPrefix
                    + "\"\(kind)\"; use auto, iio[:NAME], evdev[:PATH] or trace:FILE")
        }
    }

    /// The spec in `--input` syntax.
    public var description: String {
        switch self {
        case .auto: "auto"
        case .iio(let name): name.map { "iio:\($0)" } ?? "iio"
        case .evdev(let path): path.map { "evdev:\($0)" } ?? "evdev"
        case .trace(let path, let speed, let loop):
            "trace:\(path)" + (speed == .max ? ",speed=max" : "") + (loop ? ",loop" : "")
        }
    }

    /// Whether this spec names a live device (not a trace), so hotplug applies.
    public var isLive: Bool {
        if case .trace = self { return false }
        return true
    }
}

/// An `--input` value that cannot be understood.
public struct InputSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text as given.
    public var text: String
    /// What is wrong.
    public var problem: String

    public var description: String { "invalid input \"\(text)\": \(problem)" }

    /// Whether the text names no input kind at all (rather than a known kind with a bad argument).
    public var isUnknownKind: Bool { problem.hasPrefix(Self.unknownKindPrefix) }

    static let unknownKindPrefix = "unknown input "
}
