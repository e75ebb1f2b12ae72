import Foundation
import ShakyProtocol
import ShakyTesting
import Testing

/// The rough edges a new host met, run end to end: the built `shaky` against a real `shakyd`.
@Suite("Host tools against a real shakyd", .serialized)
struct HostToolsTests {
    private func shaky(
        _ arguments: [String], on daemon: DaemonProcess, input: String = "", timeout: Double = 30
    ) async throws
        -> ShakyOutcome
    {
        try await runBinary(
            arguments, input: input, environment: ["SHAKY_SOCKET": daemon.socketPath], timeout: timeout)
    }

    @Test func aCSVFileNamesThePackAfterItself() async throws {
        try await DaemonProcess.withRunning { daemon in
            let file = daemon.folder.appendingPathComponent("My Quiz.csv")
            try Data("question,answer,difficulty,alternates\nCapital of Vietnam?,Hà Nội,,\n".utf8).write(to: file)
            let imported = try await shaky(["pack", "import", file.path], on: daemon)
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.output.contains("My Quiz"), "\(imported)")
            let search = try await shaky(["pack", "search", "capital", "vietnam"], on: daemon)
            #expect(search.output.contains("Hà Nội"), "\(search)")
            let hanoi = try await shaky(["pack", "search", "hanoi"], on: daemon)
            #expect(hanoi.output.contains("Capital of Vietnam?"), "\(hanoi)")
            #expect(!hanoi.output.contains("More questions match"), "\(hanoi)")
            // A list cut at the limit says so; JSON holds the questions shown.
            let cut = try await shaky(["pack", "search", "a", "--limit", "2"], on: daemon)
            #expect(cut.output.split(separator: "\n").count == 3, "\(cut)")
            #expect(cut.output.hasSuffix("More questions match: the first 2 are shown (--limit COUNT shows more).\n"))
            let cutJSON = try await shaky(["--json", "pack", "search", "a", "--limit", "2"], on: daemon)
            #expect(cutJSON.output.components(separatedBy: "\"answer\"").count == 3, "\(cutJSON)")
        }
    }

    @Test func importingAnEditedFileAgainSaysHowToReplaceThePackOrNameItAnew() async throws {
        try await DaemonProcess.withRunning { daemon in
            let file = daemon.folder.appendingPathComponent("Party night.csv")
            try Data("question,answer\nCapital of France?,Paris\n".utf8).write(to: file)
            let first = try await shaky(["pack", "import", file.path], on: daemon)
            #expect(first.status == 0, "\(first)")
            try Data("question,answer\nCapital of France?,Paris\nCapital of Peru?,Lima\n".utf8).write(to: file)
            let again = try await shaky(["pack", "import", file.path], on: daemon)
            #expect(again.status == 1, "\(again)")
            #expect(again.error.contains("a pack named “Party night” already exists"), "\(again)")
            #expect(again.error.contains("--name NAME"), "\(again)")
            #expect(again.error.contains("`shaky pack delete 'Party night'`"), "\(again)")
            // The old pack by its own name, whatever the case of the name given, quoted so that a shell takes it.
            let named = try await shaky(["pack", "import", file.path, "--name", "PARTY NIGHT"], on: daemon)
            #expect(named.error.contains("`shaky pack delete 'Party night'`"), "\(named)")
            // Doing what it says works.
            let deleted = try await shaky(["pack", "delete", "Party night"], on: daemon)
            #expect(deleted.status == 0, "\(deleted)")
            let replaced = try await shaky(["pack", "import", file.path], on: daemon)
            #expect(replaced.status == 0 && replaced.output.contains("2 questions"), "\(replaced)")
            // A built-in pack exported and imported back cannot be deleted to make room: only --name is said.
            let builtin = daemon.folder.appendingPathComponent("Animals.json")
            #expect(try await shaky(["pack", "export", "Animals", "-o", builtin.path], on: daemon).status == 0)
            let builtinAgain = try await shaky(["pack", "import", builtin.path], on: daemon)
            #expect(builtinAgain.status == 1, "\(builtinAgain)")
            #expect(builtinAgain.error.contains("it is a built-in pack, which stays"), "\(builtinAgain)")
            #expect(builtinAgain.error.contains("--name NAME"), "\(builtinAgain)")
            #expect(!builtinAgain.error.contains("pack delete"), "\(builtinAgain)")
        }
    }

    /// An alternate the daemon leaves out (it repeats the answer ignoring case) was dropped without a word by `pack
    /// add` and `pack edit`, where an import warns of it.
    @Test func addingAndEditingSayWhichAlternatesWereLeftOut() async throws {
        try await DaemonProcess.withRunning { daemon in
            #expect(try await shaky(["pack", "create", "Mine"], on: daemon).status == 0)
            let added = try await shaky(
                [
                    "pack", "add", "Mine", "--question", "A street?", "--answer", "Straße", "--alternate", "STRASSE",
                    "--alternate", "  Gasse ", "--alternate", "gasse",
                ], on: daemon)
            #expect(added.status == 0, "\(added)")
            #expect(
                added.error
                    == "shaky: warning: the alternates “STRASSE” and “gasse” repeat the answer or an alternate before "
                    + "it; left out\n", "\(added)")
            let plain = try await shaky(
                ["--json", "pack", "add", "Mine", "--question", "A lane?", "--answer", "Lane", "--alternate", "Path"],
                on: daemon)
            #expect(plain.status == 0 && plain.error.isEmpty, "\(plain)")
            let lane = try JSONDecoder().decode(
                ShakyAPI.PacksInterface.AddQuestionReply.self, from: Data(plain.output.utf8)
            ).question
            let edited = try await shaky(
                ["pack", "edit", "\(lane.id)", "--alternate", "Path", "--alternate", " ", "--alternate", "lane"],
                on: daemon)
            #expect(edited.status == 0, "\(edited)")
            #expect(
                edited.error
                    == "shaky: warning: the alternate “lane” repeats the answer or an alternate before it, and an "
                    + "alternate is blank; left out\n", "\(edited)")
        }
    }

    /// `pack edit` said a built-in question was none of the host's packs', where `pack remove` named its pack.
    @Test func editingAndRemovingABuiltInQuestionSayItsPackIsBuiltIn() async throws {
        try await DaemonProcess.withRunning { daemon in
            let shown = try await shaky(["--json", "pack", "show", "Animals"], on: daemon)
            let reply = try JSONDecoder().decode(
                ShakyAPI.PacksInterface.ShowReply.self, from: Data(shown.output.utf8))
            let id = "\(try #require(reply.questions.first).id)"
            for arguments in [["pack", "edit", id, "--difficulty", "hard"], ["pack", "remove", id]] {
                let outcome = try await shaky(arguments, on: daemon)
                #expect(outcome.status == 1, "\(arguments): \(outcome)")
                #expect(
                    outcome.error.contains("“Animals” is a built-in pack and cannot be changed; duplicate it"),
                    "\(arguments): \(outcome)")
            }
            let missing = try await shaky(["pack", "edit", "999999", "--difficulty", "hard"], on: daemon)
            #expect(missing.error.contains("there is no question 999999"), "\(missing)")
        }
    }

    @Test("After a damaged database was set aside at start, an empty history and no packs of the host's say where")
    func anEmptyHistoryAndPackListPointToTheDatabaseSetAside() async throws {
        let daemon = try DaemonProcess()
        try await daemon.withCleanup {
            try FileManager.default.createDirectory(atPath: daemon.stateDirectory, withIntermediateDirectories: true)
            try Data(String(repeating: "not a database\n", count: 600).utf8).write(
                to: URL(fileURLWithPath: daemon.databasePath))
            try await daemon.start()
            let history = try await shaky(["history"], on: daemon)
            #expect(history.status == 0, "\(history)")
            #expect(history.output.contains("No finished games yet."), "\(history)")
            #expect(history.output.contains("set aside as \(daemon.stateDirectory)/damaged-database-"), "\(history)")
            #expect(history.output.contains("the games finished before are in that file"), "\(history)")
            let packs = try await shaky(["pack", "list"], on: daemon)
            #expect(packs.output.contains("the packs imported before are in that file"), "\(packs)")
            // With --json each stays one document.
            let json = try await shaky(["history", "--json"], on: daemon)
            #expect((try? JSONSerialization.jsonObject(with: Data(json.output.utf8))) != nil, "\(json)")

            // Once the host has packs of its own again, the list is theirs alone.
            let file = daemon.folder.appendingPathComponent("Party.csv")
            try Data("question,answer\nCapital of France?,Paris\n".utf8).write(to: file)
            #expect(try await shaky(["pack", "import", file.path], on: daemon).status == 0)
            let after = try await shaky(["pack", "list"], on: daemon)
            #expect(after.output.contains("Party") && !after.output.contains("damaged"), "\(after)")
        }
    }

    @Test("A history that is empty on a sound database says only that")
    func anEmptyHistoryOfASoundDatabaseSaysOnlyThat() async throws {
        try await DaemonProcess.withRunning { daemon in
            let history = try await shaky(["history"], on: daemon)
            #expect(history.output == "No finished games yet.\n", "\(history)")
        }
    }

    @Test func anExportedCSVFileImportsBackWhole() async throws {
        try await DaemonProcess.withRunning { daemon in
            let file = daemon.folder.appendingPathComponent("animals.csv")
            let exported = try await shaky(["pack", "export", "Animals", "--output", file.path], on: daemon)
            #expect(exported.status == 0, "\(exported)")
            // The daemon writes CSV with CRLF line breaks: they reach the file as they are, nothing in their place.
            let bytes = try Data(contentsOf: file)
            #expect(!String(decoding: bytes, as: UTF8.self).contains("\u{FFFD}"))
            #expect(bytes.starts(with: Data("question,answer,difficulty,alternates\r\n".utf8)))
            let imported = try await shaky(["pack", "import", file.path, "--name", "Animals again"], on: daemon)
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.error.isEmpty, "no warning: \(imported)")
            // With --json the reply goes to the file, and standard output says done as a command without a reply.
            let json = try await shaky(["--json", "pack", "export", "Animals", "-o", file.path + ".json"], on: daemon)
            #expect(json.status == 0 && json.output == "{}\n" && json.error.isEmpty, "\(json)")
            let original = try await shaky(["pack", "export", "Animals", "--format", "json"], on: daemon)
            let copy = try await shaky(["pack", "export", "Animals again", "--format", "json"], on: daemon)
            // The questions, in one canonical form (keys sorted).
            let questions = { (text: String) -> Data? in
                guard let pack = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                    let questions = pack["questions"]
                else { return nil }
                return try? JSONSerialization.data(withJSONObject: questions, options: .sortedKeys)
            }
            #expect(questions(original.output) != nil)
            #expect(questions(original.output) == questions(copy.output))
        }
    }

    @Test("A pack exported to a .tsv file is TSV, and imports back whole")
    func anExportedTSVFileImportsBackWhole() async throws {
        try await DaemonProcess.withRunning { daemon in
            let file = daemon.folder.appendingPathComponent("animals.tsv")
            let exported = try await shaky(["pack", "export", "Animals", "--output", file.path, "--bom"], on: daemon)
            #expect(exported.status == 0, "\(exported)")
            let bytes = try Data(contentsOf: file)
            #expect(bytes.starts(with: Data("\u{FEFF}question\tanswer\tdifficulty\talternates\r\n".utf8)))
            let imported = try await shaky(["pack", "import", file.path, "--name", "Animals again"], on: daemon)
            #expect(imported.status == 0 && imported.error.isEmpty, "\(imported)")
            let original = try await shaky(["pack", "export", "Animals", "--format", "tsv"], on: daemon)
            let copy = try await shaky(["pack", "export", "Animals again", "--format", "tsv"], on: daemon)
            #expect(original.status == 0 && original.output == copy.output, "\(original) \(copy)")
            // --bom is for the spreadsheet formats only.
            let bomForJSON = try await shaky(["pack", "export", "Animals", "--format", "json", "--bom"], on: daemon)
            #expect(bomForJSON.status == 2 && bomForJSON.error.contains("--bom is for CSV and TSV"), "\(bomForJSON)")
        }
    }

    @Test func importWarningsReachTheHostAndJSONOutputStaysOneDocument() async throws {
        try await DaemonProcess.withRunning { daemon in
            let file = daemon.folder.appendingPathComponent("Repeats.csv")
            let rows =
                "question,answer,difficulty,alternates,source\nTallest animal?,Giraffe,,,zoo\nTallest animal?,Giraffe,,,\n"
            try Data(rows.utf8).write(to: file)
            let imported = try await shaky(["pack", "import", file.path], on: daemon)
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.output.hasPrefix("Imported Repeats"), "\(imported)")
            #expect(imported.error.contains("warning: \(file.path): line 3 repeats"), "\(imported)")
            #expect(imported.error.contains("source"), "the ignored column is named: \(imported)")

            let json = try await shaky(["--json", "pack", "import", file.path, "--name", "Repeats 2"], on: daemon)
            #expect(json.status == 0, "\(json)")
            let reply = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
            #expect((reply?["warnings"] as? [String])?.count == 2, "\(json)")
        }
    }

    @Test func packEditChangesOnlyTheFieldsGiven() async throws {
        try await DaemonProcess.withRunning { daemon in
            _ = try await shaky(["pack", "create", "Mine"], on: daemon)
            let added = try await shaky(
                [
                    "pack", "add", "Mine", "--question", "Red planet?", "--answer", "Mars", "--alternate", "Ares",
                    "--difficulty", "easy", "--json",
                ], on: daemon)
            #expect(added.status == 0, "\(added)")
            let id = try #require(
                (try JSONSerialization.jsonObject(with: Data(added.output.utf8)) as? [String: Any])
                    .flatMap { $0["question"] as? [String: Any] }?["id"] as? Int)
            let edited = try await shaky(["pack", "edit", "\(id)", "--difficulty", "hard", "--json"], on: daemon)
            #expect(edited.status == 0, "\(edited)")
            #expect(edited.output.contains("\"hard\""), "\(edited)")
            #expect(edited.output.contains("\"Ares\""), "the alternates stay: \(edited)")
            #expect(edited.output.contains("\"Red planet?\""), "\(edited)")
            let missing = try await shaky(["pack", "edit", "9999", "--difficulty", "hard"], on: daemon)
            #expect(missing.status == 1)
            #expect(missing.error.contains("no question 9999"), "\(missing)")
        }
    }

    @Test func exportWithABOMImportsBack() async throws {
        try await DaemonProcess.withRunning { daemon in
            let file = daemon.folder.appendingPathComponent("export.csv")
            let export = try await shaky(
                ["pack", "export", "Places with Accents", "-o", file.path, "--bom"], on: daemon)
            #expect(export.status == 0, "\(export)")
            let bytes = try Data(contentsOf: file)
            #expect(Array(bytes.prefix(3)) == [0xEF, 0xBB, 0xBF])
            let back = try await shaky(["pack", "import", file.path, "--name", "Accents Again"], on: daemon)
            #expect(back.status == 0, "\(back)")
            let shown = try await shaky(["pack", "show", "Accents Again", "--json"], on: daemon)
            #expect(shown.status == 0, "\(shown)")
        }
    }

    @Test func aFiveMegabyteFileImportsWholeAndItsBadLinesAreReported() async throws {
        try await DaemonProcess.withRunning { daemon in
            // Well over the 1 MiB of one message: the client sends it in parts.
            let header = "question,answer,difficulty,alternates\n"
            let row = { (index: Int) in
                "Question number \(index) of a very large pack for a long night with “quotes” and ü?,Answer,easy,\n"
            }
            let file = daemon.folder.appendingPathComponent("Huge Quiz.csv")
            let rows = (0..<52_000).map(row)
            try Data((header + rows.joined()).utf8).write(to: file)
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0 > 5_000_000)
            let run = try await shaky(["pack", "import", file.path, "--json"], on: daemon, timeout: 240)
            #expect(run.status == 0, "\(run)")
            let pack = (try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])?["pack"]
            #expect((pack as? [String: Any])?["questions"] as? Int == 52_000, "\(run.output)")
            #expect((pack as? [String: Any])?["name"] as? String == "Huge Quiz", "\(run.output)")
            // The whole pack comes back in one reply.
            let exported = try await shaky(
                ["pack", "export", "Huge Quiz", "--format", "csv"], on: daemon, timeout: 120)
            #expect(exported.status == 0, "\(exported.error)")
            #expect(exported.output.contains("Question number 51999 of"))

            // 1.2 MB with a bad line every 500: the first 20 are named, the others counted, and nothing is imported.
            var broken = Array(rows.prefix(12_000))
            let badLines = stride(from: 250, to: broken.count, by: 500).map { index in
                broken[index] = "a line with one field \(index)\n"
                return index + 2
            }
            #expect(badLines.count == 24)
            let bad = daemon.folder.appendingPathComponent("Broken.csv")
            try Data((header + broken.joined()).utf8).write(to: bad)
            let refused = try await shaky(["pack", "import", bad.path], on: daemon, timeout: 120)
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.error.hasPrefix("shaky: nothing imported: 24 questions are bad:\n"), "\(refused)")
            for line in badLines.prefix(20) {
                #expect(refused.error.contains("\n  line \(line), field answer: the answer is empty\n"))
            }
            #expect(!refused.error.contains("line \(badLines[20])"), "\(refused)")
            #expect(refused.error.hasSuffix("\n  and 4 more (correct these and import again to see them)\n"))
            #expect(!refused.error.contains("daemon running"), "\(refused)")
            let list = try await shaky(["pack", "list", "--json"], on: daemon)
            #expect(!list.output.contains("Broken"), "\(list)")

            // Past the daemon's 16 MiB, a true message before anything is sent.
            let vast = daemon.folder.appendingPathComponent("Vast.csv")
            try Data((header + String(repeating: row(0), count: 180_000)).utf8).write(to: vast)
            let tooLarge = try await shaky(["pack", "import", vast.path], on: daemon, timeout: 120)
            #expect(tooLarge.status == 1, "\(tooLarge)")
            #expect(tooLarge.error.contains("up to 16 MiB"), "\(tooLarge)")
            #expect(!tooLarge.error.contains("daemon running"), "\(tooLarge)")
        }
    }

    @Test("A JSON pack written by hand takes what a CSV one takes, and each of its bad questions is named by its line")
    func aHandWrittenJSONPackImportsLikeACSVOne() async throws {
        try await DaemonProcess.withRunning { daemon in
            let file = daemon.folder.appendingPathComponent("by-hand.json")
            let pack = """
                {
                  "name": "By Hand",
                  "questions": [
                    {"question": "Capital of France?", "answer": "Paris"},
                    {"question": "Largest ocean?", "answer": "Pacific", "difficulty": "hard", "hint": "big"}
                  ]
                }

                """
            try Data(pack.utf8).write(to: file)
            let imported = try await shaky(["pack", "import", file.path], on: daemon)
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.output == "Imported By Hand: 2 questions (0 easy, 1 medium, 1 hard)\n", "\(imported)")
            #expect(
                imported.error
                    == "shaky: warning: \(file.path): the field “hint” (line 5) is not one of question, answer, "
                    + "difficulty, alternates and was ignored\n", "\(imported)")

            let bad = daemon.folder.appendingPathComponent("bad.json")
            let badPack = """
                {
                  "name": "Bad",
                  "questions": [
                    {"question": "Q1?", "answer": "A", "difficulty": "tricky"},
                    {"question": "Q2?", "answer": "B"},
                    {
                      "question": "Q3?",
                      "answer": ""
                    }
                  ]
                }

                """
            try Data(badPack.utf8).write(to: bad)
            let refused = try await shaky(["pack", "import", bad.path], on: daemon)
            #expect(refused.status == 1, "\(refused)")
            #expect(
                refused.error == """
                    shaky: nothing imported: 2 questions are bad:
                      line 4, field questions[0].difficulty: unknown difficulty “tricky” (use easy, medium or hard)
                      line 8, field questions[2].answer: the answer is empty

                    """, "\(refused)")
            let list = try await shaky(["pack", "list", "--json"], on: daemon)
            #expect(list.output.contains("By Hand") && !list.output.contains("Bad"), "\(list)")
        }
    }

    @Test func globalOptionsGoBeforeTheSubcommand() async throws {
        try await DaemonProcess.withRunning { daemon in
            let status = try await runBinary(["--socket", daemon.socketPath, "--json", "pack", "list"])
            #expect(status.status == 0, "\(status)")
            #expect(status.output.hasPrefix("{"), "\(status)")
            let equals = try await runBinary(["--socket=\(daemon.socketPath)", "status"])
            #expect(equals.error.contains("there is no game"), "\(equals)")
        }
    }

    @Test func aReaderThatGoesAwayEndsTheProgramQuietly() async throws {
        try await DaemonProcess.withRunning { daemon in
            let script = """
                "$0" pack list | true
                echo "list: ${PIPESTATUS[0]}"
                "$0" pack list | head -c 1 > /dev/null
                echo "head: ${PIPESTATUS[0]}"
                """
            let run = try ChildProcess(
                "/bin/bash", ["-c", script, try BuiltProduct.path("shaky")],
                environment: ["SHAKY_SOCKET": daemon.socketPath])
            let exit = try await run.waitForExit(within: .seconds(30))
            #expect(exit.status == 0)
            #expect(run.standardOutput.contains("list: 0"), "\(run.standardOutput)\(run.standardError)")
            #expect(run.standardOutput.contains("head: 0"), "\(run.standardOutput)\(run.standardError)")
            #expect(run.standardError.isEmpty, "no backtrace: \(run.standardError)")
        }
    }

    @Test("Output that cannot be written, a full disk or a closed standard output, is said and exits with 1")
    func outputThatCannotBeWrittenIsAFailure() async throws {
        try await DaemonProcess.withRunning { daemon in
            let script = """
                "$0" pack export Animals > /dev/full
                echo "full: $?"
                "$0" pack list >&-
                echo "closed: $?"
                "$0" pack export Animals > /dev/null
                echo "null: $?"
                """
            let run = try ChildProcess(
                "/bin/bash", ["-c", script, try BuiltProduct.path("shaky")],
                environment: ["SHAKY_SOCKET": daemon.socketPath])
            _ = try await run.waitForExit(within: .seconds(30))
            let said = run.standardOutput + run.standardError
            #expect(run.standardOutput.contains("full: 1\nclosed: 1\nnull: 0"), "\(said)")
            #expect(
                run.standardError.contains(
                    "shaky: cannot write to standard output: the disk is full; what was to be written is lost"),
                "\(said)")
            #expect(
                run.standardError.contains("shaky: cannot write to standard output: it is closed"), "\(said)")
        }
    }

    @Test("Standard input that cannot be read to its end is said, and exits with 1: a folder, a closed one, no end")
    func standardInputThatCannotBeReadIsAFailure() async throws {
        try await DaemonProcess.withRunning { daemon in
            let script = """
                "$0" new --team A --team B > /dev/null
                for command in "pack import - --format csv --name Z" "play"; do
                    $0 $command < /tmp; echo "folder: $?"
                    $0 $command <&-; echo "closed: $?"
                    $0 $command < /dev/zero; echo "endless: $?"
                done
                """
            let run = try ChildProcess(
                "/bin/bash", ["-c", script, try BuiltProduct.path("shaky")],
                environment: ["SHAKY_SOCKET": daemon.socketPath])
            _ = try await run.waitForExit(within: .seconds(60))
            let said = run.standardOutput + run.standardError
            let statuses = run.standardOutput.split(separator: "\n").filter {
                $0.hasPrefix("folder: ") || $0.hasPrefix("closed: ") || $0.hasPrefix("endless: ")
            }
            #expect(
                statuses.joined(separator: ",")
                    == "folder: 1,closed: 1,endless: 1,folder: 1,closed: 1,endless: 1", "\(said)")
            for words in [
                "shaky: cannot read standard input: it is a folder, not a file",
                "shaky: cannot read standard input: it is closed",
                "shaky: standard input is larger than 16 MiB; shakyd imports pack files of up to 16 MiB: split it",
                "shaky: standard input: line 1 is longer than 64 KiB, which no command is; play read no further",
            ] {
                #expect(run.standardError.contains(words), "\(words): \(said)")
            }
            #expect(!run.standardError.contains("Fatal error"), "\(said)")
        }
    }

    @Test(
        "A pack file saved as UTF-16 (a spreadsheet's \"Unicode text\") is said to be UTF-16, before the daemon is asked"
    )
    func aUTF16PackFileIsNamedAsSuch() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = folder.appending("quiz.csv")
        let text = "question,answer\nWhich pet purrs?,Cat\n"
        try Data([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(
            to: URL(fileURLWithPath: file))
        let run = try await runBinary(
            ["pack", "import", file], environment: ["SHAKY_SOCKET": folder.appending("none.sock")])
        #expect(run.status == 1, "\(run)")
        #expect(run.error == "shaky: \(file) is UTF-16 text; save it as UTF-8 and import again\n", "\(run)")
    }

    @Test func bothProgramsPrintTheirVersion() async throws {
        let client = try await runBinary(["--version"])
        #expect(client.status == 0)
        #expect(client.output == "0.1.0\n")
        let daemon = try ChildProcess(try BuiltProduct.path("shakyd"), ["--version"])
        #expect(try await daemon.waitForExit(within: .seconds(30)).status == 0)
        #expect(daemon.standardOutput == "0.1.0\n")
    }

    @Test func aDaemonStartedFromPathFindsItsDataInAnyFolder() async throws {
        // `cd ~; shakyd`: argv[0] is the bare name and the working folder holds nothing of ours; the
        // built-in packs must still be found from the real executable.
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let script = """
            cd / || exit 9
            (exec -a shakyd "$0" --input none --sound-device none --socket "$1/s.sock" --state-dir "$1/state" \
                --config "$1/none.conf" 2> "$1/log") &
            daemon=$!
            for _ in $(seq 200); do [ -S "$1/s.sock" ] && break; sleep 0.1; done
            SHAKY_SOCKET="$1/s.sock" "$2" pack list
            kill $daemon; wait $daemon
            """
        try Data("# empty\n".utf8).write(to: URL(fileURLWithPath: folder.appending("none.conf")))
        let run = try ChildProcess(
            "/bin/bash", ["-c", script, try BuiltProduct.path("shakyd"), folder.path, try BuiltProduct.path("shaky")])
        _ = try await run.waitForExit(within: .seconds(60))
        let log = (try? String(contentsOfFile: folder.appending("log"), encoding: .utf8)) ?? ""
        #expect(run.standardOutput.contains("Animals"), "\(run.standardOutput)\(run.standardError)\(log)")
    }

    /// Without --input, list-devices resolves the sensor the configuration file names, the one shakyd serve reads.
    @Test func listDevicesResolvesTheConfigurationFilesInput() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let trace = folder.appending("board.csv")
        try SyntheticTrace.shake(device: "board", seconds: 1, shakingFrom: 0, to: 0)
            .write(toFile: trace, atomically: true, encoding: .utf8)
        let config = folder.appending("shakyd.conf")
        try "input: trace:\(trace)\n".write(toFile: config, atomically: true, encoding: .utf8)
        let run = try ChildProcess(try BuiltProduct.path("shakyd"), ["list-devices", "--config", config, "--no-probe"])
        let exit = try await run.waitForExit(within: .seconds(30))
        #expect(exit.status == 0, "\(run.standardError)")
        // The heading names the file's line, not a flag the host never gave.
        #expect(
            run.standardOutput.contains("Accelerometers for input trace:\(trace) (set in \(config):1):\n"),
            "\(run.standardOutput)")
        #expect(!run.standardOutput.contains("--input trace"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("Would use: trace \(trace) (board)"), "\(run.standardOutput)")
    }

    @Test("A trace the configuration file names that is missing stops shakyd naming the file's line, not --input")
    func aMissingTraceFromTheConfigurationFileNamesTheFile() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let missing = folder.appending("board.csv")
        let config = folder.appending("shakyd.conf")
        try "# the board's sensor\ninput: trace:\(missing)\n".write(toFile: config, atomically: true, encoding: .utf8)
        let run = try ChildProcess(
            try BuiltProduct.path("shakyd"),
            [
                "--config", config, "--socket", folder.appending("s.sock"), "--state-dir", folder.appending("state"),
                "--sound-device", "none",
            ])
        let exit = try await run.waitForExit(within: .seconds(30))
        #expect(exit.status == 1, "\(run.standardError)")
        #expect(
            run.standardError.contains("cannot run: \(config):2: input trace:\(missing): \(missing): no such file"),
            "\(run.standardError)")
        #expect(!run.standardError.contains("--input"), "\(run.standardError)")
    }

    @Test("shakyd record that finds no accelerometer for the configuration file's input names the file's line")
    func recordNamesTheConfigurationFilesInput() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let missing = folder.appending("board.csv")
        let config = folder.appending("shakyd.conf")
        try "input: trace:\(missing)\n".write(toFile: config, atomically: true, encoding: .utf8)
        let run = try ChildProcess(
            try BuiltProduct.path("shakyd"), ["record", "--config", config, "--output", folder.appending("out.csv")])
        let exit = try await run.waitForExit(within: .seconds(30))
        #expect(exit.status == 1, "\(run.standardError)")
        #expect(
            run.standardError.contains("no accelerometer found for input trace:\(missing), set in \(config):1"),
            "\(run.standardError)")
        #expect(!run.standardError.contains("--input trace"), "\(run.standardError)")
    }

    @Test("shakyd record keeps what it recorded when its terminal hangs up (SIGHUP), as on Ctrl-C")
    func recordKeepsItsTraceOnAHangUp() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // Twenty seconds of a device at rest, replayed in real time.
        let trace = folder.appending("rest.csv")
        let lines = (0..<2000).map { "\(Double($0) / 100),0,0,9.81" }
        try ("t,x,y,z\n" + lines.joined(separator: "\n") + "\n").write(toFile: trace, atomically: true, encoding: .utf8)
        let output = folder.appending("out.csv")
        let run = try ChildProcess(
            try BuiltProduct.path("shakyd"), ["record", "--input", "trace:\(trace)", "--output", output])
        try await run.wait(for: "the recording to start", within: .seconds(30)) {
            run.standardError.contains("recording from")
        }
        run.send(SIGHUP)
        let exit = try await run.waitForExit(within: .seconds(30))
        #expect(exit.status == 0 && !exit.signaled, "\(exit) \(run.standardError)")
        // The header and the samples read so far (none, if the signal came first): before, a 0-byte file.
        let recorded = try String(contentsOfFile: output, encoding: .utf8)
        #expect(recorded.contains("t,x,y,z\n"), "\(recorded.prefix(300))")
        let samples = recorded.split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(run.standardError.contains("recorded \(samples.count) sample"), "\(run.standardError)")
    }

    @Test func aBadValueInTheConfigurationFileNamesTheFileAndLine() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        for (text, line, word) in [
            ("input: none\nsensitivity: extreme\n", 2, "sensitivity"), ("# input\ninput: bogus\n", 2, "input"),
        ] {
            let config = URL(fileURLWithPath: folder.appending("shakyd.conf"))
            try Data(text.utf8).write(to: config)
            let run = try ChildProcess(
                try BuiltProduct.path("shakyd"),
                ["--config", config.path, "--socket", folder.appending("s.sock")])
            let exit = try await run.waitForExit(within: .seconds(30))
            #expect(exit.status == 3, "a refused configuration file exits with 3")
            #expect(run.standardError.contains("\(config.path):\(line): \(word)"), "\(run.standardError)")
        }
    }
}

