import Foundation
import ShakyBoard
import ShakyProtocol
import Testing

@testable import ShakyCLI

/// Text for people, as pure functions of the daemon's replies.
@Suite struct RenderingTests {
    @Test func tilesAreSpacedCapitalsWithFixedLettersMarked() {
        #expect(TextRenderer.tiles(Fixtures.tiles, style: .plain) == "[T] G I R E")
        #expect(TextRenderer.tiles(Fixtures.twoWordTiles, style: .plain) == "W O N S / L W O")
        #expect(TextRenderer.tiles(Fixtures.tiles, style: .terminal).hasPrefix("\u{1B}[1;4mT\u{1B}[0m G"))
    }

    @Test func punctuationStaysInItsWord() {
        let tiles = "O'K".map { ShakyAPI.Tile(text: String($0), letter: $0 != "'", fixed: false) }
        #expect(TextRenderer.tiles(tiles, style: .plain) == "O ' K")
    }

    @Test(arguments: [
        (17.3, "00:18"), (17.0, "00:17"), (0.2, "00:01"), (0, "00:00"), (-1, "00:00"), (75, "01:15"),
        (1e300, "16666:39"), (-1e300, "00:00"), (.infinity, "00:00"), (.nan, "00:00"),
    ])
    func countdownsRoundUp(seconds: Double, text: String) {
        #expect(TextRenderer.clock(seconds) == text)
    }

