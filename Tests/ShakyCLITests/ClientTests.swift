import Foundation
import ShakyCore
import ShakyProtocol
import ShakyTesting
import Synchronization
import Testing
import Varlink

/// `ShakyClient` against a fake daemon serving the real interface descriptions.
@Suite struct ClientTests {
    @Test func everyGameMethodSendsItsParameters() async throws {
        try await FakeDaemon.run { daemon in
            for method in ["New", "Next", "Skip", "Pause", "Resume", "End", "Buzz", "Hint", "AdjustScore", "Status"] {
                daemon.answer(
                    "Game.\(method)",
                    with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
            }
            daemon.answer(
                "Game.Answer",
                with: .reply(encoding: ShakyAPI.GameInterface.AnswerReply(correct: true, status: Fixtures.roundOver)))
            daemon.answer(
                "Game.Scoreboard",
                with: .reply(encoding: ShakyAPI.GameInterface.ScoreboardReply(standings: Fixtures.standings)))
            daemon.answer("Game.History", with: .reply(encoding: ShakyAPI.GameInterface.HistoryReply(games: [])))
            daemon.answer(
                "Game.Leaderboard", with: .reply(encoding: ShakyAPI.GameInterface.LeaderboardReply(entries: [])))
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            #expect(
                try await client.game.new(
                    ShakyAPI.GameInterface.NewParameters(
                        teams: ["Owls", "Foxes"], seed: 3, rules: ShakyAPI.Rules(answerTime: 15)))
                    == Fixtures.answering)
            _ = try await client.game.next()
            _ = try await client.game.skip()
            _ = try await client.game.pause()
            _ = try await client.game.resume()
            _ = try await client.game.end()
            _ = try await client.game.buzz(team: "Owls")
            #expect(try await client.game.answer(team: "Owls", answer: "tiger").correct)
            _ = try await client.game.hint()
            _ = try await client.game.adjustScore(team: "Foxes", delta: -3, reason: "rude")
            #expect(try await client.game.status() == Fixtures.answering)
            #expect(try await client.game.scoreboard() == Fixtures.standings)
            #expect(try await client.game.history(limit: 5) == [])
            #expect(try await client.game.leaderboard() == [])
            await client.close()
            #expect(
                daemon.calls == [
                    .init("Game.New", ["teams": ["Owls", "Foxes"], "seed": 3, "rules": ["answerTime": 15]]),
                    .init("Game.Next"), .init("Game.Skip"), .init("Game.Pause"), .init("Game.Resume"),
                    .init("Game.End"),
                    .init("Game.Buzz", ["team": "Owls"]), .init("Game.Answer", ["team": "Owls", "answer": "tiger"]),
                    .init("Game.Hint"), .init("Game.AdjustScore", ["team": "Foxes", "delta": -3, "reason": "rude"]),
                    .init("Game.Status"), .init("Game.Scoreboard"), .init("Game.History", ["limit": 5]),
                    .init("Game.Leaderboard"),
                ])
        }
    }

    @Test func everyPackMethodSendsItsParameters() async throws {
        try await FakeDaemon.run { daemon in
            let packReply = FakeDaemon.Answer.reply(
                encoding: ShakyAPI.PacksInterface.CreateReply(pack: Fixtures.animals))
            let questionReply = FakeDaemon.Answer.reply(
                encoding: ShakyAPI.PacksInterface.AddQuestionReply(question: Fixtures.tigerQuestion))
            daemon.answer(
                "Packs.List", with: .reply(encoding: ShakyAPI.PacksInterface.ListReply(packs: [Fixtures.animals])))
            daemon.answer(
                "Packs.Show",
                with: .reply(encoding: ShakyAPI.PacksInterface.ShowReply(pack: Fixtures.animals, questions: [])))
            for method in ["Create", "Rename", "Duplicate", "Import"] {
                daemon.answer("Packs.\(method)", with: packReply)
            }
            for method in ["AddQuestion", "EditQuestion"] { daemon.answer("Packs.\(method)", with: questionReply) }
            daemon.answer("Packs.Delete", with: .reply([:]))
            daemon.answer("Packs.DeleteQuestion", with: .reply([:]))
            daemon.answer(
                "Packs.Search",
                with: .reply(encoding: ShakyAPI.PacksInterface.SearchReply(questions: [Fixtures.tigerQuestion])))
            daemon.answer("Packs.Export", with: .reply(["data": "question,answer\n"]))
            daemon.answer(
                "Sensor.Status",
                with: .reply(
                    encoding: ShakyAPI.SensorInterface.StatusReply(
                        sensor: ShakyAPI.SensorStatus(state: .absent, shakes: 0, sensitivity: .medium))))
            let settings = ShakyAPI.Settings(sound: false, volume: 0.5, sensitivity: .light)
            daemon.answer(
                "Settings.Get", with: .reply(encoding: ShakyAPI.SettingsInterface.GetReply(settings: settings)))
            daemon.answer(
                "Settings.Set", with: .reply(encoding: ShakyAPI.SettingsInterface.GetReply(settings: settings)))

            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            let question = ShakyAPI.Question(text: "Q?", answer: "A", difficulty: .hard)
            #expect(try await client.packs.list() == [Fixtures.animals])
            _ = try await client.packs.show(name: "Animals")
            _ = try await client.packs.create(name: "Mine")
            _ = try await client.packs.rename(name: "Mine", newName: "Ours")
            try await client.packs.delete(name: "Ours")
            _ = try await client.packs.duplicate(name: "Animals", newName: "Zoo")
            #expect(
                try await client.packs.addQuestion(pack: "Zoo", question: question).question == Fixtures.tigerQuestion)
            _ = try await client.packs.editQuestion(id: 12, question: question)
            try await client.packs.deleteQuestion(id: 12)
            _ = try await client.packs.search(text: "cat", pack: "Zoo", limit: 2)
            _ = try await client.packs.import(data: "{}", format: .json, name: "New")
            #expect(try await client.packs.export(name: "Zoo", format: .csv) == "question,answer\n")
            #expect(try await client.sensor.status().state == .absent)
            #expect(try await client.settings.get() == settings)
            _ = try await client.settings.set(ShakyAPI.SettingsInterface.SetParameters(volume: 0.5))
            await client.close()
            let questionJSON: JSONValue = ["text": "Q?", "answer": "A", "difficulty": "hard"]
            #expect(
                daemon.calls == [
                    .init("Packs.List"), .init("Packs.Show", ["name": "Animals"]),
                    .init("Packs.Create", ["name": "Mine"]),
                    .init("Packs.Rename", ["name": "Mine", "newName": "Ours"]), .init("Packs.Delete", ["name": "Ours"]),
                    .init("Packs.Duplicate", ["name": "Animals", "newName": "Zoo"]),
                    .init("Packs.AddQuestion", ["pack": "Zoo", "question": questionJSON]),
                    .init("Packs.EditQuestion", ["id": 12, "question": questionJSON]),
                    .init("Packs.DeleteQuestion", ["id": 12]),
                    .init("Packs.Search", ["text": "cat", "pack": "Zoo", "limit": 2]),
                    .init("Packs.Import", ["data": "{}", "format": "json", "name": "New"]),
                    .init("Packs.Export", ["name": "Zoo", "format": "csv"]), .init("Sensor.Status"),
                    .init("Settings.Get"),
                    .init("Settings.Set", ["volume": 0.5]),
                ])
        }
    }

    @Test func watchStreamsEventsOnAConnectionOfItsOwn() async throws {
        try await FakeDaemon.run { daemon in
            let events = [
                Fixtures.event(.state) { $0.status = Fixtures.ready },
                Fixtures.event(.tick) { $0.remaining = 3 },
            ]
            daemon.answer("Game.Watch", with: .watch(events, end: false))
            daemon.answer(
                "Game.Status", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.ready)))
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            var received: [ShakyAPI.Event] = []
            for try await reply in try await client.game.watch() {
                received.append(reply.event)
                // A call made while the watch stays open is answered: the watch has its own connection.
                #expect(try await client.game.status() == Fixtures.ready)
                if received.count == events.count { break }
            }
            #expect(received == events)
            await client.close()
        }
    }

    @Test("A watch skips a newer daemon's events with a value it does not know, says so once per value, and goes on")
    func aWatchSkipsEventsItCannotKnow() async throws {
        try await FakeDaemon.run(checksReplies: false) { daemon in
            let state = Fixtures.event(.state) { $0.status = Fixtures.ready }
            let buzz = Fixtures.event(.buzz) {
                $0.team = "Owls"
                $0.order = 1
            }
            let tick = Fixtures.event(.tick) { $0.remaining = 3 }
            daemon.answer(
                "Game.Watch",
                with: .events(
                    [
                        FakeDaemon.Answer.watchReply(state),
                        ["event": ["kind": "confetti", "team": "Owls"]],
                        FakeDaemon.Answer.watchReply(buzz),
                        ["event": ["kind": "buzzer", "buzzer": ["kind": "batteryLow", "team": "Owls"]]],
                        ["event": ["kind": "confetti", "team": "Foxes"]],
                        FakeDaemon.Answer.watchReply(tick),
                    ], end: false))
            daemon.answer(
                "Buzzers.Watch",
                with: .events(
                    [
                        ["event": ["kind": "batteryLow", "team": "Owls"]],
                        ["event": ["kind": "cleared", "cleared": 2]],
                    ],
                    end: false))
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            let skipped = Mutex<[UnknownReplyValue]>([])
            client.reportSkippedReplies { unknown in skipped.withLock { $0.append(unknown) } }
            var received: [ShakyAPI.Event] = []
            for try await reply in try await client.game.watch() {
                received.append(reply.event)
                if received.count == 3 { break }
            }
            #expect(received == [state, buzz, tick])
            var buttons: [ShakyAPI.BuzzerEvent] = []
            for try await reply in try await client.buzzers.watch() {
                buttons.append(reply.event)
                break
            }
            #expect(buttons == [ShakyAPI.BuzzerEvent(kind: .cleared, cleared: 2)])
            // The second confetti event is skipped without a word: said once is enough.
            #expect(
                skipped.withLock { $0 } == [
                    UnknownReplyValue(method: "io.shakywords.Game.Watch", field: "event.kind", value: "confetti"),
                    UnknownReplyValue(
                        method: "io.shakywords.Game.Watch", field: "event.buzzer.kind", value: "batteryLow"),
                    UnknownReplyValue(method: "io.shakywords.Buzzers.Watch", field: "event.kind", value: "batteryLow"),
                ])
            await client.close()
        }
    }

    /// The events after the whole game change a game the client does not have.
    @Test("A watch whose whole game holds a value this client does not know ends, saying the daemon is newer")
    func aWatchEndsOnAWholeGameItCannotKnow() async throws {
        try await FakeDaemon.run(checksReplies: false) { daemon in
            var state = FakeDaemon.Answer.watchReply(Fixtures.event(.state) { $0.status = Fixtures.ready })
            guard case .object(var event) = state["event"], case .object(var status) = event["status"] else {
                Issue.record("the state event has no status")
                return
            }
            status["phase"] = "intermission"
            event["status"] = .object(status)
            state["event"] = .object(event)
            let buzz = Fixtures.event(.buzz) {
                $0.team = "Owls"
                $0.order = 1
            }
            daemon.answer("Game.Watch", with: .events([state, FakeDaemon.Answer.watchReply(buzz)], end: false))
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            let skipped = Mutex<[UnknownReplyValue]>([])
            client.reportSkippedReplies { unknown in skipped.withLock { $0.append(unknown) } }
            var received: [ShakyAPI.Event] = []
            let error = await #expect(throws: ShakyClientError.self) {
                for try await reply in try await client.game.watch() { received.append(reply.event) }
            }
            #expect(
                error
                    == .newerDaemon(
                        UnknownReplyValue(
                            method: "io.shakywords.Game.Watch", field: "event.status.phase", value: "intermission")))
            #expect(received.isEmpty, "the buzz after it is not handed on")
            #expect(skipped.withLock { $0 }.isEmpty, "not skipped: the stream ended")
            await client.close()
        }
    }

    @Test func aWatchTheDaemonRefusesThrowsItsMessage() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer("Game.Watch", with: .error("NoGame", [:]))
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            let events = try await client.game.watch()
            let error = await #expect(throws: ShakyClientError.self) {
                for try await _ in events {}
            }
            #expect(error?.refusalName == "NoGame")
            #expect(error?.description.hasPrefix("there is no game") == true)
            await client.close()
        }
    }

    @Test func stoppingAWatchEarlyIsNoError() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer("Game.Watch", with: .watch([Fixtures.event(.resumed), Fixtures.event(.paused)], end: false))
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            for _ in 0..<20 {
                let watcher = Task {
                    var count = 0
                    for try await _ in try await client.game.watch() { count += 1 }
                    return count
                }
                watcher.cancel()
                let count = try await watcher.value
                #expect(count <= 2)
            }
            await client.close()
        }
    }

    @Test("An import refused for several bad questions lists each on a line of its own, and counts the unlisted")
    func everyBadQuestionOfAnImportIsListed() {
        let problem = { (line: Int, field: String?, words: String) -> JSONValue in
            var object: VarlinkObject = ["line": .int(line), "problem": .string(words)]
            if let field { object["field"] = .string(field) }
            return .object(object)
        }
        let parameters: VarlinkObject = [
            "line": 2, "field": "answer", "problem": "the answer is empty",
            "problems": .array([
                problem(2, "answer", "the answer is empty"),
                problem(5, nil, "expected 3 fields like the header, found 4"),
            ]),
            "unlisted": 7,
        ]
        #expect(
            ShakyClientError.message(forError: "io.shakywords.Packs.ImportFailed", parameters: parameters) == """
                nothing imported: 9 questions are bad:
                  line 2, field answer: the answer is empty
                  line 5: expected 3 fields like the header, found 4
                  and 7 more (correct these and import again to see them)
                """)
        // A daemon that sends no list: its one problem, as before.
        var one = parameters
        one["problems"] = nil
        one["unlisted"] = nil
        #expect(
            ShakyClientError.message(forError: "io.shakywords.Packs.ImportFailed", parameters: one)
                == "nothing imported: line 2, field answer: the answer is empty")
    }

    @Test func aKeyTheDeviceLacksSaysWhereToFindItsKeys() {
        let message = ShakyClientError.message(
            forError: "io.shakywords.Buzzers.UnknownKey", parameters: ["key": .string("KEY_NOPE")])
        #expect(message.contains("KEY_NOPE"), "\(message)")
        #expect(message.contains("shakyd list-devices"), "where its keys are listed: \(message)")
        #expect(message.contains("shaky buzzers join"), "or let the team press it: \(message)")
    }

    @Test func refusalsCarryTheDaemonsMessageAndReason() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Game.Buzz", with: .error("Refused", ["reason": "alreadyBuzzed", "message": "Owls already buzzed"]))
            daemon.answer("Packs.Show", with: .error("PackNotFound", ["name": "Animals"]))
            daemon.answer("Game.Next", with: .error("NoGame", [:]))
            daemon.answer(
                "Packs.Import", with: .error("ImportFailed", ["line": 3, "field": "answer", "problem": "empty"]))
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            await #expect(
                throws: ShakyClientError.refused(
                    name: "io.shakywords.Game.Refused", message: "Owls already buzzed", reason: "alreadyBuzzed")
            ) {
                try await client.game.buzz(team: "Owls")
            }
            await #expect(
                throws: ShakyClientError.refused(
                    name: "io.shakywords.Packs.PackNotFound", message: "no such pack: “Animals”")
            ) {
                try await client.packs.show(name: "Animals")
            }
            await #expect(throws: ShakyClientError.self) { try await client.game.next() }
            let importError = await #expect(throws: ShakyClientError.self) {
                try await client.packs.import(data: "x", format: .csv)
            }
            #expect(importError?.description == "nothing imported: line 3, field answer: empty")
            #expect(importError?.refusalName == "ImportFailed")
            // Nothing scripted: the daemon does not implement it.
            await #expect(
                throws: ShakyClientError.refused(
                    name: "org.varlink.service.MethodNotImplemented",
                    message: "the daemon does not implement io.shakywords.Game.Hint; is it an older version?")
            ) {
                try await client.game.hint()
            }
            await client.close()
        }
    }

    @Test func unknownErrorsAreSpelledOut() {
        #expect(
            ShakyClientError.message(forError: "io.shakywords.Game.Strange", parameters: ["count": 2, "who": "Owls"])
                == "Strange (count: 2, who: “Owls”)")
        #expect(ShakyClientError.message(forError: "io.shakywords.Game.Odd", parameters: [:]) == "Odd")
        #expect(
            ShakyClientError.message(
                forError: "io.shakywords.Settings.InvalidSetting",
                parameters: ["name": "volume", "message": "volume must be 0 to 1"])
                == "volume must be 0 to 1")
    }

    @Test("A call's reply with a value this client does not know: absent when optional, else the daemon is newer")
    func aReplyFromANewerDaemon() async throws {
        try await FakeDaemon.run(checksReplies: false) { daemon in
            guard case .object(var state) = try JSONValue(encoding: Fixtures.roundOver) else { return }
            state["roundEnd"] = "abandoned"
            daemon.answer("Game.Status", with: .reply(["status": .object(state)]))
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            #expect(try await client.game.status() == Fixtures.roundOver)
            state["phase"] = "intermission"
            daemon.answer("Game.Status", with: .reply(["status": .object(state)]))
            await #expect(
                throws: ShakyClientError.newerDaemon(
                    UnknownReplyValue(method: "io.shakywords.Game.Status", field: "status.phase", value: "intermission")
                )
            ) {
                try await client.game.status()
            }
            await client.close()
        }
    }

    @Test func aReplyThatBreaksTheInterfaceIsAProtocolError() async throws {
        try await FakeDaemon.run(checksReplies: false) { daemon in
            daemon.answer("Game.Status", with: .reply(["status": "fine"]))
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            await #expect {
                try await client.game.status()
            } throws: { error in
                guard case .protocolError(let problem) = error as? ShakyClientError else { return false }
                return problem.contains("io.shakywords.Game.Status")
            }
            await client.close()
        }
    }

    @Test func connectTriesSocketsInOrder() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Game.Status", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.ready)))
            let missing = "/tmp/shaky-cli-none-\(UUID().uuidString.prefix(8))/shaky.sock"
            let client = try await ShakyClient.connect(trying: [missing, daemon.socketPath])
            #expect(client.socketPath == daemon.socketPath)
            #expect(try await client.game.status() == Fixtures.ready)
            await client.close()
        }
    }

    @Test func shakySocketNamesTheOnlySocketTried() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Game.Status", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.ready)))
            let defaults = DefaultPaths(environment: ["SHAKY_SOCKET": daemon.socketPath], isRoot: false)
            let client = try await ShakyClient.connect(socketPath: nil, defaults: defaults)
            #expect(client.socketPath == daemon.socketPath)
            await client.close()
        }
    }

    @Test func anUnreachableDaemonIsNamedWithEveryPathTried() async throws {
        let runtime = "/tmp/shaky-cli-none-\(UUID().uuidString.prefix(8))"
        let defaults = DefaultPaths(environment: ["XDG_RUNTIME_DIR": runtime], isRoot: false)
        let error = await #expect(throws: ShakyClientError.self) {
            try await ShakyClient.connect(socketPath: nil, defaults: defaults)
        }
        let paths = [runtime + "/shaky/shaky.sock", DefaultPaths.systemSocket]
        #expect(error == .daemonUnreachable(paths: paths, reason: "no socket there"))
        let message = error?.description ?? ""
        #expect(message.contains(runtime + "/shaky/shaky.sock or /run/shaky/shaky.sock (no socket there)"))
        #expect(message.contains("`shakyd`"))
        #expect(message.contains("systemctl start shakyd.socket"))
    }

    @Test func aSocketThatRefusesTheUserDoesNotSayToStartTheDaemon() {
        let error = ShakyClientError.daemonUnreachable(
            paths: ["/run/shaky/shaky.sock"], reason: "permission denied; join group shaky or use sudo")
        #expect(error.description.contains("(permission denied; join group shaky or use sudo)"), "\(error)")
        #expect(!error.description.contains("Start it"), "the daemon runs: \(error)")
    }

    @Test func aSocketPathTooLongIsSaidInWords() async throws {
        let path = "/tmp/" + String(repeating: "d", count: 120) + "/shaky.sock"
        await #expect(
            throws: ShakyClientError.daemonUnreachable(
                paths: [path], reason: "the path is longer than the 107 bytes a socket's path can have")
        ) {
            try await ShakyClient.connect(socketPath: path)
        }
    }

    /// A Unix stream socket bound at `path`, not listening.
    static func boundSocket(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            path.utf8CString.withUnsafeBytes { buffer.copyMemory(from: $0) }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0, "bind \(path)")
        return descriptor
    }

    @Test func aSocketNobodyListensOnIsUnreachable() async throws {
        let path = "/tmp/shaky-cli-stale-\(UUID().uuidString.prefix(8)).sock"
        // A stale socket file: bound once, never listened on.
        let descriptor = try Self.boundSocket(at: path)
        defer {
            close(descriptor)
            unlink(path)
        }
        await #expect(
            throws: ShakyClientError.daemonUnreachable(paths: [path], reason: "nothing listens on the socket")
        ) {
            try await ShakyClient.connect(socketPath: path)
        }
    }

    @Test("A daemon whose queue of new connections stays full is tried again, then said to be flooded")
    func aFullConnectionQueueIsSaidInWords() async throws {
        let path = "/tmp/shaky-cli-busy-\(UUID().uuidString.prefix(8)).sock"
        // A listening socket that never accepts, its queue filled by connects that do not wait.
        let descriptor = try Self.boundSocket(at: path)
        #expect(listen(descriptor, 1) == 0)
        defer {
            close(descriptor)
            unlink(path)
        }
        var waiting: [RawSocket] = []
        while waiting.count < 64, let connected = try? RawSocket(path: path, withoutWaiting: true) {
            waiting.append(connected)
        }
        #expect(waiting.count < 64, "the queue filled")

        let pauses = Mutex<[Duration]>([])
        let error = await #expect(throws: ShakyClientError.self) {
            try await ShakyClient.connect(trying: [path]) { wait in pauses.withLock { $0.append(wait) } }
        }
        #expect(pauses.withLock { $0 } == ShakyClient.queueFullWaits, "tried again after each wait")
        let message = error?.description ?? ""
        #expect(message.contains("queue of new connections stayed full"), "\(message)")
        #expect(!message.contains("Start it"), "the daemon runs: \(message)")

        // Room made while the client waits (the daemon accepted one): the next try gets in.
        let room = Mutex(false)
        let client = try await ShakyClient.connect(trying: [path]) { _ in
            guard !room.withLock({ $0 }) else { return }
            room.withLock { $0 = true }
            close(accept(descriptor, nil, nil))
        }
        #expect(client.socketPath == path)
        #expect(room.withLock { $0 }, "it had to wait once")
        await client.close()
    }
}
