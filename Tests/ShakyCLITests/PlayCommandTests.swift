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
        ("+ Owls 5 best costumes", .adjust(team: "Owls", delta: 5, reason: "best costumes")),
        ("- snow owls 3", .adjust(team: "snow owls", delta: -3, reason: "adjusted by the host")),
        ("+2 4 late buzz", .adjust(team: "2", delta: 4, reason: "late buzz")),
    ])
    func parses(line: String, command: PlayCommand) throws {
        #expect(try PlayCommand.parse(line) == command)
    }

    @Test func aScoreChangeTakesItsPointsAfterATeamNameThatHoldsANumber() throws {
        let teams = ["Team 2", "Top 10", "Owls"]
        #expect(
            try PlayCommand.parse("+ Team 2 5", teams: teams)
                == .adjust(team: "Team 2", delta: 5, reason: "adjusted by the host"))
        #expect(
            try PlayCommand.parse("- top 10 3 late", teams: teams) == .adjust(team: "top 10", delta: -3, reason: "late")
        )
        #expect(
            try PlayCommand.parse("+ Owls 5 for 2 answers", teams: teams)
                == .adjust(team: "Owls", delta: 5, reason: "for 2 answers"))
        #expect(
            try PlayCommand.parse("+ 2 5", teams: teams) == .adjust(team: "2", delta: 5, reason: "adjusted by the host")
        )
    }

    @Test(arguments: [
        ("x", "unknown command “x”"), ("b", "say who buzzes"), ("a", "say the answer"), ("w soon", "how long"),
        ("9", "there is no team 9"), ("n now", "takes nothing after it"), ("+ Owls", "by how much"),
        ("- 5", "by how much"), ("+ Owls 1001", "by 1 to 1000 points, not 1001"),
        ("- 2 0", "by 1 to 1000 points, not 0"), ("hPx", "unknown command “hPx”"),
        ("N now", "“N” takes nothing after it"),
        // F1 (ESC O P) and Home (ESC [ 1 ~) typed at the prompt: said, not sent to the terminal again.
        ("h\u{1B}OPx", "the line holds the control character U+001B"), ("a \u{1B}[1~tiger", "an arrow or function key"),
    ])
    func refuses(line: String, message: String) {
        #expect {
            try PlayCommand.parse(line)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}

/// The terminal layout of `shaky play`.
@Suite struct PlayScreenTests {
    let screen = PlayScreen(rows: 20, columns: 30)

    @Test func eventsScrollAboveTheCountdownAndThePromptLineIsNeverTouched() {
        #expect(screen.setUp.hasPrefix("\u{1B}[1;18r"))
        let event = screen.event("Buzz: Owls #1")
        #expect(event.hasPrefix("\u{1B}7\u{1B}[18;1H") && event.hasSuffix("\u{1B}8"))
        #expect(!event.contains("[20;"), "an event never moves to the prompt line")
        let countdown = screen.countdown("[00:17] buzzers open")
        #expect(countdown.contains("\u{1B}[19;1H") && countdown.hasSuffix("\u{1B}8"))
        #expect(!countdown.contains("[20;"))
    }

    @Test func thePromptLineIsDrawnOnTheBottomRowWithTheCursorWhereTheHostTypes() {
        #expect(screen.promptColumns == 28)
        let line = screen.promptLine(LineEditor.View(text: "<ger", cursorColumn: 2))
        #expect(line == "\u{1B}[20;1H\u{1B}[2K> <ger\u{1B}[20;5H")
    }

    @Test func aRedrawScrollsTheScreenOffAndShowsTheLastEventsThatFillIt() {
        let small = PlayScreen(rows: 6, columns: 30)
        let events = [
            "Teams: 1 Owls · 2 Foxes", "Question 1/10: Which big cat is this?  T I G E R  (10 points)", "> b 1",
        ]
        let redrawn = small.redrawn(events: events, countdown: "[00:17] paused, type p to resume")
        // What showed scrolls off into the scrollback, not erased.
        #expect(redrawn.hasPrefix("\u{1B}[r\u{1B}[6;1H\n\n\n\n\n\n" + small.setUp))
        // Four rows for events: the question takes three at 30 columns and the buzz one, so the teams stay out.
        #expect(!redrawn.contains("Teams") && redrawn.contains("Which big cat") && redrawn.contains("> b 1"))
        #expect(redrawn.hasSuffix(small.countdown("[00:17] paused, type p to resume")))
    }

    @Test func theCountdownNeverWrapsAtNarrowWidths() {
        let line = "[00:17] buzzers open  [T] G I R E / O W L S  (8 points)"
        let fitted = PlayScreen.fitting(line, columns: 29)
        #expect(fitted.displayWidth == 29)
        #expect(fitted.hasSuffix("…"))
        #expect(PlayScreen.fitting("short", columns: 29) == "short")
        // On a terminal the letters in place are bold and underlined: the style takes no column and stays whole.
        let fixed = TextStyle.terminal.fixedLetter("T")
        let styled = "[00:17] buzzers open  \(fixed) G I R E / O W L S  (8 points)"
        let cut = PlayScreen.fitting(styled, columns: 29)
        #expect(PlayScreen.visibleWidth(cut) == 29)
        #expect(cut.hasPrefix("[00:17] buzzers open  \(fixed) G I"))
        #expect(cut.hasSuffix("…\u{1B}[0m"), "a cut styled line ends with the style reset")
    }

