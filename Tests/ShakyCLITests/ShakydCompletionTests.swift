import Foundation
import ShakyTesting
import Testing

/// The completion scripts `shakyd --generate-completion-script` writes, run by bash and fish: `shakyd` takes serve's
/// options without the subcommand's name (`shakyd --input demo`), and its scripts complete them there too.
@Suite("Shell completion of shakyd's options")
struct ShakydCompletionTests {
    private func script(_ shell: String) async throws -> String {
        let child = try ChildProcess(try BuiltProduct.path("shakyd"), ["--generate-completion-script", shell])
        let exit = try await child.waitForExit(within: .seconds(30))
        #expect(exit == .exited(0), "\(child.standardError)")
        return child.standardOutput
    }

    private func run(_ program: [String]) async throws -> [String] {
        let child = try ChildProcess(program[0], Array(program.dropFirst()))
        let exit = try await child.waitForExit(within: .seconds(30))
        #expect(exit == .exited(0), "\(child.standardError)")
        return child.standardOutput.split(separator: "\n").map(String.init)
    }

    /// What bash's completion of `words` (the last being completed) offers.
    private func bash(_ words: [String]) async throws -> [String] {
        let program = """
            \(try await script("bash"))
            COMP_WORDS=("$@")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            _shakyd "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        return try await run(["/bin/bash", "--norc", "--noprofile", "-c", program, "bash", "shakyd"] + words)
    }

    /// What fish's completion of `line` offers, the words alone.
    private func fish(_ line: String) async throws -> [String] {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = folder.appending("shakyd.fish")
        try await script("fish").write(toFile: file, atomically: true, encoding: .utf8)
        return try await run(["/usr/bin/fish", "--no-config", "-c", "source \(file); complete --do-complete '\(line)'"])
            .map { String($0.prefix { $0 != "\t" }) }
    }

    @Test func bashCompletesServesOptionsAfterShakydAlone() async throws {
        let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
        #expect(try await bash(["--log-level", ""]) == levels)
        #expect(try await bash(["--input", "demo", "--log-level", ""]) == levels)
        #expect(try await bash(["--in"]) == ["--input"])
        #expect(try await bash(["--buzzers", ""]) == ["auto", "none"])
        // The commands are still offered, and their own options after them.
        #expect(try await bash(["wa"]) == ["watch-buttons"])
        #expect(try await bash(["detect", "--sens"]) == ["--sensitivity"])
        #expect(try await bash(["serve", "--log-level", ""]) == levels)
    }

    @Test func fishCompletesServesOptionsAfterShakydAlone() async throws {
        #expect(try await fish("shakyd --log-level ").contains("debug"))
        #expect(try await fish("shakyd --in") == ["--input"])
        #expect(try await fish("shakyd detect --sens") == ["--sensitivity"])
    }
}
