import Foundation
import ShakyTesting
import Testing

/// The built `shaky` against the built `shakyd`: the pair a host actually runs.
@Suite("shaky against a real shakyd")
struct RealDaemonTests {
    @Test func theDemoPlaysAWholeGameOnTheDemoTrace() async throws {
        let daemon = try DaemonProcess(arguments: ["--input", "demo"])
        try await daemon.start()
        defer { Task { await daemon.removeFiles() } }
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

        let history = try ChildProcess(shaky, ["history", "--json"], environment: ["SHAKY_SOCKET": daemon.socketPath])
        #expect(try await history.waitForExit(within: .seconds(30)).status == 0)
        #expect(history.standardOutput.contains("\"Foxes\""))
        _ = await daemon.terminate()
    }

    @Test func aRefusedMoveExitsWithOneAndTheDaemonsReason() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        defer { Task { await daemon.removeFiles() } }
        let shaky = try BuiltProduct.path("shaky")
        let buzz = try ChildProcess(shaky, ["buzz", "Owls"], environment: ["SHAKY_SOCKET": daemon.socketPath])
        let exit = try await buzz.waitForExit(within: .seconds(30))
        #expect(exit.status == 1)
        #expect(buzz.standardError.contains("there is no game"), "\(buzz.standardError)")
        _ = await daemon.terminate()
    }
}
