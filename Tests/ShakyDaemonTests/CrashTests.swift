import Foundation
import GRDB
import ShakyProtocol
import ShakyTesting
import Synchronization
import Testing
import Varlink

/// `kill -9` of the real `shakyd` at many points of a game: every restart on the same state folder must give back
/// the game as it was, paused when a countdown ran, with history intact and the database file sound.
@Suite("kill -9 of shakyd: the restart restores the game exactly", .serialized, .tags(.heavy))
struct CrashTests {
    static let teams = ["Owls", "Foxes", "Bears"]
    static let questions = [
        ShakyAPI.Question(text: "A tall tower that guides ships", answer: "lighthouse", difficulty: .easy),
        ShakyAPI.Question(text: "A bird that cannot fly and loves the cold", answer: "penguin", difficulty: .easy),
        ShakyAPI.Question(text: "The largest planet of the solar system", answer: "jupiter", difficulty: .easy),
    ]
    static let answers = Dictionary(uniqueKeysWithValues: questions.map { ($0.text, $0.answer) })
    /// How much longer the restored countdown may be than the one read just before the kill: the daemon saves on
    /// each change that matters, not on every tick, so the time since the kill point's call may come back.
    static let remainingTolerance = 0.25

    /// Runs `body` with a daemon holding the test pack, then stops the daemon and removes its files.
    private func withDaemon(_ body: (DaemonProcess) async throws -> Void) async throws {
        try await DaemonProcess.withRunning { daemon in
            let client = DaemonProcess.GameClient(try await daemon.connect())
            try await client.createPack("Crash", questions: Self.questions)
            await client.transport.close()
            try await body(daemon)
        }
    }