    @Test func aLongEventBreaksBetweenItsPartsAndWordsWithTheRestIndented() {
        let line = "Question 1/10: What is the most abundant element in the universe?  N D H O R Y E G  (10 points)"
        let parts = PlayScreen.wrapped(line[...], columns: 40)
        #expect(
            parts == [
                "Question 1/10: What is the most abundant", "  element in the universe?",
                "  N D H O R Y E G  (10 points)",
            ])
        #expect(parts.allSatisfy { $0.displayWidth <= 40 })
        #expect(PlayScreen.wrapped("  Owls 3, Foxes 2"[...], columns: 40) == ["  Owls 3, Foxes 2"])
        let fullWidth = Array(repeating: "a", count: 20).joined(separator: " ")
        #expect(PlayScreen.wrapped(fullWidth[...], columns: 39) == [fullWidth], "a line as wide as the screen fits")
        #expect(
            PlayScreen.wrapped("  Scores: Owls 3, Foxes 2, Bees 1, Wasps 0"[...], columns: 20) == [
                "  Scores: Owls 3,", "  Foxes 2, Bees 1,", "  Wasps 0",
            ], "leading spaces are kept")
        let event = PlayScreen(rows: 20, columns: 40).event(line)
        #expect(event.components(separatedBy: "\n\r").count == 4, "three lines, each on a cleared line")
        #expect(!event.contains("po\n"), "never broken inside a word")
    }

    @Test func coloursTakeNoColumnWhenALineIsBroken() {
        let fixed = TextStyle.terminal.fixedLetter("T")
        let line = "[00:17] buzzers open  \(fixed) G I R E / O W L S  (8 points)"
        #expect(PlayScreen.visibleWidth(line) == 53)
        #expect(PlayScreen.wrapped(line[...], columns: 53) == [line])
        let parts = PlayScreen.wrapped(line[...], columns: 30)
        #expect(parts == ["[00:17] buzzers open", "  \(fixed) G I R E / O W L S", "  (8 points)"])
        #expect(PlayScreen.visibleWidth("\u{1B}7x\u{1B}[2Ky") == 2)
    }

    @Test func aWordWiderThanTheScreenIsLeftForTheTerminal() {
        let word = String(repeating: "x", count: 50)
        #expect(PlayScreen.wrapped("Answer: \(word) right"[...], columns: 30) == ["Answer:", "  \(word)", "  right"])
    }
}

/// How `shaky play` cuts its input into command lines.
@Suite struct LineSplitterTests {
    @Test(arguments: [
        ("n\nb 1\nq\n", ["n", "b 1", "q"]), ("n\r\nb 1\r\nq\r\n", ["n", "b 1", "q"]),
        ("n\rb 1\rq\r", ["n", "b 1", "q"]),
        ("n\r\n\r\nq", ["n", "", "q"]), ("n\n\rq\r\r\n", ["n", "", "q", ""]), ("a café\r\nq", ["a café", "q"]),
    ])
    func everyLineEndEndsALine(text: String, lines: [String]) {
        var splitter = LineSplitter()
        #expect(splitter.lines(in: text.utf8) + [splitter.finish()].compactMap { $0 } == lines)
    }

    @Test func aCRLFSplitBetweenTwoReadsIsOneLineEnd() {
        var splitter = LineSplitter()
        #expect(splitter.lines(in: "n\r".utf8) == ["n"], "the line is given out at its carriage return")
        #expect(splitter.lines(in: "\nb 1\r".utf8) == ["b 1"])
        #expect(splitter.lines(in: "\n".utf8).isEmpty)
        #expect(splitter.finish() == nil)
    }

    @Test func scriptTextWithCRLFIsCutIntoItsLines() async {
        var lines: [String] = []
        for await line in InputLines.lines(of: "n\r\nb 1\r\nq\r\n") { lines.append(line) }
        #expect(lines == ["n", "b 1", "q"])
    }

    @Test("A line longer than the limit stops the splitting, and says which line it was")
    func anOverLongLineStopsTheSplitting() {
        var splitter = LineSplitter(longestLine: 8)
        #expect(splitter.lines(in: "n\nb 123456".utf8) == ["n"])
        #expect(!splitter.isOverLong, "8 bytes fit")
        #expect(splitter.lines(in: "9\nq\n".utf8).isEmpty, "nothing after the long line is given out")
        #expect(splitter.isOverLong && splitter.lineNumber == 2)
    }

    @Test("Of many failed lines, the first 20 are named and the others counted")
    func manyFailedLinesAreCounted() {
        #expect(
            Shaky.Play.failureSummary(lines: [3], of: "standard input") == "1 command failed: line 3 of standard input")
        #expect(
            Shaky.Play.failureSummary(lines: Array(1...25), of: "standard input")
                == "25 commands failed: lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 5 "
                + "more of standard input")
    }
}

extension PlayCommandTests {
    /// The commands `shaky play` lists at its start and on `?` fit an 80-column terminal (the Pi's console): a longer
    /// line wraps in the middle of a word ("e end game (a" / "sks first)").
    @Test func theSummaryFitsEightyColumns() {
        let lines = PlayCommand.summary.split(separator: "\n").map(String.init)
        #expect(lines.count > 1)
        for line in lines {
            #expect(line.displayWidth < 80, "\(line)")
        }
    }
}
