import Foundation
import ShakyTesting
import Testing
import Varlink

/// The built `shaky` against the built `shakyd`: the pair a host actually runs.
@Suite("shaky against a real shakyd")
struct RealDaemonTests {
    @Test func theDemoPlaysAWholeGameOnTheDemoTrace() async throws {
        try await DaemonProcess.withRunning(arguments: ["--input", "demo"]) { daemon in
            let shaky = try BuiltProduct.path("shaky")
            // The demo trace shakes 3.46 s after the round opens, and every 6 s after that.
            let demo = try ChildProcess(
                shaky, ["demo", "--replace", "--shake-time", "5"], environment: ["SHAKY_SOCKET": daemon.socketPath])
            let exit = try await demo.waitForExit(within: .seconds(120))
            let output = demo.standardOutput
            #expect(exit == ChildProcess.Exit(status: 0, signaled: false), "\(demo.standardError)")
            #expect(output.contains("Question 1/1:"), "\(output)")
            #expect(output.contains("Hint (shake):"), "a shake in the trace gave a hint: \(output)")
            #expect(output.contains("Buzz: Owls #1"), "\(output)")
            #expect(output.contains("Owls answered “no idea”: wrong"), "\(output)")
            #expect(output.contains("Foxes answered"), "\(output)")
            #expect(output.contains(": right, +"), "\(output)")
            #expect(output.contains("Game over: won by Foxes"), "\(output)")
            #expect(output.contains("Avg buzz"), "the scoreboard is shown: \(output)")

            let history = try ChildProcess(
                shaky, ["history", "--json"], environment: ["SHAKY_SOCKET": daemon.socketPath])
            #expect(try await history.waitForExit(within: .seconds(30)).status == 0)
            #expect(history.standardOutput.contains("\"Foxes\""))
        }
    }

    @Test("shaky play corrects a finished game: the overrule and each corrected result are lines of their own")
    func playCorrectsAFinishedGame() async throws {
        try await DaemonProcess.withRunning { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            let new = try await runBinary(
                ["new", "--team", "Owls", "--team", "Foxes", "--questions", "1", "--seed", "3"],
                environment: environment)
            #expect(new.status == 0, "\(new)")
            // Both buzz and answer wrong; the host ends the game, then counts Foxes' answer right and gives Owls a bonus.
            let play = try await runBinary(
                ["play"], input: "n\nb Owls\nb Foxes\na zzz\na zzz\nn\no\n+ Owls 10 spirit\nq\n",
                environment: environment)
            #expect(play.status == 0, "\(play)")
            let lines = play.output.split(separator: "\n").map(String.init)
            let expected = [
                "Game over: no winner · Owls 0, Foxes 0",
                "Overruled: Foxes' answer “zzz” is right after all, +10 → 10",
                "Result corrected: won by Foxes · Foxes 10, Owls 0",
                "Score: Owls +10 (spirit) → 10",
                "Result corrected: won by Owls and Foxes · Owls 10, Foxes 10",
            ]
            let found = expected.map { line in lines.firstIndex { $0.hasSuffix(line) } }
            #expect(found.allSatisfy { $0 != nil }, "\(play.output)")
            #expect(found.compactMap { $0 } == found.compactMap { $0 }.sorted(), "in this order: \(play.output)")
            let history = try await runBinary(["history"], environment: environment)
            #expect(history.output.split(separator: "\n").count == 2, "one game: \(history)")
            #expect(history.output.contains("Owls, Foxes"), "both win: \(history)")
        }
    }

