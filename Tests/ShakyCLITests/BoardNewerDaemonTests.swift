import ShakyProtocol
import Synchronization
import Testing
import Varlink

@testable import ShakyBoard

/// The board against a daemon newer than itself, whose `Watch` sends values the board does not know (here rather
/// than with the board's own tests: ``FakeDaemon`` scripts any reply).
@Suite("Board and a newer daemon")
struct BoardNewerDaemonTests {
    /// The game as it stands, with a phase this board does not know.
    static var stateOfANewerDaemon: VarlinkObject {
        var reply = FakeDaemon.Answer.watchReply(Fixtures.event(.state) { $0.status = Fixtures.ready })
        if case .object(var event) = reply["event"], case .object(var status) = event["status"] {
            status["phase"] = "intermission"
            event["status"] = .object(status)
            reply["event"] = .object(event)
        }
        return reply
    }

    /// Runs a board feed on `daemon` until it is to try again, or until `condition` holds of the board; returns the
    /// board as it was then.
    static func feed(
        _ daemon: FakeDaemon, until condition: @escaping @Sendable (BoardState) -> Bool = { _ in false }
    ) async throws -> BoardState {
        let model = BoardModel()
        // Waits (between tries, between the settings' reads) never end here: only the daemon's replies move it.
        let feed = BoardFeed(
            socketPath: daemon.socketPath, now: { .zero }, sleep: { _ in try await Task.sleep(for: .seconds(3600)) })
        let feeding = Task { await feed.run(into: model) }
        defer { feeding.cancel() }
        for _ in 0..<4000 {
            let state = model.snapshot.state
            if condition(state) || state.connection.isReconnecting { return state }
            try await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("the board never got there: \(model.snapshot.state)")
        return model.snapshot.state
    }

    @Test("A game as it stands that the board cannot read leaves no game shown, and says to update shaky")
    func aWholeGameItCannotRead() async throws {
        try await FakeDaemon.run(checksReplies: false) { daemon in
            let buzz = FakeDaemon.Answer.watchReply(
                Fixtures.event(.buzz) {
                    $0.team = "Owls"
                    $0.order = 1
                })
            daemon.answer("Game.Watch", with: .events([Self.stateOfANewerDaemon, buzz], end: false))
            let state = try await Self.feed(daemon)
            #expect(state.connection == .reconnecting(attempt: 1))
            #expect(state.phase == .noGame)
            #expect(state.buzzes.isEmpty, "the buzz after it was not applied to a game the board does not have")
            #expect(state.daemonProblem == "the daemon is newer than this board")
            #expect(
                state.unknownDaemonValue
                    == UnknownReplyValue(
                        method: "io.shakywords.Game.Watch", field: "event.status.phase", value: "intermission"))
            #expect(BoardLayout.notices(state).contains("Daemon newer than this board: update shaky"))
            #expect(BoardLayout.notices(state, width: 40).contains("Daemon newer: update shaky"), "a narrow board")
            let screen = BoardLayout.render(state, width: 100, height: 30, now: .zero).lines.joined(separator: "\n")
            #expect(screen.contains("(the daemon is newer than this board)"))
        }
    }

    @Test("A new game the board cannot read takes the game shown before off the board")
    func aNewGameItCannotRead() async throws {
        try await FakeDaemon.run(checksReplies: false) { daemon in
            let over = FakeDaemon.Answer.watchReply(Fixtures.event(.state) { $0.status = Fixtures.roundOver })
            daemon.answer("Game.Watch", with: .events([over, Self.stateOfANewerDaemon], end: false))
            let state = try await Self.feed(daemon)
            #expect(state.connection == .reconnecting(attempt: 1))
            #expect(state.phase == .noGame, "the question over of the game before is gone")
            #expect(state.teams.isEmpty)
            #expect(state.daemonProblem == "the daemon is newer than this board")
        }
    }

    @Test("An event the board cannot read is skipped, the game goes on, and the board says to update shaky")
    func anEventItCannotRead() async throws {
        try await FakeDaemon.run(checksReplies: false) { daemon in
            let ready = FakeDaemon.Answer.watchReply(Fixtures.event(.state) { $0.status = Fixtures.ready })
            let over = FakeDaemon.Answer.watchReply(Fixtures.event(.state) { $0.status = Fixtures.roundOver })
            daemon.answer(
                "Game.Watch",
                with: .events([ready, ["event": ["kind": "confetti", "team": "Owls"]], over], end: false))
            let board = try await Self.feed(daemon) { $0.phase == .roundOver }
            #expect(board.connection == .connected)
            #expect(board.phase == .roundOver, "the event after the skipped one was applied")
            #expect(
                board.unknownDaemonValue
                    == UnknownReplyValue(method: "io.shakywords.Game.Watch", field: "event.kind", value: "confetti"))
            #expect(BoardLayout.notices(board).contains("Daemon newer than this board: update shaky"))
        }
    }
}

extension BoardState.Connection {
    var isReconnecting: Bool {
        if case .reconnecting = self { true } else { false }
    }
}
