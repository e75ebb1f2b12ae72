/// Holds button presses for a short window so that presses read from several devices leave in the order
/// the kernel stamped them, not in the order they were read.
///
/// Devices are read one after another and their reports reach the daemon with different delays (a USB
/// device is polled every 1–10 ms, a Bluetooth one may lag by tens of milliseconds), so a press read later
/// can have happened earlier. The first press into an empty window opens it; every press that arrives
/// before the window closes (``width`` after it opened) is held with it; when it closes, all of them leave
/// sorted by kernel time. Presses with the same kernel time keep their arrival order here: the game breaks
/// such ties with its seeded generator.
///
/// Pure: the caller passes its clock reading in and asks when to come back.
public struct PressReorderWindow: Sendable {
    /// How long presses are held, measured from the first press of a batch. 40 ms covers USB polling and
    /// typical Bluetooth lag, and is shorter than any person's reaction to another team's buzz.
    public static let standardWidth: Duration = .milliseconds(standardMilliseconds)
    /// ``standardWidth`` in milliseconds: the daemon's `reorder-window` default.
    public static let standardMilliseconds = 40

    /// How long presses are held.
    public let width: Duration
    private var held: [ButtonPress] = []
    private var closesAt: Duration?

    /// Creates an empty window of `width` (a negative width counts as zero).
    public init(width: Duration = Self.standardWidth) {
        self.width = max(.zero, width)
    }

    /// When the window closes, if presses are held.
    public var deadline: Duration? { closesAt }

    /// Whether any press is held.
    public var isEmpty: Bool { held.isEmpty }

    /// Takes a press read at `now`.
    public mutating func add(_ press: ButtonPress, at now: Duration) {
        if closesAt == nil { closesAt = now + width }
        held.append(press)
    }

    /// The held presses in kernel-time order once the window has closed at `now`; nothing before that.
    public mutating func release(at now: Duration) -> [ButtonPress] {
        guard let closesAt, now >= closesAt else { return [] }
        defer {
            held = []
            self.closesAt = nil
        }
        // Sorting indices keeps arrival order for equal kernel times whatever the sort's stability.
        return held.indices.sorted { (held[$0].kernelTime, $0) < (held[$1].kernelTime, $1) }.map { held[$0] }
    }

    /// Every held press in kernel-time order, at once (when reading stops).
    public mutating func flush() -> [ButtonPress] {
        closesAt = .zero
        return release(at: .zero)
    }
}