    @Test("Teams tied first are listed in one order by play, status, scoreboard and history: the daemon's")
    func tiedWinnersReadInOneOrder() async throws {
        try await DaemonProcess.withRunning { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            // Owls are set up first, so the daemon lists them first on a tie; by name Foxes would come first.
            let new = try await runBinary(
                ["new", "--team", "Owls", "--team", "Foxes", "--questions", "1", "--seed", "3"],
                environment: environment)
            #expect(new.status == 0, "\(new)")
            let play = try await runBinary(
                ["play"], input: "n\nb Owls\nb Foxes\na zzz\na zzz\nn\n+ Foxes 10 spirit\n+ Owls 10 spirit\nq\n",
                environment: environment)
            #expect(play.status == 0, "\(play)")
            #expect(
                play.output.contains("Result corrected: won by Owls and Foxes · Owls 10, Foxes 10\n"), "\(play.output)")

            func rows(_ text: String) -> [String] {
                text.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
                    .filter { ($0.hasSuffix(" Owls") || $0.hasSuffix(" Foxes")) && $0.first?.isNumber == true }
            }
            let status = try await runBinary(["status"], environment: environment)
            #expect(status.status == 0, "\(status)")
            #expect(status.output.contains("Winners (tied): Owls, Foxes ·"), "\(status.output)")
            #expect(rows(status.output) == ["1 Owls", "1 Foxes"], "\(status.output)")
            let scoreboard = try await runBinary(["scoreboard"], environment: environment)
            #expect(scoreboard.status == 0, "\(scoreboard)")
            #expect(rows(scoreboard.output) == ["1 Owls", "1 Foxes"], "\(scoreboard.output)")
            let history = try await runBinary(["history"], environment: environment)
            #expect(history.output.contains("Owls 10, Foxes 10"), "\(history.output)")
            #expect(history.output.contains("Owls, Foxes"), "\(history.output)")
        }
    }

    @Test("shaky new with no packs, or none with questions, says so and how to get some, not “0 eligible questions”")
    func aNewGameWithNoQuestionsSaysHowToGetSome() async throws {
        // A daemon whose install has no built-in packs (an empty `share/shaky/packs`).
        let data = try TemporaryDirectory()
        defer { data.remove() }
        try FileManager.default.createDirectory(atPath: data.appending("packs"), withIntermediateDirectories: true)
        try await DaemonProcess.withRunning(environment: ["SHAKY_DATA_DIR": data.path]) { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            let teams = ["new", "--team", "Owls", "--team", "Foxes"]
            let noPacks = try await runBinary(teams, environment: environment)
            #expect(noPacks.status == 1, "\(noPacks)")
            #expect(
                noPacks.error
                    == "shaky: there are no quiz packs to draw questions from: import one with `shaky pack import "
                    + "FILE`, or reinstall Shaky Words for the built-in packs it comes with; `shaky pack list` lists "
                    + "the packs\n", "\(noPacks)")

            #expect(try await runBinary(["pack", "create", "Empty"], environment: environment).status == 0)
            let noQuestions = try await runBinary(teams, environment: environment)
            #expect(noQuestions.status == 1, "\(noQuestions)")
            #expect(
                noQuestions.error
                    == "shaky: none of the quiz packs holds a question: add some with `shaky pack add PACK`, import a "
                    + "pack with `shaky pack import FILE`, or reinstall Shaky Words for the built-in packs it comes "
                    + "with; `shaky pack list` lists the packs\n", "\(noQuestions)")
            let chosen = try await runBinary(teams + ["--pack", "Empty"], environment: environment)
            #expect(chosen.status == 1, "\(chosen)")
            #expect(
                chosen.error
                    == "shaky: the pack “Empty” holds no questions: add some with `shaky pack add PACK`, or choose "
                    + "another pack; `shaky pack list` lists the packs\n", "\(chosen)")
            // Typed as before: the Game interface's InvalidSetup.
            let game = DaemonProcess.GameClient(try await daemon.connect())
            let refusal = await #expect(throws: VarlinkError.self) {
                _ = try await game.new(teams: ["Owls", "Foxes"])
            }
            guard case .remote(let name, _) = refusal else {
                Issue.record("not an error reply: \(String(describing: refusal))")
                return
            }
            #expect(name == "io.shakywords.Game.InvalidSetup")
        }
    }

    @Test("A question the host skipped is told as skipped by shaky play and shaky status, not as the time running out")
    func aSkippedQuestionIsToldAsSkipped() async throws {
        try await DaemonProcess.withRunning { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            let new = try await runBinary(
                ["new", "--team", "Owls", "--team", "Foxes", "--questions", "2", "--seed", "3"],
                environment: environment)
            #expect(new.status == 0, "\(new)")
            let play = try await runBinary(["play"], input: "n\ns\nq\n", environment: environment)
            #expect(play.status == 0, "\(play)")
            let revealed = play.output.split(separator: "\n").filter { $0.contains("Answer: ") }
            #expect(revealed.count == 1 && revealed.allSatisfy { $0.hasSuffix(" (skipped)") }, "\(play.output)")
            let status = try await runBinary(["status"], environment: environment)
            #expect(status.status == 0, "\(status)")
            #expect(status.output.contains(" · skipped\n"), "\(status.output)")
            #expect(!status.output.contains("time's up"), "\(status.output)")
        }
    }

    @Test("An answer for a team of two words typed without quotes says to quote the name, with the answer")
    func aTeamNameOfTwoWords() async throws {
        try await DaemonProcess.withRunning { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            let new = try await runBinary(
                ["new", "--team", "Cú Mèo", "--team", "Owls", "--questions", "1", "--seed", "3"],
                environment: environment)
            #expect(new.status == 0, "\(new)")
            #expect(try await runBinary(["next"], environment: environment).status == 0)
            let buzz = try await runBinary(["buzz", "Cú Mèo"], environment: environment)
            #expect(buzz.status == 0, "\(buzz)")
            #expect(try await runBinary(["buzz", "Owls"], environment: environment).status == 0)
            let answer = try await runBinary(["answer", "Cú", "Mèo", "Paris"], environment: environment)
            #expect(answer.status == 1, "\(answer)")
            #expect(
                answer.error.contains(
                    "no team called “Cú” plays in this game; to answer for Cú Mèo, put its name in quotes: "
                        + "shaky answer 'Cú Mèo' Paris"), "\(answer)")
            let undo = try await runBinary(["judge", "undo-buzz", "cú mèo"], environment: environment)
            #expect(undo.status == 0, "\(undo)")
            #expect(undo.output.contains("Up: Owls"), "\(undo)")
        }
    }

    @Test("A team typed without its accents, or one that does not play, is refused with the game's teams")
    func anUnknownTeamIsRefusedWithTheTeams() async throws {
        try await DaemonProcess.withRunning { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            let new = try await runBinary(
                ["new", "--team", "Les Éléphants", "--team", "Foxes & Co", "--team", "Zoë"], environment: environment)
            #expect(new.status == 0, "\(new)")
            #expect(try await runBinary(["next"], environment: environment).status == 0)
            let teams = "The teams are “Les Éléphants”, “Foxes & Co” and “Zoë”."
            let buzz = try await runBinary(["buzz", "zoe"], environment: environment)
            #expect(buzz.status == 1, "\(buzz)")
            #expect(buzz.error.contains("no team called “zoe” plays in this game; did you mean “Zoë”?"), "\(buzz)")
            #expect(buzz.error.contains(teams), "\(buzz)")
            let score = try await runBinary(["score", "les elephants", "+2"], environment: environment)
            #expect(score.status == 1 && score.error.contains("did you mean “Les Éléphants”?"), "\(score)")
            let undo = try await runBinary(["judge", "undo-buzz", "Zoe"], environment: environment)
            #expect(undo.status == 1 && undo.error.contains("did you mean “Zoë”?"), "\(undo)")
            let wolves = try await runBinary(["buzz", "Wolves"], environment: environment)
            #expect(wolves.status == 1 && wolves.error.contains(teams), "\(wolves)")
            #expect(!wolves.error.contains("did you mean"), "\(wolves)")
            // A refusal for a team that plays says only the game's reason; so does one that comes before the team's.
            #expect(try await runBinary(["buzz", "Zoë"], environment: environment).status == 0)
            let again = try await runBinary(["buzz", "Zoë"], environment: environment)
            #expect(again.status == 1 && !again.error.contains("The teams are"), "\(again)")
            #expect(try await runBinary(["skip"], environment: environment).status == 0)
            let closed = try await runBinary(["buzz", "zoe"], environment: environment)
            #expect(closed.status == 1 && closed.error.contains("only taken while a question is open"), "\(closed)")
            #expect(!closed.error.contains("did you mean"), "\(closed)")
        }
    }

    /// A tab pasted into a team's name: the daemon refuses the parameter, and shaky says which character it holds and
    /// what to do, not only "rejected the parameter “teams[0]”". An escape pasted into a pack's name is refused by shaky
    /// itself, as a wrong command line, and never sent.
    @Test func aControlCharacterTheDaemonRefusesIsNamed() async throws {
        try await DaemonProcess.withRunning { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            // shaky itself refuses such a name for a new game (exit 2); a buzz sends it.
            let new = try await runBinary(["new", "--team", "Tab\there", "--team", "Owls"], environment: environment)
            #expect(new.status == 2 && new.error.contains("holds the control character U+0009"), "\(new)")
            #expect(
                try await runBinary(["new", "--team", "Foxes", "--team", "Owls"], environment: environment).status == 0)
            #expect(try await runBinary(["next"], environment: environment).status == 0)
            let buzz = try await runBinary(["buzz", "Tab\there"], environment: environment)
            #expect(buzz.status == 1, "\(buzz)")
            #expect(
                buzz.error.contains(
                    "the daemon refused team, “Tab�here”: it holds the control character U+0009, which cannot be "
                        + "shown; leave it out"), "\(buzz)")
            let pack = try await runBinary(["pack", "create", "Bad\u{1B}[31mPack"], environment: environment)
            #expect(pack.status == 2, "\(pack)")
            #expect(
                pack.error.contains(
                    "argument 3, “Bad�[31mPack”, holds the control character U+001B, which cannot be "
                        + "shown: type it again without it"), "\(pack)")
            #expect(!pack.error.contains("\u{1B}"), "\(pack)")
        }
    }

    /// A keyboard without ë types "b zoe" in shaky play: play says which team was meant, as shaky buzz does, instead
    /// of only that no team is called so.
    @Test func playNamesTheTeamMeantWithoutItsAccents() async throws {
        try await DaemonProcess.withRunning { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            let new = try await runBinary(["new", "--team", "Zoe\u{308}", "--team", "Owls"], environment: environment)
            #expect(new.status == 0, "\(new)")
            let play = try await runBinary(
                ["play"], input: "n\nb zoe\n+ zoe 2\nu ZOE\nb Wolves\nq\n", environment: environment)
            let guess = "did you mean “Zoe\u{308}”? The teams are “Zoe\u{308}” and “Owls”."
            #expect(play.error.components(separatedBy: guess).count == 4, "b, + and u: \(play)")
            #expect(
                play.error.contains(
                    "no team called “Wolves” plays in this game. The teams are “Zoe\u{308}” and “Owls”."),
                "\(play)")
        }
    }

    @Test func aRefusedMoveExitsWithOneAndTheDaemonsReason() async throws {
        try await DaemonProcess.withRunning { daemon in
            let shaky = try BuiltProduct.path("shaky")
            let buzz = try ChildProcess(shaky, ["buzz", "Owls"], environment: ["SHAKY_SOCKET": daemon.socketPath])
            let exit = try await buzz.waitForExit(within: .seconds(30))
            #expect(exit.status == 1)
            #expect(buzz.standardError.contains("there is no game"), "\(buzz.standardError)")
        }
    }

    @Test("A daemon started with --buzzers none says so: the list, and a join refused with the way on")
    func buzzersOffAreSaidSo() async throws {
        // DaemonProcess starts every daemon with --buzzers none.
        try await DaemonProcess.withRunning { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            let new = try await runBinary(["new", "--team", "Owls", "--team", "Foxes"], environment: environment)
            #expect(new.status == 0, "\(new)")
            let list = try await runBinary(["buzzers"], environment: environment)
            #expect(list.status == 0, "\(list)")
            #expect(list.output.contains("reads no buzzers"), "\(list.output)")
            #expect(!list.output.contains("No buzzer devices read"), "\(list.output)")
            #expect(!list.output.contains("shaky buzzers join"), "a join would be refused: \(list.output)")
            let join = try await runBinary(["buzzers", "join"], environment: environment)
            #expect(join.status == 1, "\(join)")
            #expect(join.error.contains("--buzzers auto"), "\(join.error)")
            #expect(!join.error.contains("plug the buttons in"), "\(join.error)")
            let json = try await runBinary(["buzzers", "--json"], environment: environment)
            #expect(json.output.contains(#""reading" : false"#), "\(json.output)")
        }
    }

    /// A 100 Hz trace of a device shaken hard (4 Hz, ±8 g across gravity) for 3.2 s, then lying still.
    static func calibrationTrace() -> String {
        SyntheticTrace.shake(
            device: "calibration board", seconds: 8, shakingFrom: 0, to: 3.2, peakG: 8, along: .y)
    }

    @Test func sensorCalibrateTeachesTheDaemonOverTheSocket() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shaky-calibrate-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("calibration.csv")
        try Self.calibrationTrace().write(to: trace, atomically: true, encoding: .utf8)
        try await DaemonProcess.withRunning(arguments: ["--input", "trace:\(trace.path)"]) { daemon in
            let shaky = try BuiltProduct.path("shaky")
            let calibrate = try ChildProcess(
                shaky, ["sensor", "calibrate", "--shake-seconds", "3", "--still-seconds", "2"],
                environment: ["SHAKY_SOCKET": daemon.socketPath])
            let exit = try await calibrate.waitForExit(within: .seconds(60))
            let output = calibrate.standardOutput
            #expect(exit.status == 0, "\(calibrate.standardError)\n\(daemon.log())")
            // A trace has nothing to shake: the host is told what the daemon reads instead.
            #expect(
                output.hasPrefix(
                    "The daemon reads a recorded trace, not a device: nothing to shake. It takes the trace's next 3 "
                        + "seconds as the shaking…\n…and 2 seconds after a pause as holding still…\n"), "\(output)")
            #expect(!output.contains("Shake the device now"), "\(output)")
            // So violent a shake puts medium's thresholds at their upper bounds.
            #expect(output.contains("Calibrated trace:calibration board"), "\(output)")
            #expect(output.contains("above 22.0 m/s² (steady shaking above 8.0 m/s²)"), "\(output)")

            // Out-of-range steps are refused before anything is read.
            let refused = try ChildProcess(
                shaky, ["sensor", "calibrate", "--shake-seconds", "70"],
                environment: ["SHAKY_SOCKET": daemon.socketPath])
            #expect(try await refused.waitForExit(within: .seconds(30)).status == 2)
        }
    }

    /// A trace that is still while it should be shaken and shaken while it should be still fails the calibration,
    /// and the host is told about the trace, not to shake a device harder.
    @Test func aCalibrationOnATraceThatFailsSaysWhatToDoWithTheTrace() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shaky-calibrate-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("late-shake.csv")
        let lateShake = SyntheticTrace.shake(
            device: "late shake", seconds: 8, shakingFrom: 3.5, to: 8, peakG: 4, along: .y)
        try lateShake.write(to: trace, atomically: true, encoding: .utf8)
        try await DaemonProcess.withRunning(arguments: ["--input", "trace:\(trace.path)"]) { daemon in
            let failed = try await runBinary(
                ["sensor", "calibrate", "--shake-seconds", "3", "--still-seconds", "2"],
                environment: ["SHAKY_SOCKET": daemon.socketPath])
            #expect(failed.status == 1, "\(failed)")
            #expect(
                failed.error.contains(
                    "the daemon replays a recorded trace and takes its next 3 s as the shaking and, a second later, 2 s "
                        + "as holding still; replay a trace shaken that long and then still"), "\(failed.error)")
            #expect(!failed.error.contains("shake the device"), "\(failed.error)")
        }
    }

    @Test("A calibration the daemon refuses never tells the host to shake, and the refusal says what to do")
    func aRefusedCalibrationNeverAsksForAShake() async throws {
        try await DaemonProcess.withRunning { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            let refused = try await runBinary(["sensor", "calibrate"], environment: environment)
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.output.isEmpty, "\(refused)")
            #expect(
                refused.error
                    == "shaky: there is no accelerometer to calibrate: the daemon was started with --input none (or "
                    + "`input: none` in its configuration file); start it with --input auto to read one\n")
        }
        try await DaemonProcess.withRunning(arguments: ["--input", "demo"]) { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            let new = try await runBinary(["new", "--team", "Owls", "--team", "Foxes"], environment: environment)
            #expect(new.status == 0, "\(new)")
            let next = try await runBinary(["next"], environment: environment)
            #expect(next.status == 0, "\(next)")
            let refused = try await runBinary(["sensor", "calibrate"], environment: environment)
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.output.isEmpty, "\(refused)")
            #expect(
                refused.error
                    == "shaky: a question is open, and the sensor is reading the players' shakes for hints: calibrate "
                    + "between questions (once this one is answered, skipped or out of time), or pause the game first "
                    + "(`shaky pause`)\n")
        }
    }
}
