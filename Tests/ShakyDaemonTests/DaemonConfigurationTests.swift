import Foundation
import Logging
import ShakyCore
import ShakyStore
import ShakyTesting
import Testing

@testable import ShakyDaemon

@Suite struct DaemonConfigurationTests {
    @Test func parsesEverySetting() throws {
        let text = """
            # shakyd.conf
            socket: /tmp/s.sock
            state-dir: /tmp/state
            input: trace:/tmp/t.csv,speed=max
            sound-device: hw:1,0
            sounds: /tmp/sounds
            log-level: debug
            sensitivity: hard
            """
        let settings = try DaemonOptions.parse(text, path: "shakyd.conf")
        var expected = DaemonOptions(
            socket: "/tmp/s.sock", stateDirectory: "/tmp/state", input: "trace:/tmp/t.csv,speed=max",
            soundDevice: "hw:1,0", sounds: "/tmp/sounds", logLevel: .debug, sensitivity: "hard")
        expected.inputPlace = ConfigurationFilePlace(path: "shakyd.conf", line: 4)
        #expect(settings == expected)
    }

    @Test("The input keeps the file's line that set it, and loses it to --input")
    func theInputKeepsWhereTheFileSetIt() throws {
        let file = try DaemonOptions.parse(
            "# the board\nsocket: /a\ninput: trace:/t.csv\n", path: "/etc/shaky/shakyd.conf")
        let place = ConfigurationFilePlace(path: "/etc/shaky/shakyd.conf", line: 3)
        #expect(file.inputPlace == place)
        #expect(place.description == "/etc/shaky/shakyd.conf:3")
        #expect(DaemonConfiguration(resolving: file.overridden(by: DaemonOptions(socket: "/b"))).inputPlace == place)
        let flagged = DaemonConfiguration(resolving: file.overridden(by: DaemonOptions(input: "auto")))
        #expect(flagged.input == "auto" && flagged.inputPlace == nil)
        #expect(try DaemonOptions.parse("socket: /a\n", path: "c.conf").inputPlace == nil)
    }

    @Test func anEmptyFileSetsNothing() throws {
        #expect(try DaemonOptions.parse("# nothing here\n", path: "c") == DaemonOptions())
    }

