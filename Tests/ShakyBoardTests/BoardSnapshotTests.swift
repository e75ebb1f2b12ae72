import Foundation
import ShakyBoard
import Testing

/// The pure layout of every screen at every size, compared with the text fixtures in `Snapshots/`.
///
/// A missing fixture is written and the test fails, so a new screen is recorded once and then reviewed and
/// committed; CI, which has every fixture, fails on any difference. `SHAKY_RECORD_SNAPSHOTS=1` rewrites
/// them all after a deliberate change.
@Suite("Board layout snapshots")
struct BoardSnapshotTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    static let cases: [(name: String, width: Int, height: Int)] = BoardScenes.all.flatMap { scene in
        BoardScenes.sizes.map { (scene.name, $0.width, $0.height) }
    }

    static func render(_ name: String, width: Int, height: Int) throws -> BoardScreen {
        let state = try #require(BoardScenes.all.first { $0.name == name }?.state)
        return BoardLayout.render(state, width: width, height: height, now: BoardScenes.now)
    }

    @Test(arguments: cases)
    func matchesItsSnapshot(_ name: String, width: Int, height: Int) throws {
        let screen = try Self.render(name, width: width, height: height)
        let url = Self.folder.appendingPathComponent("\(name)-\(width)x\(height).txt")
        let text = screen.text + "\n"
        let record = ProcessInfo.processInfo.environment["SHAKY_RECORD_SNAPSHOTS"] == "1"
        guard !record, let expected = try? String(contentsOf: url, encoding: .utf8) else {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("recorded \(url.lastPathComponent); review it and run the tests again")
            return
        }
        #expect(text == expected, "\(url.lastPathComponent) differs:\n\(text)")
    }

    @Test(arguments: cases)
    func everyRowFitsTheScreenByDisplayWidth(_ name: String, width: Int, height: Int) throws {
        let screen = try Self.render(name, width: width, height: height)
        #expect(screen.lines.count == height)
        for line in screen.lines {
            #expect(DisplayWidth.of(line) <= width, "too wide: \(line)")
        }
    }

    @Test(arguments: cases)
    func speaksPartyWordsNotInternalNames(_ name: String, width: Int, height: Int) throws {
        let text = try Self.render(name, width: width, height: height).text
        for internalName in ["answering(", "roundOver", "gameOver", "indication"] {
            #expect(!text.contains(internalName), "\(internalName) on the \(name) screen")
        }
    }

    @Test("On a small screen with eight long team names the question keeps its rows; the scores show the leaders")
    func aSmallScreenKeepsTheQuestion() {
        var state = BoardScenes.eightTeamsOpen
        state.teams = state.teams.enumerated().map { index, team in
            BoardState.Team(name: "Team number \(index + 1) long name", score: team.score)
        }
        let text = BoardLayout.render(state, width: 40, height: 12, now: BoardScenes.now).text
        #expect(text.contains("Which ocean is the largest?"), "\(text)")
        #expect(text.contains("more"), "\(text)")
        #expect(text.contains("1st ■ Team number 2 long name 20"), "the leader is shown: \(text)")
    }

    @Test("On a screen too short for eight teams' scores the question still shows what it is worth")
    func aShortScreenKeepsTheQuestionsPoints() {
        var state = BoardScenes.eightTeamsOpen
        state.teams = state.teams.enumerated().map { index, team in
            BoardState.Team(name: "Team number \(index + 1) long name", score: team.score)
        }
        for height in [12, 14, 16] {
            let text = BoardLayout.render(state, width: 40, height: height, now: BoardScenes.now).text
            #expect(text.contains("Which ocean is the largest?"), "\(text)")
            #expect(text.contains("8 points · 1 hint taken"), "at 40x\(height):\n\(text)")
            #expect(text.contains("more"), "\(text)")
        }
        // A notice under the title and a question on two lines take rows of their own.
        state.isSoundSilent = true
        state.question = "Which ocean is the largest of the five on Earth?"
        for height in [14, 16, 18] {
            let text = BoardLayout.render(state, width: 40, height: height, now: BoardScenes.now).text
            #expect(text.contains("Sound off") && text.contains("on Earth?"), "\(text)")
            #expect(text.contains("8 points · 1 hint taken"), "at 40x\(height):\n\(text)")
        }
    }

    @Test("A team name too long for its place in the scores gives way to its points, at every width")
    func aLongTeamNameKeepsItsPoints() {
        var state = BoardScenes.questionOpen
        state.teams = [
            BoardState.Team(name: "東京タワー東京タワー東京タワー東京タワー東京タ", score: 14),
            BoardState.Team(name: "ABCDEFGHIJKLMNOPQRSTUVWX", score: 9),
        ]
        for width in 40...80 {
            let lines = BoardLayout.render(state, width: width, height: 24, now: BoardScenes.now).lines
            let text = lines.joined(separator: "\n")
            #expect(lines.contains { $0.contains("1st ● 東京") && $0.hasSuffix(" 14") }, "at \(width):\n\(text)")
            #expect(lines.contains { $0.contains("2nd ■ ABC") && $0.contains(" 9") }, "at \(width):\n\(text)")
        }
        // Alone on its row with how many more there are: the leader's points still show.
        var crowded = BoardScenes.eightTeamsOpen
        crowded.teams[1].name = "東京タワー東京タワー東京タワー東京タワー東京タ"
        crowded.question = "Which Italian dessert is made with coffee-soaked sponge fingers and mascarpone?"
        let last = BoardLayout.render(crowded, width: 40, height: 12, now: BoardScenes.now).lines.last ?? ""
        #expect(last.contains("東京") && last.hasSuffix(" 20  +7 more"), "\(last)")
    }

    @Test("A game over with no winner (no team scored) has no podium, and the table ranks no team first")
    func noWinnerNoPodium() {
        var state = BoardScenes.gameOver
        let names = ["Owls", "Foxes"]
        state.teams = names.map { BoardState.Team(name: $0) }
        state.result = BoardState.Result(
            standings: names.map { name in
                BoardState.Standing(team: name, points: 0, rank: 1, correctAnswers: 0, hintsUsed: 0, buzzes: 0)
            }, winners: [], questionsPlayed: 0, questionCount: 10, endedEarly: true)
        let text = BoardLayout.render(state, width: 80, height: 24, now: BoardScenes.now).text
        #expect(text.contains("Game over: no winner"), "\(text)")
        #expect(!text.contains("1st") && !text.contains("┌"), "\(text)")
        #expect(names.allSatisfy { text.contains(" \($0) ") }, "every team in the table: \(text)")
    }

    @Test("The final table on a screen too short for every team says how many more there are")
    func theFinalTableSaysHowManyTeamsItLeavesOut() {
        var state = BoardScenes.gameOver
        let names = ["A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8"]
        state.teams = names.map { BoardState.Team(name: $0) }
        state.result = BoardState.Result(
            standings: names.enumerated().map { index, name in
                BoardState.Standing(
                    team: name, points: 80 - index * 10, rank: index + 1, correctAnswers: 0, hintsUsed: 0, buzzes: 0)
            }, winners: ["A1"], questionsPlayed: 10, questionCount: 10)
        let text = BoardLayout.render(state, width: 40, height: 12, now: BoardScenes.now).text
        let shown = names.filter { text.contains(" \($0) ") }
        #expect(shown.count < names.count, "the screen is too short for all: \(text)")
        #expect(text.contains("+\(names.count - shown.count) more"), "\(text)")
        let tall = BoardLayout.render(state, width: 40, height: 40, now: BoardScenes.now).text
        #expect(names.allSatisfy { tall.contains(" \($0) ") } && !tall.contains("more"), "\(tall)")
    }

    @Test(
        "A board too short for the whole question drops the judged answers, the buzzes and its later lines first",
        arguments: [(40, 10), (50, 8), (40, 12), (60, 9)])
    func aTinyBoardKeepsTheCountdownAndWhoIsUp(width: Int, height: Int) {
        var state = BoardScenes.eightTeamsOpen
        state.question = "Where was the piña colada cocktail first mixed, according to the bar that claims it?"
        let up = state.teams[1].name
        state.phase = .answering(team: up)
        state.buzzes = [
            BoardState.Buzz(team: state.teams[2].name, order: 1, elapsed: 1.5, points: 8),
            BoardState.Buzz(team: up, order: 2, elapsed: 2.5, points: 8),
        ]
        state.judgements = [BoardState.Judgement(team: state.teams[2].name, given: "Cuba", isCorrect: false)]
        let lines = BoardLayout.render(state, width: width, height: height, now: BoardScenes.now).lines
        let text = lines.joined(separator: "\n")
        #expect(text.contains("to answer"), "who is up, at \(width)x\(height):\n\(text)")
        #expect(
            lines.contains { $0.hasSuffix(" s") && $0.contains("█") }, "the countdown, at \(width)x\(height):\n\(text)")
        #expect(text.contains("Where was"), "the question's start, at \(width)x\(height):\n\(text)")
    }

    @Test("On a 40x12 board the room still sees the countdown and who is up: the empty rows around the letters go")
    func aSmallBoardKeepsTheCountdownAndWhoIsUp() {
        var state = BoardScenes.buzzes
        state.teams = Array(state.teams.prefix(3))
        let lines = BoardLayout.render(state, width: 40, height: 12, now: BoardScenes.now).lines
        let text = lines.joined(separator: "\n")
        #expect(lines.contains { $0.contains("▲ Cú Mèo to answer for 10 points") }, "\(text)")
        #expect(lines.contains { $0.hasSuffix("█ 27 s") || $0.hasSuffix("░ 27 s") }, "the countdown: \(text)")
        #expect(text.contains("1 hint taken"), "\(text)")
        #expect(text.contains("1st ■ Foxes 20"), "\(text)")

        // A question of three lines: the scores take one row, the leader's and how many more.
        var long = state
        long.teams = [
            BoardState.Team(name: "Les Éléphants", score: 0), BoardState.Team(name: "Foxes & Co", score: 10),
            BoardState.Team(name: "Cú Mèo", score: 4),
        ]
        long.question = "Which Italian dessert is made with coffee-soaked sponge fingers and mascarpone?"
        let longLines = BoardLayout.render(long, width: 40, height: 12, now: BoardScenes.now).lines
        let longText = longLines.joined(separator: "\n")
        #expect(longText.contains("mascarpone?"), "\(longText)")
        #expect(longLines.contains { $0.contains("▲ Cú Mèo to answer for 10 points") }, "\(longText)")
        #expect(longLines.contains { $0.hasSuffix(" 27 s") }, "\(longText)")
        #expect(longLines.last == " 1st ■ Foxes & Co 10  +2 more", "\(longText)")

        // Paused, the notice under the title takes a row too.
        state.isPaused = true
        let paused = BoardLayout.render(state, width: 40, height: 12, now: BoardScenes.now).text
        #expect(paused.contains("Paused — shaky resume, or p in play"), "\(paused)")
        #expect(paused.contains("27 s"), "the time left stays in sight: \(paused)")
    }

    @Test("A short board that leaves out judged answers or buzzes says how many more there are")
    func aShortBoardCountsWhatItLeavesOut() {
        var state = BoardScenes.eightTeamsOpen
        state.teams = Array(state.teams.prefix(4))
        state.question = "Which animal?"
        let names = state.teams.map(\.name)
        state.phase = .answering(team: names[3])
        state.teamUp = names[3]
        state.buzzes = (0..<4).map { BoardState.Buzz(team: names[$0], order: $0 + 1, elapsed: 1.5 + Double($0)) }
        state.judgements = (0..<3).map { BoardState.Judgement(team: names[$0], given: "Cat \($0)", isCorrect: false) }
        // Room for all of it: no count.
        let tall = BoardLayout.render(state, width: 40, height: 18, now: BoardScenes.now).text
        #expect(tall.contains("“Cat 2”") && tall.contains("4. ♦ Γλαύκες") && !tall.contains("more"), "\(tall)")
        // What each height keeps, and the count of what it leaves out.
        for (height, buzzes, judged, said) in [
            (16, 4, 1, ["+2 more judged"]), (15, 4, 0, ["3 answers judged"]),
            (14, 2, 0, ["+2 more", "3 answers judged"]),
            (13, 1, 0, ["+3 more", "3 answers judged"]), (12, 1, 0, ["+3 more"]),
        ] {
            let text = BoardLayout.render(state, width: 40, height: height, now: BoardScenes.now).text
            #expect((1...4).filter { text.contains("\($0). ") }.count == buzzes, "40x\(height):\n\(text)")
            #expect((0..<3).filter { text.contains("“Cat \($0)”") }.count == judged, "40x\(height):\n\(text)")
            for words in said { #expect(text.contains(words), "40x\(height):\n\(text)") }
            #expect(text.contains("♦ Γλαύκες to answer"), "who is up, at 40x\(height):\n\(text)")
        }
    }

    @Test("While teams join on a 40-column board, each team's line fits it: none wraps, no arrow stands alone")
    func aNarrowBoardFitsEveryTeamsJoiningLine() {
        var state = BoardScenes.ready
        state.teams = ["Les Éléphants", "Foxes & Co", "Zoë"].map { BoardState.Team(name: $0) }
        state.buttonDevices = ["gpio": BoardState.ButtonDevice(name: "button@11", kind: "gpio-keys")]
        for asked in ["Les Éléphants", "Foxes & Co"] {
            state.joiningTeam = asked
            let lines = BoardLayout.render(state, width: 40, height: 14, now: BoardScenes.now).lines
            let text = lines.joined(separator: "\n")
            #expect(lines.contains { $0.contains("▶ ") && $0.contains(asked) && $0.hasSuffix(" ◀") }, "\(text)")
            #expect(!lines.contains { $0.trimmingCharacters(in: .whitespaces) == "◀" }, "\(text)")
            for (index, team) in state.teams.enumerated() {
                #expect(text.contains("\(TeamMark(index: index).symbol) \(team.name)"), "\(team.name): \(text)")
            }
        }
    }

    @Test("While a team answers, the board shows the same points live and after a restart: what its buzz froze")
    func aTeamAnsweringShowsTheFrozenPointsOnly() {
        // Live, the board knows the question's worth after its hint (8); a daemon's status after a restart says what
        // the team up can win (10, frozen when it buzzed before the hint).
        var live = BoardScenes.buzzes
        live.points = 8
        var restored = live
        restored.points = 10
        for size in BoardScenes.sizes {
            let liveText = BoardLayout.render(live, width: size.width, height: size.height, now: BoardScenes.now).text
            let restoredText = BoardLayout.render(
                restored, width: size.width, height: size.height, now: BoardScenes.now
            ).text
            #expect(liveText == restoredText, "at \(size.width)x\(size.height)")
            #expect(!restoredText.contains("10 points · 1 hint taken"), "\(restoredText)")
            #expect(liveText.contains("to answer for 10 points"), "\(liveText)")
        }
        // Buzzers open, the question's worth is shown as it is.
        let open = BoardLayout.render(BoardScenes.questionOpen, width: 80, height: 24, now: BoardScenes.now).text
        #expect(open.contains("8 points · 1 hint taken"), "\(open)")
    }

    @Test("Paused while a team answers (a daemon's restart pauses the game too), the board still says who is up")
    func aPauseKeepsWhoIsUp() {
        var paused = BoardScenes.buzzes
        paused.isPaused = true
        for size in BoardScenes.sizes {
            let text = BoardLayout.render(paused, width: size.width, height: size.height, now: BoardScenes.now).text
            #expect(text.contains("Paused:") && text.contains("to answer"), "at \(size.width)x\(size.height): \(text)")
        }
        var open = BoardScenes.questionOpen
        open.isPaused = true
        let text = BoardLayout.render(open, width: 80, height: 24, now: BoardScenes.now).text
        #expect(text.contains("Paused") && !text.contains("Paused:"), "\(text)")
    }

    @Test("With the daemon gone mid-question the board says the game is on hold, who is up, and why it is gone")
    func aLostDaemonPutsTheGameOnHold() {
        var open = BoardScenes.questionOpen
        open.connection = .reconnecting(attempt: 3)
        open.daemonProblem = "no socket there"
        let text = BoardLayout.render(open, width: 80, height: 24, now: BoardScenes.now).text
        #expect(text.contains("On hold") && !text.contains("Buzzers open"), "\(text)")
        #expect(text.contains("Lost the game (no socket there): reconnecting…"), "\(text)")
        var answering = BoardScenes.buzzes
        answering.connection = .reconnecting(attempt: 1)
        let held = BoardLayout.render(answering, width: 80, height: 24, now: BoardScenes.now).text
        #expect(held.contains("On hold: ") && held.contains("to answer for"), "\(held)")
        // On the narrowest board the reason gives way to the notice itself.
        open.daemonProblem = String(repeating: "a long reason ", count: 4)
        let narrow = BoardLayout.render(open, width: 40, height: 24, now: BoardScenes.now).text
        #expect(narrow.contains("Lost the game: reconnecting…"), "\(narrow)")
    }

    @Test("A long question takes the rows a tall board has; cut short on a small one, it ends in …")
    func aLongQuestionUsesTheRowsThereAre() {
        var state = BoardScenes.questionOpen
        state.question =
            "This Dutch painter cut off part of his own ear in 1888 and painted The Starry Night a year later. "
            + "What was his family name?"
        let tall = BoardLayout.render(state, width: 40, height: 24, now: BoardScenes.now).text
        #expect(tall.contains("What was his") && tall.contains("family name?"), "\(tall)")
        #expect(tall.contains("Buzzers open") && tall.contains("█"), "the countdown and the phase stay: \(tall)")
        let small = BoardLayout.render(state, width: 40, height: 12, now: BoardScenes.now).text
        #expect(!small.contains("family name?") && small.contains("…"), "\(small)")
        #expect(small.contains("Buzzers open"), "\(small)")
    }

    @Test("On a narrow board, each buzz is said whole on one line, and who is up keeps the points at stake")
    func aBuzzIsNeverCutBetweenLines() {
        var state = BoardScenes.buzzes
        state.teams[0].name = "Snow Leopards"
        state.teams[1].name = "Les Éléphants"
        state.phase = .answering(team: "Snow Leopards")
        state.teamUp = "Snow Leopards"
        state.buzzes = [
            BoardState.Buzz(team: "Snow Leopards", order: 1, elapsed: 3.46, points: 10),
            BoardState.Buzz(team: "Les Éléphants", order: 2, elapsed: 4.1, points: 8),
            BoardState.Buzz(team: "Foxes", order: 3, elapsed: 5.2, points: 8),
        ]
        let lines = BoardLayout.render(state, width: 40, height: 20, now: BoardScenes.now).text.split(separator: "\n")
        for buzz in ["1. ● Snow Leopards 3.5 s", "2. ■ Les Éléphants 4.1 s", "Foxes 5.2 s"] {
            #expect(lines.contains { $0.contains(buzz) }, "\(buzz) on one line:\n\(lines.joined(separator: "\n"))")
        }
        #expect(lines.contains { $0.contains("10 points") }, "the points at stake: \(lines.joined(separator: "\n"))")
    }

    @Test("On a narrow board, winners who share the win are said whole, on two lines")
    func sharedWinsAreSaidWholeOnANarrowBoard() throws {
        var state = BoardScenes.gameOver
        state.teams[0].name = "Les Éléphants"
        state.teams[1].name = "Foxes & Co"
        var result = try #require(state.result)
        result.standings[0].team = "Foxes & Co"
        result.standings[1].team = "Les Éléphants"
        result.standings[1].points = 20
        result.standings[1].rank = 1
        result.winners = ["Les Éléphants", "Foxes & Co"]
        state.result = result
        let text = BoardLayout.render(state, width: 40, height: 12, now: BoardScenes.now).text
        #expect(text.contains("● Les Éléphants and ■ Foxes & Co share"), "\(text)")
        #expect(text.contains("the win!"), "\(text)")
        #expect(text.contains("Rank"), "the table still shows: \(text)")
    }

    @Test(
        "Teams tied first read in the daemon's order everywhere: the winners line, the podium from left to right, the table",
        arguments: [(80, 24), (120, 40), (200, 60)])
    func tiedWinnersReadInOneOrder(width: Int, height: Int) throws {
        // The daemon lists tied teams in the order they were set up in: Owls (set up first) before Foxes.
        var state = BoardScenes.gameOver
        var result = try #require(state.result)
        result.standings[0].team = "Owls"
        result.standings[1].team = "Foxes"
        result.standings[1].points = 20
        result.standings[1].rank = 1
        result.standings[2].rank = 3
        result.winners = ["Owls", "Foxes"]
        state.result = result
        let lines = BoardLayout.render(state, width: width, height: height, now: BoardScenes.now).lines
        let text = lines.joined(separator: "\n")
        #expect(text.contains("● Owls and ■ Foxes share the win!"), "\(text)")
        let podiumNames = try #require(
            lines.first { $0.contains("Owls") && $0.contains("Foxes") && !$0.contains("share") }, "\(text)")
        let owls = try #require(podiumNames.range(of: "Owls")).lowerBound
        let foxes = try #require(podiumNames.range(of: "Foxes")).lowerBound
        #expect(owls < foxes, "the podium reads Foxes before Owls: \(text)")
        let rows = try #require(lines.firstIndex { $0.contains("Rank") })..<lines.count
        let owlsRow = try #require(lines[rows].firstIndex { $0.contains("Owls") })
        let foxesRow = try #require(lines[rows].firstIndex { $0.contains("Foxes") })
        #expect(owlsRow < foxesRow, "the table lists Foxes before Owls: \(text)")
    }

    @Test("At 40 columns the game-over table keeps every team's points: a long team name is cut instead")
    func gameOverKeepsThePointsOfLongNames() throws {
        var state = BoardScenes.gameOver
        let long = "The Extraordinarily Long"
        state.teams[1].name = long
        var result = try #require(state.result)
        result.standings[1].team = long
        state.result = result
        let lines = BoardLayout.render(state, width: 40, height: 20, now: BoardScenes.now).lines
        let rows = try #require(lines.firstIndex { $0.contains("Rank") }).advanced(by: 1)..<lines.count
        let table = lines[rows].filter { !$0.isEmpty }
        #expect(lines.contains { $0.contains("Points") }, "\(lines.joined(separator: "\n"))")
        #expect(table.count == 4, "\(lines.joined(separator: "\n"))")
        for (row, points) in zip(table, ["20", "12", "12", "4"]) {
            #expect(row.split(separator: " ").contains(Substring(points)), "no \(points) in: \(row)")
        }
    }

    @Test(arguments: BoardScenes.sizes.map { $0 })
    func scoresAreAlwaysVisibleWithSymbolAndRank(width: Int, height: Int) throws {
        for scene in BoardScenes.all where !scene.state.teams.isEmpty && scene.state.phase != .ready {
            let text = BoardLayout.render(scene.state, width: width, height: height, now: BoardScenes.now).text
            for (index, team) in scene.state.teams.enumerated() {
                let mark = "\(TeamMark(index: index).symbol) \(team.name)"
                #expect(text.contains(mark), "\(mark) missing on \(scene.name) at \(width)x\(height)")
            }
            #expect(text.contains("1st ■ Foxes 20") || scene.state.phase == .gameOver, "\(scene.name)")
        }
    }
}
