import Foundation
import ShakyBoard
import ShakyCore
import ShakyProtocol
import Synchronization

/// The host's session of `shaky play`: one task prints the game's events, another runs the commands
/// read line by line.
///
/// Mistakes (an unknown command, a move the game refuses) are printed and the session goes on; ``run(commands:)``
/// returns the lines they were on. When the daemon restarts, the events say that it was lost and is back (the
/// feed reconnects with backoff). A command that cannot reach the daemon is one more mistake at a terminal, where
/// the host sees when it is back; elsewhere (a script, a pipe) it ends the session with the error.
struct PlaySession: Sendable {
    let client: ShakyClient
    let console: any Console
    /// Print events as JSON lines instead of text.
    var json = false
    /// How long the events must be quiet before leaving, so the last command's events are shown.
    var settleTime: Duration = .milliseconds(250)
    /// The terminal layout, when the host types at a terminal: a prompt line that events never erase.
    var screen: PlayScreen?
    /// The line the host types, when read key by key on the prompt row (at a terminal): drawn there at every layout.
    var prompt: PromptLineInput?
    /// The layout since the host last resized the terminal (`SIGWINCH`), which replaces ``screen``.
    private let resized = ResizedScreen()
    /// What the terminal shows, to draw it again after a resize.
    private let shown = ShownScreen()
    /// The waits between tries to follow the game again after the daemon went away.
    var backoff = ReconnectBackoff()
    /// Waits between those tries; throws when the wait is cancelled.
    var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