    @Test func anUnknownKeyIsAnErrorOnItsLine() {
        #expect {
            try DaemonOptions.parse("socket: /a\nsocekt: /b\n", path: "c.conf")
        } throws: { error in
            let error = error as? ConfigurationFileError
            return error?.line == 2 && error?.description.contains("unknown setting “socekt”") == true
        }
    }

    @Test func aBadValueNamesTheKey() {
        #expect {
            try DaemonOptions.parse("log-level: loud\n", path: "c.conf")
        } throws: { error in
            (error as? ConfigurationFileError)?.description.contains("log-level") == true
        }
    }

    /// A value of the wrong kind is refused in the words of the range checks, never the decoder's ("Expected to
    /// decode Int but found Scalar instead").
    @Test(arguments: [
        ("reorder-window: 40ms\n", "reorder-window must be a whole number of milliseconds from 10 to 200, not “40ms”"),
        (
            "log-level: loud\n",
            "log-level must be trace, debug, info, notice, warning, error or critical, not “loud”"
        ),
        ("grab-keyboards: maybe\n", "grab-keyboards must be true or false, not “maybe”"),
        ("grab-keyboards: yes\n", "grab-keyboards must be true or false, not “yes”"),
        ("early-press-lockout: soon\n", "early-press-lockout must be a number of seconds from 0 to 60, not “soon”"),
        ("input: [demo, none]\n", "input must be one value, not a list"),
        // YAML 1.1 numbers that are not decimal digits, refused as the command line refuses them.
        ("early-press-lockout: 0x10\n", "early-press-lockout must be a number of seconds from 0 to 60, not “0x10”"),
        ("early-press-lockout: .inf\n", "early-press-lockout must be a number of seconds from 0 to 60, not “.inf”"),
        (
            "reorder-window: 0x20\n",
            "reorder-window must be a whole number of milliseconds from 10 to 200, not “0x20”"
        ),
        (
            "reorder-window: 1_00\n",
            "reorder-window must be a whole number of milliseconds from 10 to 200, not “1_00”"
        ),
    ])
    func aValueOfTheWrongKindSaysWhatItMustBe(_ text: String, _ problem: String) {
        #expect {
            try DaemonOptions.parse("socket: /a\n" + text, path: "c.conf")
        } throws: { error in
            (error as? ConfigurationFileError) == ConfigurationFileError(path: "c.conf", line: 2, problem: problem)
        }
    }

    @Test func aSettingGivenTwiceIsNamedAtItsSecondLine() {
        #expect {
            try DaemonOptions.parse("sensitivity: medium\n# louder\nsensitivity : hard\n", path: "c.conf")
        } throws: { error in
            (error as? ConfigurationFileError)
                == ConfigurationFileError(
                    path: "c.conf", line: 3, problem: "“sensitivity” is set again (first on line 1); keep one")
        }
    }

    /// `sound-device:` with nothing after it is YAML's "no value", which would leave the default in place unsaid.
    @Test(arguments: ["sound-device:\n", "sound-device: ~\n", "sensitivity: null\n"])
    func aSettingWithNoValueIsRefusedOnItsLine(_ text: String) {
        let name = String(text.prefix { $0 != ":" })
        #expect {
            try DaemonOptions.parse("socket: /a\n" + text, path: "c.conf")
        } throws: { error in
            (error as? ConfigurationFileError)
                == ConfigurationFileError(
                    path: "c.conf", line: 2,
                    problem: "“\(name)” has no value: write one after the colon, or remove the line for the default")
        }
    }

    /// An input of no known kind is told the forms once, the daemon's own (`demo`, `none`) among them.
    @Test func anUnknownInputListsTheFormsOnce() {
        #expect {
            try DaemonOptions.parse("input: Auto\n", path: "c.conf")
        } throws: { error in
            (error as? ConfigurationFileError)
                == ConfigurationFileError(
                    path: "c.conf", line: 1,
                    problem: "input “Auto” cannot be used: there is no input of that kind; use auto, iio[:NAME], "
                        + "evdev[:PATH], trace:FILE[,speed=max][,loop], demo or none")
        }
    }

    /// A tab where YAML wants spaces is said on its line, in one line, with what to do.
    @Test(arguments: [
        ("\tinput: none\n", 1, "found character that cannot start any token"),
        ("socket: /a\n\tinput: none\n", 2, "found a tab character that violates indentation"),
    ])
    func aTabIsNamedAsTheProblem(_ text: String, _ line: Int, _ problem: String) {
        #expect {
            try DaemonOptions.parse(text, path: "c.conf")
        } throws: { error in
            (error as? ConfigurationFileError)
                == ConfigurationFileError(
                    path: "c.conf", line: line,
                    problem: "not valid YAML: \(problem); the line holds a tab: indent with spaces only")
        }
    }

    @Test func invalidYAMLIsAnError() {
        #expect(throws: ConfigurationFileError.self) {
            try DaemonOptions.parse("socket: [unclosed\n", path: "c.conf")
        }
    }

    @Test("Relative paths in the file are read from the file's folder; absolute ones and flags stay as given")
    func relativePathsAreReadFromTheFilesFolder() throws {
        let text = """
            socket: run/shaky.sock
            state-dir: ../state
            sounds: ./cues
            input: trace:traces/rel.csv,speed=max,loop
            """
        let settings = try DaemonOptions.parse(text, path: "/etc/shaky/shakyd.conf")
        #expect(settings.socket == "/etc/shaky/run/shaky.sock")
        #expect(settings.stateDirectory == "/etc/state")
        #expect(settings.sounds == "/etc/shaky/cues")
        #expect(settings.input == "trace:/etc/shaky/traces/rel.csv,speed=max,loop")
        let absolute = try DaemonOptions.parse(
            "state-dir: /var/lib/shaky\ninput: trace:/t.csv\nsocket: /a\n", path: "/etc/shaky/shakyd.conf")
        var expected = DaemonOptions(socket: "/a", stateDirectory: "/var/lib/shaky", input: "trace:/t.csv")
        expected.inputPlace = ConfigurationFilePlace(path: "/etc/shaky/shakyd.conf", line: 2)
        #expect(absolute == expected)
        #expect(try DaemonOptions.parse("input: evdev\n", path: "/etc/shaky/shakyd.conf").input == "evdev")
        // A flag is the command line's: not resolved here.
        let flagged = settings.overridden(by: DaemonOptions(input: "trace:mine.csv"))
        #expect(flagged.input == "trace:mine.csv")
    }

    @Test("A trace beside the configuration file is found whatever the working folder")
    func aTraceBesideTheFileIsFound() throws {
        let folder = try TemporaryDirectory()
        let config = folder.appending("shakyd.conf")
        try Data("input: trace:rel.csv\n".utf8).write(to: URL(fileURLWithPath: config))
        let settings = try DaemonOptions.load(path: config, required: true)
        #expect(settings.input == "trace:" + folder.appending("rel.csv"))
    }

    @Test func aMissingDefaultFileIsFineButANamedOneIsNot() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID()).conf").path
        #expect(try DaemonOptions.load(path: path, required: false) == DaemonOptions())
        #expect(throws: ConfigurationFileError.self) { try DaemonOptions.load(path: path, required: true) }
    }

    @Test func flagsWinOverTheFileAndDefaultsFillTheRest() {
        let file = DaemonOptions(socket: "/file.sock", input: "evdev", logLevel: .debug)
        let flags = DaemonOptions(socket: "/flag.sock")
        let paths = DefaultPaths(environment: ["HOME": "/home/a"], isRoot: false)
        let configuration = DaemonConfiguration(resolving: file.overridden(by: flags), paths: paths)
        #expect(configuration.socketPath == "/flag.sock")
        #expect(configuration.input == "evdev")
        #expect(configuration.logLevel == .debug)
        #expect(configuration.stateDirectory == "/home/a/.local/state/shaky")
        #expect(configuration.databasePath == "/home/a/.local/state/shaky/shaky.sqlite")
        #expect(configuration.soundDevice == "default")
    }
}

