import ArgumentParser
import ShakyProtocol

extension ShakyAPI.GameInterface.NewParameters.Difficulty: ExpressibleByArgument {}
extension ShakyAPI.Question.Difficulty: ExpressibleByArgument {}
extension ShakyAPI.PacksInterface.ImportParameters.Format: ExpressibleByArgument {}
extension ShakyAPI.Settings.Sensitivity: ExpressibleByArgument {}

/// `on` or `off`, for switches such as `--sound`.
enum Switch: String, ExpressibleByArgument, CaseIterable, Sendable {
    case on, off

    /// Whether the switch is on.
    var isOn: Bool { self == .on }
}
