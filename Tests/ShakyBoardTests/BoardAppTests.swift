import Testing

@testable import ShakyBoard

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

    @Test(arguments: [
        ("xterm-ghostty", ["xterm-ghostty", "xterm-256color", "xterm", "vt100"]),
        ("xterm", ["xterm", "xterm-256color", "vt100"]), ("linux", ["linux", "xterm-256color", "xterm", "vt100"]),
        (nil, ["xterm-256color", "xterm", "vt100"]),
    ])
    func theTerminalsOwnTypeIsTriedFirstThenOnesEveryTerminfoKnows(term: String?, names: [String]) {
        #expect(CursesTerminal.terminalNames(term: term) == names)
    }

    @Test func aStandInForAnUnknownTerminalIsANoticeAndNamedOnLeaving() {
        var state = BoardState()
        state.connection = .connected
        state.terminalStandIn = BoardState.TerminalStandIn(term: "xterm-ghostty", drawnAs: "xterm-256color")
        #expect(BoardLayout.notices(state) == ["TERM xterm-ghostty unknown here: drawn as xterm-256color"])
        let message = BoardApp.standInMessage(state.terminalStandIn!)
        #expect(message.contains("TERM=xterm-ghostty"))
        #expect(message.contains("infocmp -x xterm-ghostty | ssh THIS-HOST -- tic -x -"))
        #expect(message.contains("set TERM=xterm-256color"))
    }

    @Test("Keys are waited for on standard input until it is readable without a key three times in a row")
    func anInputAtItsEndIsNoLongerWaitedOn() {
        var input = BoardApp.KeyInput()
        input.woke(givingKeys: 0)
        input.woke(givingKeys: 0)
        input.woke(givingKeys: 2)
        input.woke(givingKeys: 0)
        input.woke(givingKeys: 0)
        #expect(input.descriptor == 0, "a key between empty wakes starts the count again")
        input.woke(givingKeys: 0)
        #expect(input.descriptor == -1)
    }
}