    @Test func statusWhileATeamAnswers() {
        #expect(
            TextRenderer.status(Fixtures.answering, style: .plain) == """
                Question 3/10 · Owls to answer · 00:18 left
                What big cat has stripes?
                  [T] G I R E
                Worth 8 points · 1 hint used, 2 left
                Buzzed: 1. Owls (3.2 s)
                Up: Owls

                Team   Score
                Owls      12
                Foxes      8
                """)
    }

    @Test func statusShowsAPause() {
        var status = Fixtures.answering
        status.paused = true
        #expect(
            TextRenderer.status(status, style: .plain).hasPrefix(
                "Question 3/10 · Owls to answer · 00:18 left · PAUSED\n"))
    }

    @Test func statusBeforeTheFirstQuestion() {
        #expect(
            TextRenderer.status(Fixtures.ready, style: .plain) == """
                10 questions · ready
                Open the first question with `shaky next`.

                Team   Score
                Owls      12
                Foxes      8
                """)
    }

    @Test func statusOfAOneQuestionGameSaysQuestionInTheSingular() {
        var status = Fixtures.ready
        status.questionCount = 1
        #expect(TextRenderer.status(status, style: .plain).hasPrefix("1 question · ready\n"))
    }

    @Test func statusAfterARound() {
        let text = TextRenderer.status(Fixtures.roundOver, style: .plain)
        #expect(text.contains("Question 3/10 · round over\n"))
        #expect(text.contains("Answer: TIGER · got by Owls"))
        #expect(!text.contains("Worth"))
    }

    @Test func statusAfterASkippedRoundSaysSoAndAnOlderDaemonsSaysOnlyWhoGotIt() {
        var status = Fixtures.roundOver
        status.roundWinner = nil
        status.roundEnd = .skipped
        #expect(TextRenderer.status(status, style: .plain).contains("Answer: TIGER · skipped\n"))
        status.roundEnd = nil
        #expect(TextRenderer.status(status, style: .plain).contains("Answer: TIGER · nobody got it\n"))
    }

    @Test(
        "The revealed answer says how the question ended",
        arguments: [
            (nil, "Owls", "got by Owls"), (nil, nil, "nobody got it"), (.answered, "Owls", "got by Owls"),
            (.timeUp, nil, "time's up, nobody got it"), (.wrongAnswers, nil, "nobody got it"),
            (.skipped, nil, "skipped"), (.gameEnded, nil, "game ended"),
            (.overruled, "Owls", "got by Owls, on the host's overrule"),
            (.overruled, nil, "nobody got it, on the host's overrule"),
        ] as [(ShakyAPI.Event.RoundEnd?, String?, String)])
    func revealedAnswerSaysHowTheQuestionEnded(end: ShakyAPI.Event.RoundEnd?, winner: String?, words: String) {
        var renderer = WatchRenderer()
        let line = renderer.line(
            for: Fixtures.event(.answerRevealed) {
                $0.answer = "TIGER"
                $0.winner = winner
                $0.roundEnd = end
            })
        #expect(line == "Answer: TIGER (\(words))")
    }

    @Test func statusAfterTheGameShowsTheResult() {
        #expect(
            TextRenderer.status(Fixtures.gameOver, style: .plain) == """
                Question 7/10 · game over
                Winners (tied): Owls, Foxes · ended after 7 of 10 questions

                #  Team   Points  Right  Hints  Buzzes  Avg buzz
                1  Owls       18      2      1       3     4.2 s
                1  Foxes      18      2      3       2    10.0 s
                3  Bees        0      0      0       0         -
                """)
    }

    @Test("A game ended before its first question says it is not kept in the history")
    func aGameEndedBeforeItsFirstQuestionSaysItIsNotKept() {
        var status = Fixtures.gameOver
        status.result?.questionsPlayed = 0
        status.result?.winners = []
        let text = TextRenderer.status(status, style: .plain)
        #expect(text.contains("No winner · ended before its first question, so not kept in the history"), "\(text)")
    }

    @Test("A game the host ended during its last question says so plainly, not that every question was played")
    func statusAfterAGameEndedDuringAQuestion() {
        var status = Fixtures.gameOver
        status.roundEnd = .gameEnded
        status.result?.questionsPlayed = 10
        let text = TextRenderer.status(status, style: .plain)
        #expect(text.contains("Winners (tied): Owls, Foxes · ended during question 10 of 10\n"))
        #expect(!text.contains("questions played"))
        status.result?.endedEarly = false
        status.roundEnd = .answered
        #expect(TextRenderer.status(status, style: .plain).contains("· 10 of 10 questions played\n"))
    }

    @Test("The scoreboard in shaky status at game over fits the terminal as shaky scoreboard's does")
    func statusAfterTheGameFitsTheScoreboardToTheWidth() throws {
        let text = TextRenderer.status(Fixtures.gameOver, style: .plain, width: 40)
        let table = try #require(text.components(separatedBy: "\n\n").last)
        #expect(table == TextRenderer.scoreboard(Fixtures.gameOver.result?.standings ?? [], width: 40))
        #expect(table.split(separator: "\n").allSatisfy { $0.count <= 40 })
        #expect(!table.contains("Avg buzz"), "the last columns are left off to fit")
        #expect(TextRenderer.status(Fixtures.gameOver, style: .plain).contains("Avg buzz"), "whole through a pipe")
    }

    @Test("shaky status lists the answers judged on the question, in the words shaky watch and play use")
    func statusListsTheJudgements() {
        var status = Fixtures.answering
        status.teamUp = "Foxes"
        status.buzzes = [
            ShakyAPI.BuzzEntry(team: "Owls", order: 1, elapsed: 2),
            ShakyAPI.BuzzEntry(team: "Foxes", order: 2, elapsed: 3.2),
        ]
        status.judgements = [ShakyAPI.JudgementEntry(team: "Owls", given: "Lion", correct: false, awarded: 0)]
        #expect(
            TextRenderer.status(status, style: .plain) == """
                Question 3/10 · Foxes to answer · 00:18 left
                What big cat has stripes?
                  [T] G I R E
                Worth 8 points · 1 hint used, 2 left
                Buzzed: 1. Owls (2.0 s), 2. Foxes (3.2 s)
                Owls answered “Lion”: wrong
                Up: Foxes

                Team   Score
                Owls      12
                Foxes      8
                """)
        var watch = WatchRenderer()
        #expect(
            watch.line(for: Fixtures.event(.state) { $0.status = status })?.hasSuffix("\nOwls answered “Lion”: wrong")
                == true)

        var over = Fixtures.roundOver
        over.roundWinner = "Foxes"
        over.roundEnd = .overruled
        over.judgements = [
            ShakyAPI.JudgementEntry(team: "Owls", given: nil, correct: false, awarded: 0),
            ShakyAPI.JudgementEntry(team: "Foxes", given: "Tigre", correct: true, awarded: 8),
        ]
        #expect(
            TextRenderer.status(over, style: .plain).contains(
                """
                What big cat has stripes?
                Owls ran out of time
                Foxes answered “Tigre”: right, +8
                Answer: TIGER · got by Foxes, on the host's overrule
                """))
        // A daemon that does not say lists none, as before.
        over.judgements = nil
        #expect(TextRenderer.status(over, style: .plain).contains("What big cat has stripes?\nAnswer: TIGER"))
    }

    @Test("An answer judged fits a terminal's width: the answer is cut first, then the name, and the verdict stays")
    func aJudgementFitsTheWidth() {
        let long = "a cat with stripes that lives in the forests of Asia"
        #expect(
            TextRenderer.judgement(team: "Owls", given: long, correct: false, awarded: 0, width: 40)
                == "Owls answered “a cat with strip…”: wrong")
        #expect(
            TextRenderer.judgement(team: "Owls", given: long, correct: true, awarded: 10, width: 40)
                == "Owls answered “a cat with …”: right, +10")
        // Whole without a width (a pipe), and when it fits.
        #expect(
            TextRenderer.judgement(team: "Owls", given: long, correct: false, awarded: 0)
                == "Owls answered “\(long)”: wrong")
        #expect(
            TextRenderer.judgement(team: "Owls", given: "Tiger", correct: true, awarded: 8, width: 40)
                == "Owls answered “Tiger”: right, +8")
        // A long name gives way once the answer is down to eight columns; a time-out has only the name to cut.
        let name = "The Magnificent Owls of the Northern Woods"
        let both = TextRenderer.judgement(team: name, given: long, correct: false, awarded: 0, width: 40)
        #expect(both == "The Magnific… answered “a cat w…”: wrong")
        #expect(both.displayWidth == 40)
        #expect(
            TextRenderer.judgement(team: name, given: nil, correct: false, awarded: 0, width: 30)
                == "The Magnifice… ran out of time")
        // Names and answers keep eight columns: a line that cannot fit keeps them, and wraps.
        #expect(
            TextRenderer.judgement(team: name, given: nil, correct: true, awarded: 8, width: 40)
                == "The Mag… ran out of time: counted as right, +8")
    }

    @Test func scoreboardIsAnAlignedTableWithSharedRanks() {
        let lines = TextRenderer.scoreboard(Fixtures.standings).split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.map(\.count).dropFirst().allSatisfy { $0 == lines[0].count })
        // Tied teams in the daemon's order (the order of its winners), not by name.
        #expect(lines[1].hasPrefix("1  Owls"))
        #expect(lines[2].hasPrefix("1  Foxes"))
        #expect(lines[3].hasPrefix("3  Bees"))
    }

    @Test("On a narrow terminal the scoreboard drops its last columns and cuts long names; whole through a pipe")
    func theScoreboardFitsANarrowTerminal() {
        var standings = Fixtures.standings
        standings[0].team = "Les Hiboux Étonnés du No"
        for width in [40, 30, 20] {
            let lines = TextRenderer.scoreboard(standings, width: width).split(separator: "\n")
            #expect(lines.allSatisfy { String($0).displayWidth <= width }, "\(width): \(lines.joined(separator: "\n"))")
            #expect(lines[0].hasPrefix("#  Team") && lines[0].contains("Points"), "\(lines[0])")
            #expect(
                lines.dropFirst().allSatisfy { $0.split(separator: " ").count >= 3 },
                "every team's rank, name and points show: \(lines.joined(separator: "\n"))")
            #expect(lines[1].contains("Les Hi"), "\(lines.joined(separator: "\n"))")
        }
        let wide = TextRenderer.scoreboard(standings, width: 80)
        #expect(wide == TextRenderer.scoreboard(standings), "a table that fits is left whole")
        #expect(wide.contains("Les Hiboux Étonnés du No") && wide.contains("Avg buzz"))
    }

    @Test("On a narrow terminal the pack list cuts long names, then leaves out the counts by difficulty")
    func thePackListFitsANarrowTerminal() {
        let own = ShakyAPI.Pack(
            name: "Questions de culture générale pour la soirée", builtin: false, questions: 1200, easy: 400,
            medium: 500, hard: 300)
        let packs = [Fixtures.animals, own]
        for width in [60, 40, 30] {
            let lines = TextRenderer.packs(packs, width: width).split(separator: "\n").map(String.init)
            #expect(lines.allSatisfy { $0.displayWidth <= width }, "\(width):\n\(lines.joined(separator: "\n"))")
            #expect(lines[0].hasPrefix("Pack") && lines[0].contains("Questions") && lines[0].hasSuffix("Kind"))
            #expect(lines[1].hasPrefix("Animals") && lines[1].hasSuffix("built-in"), "\(lines[1])")
            #expect(lines[2].hasPrefix("Question") && lines[2].contains("1200"), "\(lines[2])")
        }
        #expect(TextRenderer.packs(packs, width: 60).contains("Medium"), "cut names are enough at 60 columns")
        #expect(
            TextRenderer.packs(packs, width: 40) == """
                Pack                 Questions  Kind
                Animals                     40  built-in
                Questions de cultu…       1200  own
                """)
        let wide = TextRenderer.packs(packs, width: 120)
        #expect(wide == TextRenderer.packs(packs), "a table that fits is left whole")
    }

    @Test func tablesAlignAccentedNames() {
        var table = TextTable(columns: [.init("Team"), .init("Score", .right)])
        table.rows = [["Élans", "3"], ["Ours", "12"]]
        #expect(table.render() == "Team   Score\nÉlans      3\nOurs      12")
    }

    @Test func packsAndQuestions() {
        #expect(
            TextRenderer.packs([Fixtures.animals]) == """
                Pack     Questions  Easy  Medium  Hard  Kind
                Animals         40    10      20    10  built-in
                """)
        #expect(
            TextRenderer.question(Fixtures.tigerQuestion, showingPack: true)
                == "#12 Animals [easy] What big cat has stripes? → Tiger (also: Tigress)")
        #expect(
            TextRenderer.packDetails(
                ShakyAPI.PacksInterface.ShowReply(pack: Fixtures.animals, questions: [Fixtures.tigerQuestion]))
                    == """
                    Animals (built-in): 40 questions (10 easy, 20 medium, 10 hard)
                      #12 [easy] What big cat has stripes? → Tiger (also: Tigress)
                    """)
        #expect(TextRenderer.questions([]) == "No questions found.")
        var twoLines = Fixtures.tigerQuestion
        twoLines.text = "Which big cat\nhas stripes?"
        #expect(
            TextRenderer.question(twoLines, showingPack: false)
                == "#12 [easy] Which big cat\n    has stripes? → Tiger (also: Tigress)")
    }

    @Test("The history fits a terminal's width: long scores, winners and notes are cut by display width with “…”")
    func historyFitsTheTerminal() {
        let teams = ["Owls", "Foxes", "Bees", "Badgers", "Otters", "Hedgehogs", "Kingfishers", "熊猫队"].enumerated()
            .map { ShakyAPI.TeamScore(name: $0.element, score: 40 - 5 * $0.offset) }
        let long = ShakyAPI.FinishedGame(
            id: 12, finishedAt: "2026-01-02T20:15:07Z", teams: teams, winners: ["Owls"], kind: .replaced,
            adjustments: [ShakyAPI.TeamAdjustment(team: "Foxes", delta: -5, reason: "answered before the buzz")])
        let short = ShakyAPI.FinishedGame(
            id: 11, finishedAt: "2026-01-02T19:02:00Z", teams: Array(teams.suffix(2)), winners: ["熊猫队"])
        let oslo = TimeZone(identifier: "Europe/Oslo") ?? .current
        let fitted = TextRenderer.history([long, short], timeZone: oslo, width: 80)
        #expect(
            fitted == """
                Game  Finished          Scores                   Winner  Note
                  12  2026-01-02 21:15  Owls 40, Foxes 35, Bee…  Owls    replaced by a new game…
                  11  2026-01-02 20:02  Kingfishers 10, 熊猫队…  熊猫队
                """, "\(fitted)")
        #expect(fitted.split(separator: "\n").allSatisfy { String($0).displayWidth <= 80 })
        // Piped (no width), every row is whole.
        let whole = TextRenderer.history([long, short], timeZone: oslo)
        #expect(!whole.contains("…"), "\(whole)")
        #expect(whole.contains("Kingfishers 10, 熊猫队 5  "), "\(whole)")
        #expect(whole.contains("adjusted: Foxes -5: answered before the buzz"), "\(whole)")
        // A table that already fits is left as it is.
        #expect(
            TextRenderer.history([short], timeZone: oslo, width: 80) == TextRenderer.history([short], timeZone: oslo))
    }

    @Test("On a terminal too narrow for the history's table, each game takes lines of its own, none too wide")
    func historyOnAPhone() {
        let teams = ["Owls", "Foxes", "Kingfishers"].enumerated()
            .map { ShakyAPI.TeamScore(name: $0.element, score: 40 - 5 * $0.offset) }
        let game = ShakyAPI.FinishedGame(
            id: 12, finishedAt: "2026-01-02T20:15:07Z", teams: teams, winners: ["Owls"], kind: .played,
            adjustments: nil)
        let oslo = TimeZone(identifier: "Europe/Oslo") ?? .current
        let narrow = TextRenderer.history([game], timeZone: oslo, width: 30)
        #expect(
            narrow == """
                Game 12, 2026-01-02 21:15
                  Owls 40, Foxes 35,
                  Kingfishers 30
                """, "\(narrow)")
        #expect(narrow.split(separator: "\n").allSatisfy { String($0).displayWidth <= 30 })
    }

    @Test("A table too narrow for its columns' floors keeps them rather than cutting values to nothing")
    func aTableKeepsItsNarrowestColumns() {
        var table = TextTable(columns: [.init("#", .right), .init("Team", narrowest: 6), .init("Note", narrowest: 4)])
        table.rows = [["1", "Kingfishers of the North", "a long note about the game"]]
        #expect(
            table.render(width: 12) == """
                #  Team    Note
                1  Kingf…  a l…
                """)
        // Room to spare is shared: the wider column gives first, down to the other's width.
        #expect(
            table.render(width: 30) == """
                #  Team          Note
                1  Kingfishers…  a long note …
                """)
    }

    @Test func recordsAndDaemon() {
        let game = ShakyAPI.FinishedGame(
            id: 4, finishedAt: "2026-01-02T20:15:07Z", teams: Fixtures.teams, winners: ["Owls"])
        let oslo = TimeZone(identifier: "Europe/Oslo") ?? .current
        #expect(
            TextRenderer.history([game], timeZone: oslo) == """
                Game  Finished          Scores            Winner
                   4  2026-01-02 21:15  Owls 12, Foxes 8  Owls
                """)
        let demo = ShakyAPI.FinishedGame(
            id: 5, finishedAt: "2026-01-02T20:15:07Z", teams: Fixtures.teams, winners: ["Owls"], kind: .demo,
            adjustments: [ShakyAPI.TeamAdjustment(team: "Owls", delta: 2, reason: "song")])
        #expect(
            TextRenderer.history([demo], timeZone: oslo).hasSuffix(
                "Owls    demo, not on the leaderboard · adjusted: Owls +2: song"))
        #expect(TextRenderer.history([]) == "No finished games yet.")
        #expect(
            TextRenderer.leaderboard([ShakyAPI.LeaderboardEntry(team: "Owls", games: 3, wins: 2, points: 40)]) == """
                #  Team  Wins  Games  Points
                1  Owls     2      3      40
                """)
        #expect(
            TextRenderer.leaderboard([
                ShakyAPI.LeaderboardEntry(team: "Owls", games: 3, wins: 2, points: 40),
                ShakyAPI.LeaderboardEntry(team: "Foxes", games: 3, wins: 1, points: 30),
                ShakyAPI.LeaderboardEntry(team: "Bees", games: 2, wins: 1, points: 30),
                ShakyAPI.LeaderboardEntry(team: "Moles", games: 2, wins: 1, points: 10),
            ]) == """
                #  Team   Wins  Games  Points
                1  Owls      2      3      40
                2  Foxes     1      3      30
                2  Bees      1      2      30
                4  Moles     1      2      10
                """, "teams equal on wins and points share a rank")
        #expect(
            TextRenderer.sensor(
                ShakyAPI.SensorStatus(
                    state: .reading, driver: "iio-buffer", device: "/dev/iio:device0", rate: 100, shakes: 3,
                    sensitivity: .medium)) == """
                    Sensor: reading (iio-buffer, /dev/iio:device0, 100 Hz)
                    Shakes: 3 · sensitivity medium
                    """)
        #expect(
            TextRenderer.sensor(
                ShakyAPI.SensorStatus(state: .absent, shakes: 0, sensitivity: .light, message: "no accelerometer")
            )
            .contains("Hints are manual"))
        #expect(
            TextRenderer.settings(ShakyAPI.Settings(sound: true, volume: 0.8, sensitivity: .hard))
                == "Sound: on · volume 0.80 · sensitivity hard")
        let damaged = "/var/lib/shaky/damaged-database-20261127T203015Z.sqlite"
        #expect(
            TextRenderer.settings(
                ShakyAPI.Settings(sound: true, volume: 0.8, sensitivity: .hard, damagedDatabase: damaged))
                    == """
                    Sound: on · volume 0.80 · sensitivity hard
                    The database was damaged when the daemon started, and is set aside as \(damaged); the imported \
                    packs, the history, the settings, button assignments and calibrations are in that file (`sqlite3 \
                    \(damaged) .dump` writes out what can still be read). The daemon goes on with a new one.
                    """)
    }
}

