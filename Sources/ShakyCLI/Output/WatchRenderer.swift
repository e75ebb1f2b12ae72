import ShakyProtocol

/// Turns `Watch` events into lines for people, one per event; remembers the tiles and points so that
/// every countdown tick can show them: `[00:17] buzzers open  [T] G I R E  (8 points)`.
struct WatchRenderer: Sendable {
    var style: TextStyle
    private(set) var tiles: [ShakyAPI.Tile]?
    private(set) var points: Int?
    private(set) var phase: String?
    private(set) var teams: [String] = []
    /// The time left as the last countdown tick said it, for a pause, whose event carries none.
    private(set) var remaining: Double?
    /// What each team's buzz froze on the question in play: the question's worth when it buzzed.
    private var buzzPoints: [String: Int] = [:]
    /// While a team answers, what its buzz froze, shown instead of the question's worth: the daemon's status says
    /// the same after a restart, so the line does not change its number when play reconnects.
    private var teamUpPoints: Int?

    /// How the host goes on with a paused game, said when a watcher connects to one (a restarted daemon restores
    /// the game paused).
    var resumeHint = "the host resumes with shaky resume (or p in shaky play)"
    /// How the host lets teams press to join, said of a press on a button no team has.
    var joinHint = "shaky buzzers join"

    init(style: TextStyle = .plain, resumeHint: String? = nil, joinHint: String? = nil) {
        self.style = style
        if let resumeHint { self.resumeHint = resumeHint }
        if let joinHint { self.joinHint = joinHint }
    }

    /// The line for `event`, or `nil` for an event with nothing to show.
    mutating func line(for event: ShakyAPI.Event) -> String? {
        switch event.kind {
        case .state:
            guard let status = event.status else { return nil }
            remember(status)
            return stateLine(status)
        case .roundStarted:
            tiles = event.tiles ?? tiles
            points = event.points ?? points
            phase = "indication"
            remaining = event.remaining
            buzzPoints = [:]
            teamUpPoints = nil
            let number = event.number.map { "Question \($0)" + (event.total.map { "/\($0)" } ?? "") } ?? "Question"
            return "\(number): \(event.question ?? "")" + tilesAndPoints
        case .hint:
            tiles = event.tiles ?? tiles
            points = event.points ?? points
            var source = event.source ?? ""
            // A motion controller's shake says whose (or which) controller it was; the board's needs no words.
            if let shaker = event.shaker, shaker.kind == .controller {
                source += ", " + (shaker.team.map { "controller of \($0)" } ?? shaker.name)
            }
            return "Hint\(source.isEmpty ? "" : " (\(source))"):" + tilesAndPoints
        case .buzz:
            if let team = event.team, let points { buzzPoints[team] = points }
            let order = event.order.map { "#\($0)" } ?? ""
            let time = event.elapsed.map { " after \(TextRenderer.seconds($0))" } ?? ""
            return "Buzz: \(event.team ?? "?") \(order)\(time)"
        case .teamUp:
            remaining = event.remaining ?? remaining
            teamUpPoints = event.team.flatMap { buzzPoints[$0] }
            let time = event.remaining.map { " (\(TextRenderer.clock($0)) to answer)" } ?? ""
            return "\(event.team ?? "?") is up\(time)"
        case .judged:
            return TextRenderer.judgement(
                team: event.team ?? "?", given: event.given, correct: event.correct == true, awarded: event.awarded)
        case .answerRevealed:
            tiles = nil
            points = nil
            remaining = nil
            teamUpPoints = nil
            let outcome = TextRenderer.roundOutcome(winner: event.winner, end: event.roundEnd)
            return "Answer: \(event.answer ?? "?") (\(outcome))"
        case .scoreAdjusted:
            return TextRenderer.scoreChange(
                team: event.team ?? "?", delta: event.delta, reason: event.reason, score: event.score)
        case .tick:
            if let phase = event.phase { self.phase = phase }
            remaining = event.remaining ?? remaining
            let clock = event.remaining.map(TextRenderer.clock) ?? "--:--"
            return tickLine(clock: clock)
        case .phaseChanged:
            // Round starts, teams up, answers and game over have lines of their own; only buzzing that
            // opens again after an answer (classic buzzing, an undone buzz) needs one.
            let previous = self.phase
            if let phase = event.phase { self.phase = phase }
            if event.phase == "indication" { teamUpPoints = nil }
            guard event.phase == "indication", previous?.hasPrefix("answering") == true else { return nil }
            return "Buzzing is open again"
        case .paused:
            // The exact time left, which the countdown's line then says too (a tick's is a second behind it).
            remaining = event.remaining ?? remaining
            let time = remaining.map { " with \(TextRenderer.clock($0)) left" } ?? ""
            return style.strong("Paused") + time
        case .resumed:
            return "Resumed"
        case .gameOver:
            tiles = nil
            points = nil
            guard let result = event.result else { return "Game over" }
            let standings = TextRenderer.inRankOrder(result.standings).map {
                "\($0.team) \($0.points)"
            }
            let winners = result.winners.isEmpty ? "no winner" : "won by " + result.winners.joined(separator: " and ")
            // A correction after the end (an overrule, a score adjustment) gives the game's result again.
            let heading = event.corrected == true ? "Result corrected" : "Game over"
            return "\(heading): \(winners) · " + standings.joined(separator: ", ")
        case .overruled:
            return TextRenderer.overruling(
                team: event.team ?? "?", given: event.given, timedOut: event.timedOut == true,
                correct: event.correct == true, delta: event.delta, score: event.score)
        case .buzzUndone:
            return "Buzz taken back: \(event.team ?? "?")"
        case .sensor:
            let device = event.sensorDevice.map { " \($0)" } ?? ""
            return event.sensorPresent == true
                ? "Sensor\(device) is back: shake for hints" : "Sensor\(device) gone: hints are manual until it is back"
        case .buzzer:
            return event.buzzer.flatMap { Self.buttonLine($0, joinHint: joinHint) }
        }
    }

