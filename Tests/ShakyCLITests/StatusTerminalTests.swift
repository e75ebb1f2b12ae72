import Foundation
import ShakyTesting
import Testing

/// `shaky status` through a pipe and in a real terminal (a tmux pane), against a real `shakyd`.
@Suite("shaky status against a real shakyd", .serialized)
struct StatusTerminalTests {
    @Test("The answers judged on the question are listed, a wrong one and one the host overruled, fitted to a terminal")
    func statusListsTheAnswersJudged() async throws {
        try await DaemonProcess.withRunning { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            @discardableResult
            func shaky(_ arguments: [String]) async throws -> ShakyOutcome {
                let run = try await runBinary(arguments, environment: environment)
                #expect(run.status == 0, "\(arguments): \(run)")
                return run
            }
            try await shaky(["new", "--team", "Owls", "--team", "Foxes", "--questions", "1", "--seed", "3"])
            try await shaky(["next"])
            try await shaky(["buzz", "Owls"])
            try await shaky(["buzz", "Foxes"])
            try await shaky(["answer", "Owls", "surely not this long answer about a giraffe"])
            let answering = try await shaky(["status"])
            #expect(
                answering.output.contains(
                    "\nOwls answered “surely not this long answer about a giraffe”: wrong\nUp: Foxes\n"),
                "\(answering)")

            try await shaky(["answer", "Foxes", "nor this"])
            try await shaky(["judge", "overrule"])
            let overruled = try await shaky(["status"])
            #expect(
                overruled.output.contains(
                    "\nOwls answered “surely not this long answer about a giraffe”: wrong\n"
                        + "Foxes answered “nor this”: right, +10\nAnswer: "),
                "\(overruled)")
            #expect(overruled.output.contains("got by Foxes, on the host's overrule"), "\(overruled)")

            // In a terminal 40 columns wide, the long answer is cut short so that its line keeps its verdict.
            let terminal = try await runInTerminal(
                ["status"], columns: 40, socket: daemon.socketPath, folder: daemon.folder)
            #expect(terminal.status == 0, "\(terminal)")
            #expect(terminal.lines.contains("Owls answered “surely not this …”: wrong"), "\(terminal)")
            #expect(terminal.lines.contains("Foxes answered “nor this”: right, +10"), "\(terminal)")
        }
    }
}