/// `shaky play` in a real terminal (tmux) against a real daemon.
@Suite("shaky play at a terminal", .serialized)
struct PlayTerminalTests {
    @Test func theCountdownNeverErasesWhatTheHostTypesAndEndingAsksFirst() async throws {
        try await DaemonProcess.withRunning { daemon in
            let new = try await runBinary(
                ["new", "--team", "Owls", "--team", "Foxes", "--questions", "2"],
                environment: ["SHAKY_SOCKET": daemon.socketPath])
            #expect(new.status == 0, "\(new)")
            try await TerminalSession.play(
                in: daemon.folder, daemonSocket: daemon.socketPath, columns: 36, rows: 12
            ) { terminal in
                _ = try await terminal.screen { $0.contains("Teams: 1 Owls") }
                try await terminal.type("n", "Enter")
                try await terminal.type("a tig")
                let first = try await terminal.screen { $0.contains("[00:5") && $0.contains("> a tig") }
                let countdown = first.split(separator: "\n").first { $0.hasPrefix("[00:") }.map(String.init) ?? ""
                // Wait for the countdown to move on, then the typed text must still be there, on one line. (Captured
                // by value: Swift 6.3's region checker crashes on this capture by reference two closures deep.)
                let later = try await terminal.screen { [countdown] text in
                    text.split(separator: "\n").contains { $0.hasPrefix("[00:") && String($0) != countdown }
                }
                let lines = later.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                #expect(lines.contains("> a tig"), "\(later)")
                #expect(lines.allSatisfy { $0.count <= 36 })
                try await terminal.type("C-u", "e", "Enter")
                _ = try await terminal.screen { $0.contains("End the game now") }
                try await terminal.type("no", "Enter")
                let goesOn = try await terminal.screen { $0.contains("The game goes on.") }
                #expect(goesOn.contains("The game goes on."), "\(goesOn)")
                let status = try await runBinary(["status"], environment: ["SHAKY_SOCKET": daemon.socketPath])
                #expect(status.output.contains("Question 1/2"), "\(status)")
                try await terminal.type("e", "Enter", "y", "Enter")
                let over = try await terminal.screen { $0.contains("Game over") }
                #expect(over.contains("Game over"), "\(over)")
            }
        }
    }
}

