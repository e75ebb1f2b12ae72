/// How text for people is marked up: plain for pipes and files, underlined letters on a terminal.
enum TextStyle: Sendable, Equatable {
    /// Plain text: fixed letters in brackets, `[T]`.
    case plain
    /// A terminal: fixed letters bold and underlined.
    case terminal

    /// A letter a hint has put in its right place.
    func fixedLetter(_ text: String) -> String {
        switch self {
        case .plain: "[\(text)]"
        case .terminal: "\u{1B}[1;4m\(text)\u{1B}[0m"
        }
    }

    /// Text that stands out, such as the phase or a warning.
    func strong(_ text: String) -> String {
        switch self {
        case .plain: text
        case .terminal: "\u{1B}[1m\(text)\u{1B}[0m"
        }
    }
}