    /// What a countdown's line says while the game is paused: `[00:17] paused, type p to resume  [T] G I R E  (8
    /// points)` (the time left as the last tick said it; no tick comes until the game is resumed).
    var pausedCountdownLine: String {
        guard let remaining, tiles != nil else { return "Paused, \(resumeHint)" }
        return "[\(TextRenderer.clock(remaining))] paused, \(resumeHint)" + tilesAndPoints
    }

    /// The countdown's line as the last tick drew it, with the letters and points as they are now: after a hint, it
    /// shows the new letters at once, not a second later at the next tick. `nil` when no countdown is shown.
    var countdownLineNow: String? {
        guard let remaining, tiles != nil else { return nil }
        return tickLine(clock: TextRenderer.clock(remaining))
    }

    private func tickLine(clock: String) -> String {
        "[\(clock)] \(phase.map(TextRenderer.phase(named:)) ?? "")" + tilesAndPoints
    }

    /// `  [T] G I R E  (8 points)`, or nothing when no question is in play.
    private var tilesAndPoints: String {
        var text = ""
        if let tiles { text += "  " + TextRenderer.tiles(tiles, style: style) }
        if let points = teamUpPoints ?? points { text += "  (\(TextRenderer.points(points)))" }
        return text
    }

    private mutating func remember(_ status: ShakyAPI.State) {
        let inPlay = status.phase == .indication || status.phase == .answering
        tiles = inPlay ? status.tiles : nil
        points = inPlay ? status.points : nil
        remaining = inPlay ? status.remaining : nil
        // In the status, a team answering is worth what its buzz froze, and so is each buzz.
        buzzPoints = Dictionary(
            status.buzzes.compactMap { buzz in buzz.points.map { (buzz.team, $0) } },
            uniquingKeysWith: { first, _ in first })
        teamUpPoints = status.phase == .answering ? status.points : nil
        phase =
            status.phase == .answering ? status.teamUp.map { "answering(\($0))" } ?? "answering" : status.phase.rawValue
        teams = status.teams.map(\.name)
    }

    private func stateLine(_ status: ShakyAPI.State) -> String {
        var parts: [String] = []
        if let number = status.questionNumber {
            parts.append("Question \(number)/\(status.questionCount)")
        } else {
            parts.append(status.questionCount == 1 ? "1 question" : "\(status.questionCount) questions")
        }
        parts.append(TextRenderer.phase(status))
        if status.paused { parts.append("paused") }
        if let remaining = status.remaining, tiles != nil { parts.append("\(TextRenderer.clock(remaining)) left") }
        parts.append(status.teams.map { "\($0.name) \($0.score)" }.joined(separator: ", "))
        var line = "Game: " + parts.joined(separator: " · ")
        if let question = status.question, tiles != nil { line += "\n" + question + tilesAndPoints }
        if status.phase == .roundOver, let question = status.question { line += "\n" + question }
        // Who buzzed, in order: who answers next, for a watcher that joined (or came back) after the buzzes.
        if !status.buzzes.isEmpty, tiles != nil || status.phase == .roundOver {
            line += "\nBuzzed: " + TextRenderer.buzzOrder(status.buzzes)
        }
        // The answers judged so far, for a watcher that joined (or came back) after them.
        if tiles != nil || status.phase == .roundOver {
            for judgement in status.judgements ?? [] { line += "\n" + TextRenderer.judgement(judgement) }
        }
        if status.phase == .roundOver {
            // Joined (or back) after the question ended: its answer and how it ended.
            let outcome = TextRenderer.roundOutcome(winner: status.roundWinner, end: status.roundEnd)
            line += "\nAnswer: \(status.answer ?? "?") (\(outcome))"
        }
        if status.paused, status.phase != .gameOver { line += "\n" + style.strong("Paused") + ": " + resumeHint }
        return line
    }
}