/// `shaky watch`: one line per event; ticks show the countdown with the letters they remember.
@Suite struct WatchRendererTests {
    @Test func aRoundAsLines() {
        var renderer = WatchRenderer()
        let events: [ShakyAPI.Event] = [
            Fixtures.event(.state) { $0.status = Fixtures.ready },
            Fixtures.event(.roundStarted) {
                $0.number = 3
                $0.total = 10
                $0.question = "What big cat has stripes?"
                $0.tiles = Fixtures.tiles.map { ShakyAPI.Tile(text: $0.text, letter: true, fixed: false) }
                $0.points = 10
            },
            Fixtures.event(.tick) {
                $0.remaining = 59
                $0.phase = "indication"
            },
            Fixtures.event(.hint) {
                $0.tiles = Fixtures.tiles
                $0.points = 8
                $0.hintsUsed = 1
                $0.source = "shake"
            },
            Fixtures.event(.tick) {
                $0.remaining = 17
                $0.phase = "indication"
            },
            Fixtures.event(.buzz) {
                $0.team = "Owls"
                $0.order = 1
                $0.elapsed = 3.25
            },
            Fixtures.event(.teamUp) {
                $0.team = "Owls"
                $0.remaining = 60
            },
            Fixtures.event(.judged) {
                $0.team = "Owls"
                $0.given = "tiger"
                $0.correct = true
                $0.awarded = 8
            },
            Fixtures.event(.answerRevealed) {
                $0.answer = "TIGER"
                $0.winner = "Owls"
            },
            Fixtures.event(.tick) {
                $0.remaining = 0
                $0.phase = "roundOver"
            },
            Fixtures.event(.scoreAdjusted) {
                $0.team = "Foxes"
                $0.delta = -3
                $0.reason = "rude"
                $0.score = 5
            },
            Fixtures.event(.judged) { $0.team = "Foxes" },
            Fixtures.event(.paused) { $0.remaining = 12.5 },
            Fixtures.event(.resumed),
            Fixtures.event(.phaseChanged) { $0.phase = "answering(Foxes)" },
            Fixtures.event(.sensor) {
                $0.sensorPresent = false
                $0.sensorDevice = "iio:device0"
            },
            Fixtures.event(.gameOver) { $0.result = Fixtures.result },
        ]
        let lines = events.compactMap { renderer.line(for: $0) }
        #expect(
            lines == [
                "Game: 10 questions · ready · Owls 12, Foxes 8",
                "Question 3/10: What big cat has stripes?  T G I R E  (10 points)",
                "[00:59] buzzers open  T G I R E  (10 points)",
                "Hint (shake):  [T] G I R E  (8 points)",
                "[00:17] buzzers open  [T] G I R E  (8 points)",
                "Buzz: Owls #1 after 3.2 s",
                "Owls is up (01:00 to answer)",
                "Owls answered “tiger”: right, +8",
                "Answer: TIGER (got by Owls)",
                "[00:00] round over",
                "Score: Foxes -3 (rude) → 5",
                "Foxes ran out of time",
                "Paused with 00:13 left",
                "Resumed",
                "Sensor iio:device0 gone: hints are manual until it is back",
                "Game over: won by Owls and Foxes · Owls 18, Foxes 18, Bees 0",
            ])
    }

    @Test("Overrules say what they reversed, a time-out as such; a corrected result says it is corrected")
    func overrulesAndCorrectedResults() {
        var renderer = WatchRenderer()
        let events: [ShakyAPI.Event] = [
            Fixtures.event(.overruled) {
                $0.team = "Owls"
                $0.given = "tigre"
                $0.timedOut = false
                $0.correct = true
                $0.delta = 8
                $0.score = 20
            },
            Fixtures.event(.overruled) {
                $0.team = "Foxes"
                $0.timedOut = true
                $0.correct = true
                $0.delta = 10
                $0.score = 18
            },
            Fixtures.event(.overruled) {
                $0.team = "Foxes"
                $0.timedOut = true
                $0.correct = false
                $0.delta = -10
                $0.score = 8
            },
            // A daemon that says neither the answer nor whether it was a time-out.
            Fixtures.event(.overruled) {
                $0.team = "Bees"
                $0.correct = false
            },
            Fixtures.event(.gameOver) { $0.result = Fixtures.result },
            Fixtures.event(.gameOver) {
                $0.result = Fixtures.result
                $0.corrected = true
            },
        ]
        #expect(
            events.compactMap { renderer.line(for: $0) } == [
                "Overruled: Owls' answer “tigre” is right after all, +8 → 20",
                "Overruled: Foxes' time had run out; counted as right, +10 → 18",
                "Overruled: Foxes' time had run out; counted as wrong, -10 → 8",
                "Overruled: Bees' answer is wrong after all",
                "Game over: won by Owls and Foxes · Owls 18, Foxes 18, Bees 0",
                "Result corrected: won by Owls and Foxes · Owls 18, Foxes 18, Bees 0",
            ])
    }

    @Test func buttonEventsReadAsJoinsPressesAndDevices() {
        var renderer = WatchRenderer()
        let buttons: [ShakyAPI.ButtonEvent] = [
            ShakyAPI.ButtonEvent(kind: .joinAsking, team: "Owls"),
            ShakyAPI.ButtonEvent(kind: .joined, team: "Owls", keyName: "BTN_SOUTH", device: "pci-0000:00:14.0-usb-0:2"),
            ShakyAPI.ButtonEvent(
                kind: .joined, team: "Foxes", keyName: "BTN_SOUTH", device: "pci-0000:00:14.0-usb-0:3",
                path: "/dev/input/event31"),
            ShakyAPI.ButtonEvent(kind: .pressed, team: "Owls", kernelTime: 12.5, outcome: "buzzed", order: 1),
            ShakyAPI.ButtonEvent(kind: .pressed, team: "Foxes", kernelTime: 11, outcome: "lockedOut", lockedFor: 1.5),
            ShakyAPI.ButtonEvent(kind: .pressed, team: "Foxes", kernelTime: 10, outcome: "early"),
            ShakyAPI.ButtonEvent(kind: .deviceGone, device: "pci-0000:00:14.0-usb-0:2", path: "/dev/input/event30"),
            ShakyAPI.ButtonEvent(kind: .deviceBack, device: "pci-0000:00:14.0-usb-0:2", path: "/dev/input/event31"),
            ShakyAPI.ButtonEvent(kind: .cleared, team: "Owls", cleared: 1),
            ShakyAPI.ButtonEvent(kind: .cleared, cleared: 3),
        ]
        let lines = buttons.compactMap { button in renderer.line(for: Fixtures.event(.buzzer) { $0.buzzer = button }) }
        #expect(
            lines == [
                "Owls: press your button",
                "Join: Owls has BTN_SOUTH on pci-0000:00:14.0-usb-0:2",
                "Join: Foxes has BTN_SOUTH on /dev/input/event31",
                "Press: Foxes is locked out for 1.5 s for pressing early",
                "Press: Foxes pressed before the question opened (ignored)",
                "Buzzers: /dev/input/event30 unplugged; its teams keep their buttons",
                "Buzzers: /dev/input/event31 is back",
                "Buzzers: Owls has no button now (1 released)",
                "Buzzers: no team has a button now (3 released)",
            ])
    }

    @Test func pressesThatDidNothingAndAnEndedJoiningSayWhatToDo() {
        var renderer = WatchRenderer()
        let buttons: [ShakyAPI.ButtonEvent] = [
            ShakyAPI.ButtonEvent(
                kind: .pressed, keyName: "KEY_A", device: "platform-i8042-serio-0", path: "/dev/input/event33",
                kernelTime: 5.45, outcome: "unassigned", message: "no team has KEY_A on platform-i8042-serio-0: …"),
            ShakyAPI.ButtonEvent(
                kind: .pressed, team: "Owls", keyName: "BTN_TRIGGER_HAPPY6", kernelTime: 6, outcome: "taken",
                message: "that button is Owls' — Foxes: press another button", asking: "Foxes"),
            ShakyAPI.ButtonEvent(
                kind: .joinEnded, team: "Foxes",
                message: "the new game's teams are others; `shaky buzzers join` asks them"),
        ]
        let lines = buttons.compactMap { button in renderer.line(for: Fixtures.event(.buzzer) { $0.buzzer = button }) }
        #expect(
            lines == [
                "Press: no team has KEY_A on /dev/input/event33: shaky buzzers join, or shaky buzzers assign TEAM "
                    + "/dev/input/event33 KEY_A",
                "Press: that button is Owls' — Foxes: press another button",
                "Join: no longer asking Foxes: the new game's teams are others; `shaky buzzers join` asks them",
            ])
    }

    @Test("In shaky play, a press on a button no team has points to j, the play's own way to join, as a pause to p")
    func playsPressThatDidNothingPointsToJ() {
        let button = ShakyAPI.ButtonEvent(
            kind: .pressed, keyName: "BTN_TRIGGER", device: "usb-arcade", path: "/dev/input/event31", kernelTime: 5,
            outcome: "unassigned")
        var play = PlaySession.renderer(style: .plain)
        #expect(
            play.line(for: Fixtures.event(.buzzer) { $0.buzzer = button })
                == "Press: no team has BTN_TRIGGER on /dev/input/event31: type j for the teams to join, or shaky "
                + "buzzers assign TEAM /dev/input/event31 BTN_TRIGGER")
    }

    @Test("While a team answers, play's line shows what its buzz froze, live as after reconnecting to a restart")
    func aTeamUpShowsTheSamePointsLiveAndAfterReconnecting() {
        var live = WatchRenderer()
        _ = live.line(
            for: Fixtures.event(.roundStarted) {
                $0.number = 3
                $0.total = 10
                $0.question = "What big cat has stripes?"
                $0.tiles = Fixtures.answering.tiles
                $0.points = 10
            })
        _ = live.line(for: Fixtures.event(.buzz) { $0.team = "Owls" })
        _ = live.line(
            for: Fixtures.event(.hint) {
                $0.tiles = Fixtures.answering.tiles
                $0.points = 8
            })
        _ = live.line(
            for: Fixtures.event(.teamUp) {
                $0.team = "Owls"
                $0.remaining = 60
            })
        let liveTick = live.line(
            for: Fixtures.event(.tick) {
                $0.phase = "answering(Owls)"
                $0.remaining = 59
            })
        #expect(liveTick?.hasSuffix("(10 points)") == true, "\(liveTick ?? "")")

        // Reconnected: the daemon's status says what the team up can win.
        var status = Fixtures.answering
        status.points = 10
        status.buzzes = [ShakyAPI.BuzzEntry(team: "Owls", order: 1, elapsed: 3.2, points: 10)]
        var back = WatchRenderer()
        _ = back.line(for: Fixtures.event(.state) { $0.status = status })
        let backTick = back.line(
            for: Fixtures.event(.tick) {
                $0.phase = "answering(Owls)"
                $0.remaining = 59
            })
        #expect(backTick == liveTick, "\(backTick ?? "") vs \(liveTick ?? "")")

        // Buzzing open again, the question's worth after its hint.
        _ = live.line(for: Fixtures.event(.phaseChanged) { $0.phase = "indication" })
        let open = live.line(
            for: Fixtures.event(.tick) {
                $0.phase = "indication"
                $0.remaining = 20
            })
        #expect(open?.hasSuffix("(8 points)") == true, "\(open ?? "")")
    }

    @Test func aStateInPlayRemembersTheLettersForTicks() {
        var renderer = WatchRenderer()
        let first = renderer.line(for: Fixtures.event(.state) { $0.status = Fixtures.answering })
        #expect(
            first == """
                Game: Question 3/10 · Owls to answer · 00:18 left · Owls 12, Foxes 8
                What big cat has stripes?  [T] G I R E  (8 points)
                Buzzed: 1. Owls (3.2 s)
                """)
        #expect(
            renderer.line(for: Fixtures.event(.tick) { $0.remaining = 16.2 })
                == "[00:17] Owls to answer  [T] G I R E  (8 points)")
    }

    /// `shaky play`'s countdown line showed the letters before a hint until the next tick, a second later.
    @Test func theCountdownLineNowShowsTheLettersAHintRevealed() {
        var renderer = WatchRenderer()
        #expect(renderer.countdownLineNow == nil, "no countdown before a question")
        var open = Fixtures.answering
        open.phase = .indication
        open.teamUp = nil
        _ = renderer.line(for: Fixtures.event(.state) { $0.status = open })
        _ = renderer.line(for: Fixtures.event(.tick) { $0.remaining = 16.2 })
        let hinted = Fixtures.tiles.enumerated().map { index, tile in
            ShakyAPI.Tile(text: tile.text, letter: tile.letter, fixed: index <= 1)
        }
        _ = renderer.line(
            for: Fixtures.event(.hint) {
                $0.tiles = hinted
                $0.points = 6
            })
        #expect(renderer.countdownLineNow == "[00:17] buzzers open  [T] [G] I R E  (6 points)")
    }

    @Test("A watcher that connects (or reconnects) after a question ended is told its answer and how it ended")
    func aStateAfterTheQuestionSaysHowItEnded() {
        var renderer = WatchRenderer()
        var status = Fixtures.roundOver
        status.roundWinner = nil
        status.roundEnd = .skipped
        status.buzzes = [ShakyAPI.BuzzEntry(team: "Foxes", order: 1, elapsed: 4)]
        #expect(
            renderer.line(for: Fixtures.event(.state) { $0.status = status }) == """
                Game: Question 3/10 · round over · Owls 12, Foxes 8
                What big cat has stripes?
                Buzzed: 1. Foxes (4.0 s)
                Answer: TIGER (skipped)
                """)
        #expect(
            renderer.line(for: Fixtures.event(.state) { $0.status = Fixtures.roundOver }) == """
                Game: Question 3/10 · round over · Owls 12, Foxes 8
                What big cat has stripes?
                Answer: TIGER (got by Owls)
                """)
    }

    @Test("A watcher that connects (or reconnects) during or after a question is told the answers judged on it")
    func aStateListsTheJudgements() {
        var renderer = WatchRenderer()
        var status = Fixtures.answering
        status.buzzes = [
            ShakyAPI.BuzzEntry(team: "Foxes", order: 1, elapsed: 2),
            ShakyAPI.BuzzEntry(team: "Owls", order: 2, elapsed: 3.2),
        ]
        status.judgements = [ShakyAPI.JudgementEntry(team: "Foxes", given: "Lion", correct: false, awarded: 0)]
        #expect(
            renderer.line(for: Fixtures.event(.state) { $0.status = status }) == """
                Game: Question 3/10 · Owls to answer · 00:18 left · Owls 12, Foxes 8
                What big cat has stripes?  [T] G I R E  (8 points)
                Buzzed: 1. Foxes (2.0 s), 2. Owls (3.2 s)
                Foxes answered “Lion”: wrong
                """)
        var over = Fixtures.roundOver
        over.judgements = [
            ShakyAPI.JudgementEntry(team: "Foxes", given: nil, correct: false, awarded: 0),
            ShakyAPI.JudgementEntry(team: "Owls", given: "Tiger", correct: true, awarded: 8),
        ]
        #expect(
            renderer.line(for: Fixtures.event(.state) { $0.status = over }) == """
                Game: Question 3/10 · round over · Owls 12, Foxes 8
                What big cat has stripes?
                Foxes ran out of time
                Owls answered “Tiger”: right, +8
                Answer: TIGER (got by Owls)
                """)
    }

    @Test("A watcher that connects to a paused game (a restarted daemon restores it paused) is told how it goes on")
    func aPausedStateSaysHowToResume() {
        var status = Fixtures.answering
        status.paused = true
        var watch = WatchRenderer()
        let watched = watch.line(for: Fixtures.event(.state) { $0.status = status })
        #expect(watched?.hasSuffix("\nPaused: the host resumes with shaky resume (or p in shaky play)") == true)
        var play = WatchRenderer(resumeHint: "type p to resume")
        let played = play.line(for: Fixtures.event(.state) { $0.status = status })
        #expect(played?.hasSuffix("\nPaused: type p to resume") == true)
        #expect(play.line(for: Fixtures.event(.state) { $0.status = Fixtures.answering })?.contains("Paused") == false)
    }

    @Test(arguments: [(60.0, true), (58.5, false), (50, true), (7, false), (5, true), (0.4, true), (1e300, false)])
    func playShowsSomeTicksWhenItCannotRedraw(remaining: Double, shown: Bool) {
        #expect(PlaySession.showsTick(remaining: remaining) == shown)
    }
}