    /// Reads the game, kills the daemon, checks the database file, restarts it, and checks the game came back.
    ///
    /// Returns a client on the restarted daemon.
    private func killAndRestart(
        _ daemon: DaemonProcess, _ client: DaemonProcess.GameClient, after point: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> DaemonProcess.GameClient {
        let before = try await client.status()
        let historyBefore = try await client.history()
        let termination = await daemon.kill()
        #expect(termination == .signalled(SIGKILL), "after \(point)", sourceLocation: sourceLocation)
        await client.transport.close()
        #expect(
            try Self.integrityCheck(daemon.databasePath) == ["ok"], "integrity after \(point)",
            sourceLocation: sourceLocation)

        try await daemon.start()
        let restarted = DaemonProcess.GameClient(try await daemon.connect())
        let after = try await restarted.status()
        Self.expectRestored(after, from: before, after: point, sourceLocation: sourceLocation)
        #expect(
            try await restarted.history() == historyBefore, "history after \(point)", sourceLocation: sourceLocation)
        return restarted
    }

    /// `after` equals `before` except `remaining` (0 ≤ after ≤ before + tolerance) and `paused` (true when a
    /// countdown was running).
    static func expectRestored(
        _ after: ShakyAPI.State, from before: ShakyAPI.State, after point: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let countdownRan = (before.phase == .indication || before.phase == .answering) && !before.paused
        #expect(
            after.paused == (before.paused || countdownRan), "paused after \(point)", sourceLocation: sourceLocation)
        switch (before.remaining, after.remaining) {
        case (nil, nil):
            break
        case (let was?, let now?):
            #expect(
                now >= 0 && now <= was + remainingTolerance,
                "remaining after \(point): \(now) s restored, \(was) s before the kill", sourceLocation: sourceLocation)
            if before.paused {
                #expect(
                    abs(now - was) < 0.001, "a paused countdown keeps its time exactly", sourceLocation: sourceLocation)
            }
        default:
            let restored = String(describing: after.remaining)
            let killed = String(describing: before.remaining)
            Issue.record(
                "remaining after \(point): \(restored) restored, \(killed) before the kill",
                sourceLocation: sourceLocation)
        }
        var expected = before
        expected.paused = after.paused
        expected.remaining = after.remaining
        #expect(after == expected, "the game after \(point)", sourceLocation: sourceLocation)
    }

    /// `PRAGMA integrity_check` on the database file, opened read-only.
    static func integrityCheck(_ path: String) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? database.close() }
        return try database.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
    }

    @Test("a scripted game survives kill -9 after every kind of move")
    func killAtEveryPoint() async throws {
        try await withDaemon { daemon in
            var client = DaemonProcess.GameClient(try await daemon.connect())
            let rules = ShakyAPI.Rules(indicationTime: 2, timeAfterFirstBuzz: 1, answerTime: 2)
            var status = try await client.new(
                ShakyAPI.GameInterface.NewParameters(
                    teams: Self.teams, packs: ["Crash"], questions: 3, seed: 11, rules: rules))
            #expect(status.phase == .ready)
            client = try await killAndRestart(daemon, client, after: "New")

            status = try await client.next()
            #expect(status.phase == .indication)
            let question = try #require(status.question)
            let answer = try #require(Self.answers[question])
            client = try await killAndRestart(daemon, client, after: "Next")

            _ = try await client.resume()
            status = try await client.hint()
            #expect(status.hintsUsed == 1)
            client = try await killAndRestart(daemon, client, after: "Hint")

            _ = try await client.resume()
            status = try await client.buzz(team: "Owls")
            #expect(status.buzzes.map(\.team) == ["Owls"])
            client = try await killAndRestart(daemon, client, after: "Buzz")

            _ = try await client.resume()
            status = try await client.buzz(team: "Foxes")
            #expect(status.buzzes.map(\.team) == ["Owls", "Foxes"])
            client = try await killAndRestart(daemon, client, after: "the second Buzz")

            // The indication time runs out on the daemon's clock: Owls are up.
            let watch = try await DaemonProcess.GameClient(try await daemon.connect()).watchInBackground()
            _ = try await watch.next(within: .seconds(10)) { $0.kind == .state }
            _ = try await client.resume()
            let answering = try? await watch.next(within: .seconds(10)) {
                $0.kind == .phaseChanged && $0.phase?.hasPrefix("answering") == true
            }
            try #require(answering != nil, "no phase change to answering within 10 s")
            await watch.cancel()
            client = try await killAndRestart(daemon, client, after: "the phase change to answering")
            status = try await client.status()
            #expect(status.phase == .answering && status.teamUp == "Owls")

            _ = try await client.resume()
            let wrong = try await client.answer(team: "Owls", answer: "zzzz")
            #expect(!wrong.correct && wrong.status.teamUp == "Foxes")
            client = try await killAndRestart(daemon, client, after: "a wrong Answer")

            _ = try await client.resume()
            let right = try await client.answer(team: "Foxes", answer: answer)
            #expect(right.correct && right.status.phase == .roundOver)
            client = try await killAndRestart(daemon, client, after: "a right Answer")

            status = try await client.adjustScore(team: "Bears", delta: 3, reason: "good sportsmanship")
            #expect(status.teams.first { $0.name == "Bears" }?.score == 3)
            client = try await killAndRestart(daemon, client, after: "AdjustScore")

            _ = try await client.next()
            status = try await client.pause()
            #expect(status.paused && status.phase == .indication)
            client = try await killAndRestart(daemon, client, after: "Pause")

            _ = try await client.resume()
            status = try await client.end()
            #expect(status.phase == .gameOver)
            #expect(try await client.history().count == 1)
            client = try await killAndRestart(daemon, client, after: "End")
            client = try await killAndRestart(daemon, client, after: "a restart after the game was over")

            let history = try await client.history()
            #expect(history.count == 1, "the finished game counts exactly once")
            #expect(Set(history.first?.teams.map(\.name) ?? []) == Set(Self.teams))
            #expect(history.first?.teams.first { $0.name == "Bears" }?.score == 3)
            await client.transport.close()
        }
    }

    @Test("kill -9 in the middle of a burst of calls loses no acknowledged change and gains at most the one in flight")
    func killDuringBurst() async throws {
        try await withDaemon { daemon in
            var client = DaemonProcess.GameClient(try await daemon.connect())
            _ = try await client.new(
                ShakyAPI.GameInterface.NewParameters(
                    teams: Self.teams, packs: ["Crash"], questions: 3, seed: 5,
                    rules: ShakyAPI.Rules(indicationTime: 60, hintCooldown: 0.05)))
            _ = try await client.next()

            for burst in 1...3 {
                let acknowledged = AcknowledgedCounts(teams: Self.teams.count)
                let killAfter = 10 * burst + 5
                let scoresBefore = try await client.status().teams
                // One flooding client per team, one call at a time each, so at most one change per team is in flight.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, team) in Self.teams.enumerated() {
                        let flooder = DaemonProcess.GameClient(try await daemon.connect())
                        group.addTask {
                            flooding: while true {
                                do {
                                    _ = try await flooder.adjustScore(team: team, delta: 1, reason: "burst")
                                    acknowledged.add(1, to: index)
                                    _ = try? await flooder.hint()
                                    _ = try? await flooder.buzz(team: team)
                                } catch VarlinkError.remote {
                                    continue
                                } catch {
                                    break flooding  // the daemon is gone
                                }
                            }
                            await flooder.transport.close()
                        }
                    }
                    // Kill once every team has had a good number of changes acknowledged.
                    let clock = ContinuousClock()
                    let deadline = clock.now + .seconds(20)
                    while acknowledged.values.contains(where: { $0 < killAfter }), clock.now < deadline {
                        try await Task.sleep(for: .milliseconds(2))
                    }
                    let termination = await daemon.kill()
                    #expect(termination == .signalled(SIGKILL))
                    try await group.waitForAll()
                }
                await client.transport.close()
                #expect(try Self.integrityCheck(daemon.databasePath) == ["ok"], "integrity after burst \(burst)")

                try await daemon.start()
                client = DaemonProcess.GameClient(try await daemon.connect())
                let restored = try await client.status()
                for (index, team) in Self.teams.enumerated() {
                    let before = scoresBefore.first { $0.name == team }?.score ?? 0
                    let acked = acknowledged.values[index]
                    let score = (restored.teams.first { $0.name == team }?.score ?? 0) - before
                    #expect(acked >= killAfter, "burst \(burst): only \(acked) calls for \(team) before the kill")
                    #expect(
                        score == acked || score == acked + 1,
                        "burst \(burst): \(team) gained \(score) points, \(acked) adjustments were acknowledged")
                }
                if restored.phase == .indication || restored.phase == .answering {
                    #expect(restored.paused, "burst \(burst): a running countdown comes back paused")
                }
                #expect(try await client.history().isEmpty)
                if restored.paused { _ = try await client.resume() }
            }
            await client.transport.close()
        }
    }
}

/// How many calls of each flooding client were answered.
private final class AcknowledgedCounts: Sendable {
    private let counts: Mutex<[Int]>

    init(teams: Int) {
        counts = Mutex([Int](repeating: 0, count: teams))
    }

    var values: [Int] { counts.withLock { $0 } }

    func add(_ count: Int, to index: Int) {
        counts.withLock { $0[index] += count }
    }
}
