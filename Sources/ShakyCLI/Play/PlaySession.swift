import Foundation
import ShakyProtocol
import Synchronization

/// The host's session of `shaky play`: one task prints the game's events, another runs the commands
/// read line by line.
///
/// Mistakes (an unknown command, a move the game refuses) are printed and the session goes on; only
/// losing the daemon ends it with an error.
struct PlaySession: Sendable {
    let client: ShakyClient
    let console: any Console
    /// Print events as JSON lines instead of text.
    var json = false
    /// How long the events must be quiet before leaving, so the last command's events are shown.
    var settleTime: Duration = .milliseconds(250)

    /// Runs `commands` until `q` or their end, while printing events.
    func run(commands: some AsyncSequence<String, Never> & Sendable) async throws {
        let status = try await client.game.status()
        console.print(PlayCommand.summary)
        console.print("Teams: " + Self.numberedTeams(status))
        let activity = Activity()
        let events = try await client.game.watch()
        let watcher = Task { try await show(events, activity: activity) }
        // The daemon sends the state first: once it is here, every later event reaches this session.
        await activity.waitForFirstEvent(atMost: .seconds(5))
        var failure: (any Error)?
        commandLoop: for await line in commands {
            do {
                let command = try PlayCommand.parse(line)
                guard command != .quit else { break commandLoop }
                try await perform(command)
            } catch let error as PlayCommandError {
                console.printError("! \(error)")
            } catch let error as ShakyClientError {
                if case .refused = error {
                    console.printError("! \(error)")
                } else {
                    failure = error
                    break commandLoop
                }
            } catch {
                failure = error
                break commandLoop
            }
        }
        if failure == nil { await activity.waitUntilQuiet(for: settleTime, atMost: .seconds(2)) }
        watcher.cancel()
        let watchResult = await watcher.result
        if let failure { throw failure }
        if case .failure(let error) = watchResult, !(error is CancellationError) { throw error }
    }

    /// `1 Owls · 2 Foxes`.
    static func numberedTeams(_ status: ShakyAPI.State) -> String {
        status.teams.enumerated().map { "\($0.offset + 1) \($0.element.name)" }.joined(separator: " · ")
    }

    private func perform(_ command: PlayCommand) async throws {
        switch command {
        case .next: _ = try await client.game.next()
        case .hint: _ = try await client.game.hint()
        case .skip: _ = try await client.game.skip()
        case .end: _ = try await client.game.end()
        case .buzz(let team): _ = try await client.game.buzz(team: team)
        case .buzzNumber(let number):
            let teams = try await client.game.status().teams
            guard teams.indices.contains(number - 1) else {
                throw PlayCommandError("there is no team \(number); the teams are 1 to \(teams.count)")
            }
            _ = try await client.game.buzz(team: teams[number - 1].name)
        case .answer(let answer):
            guard let team = try await client.game.status().teamUp else {
                throw PlayCommandError("nobody is up to answer; a team buzzes first (b TEAM)")
            }
            _ = try await client.game.answer(team: team, answer: answer)
        case .togglePause:
            if try await client.game.status().paused {
                _ = try await client.game.resume()
            } else {
                _ = try await client.game.pause()
            }
        case .scoreboard: console.print(TextRenderer.scoreboard(try await client.game.scoreboard()))
        case .status: console.print(TextRenderer.status(try await client.game.status(), style: console.style))
        case .wait(let seconds): try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        case .help: console.print(PlayCommand.summary)
        case .quit, .nothing: break
        }
    }

    /// Prints each event; ticks redraw one line on a terminal, elsewhere only every 10 s and the last 5 s.
    private func show(
        _ replies: AsyncThrowingStream<ShakyAPI.GameInterface.WatchReply, any Error>, activity: Activity
    ) async throws {
        var renderer = WatchRenderer(style: console.style)
        var tickShown = false
        for try await reply in replies {
            let event = reply.event
            if event.kind != .tick { activity.touch() }
            if json {
                console.print(try JSONOutput.renderLine(reply))
                continue
            }
            guard let line = renderer.line(for: event) else { continue }
            if event.kind == .tick {
                if console.isTerminal {
                    console.write("\r\u{1B}[2K" + line)
                    tickShown = true
                } else if let remaining = event.remaining, Self.showsTick(remaining: remaining) {
                    console.print(line)
                }
                continue
            }
            if tickShown {
                console.write("\r\u{1B}[2K")
                tickShown = false
            }
            if event.kind == .roundStarted { console.print() }
            console.print(line)
        }
    }

    /// Whether a tick with `remaining` seconds is printed when lines cannot be redrawn.
    static func showsTick(remaining: Double) -> Bool {
        let seconds = TextRenderer.wholeSecondsUp(remaining)
        return seconds <= 5 || seconds % 10 == 0
    }
}

/// When the last event came, to leave only once the game's events are shown.
final class Activity: Sendable {
    private let last = Mutex(ContinuousClock.now)
    private let seenAny = Mutex(false)

    func touch() {
        last.withLock { $0 = .now }
        seenAny.withLock { $0 = true }
    }

    /// Waits until the first event came, or `limit` passed.
    func waitForFirstEvent(atMost limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while !seenAny.withLock({ $0 }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits until no event came for `quiet`, or `limit` passed.
    func waitUntilQuiet(for quiet: Duration, atMost limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let idle = ContinuousClock.now - last.withLock { $0 }
            if idle >= quiet { return }
            try? await Task.sleep(for: min(quiet - idle, .milliseconds(50)))
        }
    }
}
