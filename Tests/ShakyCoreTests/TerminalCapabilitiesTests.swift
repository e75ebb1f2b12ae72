import ShakyCore
import Testing

/// One rule for every client: a dumb or unset terminal type gets no escape sequences, and NO_COLOR set to anything
/// but the empty string turns colours off.
@Suite struct TerminalCapabilitiesTests {
    @Test(arguments: [("xterm-256color", true), ("linux", true), ("dumb", false), ("", false), (nil, false)])
    func aDumbOrUnsetTerminalTakesNoEscapeSequences(term: String?, takesThem: Bool) {
        #expect(TerminalCapabilities.takesEscapeSequences(term: term) == takesThem)
    }

    @Test(arguments: [
        (["TERM": "xterm"], true), (["TERM": "xterm", "NO_COLOR": "1"], false),
        (["TERM": "xterm", "NO_COLOR": ""], true),
        (["TERM": "dumb"], false), ([:], false),
    ])
    func coloursFollowTheTerminalTypeAndNoColor(environment: [String: String], coloured: Bool) {
        #expect(TerminalCapabilities.coloursWanted(environment: environment) == coloured)
    }
}
