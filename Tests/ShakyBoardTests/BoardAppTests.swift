import ShakyBoard
import Testing

/// How the environment picks the board's drawing.
@Suite("Board drawing mode")
struct BoardAppTests {
    @Test func aRealTerminalGetsTheFullScreenInColour() {
        let mode = BoardApp.mode(environment: ["TERM": "linux"], outputIsTerminal: true)
        guard case .fullScreen(let colour) = mode else {
            Issue.record("expected the full screen, got \(mode)")
            return
        }
        #expect(colour)
    }

    @Test func noColorTurnsColoursOff() {
        let mode = BoardApp.mode(environment: ["TERM": "xterm-256color", "NO_COLOR": "1"], outputIsTerminal: true)
        guard case .fullScreen(let colour) = mode else {
            Issue.record("expected the full screen, got \(mode)")
            return
        }
        #expect(!colour)
    }

    @Test(arguments: [
        (["TERM": "dumb"], true), ([:], true), (["TERM": "xterm"], false),
    ])
    func dumbTerminalsAndPipesGetThePlainLayout(_ environment: [String: String], _ isTerminal: Bool) {
        let mode = BoardApp.mode(
            environment: environment.merging(["COLUMNS": "100", "LINES": "30"]) { $1 },
            outputIsTerminal: isTerminal)
        guard case .plain(let width, let height) = mode else {
            Issue.record("expected the plain layout, got \(mode)")
            return
        }
        #expect(width == 100 && height == 30)
    }

    @Test func aStrangeSizeInTheEnvironmentIsClamped() {
        let mode = BoardApp.mode(
            environment: ["TERM": "dumb", "COLUMNS": "99999999999999999999", "LINES": "-3"],
            outputIsTerminal: false)
        guard case .plain(let width, let height) = mode else {
            Issue.record("expected the plain layout, got \(mode)")
            return
        }
        #expect(width == 80, "a number too big for Int is ignored")
        #expect(height == 10)
    }
}