@Suite struct PartyWordsTests {
    @Test func phasesAreNamedInAHostsWords() {
        #expect(TextRenderer.phase(named: "indication") == "buzzers open")
        #expect(TextRenderer.phase(named: "answering(Foxes)") == "Foxes to answer")
        #expect(TextRenderer.phase(named: "roundOver") == "round over")
    }

    @Test func buzzingThatOpensAgainAfterAnAnswerIsSaid() {
        var renderer = WatchRenderer()
        #expect(renderer.line(for: Fixtures.event(.phaseChanged) { $0.phase = "indication" }) == nil)
        #expect(renderer.line(for: Fixtures.event(.phaseChanged) { $0.phase = "answering(Owls)" }) == nil)
        #expect(
            renderer.line(for: Fixtures.event(.phaseChanged) { $0.phase = "indication" }) == "Buzzing is open again")
    }
}

@Suite struct DisplayWidthTests {
    @Test func wideNamesAlignByDisplayWidth() {
        var table = TextTable(columns: [.init("Team"), .init("Points", .right)])
        table.rows = [["東京チーム", "12"], ["🦊 Foxes", "8"], ["Hà Nội", "3"], ["Owls", "10"]]
        let lines = table.render().split(separator: "\n").map(String.init)
        let ends = lines.map(\.displayWidth)
        #expect(Set(ends).count == 1, "every line ends in the same column: \(lines)")
        #expect("東京".displayWidth == 4)
        #expect("🦊".displayWidth == 2)
        #expect("Hà Nội".displayWidth == 6)
    }

