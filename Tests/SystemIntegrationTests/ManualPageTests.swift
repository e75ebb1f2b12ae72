import Foundation
import ShakyTesting
import Testing

/// `man shakyd`, made by swift-argument-parser's generate-manual from the commands' help, as groff reads it.
@Suite struct ManualPageTests {
    /// The pages made once with `make manual` for every test of the suite, in a folder of their own: each `make
    /// manual` runs both programs' help for every command, and a run for each test loaded the 2 cores that the
    /// tests of running daemons time themselves on.
    private static let generated = Task { () async throws -> URL in
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shaky-manual-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try await InstallTests.run(
            InstallTests.make,
            [
                "-s", "manual", "MANUAL_DIR=\(folder.path)", "BIN_PATH=\(BuiltProduct.directory.path)",
                "GENERATE_MANUAL=\(try BuiltProduct.path("generate-manual"))",
                "MANUAL_SECTIONS=\(try BuiltProduct.path("manual-sections"))",
            ], currentDirectory: BuiltProduct.checkout)
        guard result.status == 0 else { throw ManualFailed(standardError: result.standardError) }
        return folder
    }

    /// `make manual` failed.
    struct ManualFailed: Error, CustomStringConvertible {
        var standardError: String
        var description: String { "make manual failed: \(standardError)" }
    }

    /// The folder of the pages `make manual` made (shared: tests read it and leave it as it is).
    static func generatePages() async throws -> URL {
        try await generated.value
    }

