import Foundation
import GRDB
import ShakyProtocol
import ShakyTesting
import Testing

/// A daemon stopped mid-round and started again on the same state directory takes the game over exactly, paused.
@Suite("Restart")
struct RestartTests {
    @Test(
        "A daemon shut down leaves its games in shaky.sqlite alone: no write-ahead log beside it",
        arguments: TestDaemon.Mode.allCases)
    func shutDownFoldsTheLogIntoTheFile(mode: TestDaemon.Mode) async throws {
        let state = try TemporaryDirectory(prefix: "shakyd-close")
        defer { state.remove() }
        let log = state.path + "/shaky.sqlite-wal"
        try await TestDaemon.run(mode, stateDirectory: state.path) { client in
            try await PartyPack.create(on: client)
            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"]))
            #expect(FileManager.default.fileExists(atPath: log), "serving, the game is written to the log")
            // The test still holds the daemon, so only an explicit close can fold the log in now.
            await client.daemon.shutDown()
            #expect(!FileManager.default.fileExists(atPath: log))
            #expect(!FileManager.default.fileExists(atPath: state.path + "/shaky.sqlite-shm"))
        }
        try await TestDaemon.run(mode, stateDirectory: state.path) { client in
            let scores = try await client.status().scores
            #expect(scores == ["Owls": 0, "Foxes": 0], "the game is in the file")
        }
    }

    @Test(
        "Mid-round with 37.5 s left: after a restart the same question, scores, buzzes, paused, 37.5 s left",
        arguments: TestDaemon.Mode.allCases)
    func restartMidRound(mode: TestDaemon.Mode) async throws {
        let state = try TemporaryDirectory(prefix: "shakyd-restart")
        defer { state.remove() }
        let before = try await TestDaemon.run(mode, stateDirectory: state.path) { client in
            try await PartyPack.create(on: client)
            try await client.game(
                "New", PartyPack.newGame(teams: ["Owls", "Foxes", "Bees"], rules: ["timeAfterFirstBuzz": 45]))
            try await client.game("AdjustScore", ["team": "Bees", "delta": 5, "reason": "warm-up"])
            try await client.game("Next")
            try await client.game("Hint")
            try await client.advance(by: .seconds(10))
            try await client.game("Buzz", ["team": "Owls"])
            try await client.advance(by: .milliseconds(7500))
            let status = try await client.status()
            #expect(status.remaining == 37.5)
            #expect(status.paused == false)
            await client.daemon.shutDown()
            return status
        }
        #expect(before.buzzes == [ShakyAPI.BuzzEntry(team: "Owls", order: 1, elapsed: 10, points: 8)])
        #expect(before.scores == ["Owls": 0, "Foxes": 0, "Bees": 5])

        try await TestDaemon.run(mode, stateDirectory: state.path) { client in
            var status = try await client.status()
            var expected = before
            expected.paused = true
            #expect(status == expected)
            #expect(status.remaining == 37.5)
            #expect(status.question == before.question)
            #expect(status.tiles == before.tiles)

            // Time does not run while paused, then runs on from 37.5 s.
            try await client.advance(by: .seconds(30))
            #expect(try await client.status().remaining == 37.5)
            status = try await client.game("Resume")
            #expect(status.paused == false)
            #expect(status.remaining == 37.5)
            try await client.advance(by: .milliseconds(500))
            #expect(try await client.status().remaining == 37)
            try await client.advance(by: .seconds(2))
            #expect(try await client.status().remaining == 35)
            try await client.game("Buzz", ["team": "Foxes"])
            try await client.advance(by: .seconds(35))
            status = try await client.status()
            #expect(status.phase == .answering)
            #expect(status.teamUp == "Owls")
            #expect(status.remaining == 60)
            #expect(status.buzzes.map(\.team) == ["Owls", "Foxes"])
            #expect(status.buzzes.map(\.elapsed) == [10, 20])
        }
    }

    @Test(
        "A saved game damaged in the file is set aside beside it, and the daemon starts without a game",
        arguments: TestDaemon.Mode.allCases)
    func damagedSnapshotIsSetAside(mode: TestDaemon.Mode) async throws {
        let state = try TemporaryDirectory(prefix: "shakyd-damaged")
        defer { state.remove() }
        try await TestDaemon.run(mode, stateDirectory: state.path) { client in
            try await PartyPack.create(on: client)
            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"]))
            try await client.game("Next")
            await client.daemon.shutDown()
        }
        // The scramble's generator as a damaged or edited file could hold it: the next question's draw would trap.
        let damaged = try await DatabaseQueue(path: state.path + "/shaky.sqlite").write { db in
            try db.execute(sql: #"UPDATE gameSnapshot SET game = json_set(game, '$.random.state', json('[]'))"#)
            return try String.fetchOne(db, sql: "SELECT game FROM gameSnapshot")
        }
        try await TestDaemon.run(mode, stateDirectory: state.path) { client in
            let noGame = try await client.callError("io.shakywords.Game.Status")
            #expect(noGame.name == "io.shakywords.Game.NoGame")
            let files = try FileManager.default.contentsOfDirectory(atPath: state.path).filter {
                $0.hasPrefix("unreadable-game-") && $0.hasSuffix(".json")
            }
            #expect(files.count == 1)
            let kept = try files.first.map { try String(contentsOfFile: state.path + "/" + $0, encoding: .utf8) }
            #expect(kept == damaged, "the file holds the saved game as it was")
            // The party goes on with a new game.
            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"]))
            #expect(try await client.game("Next").phase == .indication)
        }
    }
}