    /// Names a terminal draws narrower or wider than their letters suggest line up too: the columns are counted as
    /// the board counts them (a zero-width space took a column, a vowel sign none, so the scores stood crooked).
    @Test func namesCountAsTheBoardCountsThem() {
        let names = ["Owls\u{200B}", "हिन्दी", "Zoe\u{308}", "👨‍👩‍👧‍👦 Family", "❤️ Hearts", "น้ำ", "\u{AD}Soft"]
        for name in names {
            #expect(name.displayWidth == DisplayWidth.of(name), "\(name)")
        }
        #expect("Owls\u{200B}".displayWidth == 4)
        #expect("हिन्दी".displayWidth == 5)
        var table = TextTable(columns: [.init("Team"), .init("Points", .right)])
        table.rows = names.map { [$0, "7"] }
        let lines = table.render().split(separator: "\n").map(String.init)
        #expect(Set(lines.map { DisplayWidth.of($0) }).count == 1, "every line ends in the same column: \(lines)")
    }
}

extension RenderingTests {
    @Test func theSensorNamesTheMotionControllersShakingToo() {
        let sensor = ShakyAPI.SensorStatus(
            state: .absent, shakes: 2, sensitivity: .medium, controllers: ["/dev/input/event30"])
        let text = TextRenderer.sensor(sensor)
        #expect(text.contains("Motion controllers shaking too: /dev/input/event30"), "\(text)")
        #expect(!text.contains("Hints are manual"), "a controller still shakes for hints")
    }

    @Test func aControllersShakeSaysWhoseControllerGaveTheHint() {
        var renderer = WatchRenderer()
        let shaken = { (shaker: ShakyAPI.Shaker?) in
            Fixtures.event(.hint) {
                $0.source = "shake"
                $0.tiles = [ShakyAPI.Tile(text: "T", letter: true, fixed: true)]
                $0.points = 8
                $0.shaker = shaker
            }
        }
        let lines = [
            shaken(ShakyAPI.Shaker(device: "/dev/iio:device0", name: "mpu6050", kind: .board)),
            shaken(
                ShakyAPI.Shaker(
                    device: "/dev/input/event30", name: "DualSense Motion Sensors", kind: .controller,
                    buttons: "usb-1", team: "Foxes")),
            shaken(ShakyAPI.Shaker(device: "/dev/input/event31", name: "Joy-Con (L) IMU", kind: .controller)),
        ].compactMap { renderer.line(for: $0) }
        #expect(
            lines == [
                "Hint (shake):  [T]  (8 points)",
                "Hint (shake, controller of Foxes):  [T]  (8 points)",
                "Hint (shake, Joy-Con (L) IMU):  [T]  (8 points)",
            ])
    }
}