    @Test func everyPageReadsWithoutAWarningFromGroffMandocOrMan() async throws {
        let folder = try await Self.generatePages()
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".1") }
        #expect(pages.count > 30)
        for page in pages.sorted() {
            let path = folder.appendingPathComponent(page).path
            // -ww turns every warning on; mdoc's own complaints ("mdoc warning: …") go to standard error too.
            let rendered = try await InstallTests.run(
                "/usr/bin/groff", ["-ww", "-mandoc", "-z", path], environment: ["LC_ALL": "C.UTF-8"])
            #expect(rendered.status == 0 && rendered.standardError.isEmpty, "\(page): \(rendered.standardError)")
            let lint = try await InstallTests.run("/usr/bin/mandoc", ["-T", "lint", "-W", "warning", path])
            #expect(lint.standardOutput.isEmpty && lint.standardError.isEmpty, "\(page): \(lint.standardOutput)")
        }
        for page in ["shakyd.1", "shaky.1"] {
            let checked = try await InstallTests.run(
                "/usr/bin/man", ["--warnings", "-l", folder.appendingPathComponent(page).path])
            #expect(checked.standardError.isEmpty, "\(page) has warnings: \(checked.standardError)")
        }
    }

    @Test func bothProgramsHaveRealFilesEnvironmentAndExitStatusSections() async throws {
        let folder = try await Self.generatePages()
        let expected: [String: [String: [String]]] = [
            "shakyd.1": [
                "FILES": ["/etc/shaky/shakyd.conf", "/var/lib/shaky/shaky.sqlite", "/run/shaky/shaky.sock"],
                "ENVIRONMENT": [
                    "SHAKY_SOCKET", "SHAKY_DATA_DIR", "RUNTIME_DIRECTORY", "STATE_DIRECTORY", "LISTEN_FDS",
                    "NOTIFY_SOCKET", "JOURNAL_STREAM",
                ],
                "EXIT STATUS": ["0", "1", "2", "3"],
            ],
            "shaky.1": [
                "FILES": ["/run/shaky/shaky.sock", "/tmp/shaky-UID/shaky.sock"],
                "ENVIRONMENT": ["SHAKY_SOCKET", "XDG_RUNTIME_DIR", "NO_COLOR", "TERM", "COLUMNS", "LINES"],
                "EXIT STATUS": ["0", "1", "2", "3"],
            ],
        ]
        for (page, sections) in expected {
            let source = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
            let lines = source.split(separator: "\n").map(String.init)
            for (title, items) in sections {
                let header = title.contains(" ") ? ".Sh \"\(title)\"" : ".Sh \(title)"
                #expect(lines.count { $0 == header } == 1, "\(page): no single section \(title)")
                // The section's items, up to the next section.
                let start = lines.firstIndex(of: header) ?? lines.endIndex
                let body = lines[start...].dropFirst().prefix { !$0.hasPrefix(".Sh ") }
                for item in items {
                    #expect(
                        body.contains { $0.hasPrefix(".It") && $0.hasSuffix(" " + item) },
                        "\(page) \(title) lacks \(item)")
                }
                // Nothing of it is left in DESCRIPTION as a paragraph.
                #expect(!source.contains(title + ":"), "\(page) still has “\(title):” as text")
            }
            // Rendered, each is a heading of its own (the generic "exits 0 on success" is gone).
            let rendered = try await InstallTests.run(
                "/usr/bin/groff", ["-mandoc", "-Tutf8", "-P-cbu", folder.appendingPathComponent(page).path],
                environment: ["LC_ALL": "C.UTF-8"])
            let headings = rendered.standardOutput.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map(String.init)
            #expect(headings.contains("FILES") && headings.contains("ENVIRONMENT") && headings.contains("EXIT STATUS"))
            #expect(!rendered.standardOutput.contains("exits 0 on success"), "\(page)")
        }
        let daemon = try await InstallTests.run(
            "/usr/bin/groff", ["-mandoc", "-Tutf8", "-P-cbu", folder.appendingPathComponent("shakyd.1").path])
        #expect(daemon.standardOutput.contains("--version"))
    }

    @Test("shakyd's SYNOPSIS shows its subcommand as optional (it serves without one), shaky's as required")
    func theSynopsisSaysWhetherASubcommandIsNeeded() async throws {
        let folder = try await Self.generatePages()
        for (page, synopsis) in [
            ("shakyd.1", "shakyd [subcommand] [--version] [--help]"),
            ("shaky.1", "shaky subcommand [--socket path] [--json] [--version] [--help]"),
        ] {
            let rendered = try await InstallTests.run(
                "/usr/bin/groff", ["-mandoc", "-Tutf8", "-P-cbu", folder.appendingPathComponent(page).path],
                environment: ["LC_ALL": "C.UTF-8"])
            let lines = rendered.standardOutput.split(separator: "\n").map(String.init)
            let start = lines.firstIndex(of: "SYNOPSIS").map { $0 + 1 } ?? lines.endIndex
            let text = lines[start...].prefix { $0.hasPrefix(" ") }.map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(text.joined(separator: " ") == synopsis, "\(page): \(text)")
        }
    }

    @Test func subcommandPagesSayTheirProgramsExitStatusAndPointToIt() async throws {
        let folder = try await Self.generatePages()
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".1") }
        // `shaky help` is --help by another name: no page of its own, and none names one.
        #expect(!pages.contains("shaky.help.1") && !pages.contains("shakyd.help.1"), "\(pages.sorted())")
        for page in pages.sorted() {
            let lines = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            func section(_ header: String) -> [String] {
                let start = lines.firstIndex(of: header) ?? lines.endIndex
                return Array(lines[start...].dropFirst().prefix { !$0.hasPrefix(".Sh ") })
            }
            let program = String(page.prefix { $0 != "." })
            let status = section(".Sh \"EXIT STATUS\"")
            // The program's statuses (0 done … 3), not the generic "exits 0 on success, and >0 if an error occurs".
            #expect(!status.contains(".Ex -std"), "\(page): \(status)")
            for code in ["0", "1", "2", "3"] { #expect(status.contains(".It \(code)"), "\(page) lacks status \(code)") }
            let seeAlso = section(".Sh \"SEE ALSO\"")
            #expect(!seeAlso.contains { $0.contains(".help ") }, "\(page): \(seeAlso)")
            let names = seeAlso.map { $0.split(separator: " ").dropFirst().first.map(String.init) ?? "" }
            #expect(names == names.sorted(), "\(page): SEE ALSO out of order: \(seeAlso)")
            if page == "\(program).1" {
                let other = program == "shaky" ? "shakyd" : "shaky"
                #expect(names.contains(other), "\(page) does not point to \(other)(1): \(seeAlso)")
            } else {
                #expect(names.contains(program), "\(page) does not point to \(program)(1): \(seeAlso)")
                let parent = page.dropLast(2).split(separator: ".").dropLast().joined(separator: ".")
                #expect(names.contains(parent), "\(page) does not point to \(parent)(1): \(seeAlso)")
            }
        }
    }

    @Test func everyPageHasTheSectionsOfALinuxManualInOrder() async throws {
        let folder = try await Self.generatePages()
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".1") }
        let order = [
            ".Sh NAME", ".Sh SYNOPSIS", ".Sh DESCRIPTION", ".Sh OPTIONS", ".Sh ENVIRONMENT", ".Sh FILES",
            ".Sh \"EXIT STATUS\"", ".Sh EXAMPLES", ".Sh \"SEE ALSO\"",
        ]
        for page in pages.sorted() {
            let lines = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            let sections = lines.filter { $0.hasPrefix(".Sh ") }
            #expect(sections.allSatisfy(order.contains), "\(page): \(sections)")
            #expect(sections == order.filter(sections.contains), "\(page) has its sections out of order: \(sections)")
            for required in [".Sh NAME", ".Sh SYNOPSIS", ".Sh DESCRIPTION", ".Sh OPTIONS", ".Sh \"SEE ALSO\""] {
                #expect(sections.contains(required), "\(page) has no \(required)")
            }
            // DESCRIPTION says what the command does in words; its options are OPTIONS', not a list at its end.
            let description = lines.drop { $0 != ".Sh DESCRIPTION" }.dropFirst().prefix { !$0.hasPrefix(".Sh ") }
            #expect(description.contains { !$0.hasPrefix(".") }, "\(page): an empty DESCRIPTION")
            #expect(!description.contains { $0.hasPrefix(".It Fl ") }, "\(page): options left in DESCRIPTION")
        }
    }

    @Test func charactersBeyondASCIIReachThePages() async throws {
        let folder = try await Self.generatePages()
        // generate-manual alone dropped them: "cut short with  to fit", "m/s including gravity".
        let expected = [
            ("shaky.status.1", "cut short with “…” to fit"), ("shakyd.detect.1", "m/s² including gravity"),
            ("shaky.answer.1", "Owls answer “snow leopard”:"),
        ]
        for (page, text) in expected {
            let rendered = try await InstallTests.run(
                "/usr/bin/groff",
                ["-mandoc", "-Tutf8", "-P-cbu", "-rLL=200n", folder.appendingPathComponent(page).path],
                environment: ["LC_ALL": "C.UTF-8"])
            let words = rendered.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains(text), "\(page) lacks “\(text)”: \(rendered.standardOutput)")
        }
        // Each is written as mdoc's escape (\[u201C]), which every formatter reads; none is left marked.
        for page in try FileManager.default.contentsOfDirectory(atPath: folder.path) where page.hasSuffix(".1") {
            let source = try Data(contentsOf: folder.appendingPathComponent(page))
            #expect(source.allSatisfy { $0 < 0x7F }, "\(page) holds bytes beyond ASCII or a mark left")
        }
    }

    @Test func aCommandsPageListsItsSubcommandsEachWithItsOneLine() async throws {
        let folder = try await Self.generatePages()
        let expected = [
            ("shaky.1", "pack", "List, edit, import and export the quiz packs."),
            ("shaky.1", "new", "Start a new game."),
            ("shaky.pack.1", "import", "Add a pack from a JSON or CSV file."),
            ("shakyd.1", "list-devices", "List the buzzer devices, motion controllers and accelerometers found"),
        ]
        for (page, command, summary) in expected {
            let lines = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            // In DESCRIPTION, under a heading of its own, before OPTIONS.
            let description = Array(lines.drop { $0 != ".Sh DESCRIPTION" }.prefix { $0 != ".Sh OPTIONS" })
            #expect(description.contains(".Ss Commands"), "\(page): \(description)")
            let item = description.firstIndex(of: ".It Cm \(command)")
            #expect(
                item.map { description.indices.contains($0 + 1) && description[$0 + 1].hasPrefix(summary) } == true,
                "\(page) does not list \(command) with “\(summary)”: \(description)")
        }
        // A command without subcommands has no such list.
        let leaf = try String(contentsOf: folder.appendingPathComponent("shaky.pack.import.1"), encoding: .utf8)
        #expect(!leaf.contains(".Ss Commands"))
    }

    @Test func examplesAreASectionOfTheirOwnShowingEachCommandAsTyped() async throws {
        let folder = try await Self.generatePages()
        let expected: [(page: String, said: String, commands: [String])] = [
            (
                "shaky.pack.import.1", "A file of another extension, and standard input, named:",
                [
                    #"shaky pack import questions.txt --format csv --name "Pub night""#,
                    #"shaky pack import - --format json --name "Pub night" < pub-night.json"#,
                ]
            ),
            (
                "shakyd.serve.1", "A recorded trace, over and over, on a socket and state folder of its own:",
                [
                    #"shakyd serve --input trace:shakes.csv,loop --sound-device none \e"#,
                    "  --socket /tmp/shaky/shaky.sock --state-dir /tmp/shaky",
                ]
            ),
            ("shaky.play.1", "Host the game in play from a file of commands:", ["shaky play --script party.txt"]),
        ]
        for (page, said, commands) in expected {
            let lines = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            let start = try #require(lines.firstIndex(of: ".Sh EXAMPLES"), "\(page) has no EXAMPLES")
            // In mdoc's order: after EXIT STATUS, before SEE ALSO.
            #expect((lines.firstIndex(of: ".Sh \"EXIT STATUS\"") ?? lines.endIndex) < start, "\(page)")
            #expect(start < (lines.firstIndex(of: ".Sh \"SEE ALSO\"") ?? lines.endIndex), "\(page)")
            let section = Array(lines[start...].dropFirst().prefix { !$0.hasPrefix(".Sh ") })
            let told = try #require(section.firstIndex(of: said), "\(page): \(section)")
            // The text says what the commands after it do; the commands follow in a literal display, as typed.
            #expect(
                Array(section[(told + 1)...].prefix(commands.count + 2)) == [".Bd -literal -offset indent"] + commands
                    + [".Ed"], "\(page): \(section)")
        }
        // Nothing of the section is left in DESCRIPTION as text.
        let source = try String(contentsOf: folder.appendingPathComponent("shaky.1"), encoding: .utf8)
        #expect(!source.contains("EXAMPLES:"))
        let rendered = try await InstallTests.run(
            "/usr/bin/groff", ["-mandoc", "-Tutf8", "-P-cbu", folder.appendingPathComponent("shaky.1").path],
            environment: ["LC_ALL": "C.UTF-8"])
        #expect(rendered.standardOutput.contains("\nEXAMPLES\n"), "\(rendered.standardOutput)")
        #expect(
            rendered.standardOutput.contains(
                "           shaky new --team Owls --team Foxes --team Bees --questions 10\n"))
    }

    @Test("An option that takes one of a few values lists them in its page, each with what it means")
    func optionsListTheirValuesWithWhatEachMeans() async throws {
        let folder = try await Self.generatePages()
        let expected: [(page: String, option: String, value: String, meaning: String)] = [
            ("shakyd.serve.1", "sensitivity", "light", "Gentler shaking counts; so may a walk with the device in a"),
            ("shakyd.serve.1", "sensitivity", "hard", "Only vigorous shaking counts."),
            ("shakyd.serve.1", "log-level", "warning", "Problems the daemon works around."),
            ("shakyd.serve.1", "input", "none", "No sensor: hints are manual."),
            ("shakyd.detect.1", "sensitivity", "medium", "The balance between missed shakes and false ones."),
            ("shaky.settings.1", "sound", "off", "Play none."),
            ("shaky.settings.1", "sensitivity", "light", "Gentler shaking counts"),
            ("shaky.new.1", "difficulty", "any", "Questions of every difficulty (the default)."),
            ("shaky.new.1", "buzzer-mode", "classic", "The first team to buzz answers at once"),
            ("shaky.pack.add.1", "difficulty", "hard", "Few would know it."),
            ("shaky.pack.export.1", "format", "csv", "CSV: a header line, then a question a line."),
        ]
        for (page, option, value, meaning) in expected {
            let source = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
            let lines = source.split(separator: "\n").map(String.init)
            // The option's entry, up to the next option: a list of its values, each an item with its meaning.
            let start = lines.firstIndex { $0.hasPrefix(".It Fl -\(option) ") } ?? lines.endIndex
            let entry = lines[start...].dropFirst().prefix { !$0.hasPrefix(".It Fl ") }
            let item = entry.firstIndex(of: ".It Ar \(value)")
            #expect(
                item.map { entry.indices.contains($0 + 1) && entry[$0 + 1].hasPrefix(meaning) } == true,
                "\(page) --\(option) does not list \(value) with its meaning: \(Array(entry))")
        }
        // `--help` lists them the same way, once: not also as "(values: …)" or in the option's own words.
        let help = try await InstallTests.run(try BuiltProduct.path("shakyd"), ["serve", "--help"])
        #expect(help.standardOutput.contains("- Gentler shaking counts;"), "\(help.standardOutput)")
        #expect(help.standardOutput.contains("- No sensor: hints are manual."), "\(help.standardOutput)")
        #expect(!help.standardOutput.contains("(values:"), "\(help.standardOutput)")
        #expect(help.standardOutput.components(separatedBy: "evdev[:PATH]").count == 2, "\(help.standardOutput)")
    }

    @Test func shakydExitsWith2OnAWrongCommandLineAnd3OnABadConfigurationFile() async throws {
        let shakyd = try BuiltProduct.path("shakyd")
        let usage = try await InstallTests.run(shakyd, ["--no-such-flag"])
        #expect(usage.status == 2, "\(usage)")
        #expect(usage.standardError.contains("--no-such-flag"), "\(usage)")
        #expect(usage.standardError.hasPrefix("shakyd: "), "\(usage)")
        // A negative number is the option's value, refused for what it is, not "Missing value".
        let negative = try await InstallTests.run(shakyd, ["record", "--rate", "-5", "--output", "/nonexistent/x.csv"])
        #expect(negative.status == 2, "\(negative)")
        #expect(
            negative.standardError.hasPrefix(
                "shakyd: --rate must be above 0 and at most 10000 samples a second, not -5.0"), "\(negative)")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shaky-exit-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("shakyd.conf")
        try Data("sensitivity: extreme\n".utf8).write(to: config)
        let refused = try await InstallTests.run(
            shakyd, ["--config", config.path, "--socket", folder.appendingPathComponent("s.sock").path])
        #expect(refused.status == 3, "\(refused)")
        #expect(refused.standardError.contains("\(config.path):1"), "\(refused)")
    }
}