/// The host's new rules, end to end: classic buzzing, overrule, reasons and the history.
@Suite("Host rules against a real shakyd", .serialized)
struct HostRulesTests {
    @Test func classicBuzzingOverruleReasonsAndHistory() async throws {
        try await DaemonProcess.withRunning { daemon in
            func shaky(_ arguments: [String]) async throws -> ShakyOutcome {
                try await runBinary(arguments, environment: ["SHAKY_SOCKET": daemon.socketPath])
            }
            let new = try await shaky([
                "new", "--team", "Owls", "--team", "Foxes", "--questions", "1", "--buzzer-mode", "classic", "--seed",
                "3",
            ])
            #expect(new.status == 0, "\(new)")
            _ = try await shaky(["next"])
            let buzz = try await shaky(["buzz", "Owls"])
            #expect(buzz.output.contains("Owls to answer"), "the first buzzer answers at once: \(buzz)")
            let answer = try await shaky(["answer", "Owls", "surely", "not", "this"])
            #expect(answer.status == 0, "\(answer)")
            let overruled = try await shaky(["judge", "overrule"])
            #expect(overruled.status == 0, "\(overruled)")
            let score = try await shaky(["score", "Foxes", "+3", "--reason", "best costumes"])
            #expect(score.status == 0, "\(score)")
            let board = try await shaky(["scoreboard"])
            #expect(board.output.contains("Foxes +3: best costumes"), "\(board)")
            #expect(board.output.contains("Owls") && board.output.contains("10"), "\(board)")
            let nothing = try await shaky(["judge", "undo-buzz", "Foxes"])
            #expect(nothing.status == 1, "\(nothing)")
            _ = try await shaky(["end"])
            // After the end the host still has the last word: the judgement is taken back and Foxes win.
            let corrected = try await shaky(["judge", "overrule"])
            #expect(corrected.status == 0, "\(corrected)")
            #expect(
                corrected.output.contains("Overruled: Owls' answer “surely not this” is wrong after all, -10 → 0"),
                "\(corrected)")
            #expect(corrected.output.contains("Winner: Foxes"), "\(corrected)")
            let history = try await shaky(["history"])
            #expect(history.output.contains("adjusted: Foxes +3: best costumes"), "\(history)")
            #expect(history.output.split(separator: "\n").count == 2, "one game, corrected in place: \(history)")
            #expect(history.output.contains("Foxes 3, Owls 0"), "the corrected scores, by rank: \(history)")
            #expect(!history.output.contains("UTC"), "times are local: \(history)")
            let id = try #require(
                history.output.split(separator: "\n").dropFirst().first?.split(separator: " ").first.map(String.init))
            let deleted = try await shaky(["--json", "history", "delete", id])
            #expect(deleted.status == 0, "\(deleted)")
            #expect(deleted.output == "{}\n", "as every command without a reply prints it: \(deleted)")
            #expect(try await shaky(["history"]).output.contains("No finished games yet."))
            let missing = try await shaky(["history", "delete", id])
            #expect(missing.status == 1, "\(missing)")
        }
    }
}

/// `shaky settings` says where sound really goes.
@Suite("Sound output state against a real shakyd", .serialized)
struct SoundOutputStateTests {
    @Test func settingsReportSilenceAndPointAtAplay() async throws {
        // No sound card on this machine: the named device and the default both fail to open.
        try await DaemonProcess.withRunning(
            arguments: ["--sound-device", "hw:CARD=NoSuchCard,DEV=0"],
            environment: ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf"]
        ) { daemon in
            var settings = ShakyOutcome(status: 0, output: "", error: "")
            let deadline = ContinuousClock.now + .seconds(15)
            while ContinuousClock.now < deadline {
                settings = try await runBinary(["settings"], environment: ["SHAKY_SOCKET": daemon.socketPath])
                if settings.output.contains("silent") { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(
                settings.output.contains("Sound: on, but no sound device: silent, tried hw:CARD=NoSuchCard,DEV=0"),
                "\(settings)")
            #expect(settings.output.contains("`aplay -L`"), "\(settings)")
        }
    }
}
