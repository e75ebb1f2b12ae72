import ArgumentParser
import ShakyProtocol

extension ShakyAPI.DifficultyFilter: ExpressibleByArgument {}
extension ShakyAPI.Difficulty: ExpressibleByArgument {}
extension ShakyAPI.PackFormat: ExpressibleByArgument {}
extension ShakyAPI.Sensitivity: ExpressibleByArgument {}

/// `on` or `off`, for switches such as `--sound`.
enum Switch: String, ExpressibleByArgument, CaseIterable, Sendable {
    case on, off

    /// Whether the switch is on.
    var isOn: Bool { self == .on }
}