@Suite struct DaemonLogHandlerTests {
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [String] = []
        func append(_ line: String) { lock.withLock { storage.append(line) } }
        var all: [String] { lock.withLock { storage } }
    }

    @Test func journalLinesCarryThePriorityAndNoTimestamp() {
        let lines = Lines()
        var logger = Logger(label: "shakyd") { DaemonLogHandler(label: $0, forJournal: true, write: lines.append) }
        logger.logLevel = .debug
        logger.error("sensor gone", metadata: ["device": "/dev/iio:device0"])
        logger.info("ready")
        #expect(lines.all == ["<3>sensor gone device=/dev/iio:device0\n", "<6>ready\n"])
    }

    @Test func terminalLinesCarryTimeAndLevel() {
        let lines = Lines()
        let logger = Logger(label: "shakyd") { DaemonLogHandler(label: $0, forJournal: false, write: lines.append) }
        logger.warning("no sound card")
        logger.debug("not shown at the default level")
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.hasSuffix(" warning shakyd: no sound card\n") == true)
    }
}

@Suite struct ServeCommandTests {
    @Test func anUnreadableConfigurationFileStopsTheDaemonWithAFailure() async throws {
        let shakyd = try BuiltProduct.path("shakyd")
        let missing = "/nonexistent/shakyd-\(UUID()).conf"
        let child = try ChildProcess(shakyd, ["serve", "--config", missing, "--input", "none"])
        let exit = try await child.waitForExit(within: .seconds(30))
        // 3: the configuration file is refused (`man shakyd`, EXIT STATUS), missing or unreadable alike.
        #expect(exit == ChildProcess.Exit(status: 3, signaled: false))
        #expect(child.standardError.contains(missing))
    }

