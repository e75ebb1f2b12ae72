import Testing

@testable import ShakyCLI

/// The one-line commands of `shaky play`.
@Suite struct PlayCommandTests {
    @Test(arguments: [
        ("n", PlayCommand.next), ("next", .next), ("  h ", .hint), ("b Owls", .buzz(team: "Owls")),
        ("B snow owls", .buzz(team: "snow owls")), ("2", .buzzNumber(2)), ("b 3", .buzzNumber(3)),
        ("a snow leopard", .answer("snow leopard")), ("p", .togglePause), ("s", .skip), ("e", .end),
        ("t", .scoreboard), ("st", .status), ("w 2.5", .wait(seconds: 2.5)), ("?", .help), ("q", .quit),
        ("", .nothing), ("# a comment", .nothing),
    ])
    func parses(line: String, command: PlayCommand) throws {
        #expect(try PlayCommand.parse(line) == command)
    }

    @Test(arguments: [
        ("x", "unknown command “x”"), ("b", "say who buzzes"), ("a", "say the answer"), ("w soon", "how long"),
        ("9", "there is no team 9"), ("n now", "takes nothing after it"),
    ])
    func refuses(line: String, message: String) {
        #expect {
            try PlayCommand.parse(line)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
