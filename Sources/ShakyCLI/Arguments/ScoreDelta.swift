import ArgumentParser

/// A change of score as typed: `+5`, `5` or `-3` (also `−3` with a minus sign).
struct ScoreDelta: ExpressibleByArgument, Equatable, Sendable, CustomStringConvertible {
    /// The points to add; negative takes points away.
    var points: Int

    init(points: Int) {
        self.points = points
    }

    init?(argument: String) {
        var text = Substring(argument.trimmingSpaces)
        var sign = 1
        if let first = text.first, first == "+" || first == "-" || first == "\u{2212}" {
            sign = first == "+" ? 1 : -1
            text = text.dropFirst()
        }
        guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let value = Int(text) else {
            return nil
        }
        points = sign * value
    }

    var description: String { points > 0 ? "+\(points)" : "\(points)" }
}
