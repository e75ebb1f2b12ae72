import Foundation
import ShakyTesting
import Testing

/// The common ways a host gets things wrong, run with the built programs: every message is in a person's words,
/// names the flag or file the host typed, and shows none of the program's insides.
@Suite("Failures in a person's words", .serialized)
struct FailureWordsTests {
    /// What must never reach a host: Foundation's and Swift's insides, raw numbers, the daemon's field names.
    static let insides = [
        "NSCocoaErrorDomain", "Error Domain", "Code=", "Dictionary<", "Optional(", "CocoaError", "POSIXError",
        "NSError", "The operation could not be completed", "errno", "Swift.", "Foundation.", "IOError",
        "answerTime", "indicationTime", "hintCooldown", "roundOver", "answering(", "Phase:",
    ]

    /// Checks one run's messages (with `folder` and what the host typed taken out: a value echoed back is fine).
    static func expectPersonWords(
        _ text: String, folder: TemporaryDirectory, typed: [String] = [], mentioning expected: [String],
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for word in expected {
            #expect(text.contains(word), "\(what): no “\(word)” in \(text)", sourceLocation: sourceLocation)
        }
        var words = text.replacingOccurrences(of: folder.path, with: "FOLDER")
        for argument in typed where argument.count > 2 {
            words = words.replacingOccurrences(of: argument, with: "TYPED")
        }
        for inside in insides {
            #expect(!words.contains(inside), "\(what): “\(inside)” in \(text)", sourceLocation: sourceLocation)
        }
        #expect(
            words.range(of: #"[0-9]\.[0-9]{4,}"#, options: .regularExpression) == nil,
            "\(what): an unrounded number in \(text)", sourceLocation: sourceLocation)
        #expect(!words.contains("\n    at "), "\(what): a backtrace", sourceLocation: sourceLocation)
    }