    /// Runs `commands` until `q` or their end, while printing events; returns the numbers (from 1) of the lines whose
    /// command failed.
    @discardableResult
    func run(commands: some AsyncSequence<String, Never> & Sendable) async throws -> [Int] {
        let status = try await client.game.status()
        if let screen = currentScreen { layOut(screen, again: false) }
        // Ctrl-L lays the whole screen out again, as a resize does.
        prompt?.onRedraw { [self] in if let screen = currentScreen { layOut(screen, again: true) } }
        let resizes = screen == nil ? nil : followResizes()
        defer {
            resizes?.cancel()
            if prompt?.giveBack() ?? true, let screen = currentScreen { console.write(screen.tearDown) }
        }
        // At a terminal, a joining already under way (`shaky buzzers join` elsewhere): who is asked is said below.
        let asked = screen == nil ? nil : try? await client.buzzers.list().joining.first
        say(PlayCommand.summary)
        say("Teams: " + Self.numberedTeams(status))
        if let asked {
            say("\(asked): press your button")
            showCountdown("\(asked): press your button")
        }
        let activity = Activity()
        // The daemon need not wake each second for this session: its countdown runs here.
        let feed = LiveFeed(client: client, backoff: backoff, sleep: sleep, countsDown: true)
        let watcher = Task {
            do {
                try await show(feed, activity: activity, teams: status.teams.map(\.name))
            } catch {
                // The commands go on, but the game is no longer shown: the host hears why now, not when play ends
                // (which exits with the error, status 1).
                if !(error is CancellationError) { sayError("! the game is no longer shown: \(error)") }
                throw error
            }
        }
        // The daemon sends the state first: once it is here, every later event reaches this session.
        await activity.waitForFirstEvent(atMost: .seconds(5))
        var failure: (any Error)?
        var confirmingEnd = false
        var lineNumber = 0
        var failedLines: [Int] = []
        commandLoop: for await line in commands {
            lineNumber += 1
            if let screen = currentScreen {
                // The prompt line's own editor has already emptied it, and may hold what is typed since.
                if prompt == nil { console.write(screen.freshPrompt) }
                // Shown as it reads, not as a key's escape sequence in it would move the cursor.
                if !line.trimmingSpaces.isEmpty { say(PlayScreen.prompt + TerminalText.printable(line)) }
            }
            do {
                if confirmingEnd {
                    confirmingEnd = false
                    guard ["y", "yes"].contains(line.trimmingSpaces.lowercased()) else {
                        say("The game goes on.")
                        continue
                    }
                    _ = try await client.game.end()
                    continue
                }
                // A score change is read with the game's team names: their numbers ("Top 10") are not the points.
                let changesAScore = ["+", "-"].contains(line.trimmingSpaces.first.map(String.init))
                let teams = changesAScore ? (try? await client.game.status().teams.map(\.name)) ?? [] : []
                let command = try PlayCommand.parse(line, teams: teams)
                guard command != .quit else { break commandLoop }
                if command == .end {
                    confirmingEnd = true
                    say("End the game now, for good? Type y to end it, anything else to go on.")
                    continue
                }
                try await perform(command)
            } catch let error as PlayCommandError {
                sayError("! \(error)")
                failedLines.append(lineNumber)
            } catch let error as ShakyClientError {
                switch error {
                case .refused:
                    sayError("! \(error)")
                    failedLines.append(lineNumber)
                case .daemonUnreachable where screen != nil, .connectionLost where screen != nil:
                    // At a terminal the host waits for the daemon to come back (the events say when) and types again.
                    sayError("! " + Self.whileAway(error))
                    failedLines.append(lineNumber)
                default:
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
        return failedLines
    }

    /// What a command typed while the daemon is away (restarting, or stopping with the calls it runs) did: play
    /// reconnects by itself, so the host is told to wait for it rather than to start a daemon.
    static func whileAway(_ error: ShakyClientError) -> String {
        let wait = "play reconnects by itself and says \"Reconnected\""
        switch error {
        case .connectionLost(let path):
            return "the daemon at \(path) closed the connection before it replied, so the command may or may not "
                + "have been done; \(wait), then check with st before typing it again"
        case .daemonUnreachable(let paths, let reason):
            return "not done: cannot reach the Shaky Words daemon at \(paths.spokenList("or")) (\(reason)); "
                + "\(wait), then type the command again"
        case .refused, .protocolError, .newerDaemon:
            return error.description
        }
    }

    /// The layout as it is now: the initial one until the terminal is resized.
    private var currentScreen: PlayScreen? { screen.map { resized.value ?? $0 } }

    /// Lays the screen out again when the host resizes the terminal: the terminal forgets the scrolling region, and
    /// the countdown and the prompt belong on its new last lines.
    private func followResizes() -> any DispatchSourceSignal {
        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        source.setEventHandler { [self] in
            guard let layout = PlayScreen.current() else { return }
            resized.set(layout)
            layOut(layout, again: true)
        }
        source.resume()
        return source
    }

    /// Sets the screen out as `screen`, with the line the host is typing, if any, on its prompt row; `again`, the
    /// whole screen is drawn anew with what it showed.
    private func layOut(_ screen: PlayScreen, again: Bool) {
        // At the start, two lines of room first: the countdown's line and the prompt go on the last two rows,
        // which may hold the shell's last lines.
        let layout = again ? shown.redrawn(on: screen) : "\n\n" + screen.setUp
        if let prompt { prompt.layOut(screen, drawing: layout) } else { console.write(layout) }
    }

    /// Shows `text` as the latest event at the terminal, and keeps it to draw the screen again.
    private func showEvent(_ text: String, on screen: PlayScreen) {
        shown.addEvent(text)
        console.write(screen.event(text))
    }

    /// Shows `line` on the countdown's line at a terminal, and keeps it to draw the screen again.
    private func showCountdown(_ line: String) {
        guard let screen = currentScreen else { return }
        shown.setCountdown(line)
        console.write(screen.countdown(line))
    }

    /// The team's name, when `team` is its number in the game.
    private func teamName(_ team: String) async throws -> String {
        guard Int(team) != nil else { return team }
        return try Self.team(typed: team, in: await client.game.status().teams)
    }

    /// The team `typed` names among `teams`: a team whose name it is (a team may be called "2"), else the team it
    /// numbers; the name as typed when it is no number.
    static func team(typed: String, in teams: [ShakyAPI.TeamScore]) throws -> String {
        if let named = teams.first(where: { $0.name.lowercased() == typed.lowercased() }) { return named.name }
        guard let number = Int(typed) else { return typed }
        return try team(numbered: number, in: teams).name
    }

    /// Runs `call` for `team`; a refusal because no team is called so names the game's teams and the one meant
    /// (`zoe` for "Zoë"), as `shaky buzz` does.
    private func namingTheTeams(_ team: String, _ call: () async throws -> Void) async throws {
        do {
            try await call()
        } catch {
            // A refusal for a line, which play reports and goes on from, as it does the daemon's own.
            let named = await Shaky.namingTheTeams(error, team: team, client: client)
            guard let failure = named as? CommandFailure else { throw named }
            throw PlayCommandError(failure.description)
        }
    }

    /// The team numbered `number` (from 1, as ``numberedTeams(_:)`` shows them) among `teams`.
    static func team(numbered number: Int, in teams: [ShakyAPI.TeamScore]) throws -> ShakyAPI.TeamScore {
        guard number >= 1, number <= teams.count else {
            throw PlayCommandError("there is no team \(number); the teams are 1 to \(teams.count)")
        }
        return teams[number - 1]
    }

    /// Prints `text` above the prompt (on a terminal) or as a line; with `--json`, whose standard output is one JSON
    /// object a line, on standard error.
    private func say(_ text: String) {
        if let screen = currentScreen {
            showEvent(text, on: screen)
        } else if json {
            console.printError(text)
        } else {
            console.print(text)
        }
    }

    /// Shows what `t` or `st` asked for: `reply` as a JSON line with `--json` (not at a terminal), else `text` said.
    private func report(_ reply: some Encodable, text: () -> String) throws {
        if json, currentScreen == nil { console.print(try JSONOutput.renderLine(reply)) } else { say(text()) }
    }

    /// Prints `text` above the prompt (on a terminal) or on standard error.
    private func sayError(_ text: String) {
        if let screen = currentScreen { showEvent(text, on: screen) } else { console.printError(text) }
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
        case .buzz(let team):
            try await namingTheTeams(team) { _ = try await client.game.buzz(team: team) }
        case .buzzNumber(let number):
            let team = try Self.team(typed: String(number), in: await client.game.status().teams)
            _ = try await client.game.buzz(team: team)
        case .answer(let answer):
            let status = try await client.game.status()
            guard let team = status.teamUp else {
                throw PlayCommandError(
                    status.phase == .indication
                        // The game's buzzer mode is not in its status: words true in both.
                        ? "nobody is up to answer yet: a team buzzes first (b TEAM); in a buzz-order game teams "
                            + "answer once every team has buzzed or the time is up"
                        : "nobody is up to answer; open a question (n) and a team buzzes first (b TEAM)")
            }
            _ = try await client.game.answer(team: team, answer: answer)
        case .adjust(let team, let delta, let reason):
            let name = try await teamName(team)
            try await namingTheTeams(name) {
                _ = try await client.game.adjustScore(team: name, delta: delta, reason: reason)
            }
        case .overrule:
            _ = try await client.game.overrule()
        case .undoBuzz(let team):
            let name = try await teamName(team)
            try await namingTheTeams(name) { _ = try await client.game.undoBuzz(team: name) }
        case .togglePause:
            if try await client.game.status().paused {
                _ = try await client.game.resume()
            } else {
                _ = try await client.game.pause()
            }
        case .join:
            // The daemon asks each team in turn; its `joinAsking` events say who, as they come.
            _ = try await client.buzzers.join(teams: nil)
        case .scoreboard:
            let standings = try await client.game.scoreboard()
            try report(ShakyAPI.GameInterface.ScoreboardReply(standings: standings)) {
                TextRenderer.scoreboard(standings, width: console.width)
            }
        case .status:
            let status = try await client.game.status()
            try report(ShakyAPI.GameInterface.StatusReply(status: status)) {
                TextRenderer.status(status, style: console.style, width: console.width)
            }
        case .wait(let seconds): try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        case .help: say(PlayCommand.summary)
        case .quit, .nothing: break
        }
    }

    /// Prints each event; ticks redraw one line on a terminal, elsewhere only every 10 s and the last 5 s. A daemon
    /// that goes away and comes back is said in the events (and, on a terminal, on the countdown's line meanwhile),
    /// and so, once per value, are the events of a newer daemon that this client skips.
    /// Shows the daemon's events as they come; `teams` are the teams whose numbers were said at the start.
    private func show(_ feed: LiveFeed, activity: Activity, teams: [String]) async throws {
        var renderer = Self.renderer(style: console.style)
        var tickShown = false
        var numberedTeams = teams
        feed.client.reportSkippedReplies { [self] unknown in sayError("! " + LiveFeed.skippedMessage(unknown)) }
        try await feed.run { update in
            let reply: ShakyAPI.GameInterface.WatchReply
            switch update {
            case .reply(let next):
                reply = next
            case .lost:
                if tickShown {
                    console.write("\r\u{1B}[2K")
                    tickShown = false
                }
                sayError("! " + feed.lostMessage)
                showCountdown(feed.lostMessage)
                return
            case .back:
                say(feed.backMessage)
                showCountdown("")
                return
            }
            let event = reply.event
            if event.kind != .tick { activity.touch() }
            if json {
                console.print(try JSONOutput.renderLine(reply))
                return
            }
            // A round that closed or a game that ended counts nothing down: the last tick's line would stay, stale.
            if Self.endsCountdown(event) { showCountdown("") }
            guard let line = renderer.line(for: event) else { return }
            // A new game started elsewhere: its teams' numbers, which `b 2` and `+ 2 5` go by, are said again, after
            // the game's line.
            var teamsLine: String?
            if event.kind == .state, let status = event.status, status.teams.map(\.name) != numberedTeams {
                numberedTeams = status.teams.map(\.name)
                teamsLine = "Teams: " + Self.numberedTeams(status)
            }
            defer { if let teamsLine { say(teamsLine) } }
            if let screen = currentScreen {
                if event.kind == .tick { showCountdown(line) } else { showEvent(line, on: screen) }
                // A hint changes the letters and points the countdown's line shows: at once, not at the next tick.
                if event.kind == .hint, let countdown = renderer.countdownLineNow { showCountdown(countdown) }
                // Press to join: the team asked stays on the line above the prompt until it has pressed.
                switch event.buzzer?.kind {
                case .joinAsking: showCountdown(line)
                case .joined, .cleared, .joinEnded: showCountdown("")
                default: break
                }
                // No tick comes while paused: the countdown's line says so, not the phase it had before.
                // Nor does one come to a session that starts, or follows the game again, while it is paused.
                if event.kind == .paused || (event.kind == .state && event.status?.paused == true) {
                    showCountdown(renderer.pausedCountdownLine)
                }
                return
            }
            if event.kind == .tick {
                if console.isTerminal {
                    console.write("\r\u{1B}[2K" + line)
                    tickShown = true
                } else if let remaining = event.remaining, Self.showsTick(remaining: remaining) {
                    console.print(line)
                }
                return
            }
            if tickShown {
                console.write("\r\u{1B}[2K")
                tickShown = false
            }
            if event.kind == .roundStarted { console.print() }
            console.print(line)
        }
    }

    /// The events' words in play: how to resume and to join are play's own commands, p and j.
    static func renderer(style: TextStyle) -> WatchRenderer {
        WatchRenderer(style: style, resumeHint: "type p to resume", joinHint: "type j for the teams to join")
    }

    /// Whether `event` leaves the game with no countdown running: a round over, the game over or ready.
    static func endsCountdown(_ event: ShakyAPI.Event) -> Bool {
        switch event.kind {
        case .gameOver: true
        case .phaseChanged: ["roundOver", "gameOver", "ready"].contains(event.phase)
        default: false
        }
    }

    /// Whether a tick with `remaining` seconds is printed when lines cannot be redrawn.
    static func showsTick(remaining: Double) -> Bool {
        let seconds = TextRenderer.wholeSecondsUp(remaining)
        return seconds <= 5 || seconds % 10 == 0
    }
}

/// The terminal's layout after a resize, shared by the session's tasks and its `SIGWINCH` handler.
final class ResizedScreen: Sendable {
    private let layout = Mutex<PlayScreen?>(nil)

    /// The layout since the last resize, if any.
    var value: PlayScreen? { layout.withLock { $0 } }

    func set(_ screen: PlayScreen) { layout.withLock { $0 = screen } }
}

/// The latest events and the countdown's line shown at a terminal, which a resize, `fg` or Ctrl-L draws again: the
/// terminal keeps no scrolling region and wraps old rows anew, and no tick comes while the game is paused.
final class ShownScreen: Sendable {
    private struct Shown {
        var events: [String] = []
        var countdown = ""
    }

    private let shown = Mutex(Shown())

    /// The events kept: more than the tallest screen shows.
    static let eventsKept = 200

    func addEvent(_ text: String) {
        shown.withLock {
            $0.events.append(text)
            if $0.events.count > Self.eventsKept { $0.events.removeFirst($0.events.count - Self.eventsKept) }
        }
    }

    func setCountdown(_ line: String) { shown.withLock { $0.countdown = line } }

    /// `screen` drawn anew with what it showed.
    func redrawn(on screen: PlayScreen) -> String {
        shown.withLock { screen.redrawn(events: $0.events, countdown: $0.countdown) }
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
