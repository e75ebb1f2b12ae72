import ShakyCore
import ShakyTesting
import Testing

@testable import ShakyCLI

@Suite("Arguments that are not UTF-8 text, or hold control characters")
struct ArgumentBytesTests {
    @Test("UTF-8 arguments, accents and emoji included, pass")
    func utf8Passes() {
        #expect(ArgumentBytes.refusal([Array("shaky".utf8), Array("Zoë 🦉".utf8), []]) == nil)
    }

    @Test("The first argument that is not UTF-8 is named, its bad bytes shown as \\xFF")
    func notUTF8IsRefused() throws {
        let latin1 = Array("caf".utf8) + [0xE9] + Array(" olé.csv".utf8)
        let refusal = try #require(ArgumentBytes.refusal([Array("shaky".utf8), Array("pack".utf8), latin1]))
        #expect(refusal.hasPrefix("argument 2, “caf\\xE9 olé.csv”, is not UTF-8 text"), "\(refusal)")
    }

    @Test(
        "Bad bytes of every kind are shown, never dropped",
        arguments: [
            ([0xFF], "\\xFF"),
            ([0x41, 0xE2, 0x82], "A\\xE2\\x82"),  // a sequence cut short
            ([0xC0, 0x80], "\\xC0\\x80"),  // an overlong NUL
            ([0xED, 0xA0, 0x80, 0x42], "\\xED\\xA0\\x80B"),  // a surrogate
            ([0x1B, 0xFF], "\u{FFFD}\\xFF"),  // a control character is not written to the terminal
        ] as [([UInt8], String)])
    func badBytesAreShown(bytes: [UInt8], shown: String) {
        #expect(ArgumentBytes.shown(bytes) == shown)
    }

    @Test("Of a long argument, the characters around its first bad byte are shown")
    func aLongArgumentIsShownAroundItsBadByte() {
        let question =
            Array(String(repeating: "a", count: 100).utf8) + [0xE9] + Array(String(repeating: "b", count: 100).utf8)
        #expect(ArgumentBytes.shown(question, around: 3) == "…aaa\\xE9bbb…")
    }

    @Test("shaky refuses a team name typed in Latin-1 with exit status 2, before it asks the daemon anything")
    func theProgramRefusesIt() async throws {
        // The shell passes the byte 0xFF, which a Swift string cannot hold: the program is run by /bin/sh.
        let run = try ChildProcess(
            "/bin/sh",
            ["-c", "exec \"$0\" new --team \"$(printf 'Zo\\353')\" --team B", try BuiltProduct.path("shaky")],
            environment: ["SHAKY_SOCKET": "/nonexistent/shaky.sock"])
        let exit = try await run.waitForExit(within: .seconds(30))
        #expect(exit.status == 2, "\(exit) \(run.standardError)")
        #expect(
            run.standardError.hasPrefix("shaky: argument 3, “Zo\\xEB”, is not UTF-8 text"), "\(run.standardError)")
    }

    @Test("shaky refuses an escape typed into a team name with exit status 2, before it asks the daemon anything")
    func theProgramRefusesAControlCharacter() async throws {
        let run = try ChildProcess(
            try BuiltProduct.path("shaky"), ["buzz", "Fo\u{1B}xes"],
            environment: ["SHAKY_SOCKET": "/nonexistent/shaky.sock"])
        let exit = try await run.waitForExit(within: .seconds(30))
        #expect(exit.status == 2, "\(exit) \(run.standardError)")
        #expect(
            run.standardError.hasPrefix("shaky: argument 2, “Fo\u{FFFD}xes”, holds the control character U+001B"),
            "\(run.standardError)")
    }
}