    @Test func theClientSaysWhatIsWrongWithTheFileOrSocketItWasGiven() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        _ = chmod(folder.path, 0o755)
        try await DaemonProcess.withRunning { daemon in
            let folderCSV = folder.appending("folder.csv")
            try FileManager.default.createDirectory(atPath: folderCSV, withIntermediateDirectories: true)
            let secret = folder.appending("secret.csv")
            try Data("question,answer,difficulty\n".utf8).write(to: URL(fileURLWithPath: secret))
            _ = chmod(secret, 0o000)
            let plainFile = folder.appending("plain.txt")
            try Data("not a socket\n".utf8).write(to: URL(fileURLWithPath: plainFile))

            let created = try await runBinary(
                ["pack", "create", "Mine"], environment: ["SHAKY_SOCKET": daemon.socketPath])
            #expect(created.status == 0, "\(created)")
            let cases: [(arguments: [String], expected: [String], status: Int32)] = [
                (
                    ["pack", "import", folder.appending("missing.csv")],
                    ["cannot read", "missing.csv", "no such file"], 1
                ),
                (["pack", "import", folderCSV], ["folder.csv", "a folder, not a file"], 1),
                (["play", "--script", folder.appending("missing.txt")], ["--script", "no such file"], 1),
                (["play", "--script", folderCSV], ["--script", "a folder, not a file"], 1),
                (
                    ["pack", "export", "Animals", "-o", folder.appending("gone/animals.json")],
                    ["--output", "there is no folder"], 1
                ),
                (["pack", "export", "Animals", "-o", folderCSV], ["--output", "a folder, not a file"], 1),
                (["--socket", folder.appending("nowhere/s.sock"), "status"], ["no socket there", "--socket"], 3),
                (["--socket", folder.path, "status"], ["a folder, not a socket"], 3),
                (["--socket", plainFile, "status"], ["a file, not a socket"], 3),
                (
                    ["new", "--team", "A", "--team", "B", "--answer-time", "0.0000001"],
                    ["--answer-time", "0.0000001"], 2
                ),
                (["new", "--team", "A", "--team", "B", "--answer-time", "99999.99999999999"], ["--answer-time"], 2),
                (["new", "--team", "A", "--team", "B", "--hint-cooldown", "soon"], ["--hint-cooldown", "soon"], 2),
                (["history", "delete", "4242"], ["no finished game", "4242"], 1),
                // An answer's length is one rule, the daemon's: characters, spaces and signs included, said so.
                (
                    [
                        "pack", "add", "Mine", "--question", "Q?", "--answer",
                        "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u",
                    ],
                    ["41 characters long; the limit is 40 (spaces and signs count)"], 1
                ),
                (
                    [
                        "pack", "add", "Mine", "--question", "Q?", "--answer",
                        Array(repeating: "ab", count: 20).joined(separator: " "),
                    ],
                    ["59 characters long"], 1
                ),
            ]
            for (arguments, expected, status) in cases {
                let run = try await runBinary(arguments, environment: ["SHAKY_SOCKET": daemon.socketPath])
                let what = "shaky " + arguments.joined(separator: " ")
                #expect(run.status == status, "\(what): \(run)")
                Self.expectPersonWords(
                    run.error + run.output, folder: folder, typed: arguments, mentioning: expected, what)
            }

            // A file this user may not read (as root, run as nobody: root reads any file).
            let shaky = try BuiltProduct.path("shaky")
            let unreadable =
                getuid() == 0
                ? try ChildProcess(
                    "/usr/bin/setpriv",
                    ["--reuid", "65534", "--regid", "65534", "--clear-groups", shaky, "pack", "import", secret])
                : try ChildProcess(shaky, ["pack", "import", secret])
            let exit = try await unreadable.waitForExit(within: .seconds(30))
            #expect(exit.status == 1, "\(unreadable.standardError)")
            Self.expectPersonWords(
                unreadable.standardError, folder: folder, mentioning: ["secret.csv", "permission denied"], "unreadable")

            // The daemon is gone, its socket left behind: nothing listens.
            _ = await daemon.kill()
            let gone = try await runBinary(["status"], environment: ["SHAKY_SOCKET": daemon.socketPath])
            #expect(gone.status == 3, "\(gone)")
            Self.expectPersonWords(
                gone.error, folder: folder, mentioning: ["nothing listens on the socket", "Start it with `shakyd`"],
                "daemon not running")
        }
    }

    @Test func theDaemonSaysWhatIsWrongWithTheFlagsAndFilesItWasGiven() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let shakyd = try BuiltProduct.path("shakyd")
        let config = folder.appending("none.conf")
        try Data("# nothing\n".utf8).write(to: URL(fileURLWithPath: config))
        let demoConfig = folder.appending("demo.conf")
        try Data("input: demo\n".utf8).write(to: URL(fileURLWithPath: demoConfig))
        let plainFile = folder.appending("plain")
        try Data("a file\n".utf8).write(to: URL(fileURLWithPath: plainFile))
        let quiet = ["--input", "none", "--sound-device", "none", "--socket", folder.appending("s.sock")]
        let cases: [(arguments: [String], expected: [String], status: Int32)] = [
            (["--config", folder.appending("missing.conf")], ["--config", "missing.conf", "no such file"], 3),
            (["--config", folder.path], ["--config", "a folder, not a file"], 3),
            (["--early-press-lockout", "99999.99999999999"], ["--early-press-lockout", "0 to 60 seconds"], 2),
            (["--early-press-lockout", "0x10"], ["'0x10'", "--early-press-lockout", "in decimal digits"], 2),
            (["detect", "--threshold", "inf", "x.csv"], ["'inf'", "--threshold", "in decimal digits"], 2),
            (
                ["detect", "--minimum-reversals", "-1", "x.csv"],
                ["--minimum-reversals must be between 0 and 1000, not -1"], 2
            ),
            (
                ["detect", "--active-fraction", "1.5", "x.csv"],
                ["--active-fraction must be between 0 and 1, not 1.5"], 2
            ),
            (["--early-press-lockout", "61"], ["--early-press-lockout must be 0 to 60 seconds, not 61"], 2),
            (["--sensitivity", "extreme"], ["--sensitivity", "'light', 'medium' or 'hard'"], 2),
            (["--reorder-window", "5"], ["--reorder-window must be 10 to 200 milliseconds, not 5"], 2),
            (["--reorder-window", "0x20"], ["'0x20'", "--reorder-window", "a whole number in decimal digits"], 2),
            (["--buzzers", "some"], ["--buzzers must be auto or none, not “some”"], 2),
            (["--shakers", "all"], ["--shakers must be auto or none, not “all”"], 2),
            (["detetc", "x.csv"], ["There is no command “detetc”: did you mean `shakyd detect`?"], 2),
            (["frobnicate"], ["There is no command “frobnicate”; the commands are `serve`, `detect`"], 2),
            (["frobnicate", "--help"], ["There is no command “frobnicate”; the commands are `serve`, `detect`"], 2),
            // The file's input serves only `shakyd serve`: a tool says what it reads instead, and why.
            (
                ["list-devices", "--config", demoConfig, "--no-probe"],
                ["shakyd list-devices: the input “demo”, set in \(demoConfig):1, is for shakyd serve only"], 0
            ),
            (["--config", config, "--state-dir", plainFile] + quiet, ["state folder", "a file is in the way"], 1),
            (
                ["--config", config, "--state-dir", folder.appending("state")] + quiet.dropLast(2)
                    + ["--socket", plainFile + "/s.sock"],
                ["cannot listen", "a file is in the way"], 1
            ),
        ]
        for (arguments, expected, status) in cases {
            let run = try ChildProcess(shakyd, arguments)
            let exit = try await run.waitForExit(within: .seconds(30))
            let what = "shakyd " + arguments.joined(separator: " ")
            #expect(exit.status == status, "\(what): \(exit) \(run.standardError)")
            Self.expectPersonWords(run.standardError, folder: folder, typed: arguments, mentioning: expected, what)
        }
        // The socket is checked before the state folder is touched.
        #expect(!FileManager.default.fileExists(atPath: folder.appending("state")), "a state folder left behind")
    }

    @Test("--input demo without the data installed names where it looked and what to do")
    func demoTraceNotInstalled() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // An install with the program and no data: PREFIX/bin/shakyd without PREFIX/share/shaky.
        try FileManager.default.createDirectory(atPath: folder.appending("bin"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: try BuiltProduct.path("shakyd"), toPath: folder.appending("bin/shakyd"))
        // And a data folder given that holds no trace.
        try FileManager.default.createDirectory(
            atPath: folder.appending("data/traces"), withIntermediateDirectories: true)
        for dataFolder in [nil, folder.appending("data")] {
            let run = try ChildProcess(
                folder.appending("bin/shakyd"),
                [
                    "--input", "demo", "--sound-device", "none", "--socket", folder.appending("s.sock"),
                    "--state-dir", folder.appending("state"),
                ],
                environment: ["SHAKY_DATA_DIR": dataFolder])
            let exit = try await run.waitForExit(within: .seconds(30))
            let what = "SHAKY_DATA_DIR=\(dataFolder ?? "(unset)")"
            #expect(exit.status == 1, "\(what): \(exit) \(run.standardError)")
            Self.expectPersonWords(
                run.standardError, folder: folder,
                mentioning: [
                    "--input demo", "demo-shakes.csv is not installed", folder.appending("share/shaky/traces"),
                    "SHAKY_DATA_DIR",
                ] + (dataFolder.map { ["looked in \($0)/traces and "] } ?? ["looked in "]), what)
        }
    }

    @Test("A daemon that cannot listen, another one being there, leaves nothing behind and says only why")
    func aSecondDaemonOnTheSameSocket() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try await DaemonProcess.withRunning { daemon in
            let state = folder.appending("state")
            let second = try ChildProcess(
                try BuiltProduct.path("shakyd"),
                ["--socket", daemon.socketPath, "--state-dir", state, "--input", "none", "--sound-device", "none"])
            let exit = try await second.waitForExit(within: .seconds(30))
            #expect(exit.status == 1, "\(exit) \(second.standardError)")
            Self.expectPersonWords(
                second.standardError, folder: folder, mentioning: ["cannot listen", "another server"],
                "a second daemon")
            // Nothing started, so nothing stopped: the log says only why it cannot run.
            #expect(!second.standardError.contains("stopped"), "\(second.standardError)")
            #expect(!FileManager.default.fileExists(atPath: state), "a state folder left behind")
            let settings = try await runBinary(["settings"], environment: ["SHAKY_SOCKET": daemon.socketPath])
            #expect(settings.status == 0, "the first daemon still serves: \(settings)")
        }
    }
}
