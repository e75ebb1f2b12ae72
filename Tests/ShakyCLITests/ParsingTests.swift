import ArgumentParser
import ShakyProtocol
import Testing

@testable import ShakyCLI

/// The command line as the parser reads it: every command, its options, and the errors for bad input.
@Suite struct ParsingTests {
    func parse<Command: ParsableCommand>(_ arguments: [String], as type: Command.Type) throws -> Command {
        let command = try Shaky.parseAsRoot(arguments)
        return try #require(command as? Command, "parsed \(arguments) as \(Swift.type(of: command))")
    }

    /// The exit status `shaky` gives for a parse error: 2 for usage, 0 for help.
    func usageStatus(_ arguments: [String]) -> ShakyExitStatus? {
        do {
            _ = try Shaky.parseAsRoot(arguments)
            return nil
        } catch {
            return Shaky.report(error, on: RecordingConsole())
        }
    }

    @Test func newGameWithEverything() throws {
        let new = try parse(
            [
                "new", "--team", "Owls", "--team", "Foxes", "--pack", "Animals", "--pack", "Science", "--questions",
                "5", "--difficulty", "hard", "--seed", "42", "--replace", "--indication-time", "30",
                "--time-after-first-buzz", "10", "--answer-time", "15", "--base-points", "12", "--points-per-hint", "3",
                "--minimum-points", "1", "--maximum-hints", "4", "--hint-cooldown", "0.5", "--no-answer-tolerance",
                "--ignore-diacritics", "--socket", "/tmp/s.sock", "--json",
            ], as: Shaky.New.self)
        #expect(
            new.setup.request
                == ShakyAPI.GameInterface.NewParameters(
                    teams: ["Owls", "Foxes"], packs: ["Animals", "Science"], questions: 5, difficulty: .hard,
                    seed: 42,
                    rules: ShakyAPI.Rules(
                        indicationTime: 30, timeAfterFirstBuzz: 10, answerTime: 15, basePoints: 12, pointsPerHint: 3,
                        minimumPoints: 1, maximumHints: 4, hintCooldown: 0.5, answerTolerance: false,
                        ignoreDiacritics: true),
                    replace: true))
        #expect(new.global.socket == "/tmp/s.sock")
        #expect(new.global.json)
    }

    @Test func newGameLeavesDefaultsToTheDaemon() throws {
        let new = try parse(["new", "--team", "Owls", "--team", "Foxes"], as: Shaky.New.self)
        #expect(new.setup.request == ShakyAPI.GameInterface.NewParameters(teams: ["Owls", "Foxes"]))
        #expect(new.global.socket == nil)
        #expect(!new.global.json)
    }

    @Test(arguments: [
        (["new"], "Name the teams"),
        (["new", "--team", "Owls"], "at least 2 teams"),
        (["new", "--team", "Owls", "--team", "owls"], "same name"),
        (
            ["new", "--team", "Owls", "--team", String(repeating: "x", count: 25)],
            "has 25 characters; a name has at most 24"
        ),
        (["new", "--team", "Owls", "--team", "   "], "A team name is empty or only spaces"),
        (["new", "--team", "A", "--team", "B", "--questions", "0"], "--questions must be from 1 to 50, not 0."),
        (["new", "--team", "A", "--team", "B", "--questions", "51"], "--questions must be from 1 to 50, not 51."),
        (
            ["new", "--team", "A", "--team", "B", "--answer-time", "0"],
            "--answer-time must be a number of seconds from 0.1 to 3600"
        ),
        (
            ["new", "--team", "A", "--team", "B", "--answer-time", "0.0000001"],
            "--answer-time must be a number of seconds from 0.1 to 3600 (an hour), not 0.0000001."
        ),
        (["new", "--team", "A", "--team", "B", "--answer-time", "-3"], "--answer-time"),
        (["new", "--team", "A", "--team", "B", "--difficulty", "nightmare"], "nightmare"),
        (["new", "--team", "A", "--team", "B", "--maximum-hints=-1"], "--maximum-hints must be 0 to 40, not -1"),
        (["new", "--team", "A", "--team", "B", "--base-points=-1"], "--base-points must be 1 to 1000, not -1"),
        (
            ["new", "--team", "A", "--team", "B", "--points-per-hint=-2"],
            "--points-per-hint must be 0 to the question's worth (--base-points, 10), not -2"
        ),
        // Swift's Double also reads hexadecimal, infinities and NaN, which no one means by a number of seconds.
        (
            ["new", "--team", "A", "--team", "B", "--hint-cooldown", "nan"],
            "The value 'nan' is invalid for '--hint-cooldown <seconds>': write a number in decimal digits"
        ),
        (
            ["new", "--team", "A", "--team", "B", "--indication-time", "0x10"],
            "The value '0x10' is invalid for '--indication-time <seconds>': write a number in decimal digits"
        ),
        (["new", "--team", "A", "--team", "B", "--answer-time", "infinity"], "write a number in decimal digits"),
        (["settings", "--volume", "0x1p-1"], "The value '0x1p-1' is invalid for '--volume <0-1>'"),
        (["pack", "import", "-", "--format", "tsv"], "A CSV pack from standard input needs a name: add --name NAME."),
        // Int's reading refused a number of too many digits as it refuses a word, without saying which it was.
        (
            ["new", "--team", "A", "--team", "B", "--seed", "18446744073709551615"],
            "The value '18446744073709551615' is invalid for '--seed <number>': the number is too large: the most is "
                + "9223372036854775807"
        ),
        (
            ["new", "--team", "A", "--team", "B", "--questions", "2.5"],
            "The value '2.5' is invalid for '--questions <count>': write a whole number in decimal digits"
        ),
        (
            ["new", "--team", "A", "--team", "B", "--indication-time", "3600.0000001"],
            "--indication-time must be a number of seconds from 0.1 to 3600 (an hour), not 3600.0000001."
        ),
        (
            ["new", "--team", "A", "--team", "B", "--hint-cooldown", "3600.001"],
            "--hint-cooldown must be 0 to 3600 seconds, not 3600.001."
        ),
        (
            ["new", "--team", "A", "--team", "B", "--indication-time", "99999.99999999999"],
            "--indication-time must be a number of seconds from 0.1 to 3600 (an hour), not 100000."
        ),
        (["new", "--team", "A", "--team", "B", "--base-points", "5000"], "--base-points must be 1 to 1000"),
        (
            ["new", "--team", "Tab\there", "--team", "B"],
            "Team name “Tab�here” holds the control character U+0009, which cannot be shown: leave it out."
        ),
    ])
    func newGameRefusesBadSetups(arguments: [String], message: String) {
        #expect(usageStatus(arguments) == .usage)
        #expect(Shaky.message(for: parseError(arguments)).contains(message))
    }

    @Test func nineTeamsAreTooMany() {
        let arguments = ["new"] + (1...9).flatMap { ["--team", "Team \($0)"] }
        #expect(Shaky.message(for: parseError(arguments)).contains("at most 8 teams"))
    }

    func parseError(_ arguments: [String]) -> any Error {
        do {
            let command = try Shaky.parseAsRoot(arguments)
            return TestSetupError("\(arguments) parsed as \(command)")
        } catch {
            return error
        }
    }

    @Test(arguments: [
        (["score", "Owls", "-5"], -5), (["score", "Owls", "+5"], 5), (["score", "Owls", "7"], 7),
        (["score", "Owls", "--", "-5"], -5), (["score", "Owls", "-15", "--reason", "rude"], -15),
        (["score", "--reason", "bonus", "Owls", "-2"], -2), (["score", "Owls", "\u{2212}4"], -4),
    ])
    func scoreTakesSignedDeltas(arguments: [String], points: Int) throws {
        let score = try parse(arguments, as: Shaky.Score.self)
        #expect(score.team == "Owls")
        #expect(try score.delta.points == points)
    }

    @Test func scoreKeepsTheReason() throws {
        let score = try parse(["score", "Owls", "-3", "--reason", "shouted the answer"], as: Shaky.Score.self)
        #expect(score.reason == "shouted the answer")
    }

    @Test(arguments: [
        (["score", "Owls"], "Say how many points"),
        (["score", "Owls", "five"], "not a change of score"),
        (["score", "Owls", "1.5"], "not a change of score"),
        (["score", "Owls", "+5", "+6"], "one change of score"),
        (["score", "Owls", "0"], "changes nothing"),
        (["score", "Owls", "1001"], "at most 1000 points either way, not +1001"),
        (["score", "Owls", "-1000000000000"], "at most 1000 points either way, not -1000000000000"),
        (["score", "Owls", "99999999999999999999"], "not a change of score; write a whole number of at most 1000"),
        (["score"], "Missing expected argument"),
    ])
    func scoreRefusesBadDeltas(arguments: [String], message: String) {
        #expect(usageStatus(arguments) == .usage)
        #expect(Shaky.message(for: parseError(arguments)).contains(message))
    }

    @Test func answerJoinsItsWords() throws {
        let answer = try parse(["answer", "Owls", "snow", "leopard"], as: Shaky.Answer.self)
        #expect(answer.team == "Owls")
        #expect(answer.answer == "snow leopard")
        #expect(usageStatus(["answer", "Owls"]) == .usage)
    }

    @Test func buzzTakesOneTeam() throws {
        #expect(try parse(["buzz", "Foxes"], as: Shaky.Buzz.self).team == "Foxes")
        #expect(usageStatus(["buzz"]) == .usage)
        #expect(usageStatus(["buzz", "Foxes", "Owls"]) == .usage)
        #expect(usageStatus(["judge", "undo-buzz", "Foxes", "Owls"]) == .usage)
    }

    @Test("A team name of several words typed without quotes is refused with the quotes to type")
    func aTeamNameOfSeveralWordsSaysToQuoteIt() throws {
        func usageMessage(_ arguments: [String]) -> String {
            let console = RecordingConsole()
            do { _ = try Shaky.parseAsRoot(arguments) } catch { _ = Shaky.report(error, on: console) }
            return console.error
        }
        #expect(try parse(["buzz", "Cú Mèo"], as: Shaky.Buzz.self).team == "Cú Mèo")
        let buzz = usageMessage(["buzz", "Cú", "Mèo"])
        #expect(buzz.contains("a name of several words goes in quotes: shaky buzz \"Cú Mèo\""), "\(buzz)")
        let undo = usageMessage(["judge", "undo-buzz", "Cú", "Mèo"])
        #expect(undo.contains("shaky judge undo-buzz \"Cú Mèo\""), "\(undo)")
    }

    /// A usage error that quotes what was typed (a team name too long, the same name twice, an unknown option) shows an
    /// escape sequence in it as �: a name pasted with one cleared the host's terminal instead of saying what was wrong.
    @Test func aUsageErrorShowsControlCharactersAsReplacements() async {
        let clear = "\u{1B}[2J\u{1B}[H"
        for arguments in [
            ["new", "--team", "Owls", "--team", clear + String(repeating: "x", count: 24)],
            ["new", "--team", "Owls" + clear, "--team", "owls" + clear],
            ["new", "--team", "Owls", "--team", "Foxes", "--difficulty", clear],
        ] {
            let outcome = await runInProcess(arguments)
            #expect(outcome.status == 2, "\(outcome)")
            #expect(!outcome.error.contains("\u{1B}"), "\(outcome)")
            #expect(outcome.error.contains("\u{FFFD}[2J"), "\(outcome)")
        }
    }

    @Test("A command typed without the group it belongs to names the command to type, with usage status")
    func aNestedCommandTypedAtTheTopIsNamed() async {
        let overrule = await runInProcess(["overrule"])
        #expect(overrule.status == 2, "\(overrule)")
        #expect(overrule.error.contains("`shaky judge overrule`"), "\(overrule)")
        let undo = await runInProcess(["--socket", "/nowhere.sock", "undo-buzz", "Owls"])
        #expect(undo.status == 2, "\(undo)")
        #expect(undo.error.contains("`shaky judge undo-buzz`"), "\(undo)")
        #expect(!undo.error.contains("--socket"), "the option is not what is wrong: \(undo)")
        let calibrate = await runInProcess(["calibrate"])
        #expect(calibrate.error.contains("`shaky sensor calibrate`"), "\(calibrate)")
        let typo = await runInProcess(["staus"])
        #expect(typo.status == 2, "\(typo)")
        #expect(typo.error.contains("no command “staus”"), "\(typo)")
    }

    @Test("Help for a command there is not is a usage error naming it; help for one there is is help")
    func helpForAnUnknownCommand() async {
        for arguments in [["help", "bogus"], ["help", "pack", "bogus"]] {
            let outcome = await runInProcess(arguments)
            #expect(outcome.status == 2, "\(outcome)")
            #expect(outcome.error.contains("no command “bogus”"), "\(outcome)")
            #expect(outcome.output.isEmpty, "\(outcome)")
        }
        let known = await runInProcess(["help", "pack", "search"])
        #expect(known.status == 0, "\(known)")
        #expect(known.output.contains("USAGE: shaky pack search"), "\(known)")
    }

    @Test("An empty --socket is a usage error, not a daemon that cannot be reached")
    func anEmptySocketPathIsAUsageError() async {
        for arguments in [["--socket", "", "status"], ["status", "--socket", ""]] {
            let outcome = await runInProcess(arguments)
            #expect(outcome.status == 2, "\(outcome)")
            #expect(outcome.error.contains("--socket needs the path of the daemon's socket"), "\(outcome)")
        }
    }

    @Test func commandsWithoutArguments() throws {
        _ = try parse(["next"], as: Shaky.Next.self)
        _ = try parse(["hint"], as: Shaky.Hint.self)
        _ = try parse(["pause"], as: Shaky.Pause.self)
        _ = try parse(["resume"], as: Shaky.Resume.self)
        _ = try parse(["skip"], as: Shaky.Skip.self)
        _ = try parse(["end"], as: Shaky.End.self)
        _ = try parse(["sensor", "--json"], as: Shaky.Sensor.Status.self)
        _ = try parse(["sensor", "status"], as: Shaky.Sensor.Status.self)
        _ = try parse(["watch", "--json"], as: Shaky.Watch.self)
        #expect(try parse(["status", "--json"], as: Shaky.Status.self).global.json)
        #expect(try parse(["scoreboard", "--socket", "/x"], as: Shaky.Scoreboard.self).global.socket == "/x")
        // The board draws from the socket given, before the command's name or after it.
        #expect(try parse(["board", "--socket", "/x"], as: Shaky.Board.self).global.socket == "/x")
        #expect(try parse(["board", "--plain", "--socket=/x"], as: Shaky.Board.self).global.socket == "/x")
        #expect(
            (try Shaky.parseAsRoot(Shaky.movingGlobalOptionsAfterTheSubcommand(["--socket", "/x", "board"]))
                as? Shaky.Board)?.global.socket == "/x")
        #expect(usageStatus(["board", "--json"]) == .usage)
        #expect(usageStatus(["next", "now"]) == .usage)
        #expect(usageStatus(["status", "--colour"]) == .usage)
    }

    @Test func sensorCalibrateTakesStepDurationsInRange() throws {
        let calibrate = try parse(["sensor", "calibrate"], as: Shaky.Sensor.Calibrate.self)
        #expect(calibrate.shakeSeconds == 5 && calibrate.stillSeconds == 4)
        let longer = try parse(
            ["sensor", "calibrate", "--shake-seconds", "10", "--still-seconds", "3"], as: Shaky.Sensor.Calibrate.self)
        #expect(longer.shakeSeconds == 10 && longer.stillSeconds == 3)
        #expect(usageStatus(["sensor", "calibrate", "--shake-seconds", "1"]) == .usage)
        #expect(usageStatus(["sensor", "calibrate", "--still-seconds", "1e300"]) == .usage)
        #expect(usageStatus(["sensor", "calibrate", "--shake-seconds", "nan"]) == .usage)
    }

    @Test func sensorCalibrateSaysTheSecondsAsGiven() throws {
        let device = ShakyAPI.SensorStatus(state: .ready, driver: "iio-buffer", shakes: 0, sensitivity: .medium)
        let halves = Shaky.Sensor.Calibrate.instructions(for: device, shakeSeconds: 3.5, stillSeconds: 2)
        #expect(halves.shake == "Shake the device now, as your players will, for 3.5 seconds…")
        #expect(halves.holdStill == "Stop, and hold it still for 2 seconds…")
        let trace = ShakyAPI.SensorStatus(state: .ready, driver: "trace", shakes: 0, sensitivity: .medium)
        #expect(
            Shaky.Sensor.Calibrate.instructions(for: trace, shakeSeconds: 10, stillSeconds: 2.5).holdStill
                == "…and 2.5 seconds after a pause as holding still…")
    }

    @Test func historyAndLeaderboardTakeALimit() throws {
        #expect(try parse(["history", "--limit", "5"], as: Shaky.History.self).limit == 5)
        #expect(try parse(["leaderboard"], as: Shaky.Leaderboard.self).limit == nil)
        #expect(usageStatus(["history", "--limit", "0"]) == .usage)
        #expect(usageStatus(["leaderboard", "--limit", "many"]) == .usage)
    }

    @Test func settingsShowOrChange() throws {
        let show = try parse(["settings"], as: Shaky.Settings.self)
        #expect(show.sound == nil && show.volume == nil && show.sensitivity == nil)
        let change = try parse(
            ["settings", "--sound", "off", "--volume", "0.5", "--sensitivity", "hard"], as: Shaky.Settings.self)
        #expect(change.sound == .off)
        #expect(change.volume == 0.5)
        #expect(change.sensitivity == .hard)
        #expect(usageStatus(["settings", "--volume", "1.5"]) == .usage)
        #expect(usageStatus(["settings", "--sound", "loud"]) == .usage)
        #expect(usageStatus(["settings", "--sensitivity", "feather"]) == .usage)
    }

    @Test func packCommands() throws {
        _ = try parse(["pack", "list"], as: Shaky.Pack.List.self)
        #expect(try parse(["pack", "show", "Animals"], as: Shaky.Pack.Show.self).name == "Animals")
        #expect(try parse(["pack", "create", "Mine"], as: Shaky.Pack.Create.self).name == "Mine")
        let rename = try parse(["pack", "rename", "Mine", "Ours"], as: Shaky.Pack.Rename.self)
        #expect(rename.name == "Mine" && rename.newName == "Ours")
        #expect(try parse(["pack", "delete", "Mine"], as: Shaky.Pack.Delete.self).name == "Mine")
        let duplicate = try parse(["pack", "duplicate", "Animals", "My animals"], as: Shaky.Pack.Duplicate.self)
        #expect(duplicate.name == "Animals" && duplicate.newName == "My animals")
        #expect(try parse(["pack", "remove", "12"], as: Shaky.Pack.Remove.self).id == 12)
        let search = try parse(
            ["pack", "search", "big", "cat", "--pack", "Animals", "--limit", "3"], as: Shaky.Pack.Search.self)
        #expect(search.words == ["big", "cat"] && search.pack == "Animals" && search.limit == 3)
        #expect(usageStatus(["pack", "show"]) == .usage)
        #expect(usageStatus(["pack", "remove", "twelve"]) == .usage)
        #expect(usageStatus(["pack", "search"]) == .usage)
        #expect(usageStatus(["pack", "rename", "Mine", " "]) == .usage)
    }

    @Test func packAddTakesAWholeQuestionAndEditOnlyTheFieldsGiven() throws {
        let add = try parse(
            [
                "pack", "add", "Mine", "--question", "What big cat has stripes?", "--answer", "Tiger", "--alternate",
                "Tigress", "--difficulty", "easy",
            ], as: Shaky.Pack.Add.self)
        #expect(add.pack == "Mine")
        #expect(
            add.question.question
                == ShakyAPI.Question(
                    text: "What big cat has stripes?", answer: "Tiger", alternates: ["Tigress"], difficulty: .easy))
        let edit = try parse(["pack", "edit", "12", "--question", "Q?", "--answer", "A"], as: Shaky.Pack.Edit.self)
        #expect(edit.id == 12)
        let current = ShakyAPI.StoredQuestion(
            id: 12, pack: "Mine", text: "Old?", answer: "Old", alternates: ["Older"], difficulty: .hard)
        #expect(
            edit.merged(into: current)
                == ShakyAPI.Question(text: "Q?", answer: "A", alternates: ["Older"], difficulty: .hard))
        let harder = try parse(["pack", "edit", "12", "--difficulty", "easy"], as: Shaky.Pack.Edit.self)
        #expect(
            harder.merged(into: current)
                == ShakyAPI.Question(text: "Old?", answer: "Old", alternates: ["Older"], difficulty: .easy))
        let bare = try parse(["pack", "edit", "12", "--no-alternates"], as: Shaky.Pack.Edit.self)
        #expect(bare.merged(into: current).alternates == nil)
        #expect(usageStatus(["pack", "edit", "12"]) == .usage)
        #expect(usageStatus(["pack", "add", "Mine", "--question", "Q?"]) == .usage)
        #expect(usageStatus(["pack", "add", "Mine", "--question", "Q?", "--answer", "!!"]) == .usage)
        // An answer's length is the daemon's to check, by its one rule (FailureWordsTests): the command line takes it.
        #expect(
            usageStatus(["pack", "add", "Mine", "--question", "Q?", "--answer", String(repeating: "a", count: 41)])
                == nil)
        #expect(
            usageStatus(["pack", "add", "Mine", "--question", "Q?", "--answer", "A", "--difficulty", "any"]) == .usage)
    }

    @Test func importFindsTheFormat() throws {
        #expect(try parse(["pack", "import", "quiz.CSV"], as: Shaky.Pack.Import.self).resolvedFormat == .csv)
        #expect(try parse(["pack", "import", "quiz.json"], as: Shaky.Pack.Import.self).resolvedFormat == .json)
        // A spreadsheet's tab-separated export: tabs are one of the CSV reader's separators.
        #expect(try parse(["pack", "import", "Quiz.tsv"], as: Shaky.Pack.Import.self).resolvedFormat == .csv)
        let explicit = try parse(
            ["pack", "import", "quiz.txt", "--format", "csv", "--name", "Quiz"], as: Shaky.Pack.Import.self)
        #expect(explicit.resolvedFormat == .csv && explicit.name == "Quiz")
        #expect(usageStatus(["pack", "import", "quiz.txt"]) == .usage)
        #expect(
            Shaky.message(for: parseError(["pack", "import", "quiz.txt"])).contains("--format json, csv or tsv"))
        // --format tsv, as export writes it (standard input has no extension): read as CSV.
        #expect(
            try parse(["pack", "import", "-", "--format", "tsv", "--name", "Q"], as: Shaky.Pack.Import.self)
                .resolvedFormat == .csv)
    }

    @Test func exportFindsTheFormat() throws {
        #expect(try parse(["pack", "export", "Animals"], as: Shaky.Pack.Export.self).resolvedFormat == .json)
        #expect(
            try parse(["pack", "export", "Animals", "-o", "a.csv"], as: Shaky.Pack.Export.self).resolvedFormat == .csv)
        let explicit = try parse(
            ["pack", "export", "Animals", "--output", "a.txt", "--format", "csv"], as: Shaky.Pack.Export.self)
        #expect(explicit.resolvedFormat == .csv && explicit.output == "a.txt")
        #expect(
            try parse(["pack", "export", "Animals", "-o", "a.TSV"], as: Shaky.Pack.Export.self).resolvedFormat == .tsv)
        // A name that says another format is refused rather than given JSON.
        #expect(usageStatus(["pack", "export", "Animals", "-o", "a.yaml"]) == .usage)
        #expect(
            Shaky.message(for: parseError(["pack", "export", "Animals", "-o", "a.yaml"])).contains(
                "Cannot tell the format from “.yaml”: add --format json, csv or tsv."))
        #expect(
            try parse(["pack", "export", "Animals", "-o", "pack"], as: Shaky.Pack.Export.self).resolvedFormat == .json)
    }

    @Test func playTakesAScriptAndOptionallyANewGame() throws {
        let play = try parse(
            ["play", "--script", "demo.txt", "--team", "Owls", "--team", "Foxes", "--seed", "7"], as: Shaky.Play.self)
        #expect(play.script == "demo.txt")
        #expect(play.setup.request == ShakyAPI.GameInterface.NewParameters(teams: ["Owls", "Foxes"], seed: 7))
        #expect(try parse(["play"], as: Shaky.Play.self).setup.teams.isEmpty)
        #expect(usageStatus(["play", "--team", "Owls"]) == .usage)
    }

    /// Whether `help` lists `value` on a line of its own with `meaning` after a dash, as argument-parser lists the
    /// values of an enumeration that are described.
    static func lists(_ value: String, meaning: String, in help: String) -> Bool {
        help.split(separator: "\n").contains { line in
            let listed = line.trimmingPrefix(while: \.isWhitespace)
            guard listed.count < line.count, listed.hasPrefix(value + " ") else { return false }
            return listed.dropFirst(value.count).trimmingPrefix(while: { $0 == " " }).hasPrefix("- " + meaning)
        }
    }

    @Test func helpListsTheValuesOfEnumerationsEachWithWhatItMeans() {
        let newHelp = Shaky.New.helpMessage(columns: 200)
        #expect(newHelp.contains("--difficulty <difficulty>"))
        for (value, meaning) in [
            ("any", "Questions of every difficulty (the default)."), ("easy", "Easy questions only."),
            ("buzz-order", "Every team may buzz"), ("classic", "The first team to buzz answers at once"),
        ] {
            #expect(Self.lists(value, meaning: meaning, in: newHelp), "\(value): \(newHelp)")
        }
        // Each once: the option's own help no longer spells them out beside the parser's list.
        #expect(newHelp.components(separatedBy: "buzz-order").count == 2, "\(newHelp)")
        #expect(!newHelp.contains("values:"), "\(newHelp)")
        let settings = Shaky.Settings.helpMessage(columns: 200)
        for (value, meaning) in [
            ("on", "Play the sound cues."), ("off", "Play none."), ("light", "Gentler shaking counts"),
            ("hard", "Only vigorous shaking counts."),
        ] {
            #expect(Self.lists(value, meaning: meaning, in: settings), "\(value): \(settings)")
        }
        #expect(!settings.contains("values:") && !settings.contains("on or off"), "\(settings)")
        let add = Shaky.Pack.Add.helpMessage(columns: 200)
        #expect(add.contains("(default: medium)") && add.contains("Few would know it."), "\(add)")
        let export = Shaky.Pack.Export.helpMessage(columns: 200)
        #expect(export.contains("- CSV: a header line, then a question a line."), "\(export)")
    }

    @Test func helpIsNotAnError() async {
        for arguments in [["--help"], ["pack"], ["pack", "export", "--help"], ["help", "score"]] {
            let outcome = await runInProcess(arguments)
            #expect(outcome.status == 0, "\(arguments)")
            #expect(outcome.output.contains("USAGE: shaky"), "\(arguments)")
            #expect(outcome.error.isEmpty)
        }
    }

    @Test func unknownCommandsAndOptionsAreUsageErrors() {
        #expect(usageStatus(["dance"]) == .usage)
        #expect(usageStatus(["new", "--team", "A", "--team", "B", "--tempo", "fast"]) == .usage)
    }

    @Test("A word after a command of commands that names none of them is said to be no command, with the one meant")
    func unknownSubcommandsAreNamed() async {
        for (arguments, said) in [
            (["pack", "lst"], "There is no command “pack lst”: did you mean `shaky pack list`?"),
            (["judge", "overule"], "There is no command “judge overule”: did you mean `shaky judge overrule`?"),
            (["pack", "frobnicate"], "There is no command “pack frobnicate”; `shaky pack --help` lists them."),
            // A command that runs one of its own by default: the word is that one's unexpected argument.
            (["buzzers", "frob"], "There is no command “buzzers frob”; `shaky buzzers --help` lists them."),
            (["buzzers", "jion"], "There is no command “buzzers jion”: did you mean `shaky buzzers join`?"),
            (["sensor", "calbrate"], "There is no command “sensor calbrate”: did you mean `shaky sensor calibrate`?"),
        ] {
            let outcome = await runInProcess(arguments)
            #expect(outcome.status == 2, "\(arguments): \(outcome)")
            #expect(outcome.error.hasPrefix("shaky: " + said), "\(arguments): \(outcome.error)")
        }
        for arguments in [
            ["history", "delete", "-1"], ["pack", "remove", "-5"], ["pack", "edit", "-5", "--difficulty", "hard"],
        ] {
            let outcome = await runInProcess(arguments)
            #expect(outcome.status == 2, "\(arguments): \(outcome)")
            #expect(
                outcome.error.contains("” is no id: an id is a whole number from 1"), "\(arguments): \(outcome.error)")
        }
        let key = await runInProcess(["buzzers", "assign", "Owls", "/dev/input/event3", "-1"])
        #expect(key.status == 2, "\(key)")
        #expect(key.error.contains("“-1” is no key: a key is a name (KEY_SPACE, space, BTN_TRIGGER) or a code from 1."))
        // A command that runs one of its own by default gives that one the words it takes.
        #expect(Shaky.unknownCommand(in: ["buzzers", "--json"], refusedAs: "Unexpected argument '--json'") == nil)
        #expect(Shaky.unknownCommand(in: ["buzzers", "Owls"], refusedAs: "Missing expected argument") == nil)
    }
}
