import Foundation
import ShakyTesting
import Testing

/// `man shakyd`, made by swift-argument-parser's generate-manual from the commands' help, as groff reads it.
@Suite struct ManualPageTests {
    /// Generates the pages with `make manual` into a fresh folder and returns the folder.
    static func generatePages() async throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shaky-manual-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try await InstallTests.run(
            InstallTests.make,
            [
                "-s", "manual", "MANUAL_DIR=\(folder.path)", "BIN_PATH=\(BuiltProduct.directory.path)",
                "GENERATE_MANUAL=\(try BuiltProduct.path("generate-manual"))",
            ], currentDirectory: BuiltProduct.checkout)
        #expect(result.status == 0, "make manual failed: \(result.standardError)")
        return folder
    }

    @Test func shakydsPageSaysItsFilesEnvironmentAndExitStatusWithoutWarnings() async throws {
        let folder = try await Self.generatePages()
        defer { try? FileManager.default.removeItem(at: folder) }
        for page in ["shakyd.1", "shakyd.serve.1"] {
            let path = folder.appendingPathComponent(page).path
            // -ww turns every warning on; mdoc's own complaints ("mdoc warning: …") go to standard error too.
            let rendered = try await InstallTests.run(
                "/usr/bin/groff", ["-ww", "-mandoc", "-Tutf8", path], environment: ["LC_ALL": "C.UTF-8"])
            #expect(rendered.status == 0, "\(page): \(rendered.standardError)")
            #expect(rendered.standardError.isEmpty, "\(page) has warnings: \(rendered.standardError)")
            let checked = try await InstallTests.run("/usr/bin/man", ["--warnings", "-l", path])
            #expect(checked.standardError.isEmpty, "\(page) has warnings: \(checked.standardError)")
        }
        let page = try await InstallTests.run(
            "/usr/bin/groff", ["-mandoc", "-Tutf8", "-P-cbu", folder.appendingPathComponent("shakyd.1").path])
        // Lines are filled, so compare the text with its line breaks and hyphenation undone.
        let text = page.standardOutput.replacingOccurrences(of: "\u{2010}\n", with: "")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for expected in [
            "FILES: /etc/shaky/shakyd.conf", "/var/lib/shaky", "/run/shaky/shaky.sock",
            "ENVIRONMENT: SHAKY_SOCKET", "SHAKY_DATA_DIR", "EXIT STATUS: 0", "2 the command line is wrong",
            "3 the configuration file is refused", "--version",
        ] {
            #expect(text.contains(expected), "man shakyd lacks \(expected)")
        }
    }

    @Test func shakydExitsWith2OnAWrongCommandLineAnd3OnABadConfigurationFile() async throws {
        let shakyd = try BuiltProduct.path("shakyd")
        let usage = try await InstallTests.run(shakyd, ["--no-such-flag"])
        #expect(usage.status == 2, "\(usage)")
        #expect(usage.standardError.contains("--no-such-flag"), "\(usage)")

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
