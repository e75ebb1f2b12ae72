/// An option given a negative number as its value (`--volume -0.5`): swift-argument-parser reads `-0.5` as an option
/// of its own and says the value is missing; joined to the option (`--volume=-0.5`), the option gets it, and a wrong
/// value is refused saying why.
public enum NegativeOptionValues {
    /// `arguments` with each long option that is followed by a negative number joined to it (`--volume=-0.5`), or
    /// `nil` when there is none; what follows `--` is left as it is.
    public static func joined(_ arguments: [String]) -> [String]? {
        var joined: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" {
                joined += arguments[index...]
                break
            }
            if argument.hasPrefix("--"), argument.count > 2, !argument.contains("="), index + 1 < arguments.endIndex,
                isNegativeNumber(arguments[index + 1])
            {
                joined.append(argument + "=" + arguments[index + 1])
                index += 2
            } else {
                joined.append(argument)
                index += 1
            }
        }
        return joined == arguments ? nil : joined
    }

    /// Whether the parser's message says an option has no value (`Missing value for '--limit <count>'`).
    public static func isMissingValue(_ message: String) -> Bool {
        message.hasPrefix("Missing value for") || message.hasPrefix("Error: Missing value for")
    }

    /// `-1`, `-0.5`, `-.5`, `-1e3`: a minus sign and a number.
    public static func isNegativeNumber(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1, let value = Double(word) else { return false }
        return !value.isNaN
    }
}
