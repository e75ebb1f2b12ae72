import Testing

@testable import ShakyBoard

#if canImport(Glibc)
    import Glibc
#endif

/// The screen loop sleeps until there is something to draw: a change, a key, or the time a highlight ends.
@Suite("Board model wake-ups")
struct BoardModelTests {
    @Test("A change or a quit request wakes the loop once; with none, the wait times out")
    func changesWakeTheLoop() {
        let model = BoardModel()
        #expect(model.waitForChange(orInputOn: -1, timeoutMilliseconds: 0) == .timedOut)
        model.update { $0.joiningTeam = "Owls" }
        model.update { $0.joiningTeam = "Foxes" }
        #expect(model.waitForChange(orInputOn: -1, timeoutMilliseconds: 0) == .changed)
        // Both changes were taken by that one wake-up.
        #expect(model.waitForChange(orInputOn: -1, timeoutMilliseconds: 0) == .timedOut)
        model.requestQuit()
        #expect(model.waitForChange(orInputOn: -1, timeoutMilliseconds: 0) == .changed)
    }

    @Test("A change from another thread ends a wait with no time limit")
    func aChangeEndsAnUnboundedWait() async {
        let model = BoardModel()
        let waiter = Task.detached { model.waitForChange(orInputOn: -1, timeoutMilliseconds: -1) }
        model.update { $0.joiningTeam = "Owls" }
        #expect(await waiter.value == .changed)
    }

    @Test("Input on the terminal's descriptor wakes the loop")
    func inputWakesTheLoop() {
        let model = BoardModel()
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        #expect(model.waitForChange(orInputOn: ends[0], timeoutMilliseconds: 0) == .timedOut)
        var key = UInt8(ascii: "q")
        #expect(write(ends[1], &key, 1) == 1)
        #expect(model.waitForChange(orInputOn: ends[0], timeoutMilliseconds: 0) == .input)
    }

    @Test("The board changes with time alone only while a hint's letter is highlighted")
    func timedChangeIsTheHighlightsEnd() {
        var state = BoardState()
        #expect(state.nextTimedChange(after: .seconds(5)) == nil)
        state.hintedAt = .seconds(10)
        state.hintedTiles = [2]
        #expect(state.nextTimedChange(after: .seconds(11)) == .seconds(10) + BoardState.hintHighlight)
        #expect(state.nextTimedChange(after: .seconds(10) + BoardState.hintHighlight) == nil)
        state.hintedTiles = []
        #expect(state.nextTimedChange(after: .seconds(11)) == nil)
    }

    @Test("It sleeps until the next timed change, rounded up to the millisecond, and a second at most")
    func sleepLength() {
        #expect(BoardApp.sleepMilliseconds(until: nil, now: .seconds(3)) == 1000)
        #expect(BoardApp.sleepMilliseconds(until: .seconds(60), now: .seconds(3)) == 1000)
        #expect(BoardApp.sleepMilliseconds(until: .milliseconds(3250), now: .seconds(3)) == 250)
        #expect(BoardApp.sleepMilliseconds(until: .microseconds(3_000_100), now: .seconds(3)) == 1)
        #expect(BoardApp.sleepMilliseconds(until: .seconds(2), now: .seconds(3)) == 0)
    }
}