    @Test(
        "An invalid --sensitivity, --log-level or --input is refused by the parser, listing the valid values",
        arguments: [
            (["--sensitivity", "loud"], "Please provide one of 'light', 'medium' or 'hard'."),
            (
                ["--log-level", "chatty"],
                "  - trace\n  - debug\n  - info\n  - notice\n  - warning\n  - error\n  - critical"
            ),
            (
                ["--input", "wiimote"],
                "  - auto\n  - iio[:NAME]\n  - evdev[:PATH]\n  - trace:FILE[,speed=max][,loop]\n  - demo\n  - none"
            ),
        ])
    func invalidTypedOptions(arguments: [String], validValues: String) async throws {
        let shakyd = try BuiltProduct.path("shakyd")
        let child = try ChildProcess(shakyd, ["serve"] + arguments)
        let exit = try await child.waitForExit(within: .seconds(30))
        // 2: a wrong command line (`man shakyd`, EXIT STATUS), before anything is opened.
        #expect(exit == ChildProcess.Exit(status: 2, signaled: false))
        #expect(child.standardError.contains("The value '\(arguments[1])' is invalid for '\(arguments[0])"))
        #expect(child.standardError.contains(validValues), "\(child.standardError)")
    }

    @Test(
        "An empty --socket, --state-dir or --sound-device is a wrong command line",
        arguments: [
            "--socket", "--state-dir", "--sound-device",
        ])
    func anEmptyPathIsRefused(flag: String) async throws {
        let shakyd = try BuiltProduct.path("shakyd")
        let child = try ChildProcess(shakyd, ["serve", flag, "", "--input", "none"])
        let exit = try await child.waitForExit(within: .seconds(30))
        #expect(exit == ChildProcess.Exit(status: 2, signaled: false), "\(child.standardError)")
        #expect(child.standardError.contains("\(flag) must not be empty"), "\(child.standardError)")
    }

    @Test("A database another user owns (`sudo shakyd` run once on the service's folder) is named, with what to do")
    func aDatabaseOfAnotherUserSaysWhoseItIs() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shaky-owner-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(chmod(folder.path, 0o777) == 0)
        let database = folder.appendingPathComponent("shaky.sqlite").path
        try AppDatabase.open(path: database, builtinPacks: .skip).close()
        #expect(chmod(database, 0o644) == 0)
        let child = try ChildProcess(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", try BuiltProduct.path("shakyd"), "serve",
                "--state-dir", folder.path, "--socket", folder.appendingPathComponent("s.sock").path, "--input",
                "none", "--sound-device", "none", "--buzzers", "none", "--shakers", "none",
            ])
        let exit = try await child.waitForExit(within: .seconds(30))
        #expect(exit == ChildProcess.Exit(status: 1, signaled: false), "\(child.standardError)")
        // It said "input/output error (disk I/O error)".
        #expect(
            child.standardError.contains("\(database) belongs to user 0, and this process runs as user 65534"),
            "\(child.standardError)")
        #expect(child.standardError.contains("chown"), "\(child.standardError)")
    }

    @Test("A trace input that cannot be read is refused at start, naming the file and why")
    func aMissingTraceIsRefused() throws {
        let missing = "/nonexistent/shakyd-\(UUID()).csv"
        let error = #expect(throws: DaemonStartError.self) { _ = try Daemon.inputSpec("trace:\(missing),loop") }
        #expect(error?.problem == "--input trace:\(missing),loop: \(missing): no such file")
        #expect(try Daemon.inputSpec("trace:/dev/null") != nil)
        let folder = #expect(throws: DaemonStartError.self) { _ = try Daemon.inputSpec("trace:/tmp") }
        #expect(folder?.problem == "--input trace:/tmp: /tmp: it is a folder, not a file")
    }

    @Test("A trace the configuration file names that cannot be read is refused naming the file's line, not --input")
    func aMissingTraceFromTheFileNamesTheFile() throws {
        let missing = "/nonexistent/shakyd-\(UUID()).csv"
        let place = ConfigurationFilePlace(path: "/etc/shaky/shakyd.conf", line: 2)
        let error = #expect(throws: DaemonStartError.self) {
            _ = try Daemon.inputSpec("trace:\(missing)", setIn: place)
        }
        #expect(error?.problem == "/etc/shaky/shakyd.conf:2: input trace:\(missing): \(missing): no such file")
    }

    @Test func anEmptyConfigurationFileIsFine() throws {
        #expect(try DaemonOptions.load(path: "/dev/null", required: true) == DaemonOptions())
    }
}
