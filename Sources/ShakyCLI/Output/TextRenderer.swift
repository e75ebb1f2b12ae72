import Foundation
import ShakyBoard
import ShakyCore
import ShakyProtocol

/// Renders the daemon's replies as text for people; pure functions of the reply and a style.
enum TextRenderer {
    // MARK: Pieces

    /// The scrambled answer as spaced capitals, words split by ` / `, fixed letters marked:
    /// `[T] G I R E / O W L`.
    static func tiles(_ tiles: [ShakyAPI.Tile], style: TextStyle) -> String {
        let words = tiles.split { !$0.letter && $0.text.allSatisfy(\.isWhitespace) }
        return words.map { word in
            word.map { tile in tile.letter && tile.fixed ? style.fixedLetter(tile.text) : tile.text }
                .joined(separator: " ")
        }
        .joined(separator: " / ")
    }

    /// `seconds` rounded up to whole seconds, held to 0...999 999 so that no number a daemon sends (negative,
    /// huge, not finite) can trap the conversion.
    static func wholeSecondsUp(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 }
        return Int(min(max(seconds, 0), 999_999).rounded(.up))
    }

    /// Seconds as a countdown, `mm:ss`, rounded up so that a countdown shows `00:00` only when time is up.
    static func clock(_ seconds: Double) -> String {
        let whole = wholeSecondsUp(seconds)
        return String(format: "%02d:%02d", whole / 60, whole % 60)
    }

    /// Seconds with one decimal, `3.2 s`.
    static func seconds(_ value: Double) -> String {
        String(format: "%.1f s", value)
    }

    /// A signed number of points, `+5` or `-3`.
    static func signed(_ value: Int) -> String {
        value > 0 ? "+\(value)" : "\(value)"
    }

    /// A score the host changed: `Score: Owls +5 (adjusted by the host) → 12`, as `shaky watch` and `shaky score` say
    /// it; the reason and the new score when known.
    static func scoreChange(team: String, delta: Int?, reason: String?, score: Int?) -> String {
        let reason = reason.flatMap { $0.isEmpty ? nil : " (\($0))" } ?? ""
        return "Score: \(team) \(delta.map(signed) ?? "?")\(reason)" + (score.map { " → \($0)" } ?? "")
    }

    /// What an overrule did: `Overruled: Owls' answer “Kobenhavn” is right after all, +10 → 10`; when the team's
    /// time had run out, it says so rather than speak of an answer: `Overruled: Owls' time had run out; counted as
    /// right, +10 → 10`.
    static func overruling(
        team: String, given: String?, timedOut: Bool, correct: Bool, delta: Int?, score: Int?
    ) -> String {
        let change = (delta.map { ", \(signed($0))" } ?? "") + (score.map { " → \($0)" } ?? "")
        if timedOut {
            return "Overruled: \(team.possessive) time had run out; counted as \(correct ? "right" : "wrong")\(change)"
        }
        let answer = given.map { "answer “\($0)”" } ?? "answer"
        return "Overruled: \(team.possessive) \(answer) is \(correct ? "right after all" : "wrong after all")\(change)"
    }

    /// How a question ended, after its answer: `got by Owls`, `skipped`, `time's up, nobody got it`. Without `end`
    /// (a daemon that does not say) only who got it.
    static func roundOutcome(winner: String?, end: ShakyAPI.State.RoundEnd?) -> String {
        let got = winner.map { "got by \($0)" } ?? "nobody got it"
        switch end {
        case nil, .answered, .wrongAnswers: return got
        case .timeUp: return "time's up, " + got
        case .skipped: return winner == nil ? "skipped" : "skipped, " + got
        case .gameEnded: return winner == nil ? "game ended" : "game ended, " + got
        case .overruled: return got + ", on the host's overrule"
        }
    }

    /// How a team's answer was judged: `Owls answered “Lion”: wrong`, `Owls answered “Tiger”: right, +8`; a team whose
    /// time ran out: `Foxes ran out of time`, or `Foxes ran out of time: counted as right, +8` once the host overruled
    /// it.
    ///
    /// Given a `width` (a terminal's), a line wider than it has the answer cut short with "…", then the team's name,
    /// each to eight columns at least; the verdict stays whole.
    static func judgement(team: String, given: String?, correct: Bool, awarded: Int?, width: Int? = nil) -> String {
        let points = awarded.map { ", \(signed($0))" } ?? ""
        func line(team: String, given: String?) -> String {
            guard let given else {
                // A time-out the host overruled counts as right.
                return correct ? "\(team) ran out of time: counted as right\(points)" : "\(team) ran out of time"
            }
            return "\(team) answered “\(given)”: \(correct ? "right" + points : "wrong")"
        }
        guard let width else { return line(team: team, given: given) }
        var team = team
        var given = given
        if let answer = given {
            let excess = line(team: team, given: answer).displayWidth - width
            if excess > 0 { given = answer.cut(toWidth: max(8, answer.displayWidth - excess)) }
        }
        let excess = line(team: team, given: given).displayWidth - width
        if excess > 0 { team = team.cut(toWidth: max(8, team.displayWidth - excess)) }
        return line(team: team, given: given)
    }

    /// How an answer on the question in play was judged (see ``judgement(team:given:correct:awarded:width:)``).
    static func judgement(_ entry: ShakyAPI.JudgementEntry, width: Int? = nil) -> String {
        judgement(team: entry.team, given: entry.given, correct: entry.correct, awarded: entry.awarded, width: width)
    }

    /// What `Overrule` replied it did (see ``overruling(team:given:timedOut:correct:delta:score:)``).
    static func overruling(_ overruled: ShakyAPI.Overruling) -> String {
        overruling(
            team: overruled.team, given: overruled.given, timedOut: overruled.timedOut, correct: overruled.correct,
            delta: overruled.delta, score: overruled.score)
    }

    /// `1 point`, `8 points`.
    static func points(_ value: Int) -> String {
        value == 1 || value == -1 ? "\(value) point" : "\(value) points"
    }

    /// A phase as the daemon names it in events (`indication`, `answering(Owls)`, `roundOver`), in a
    /// host's words (the board's): `buzzers open`, `Owls to answer`, `round over`.
    static func phase(named name: String) -> String {
        if name.hasPrefix("answering("), name.hasSuffix(")") {
            return "\(name.dropFirst("answering(".count).dropLast()) to answer"
        }
        switch name {
        case "ready": return "waiting for the first question"
        case "indication": return "buzzers open"
        case "answering": return "answering"
        case "roundOver": return "round over"
        case "gameOver": return "game over"
        default: return name
        }
    }

    /// A phase for people: `buzzers open`, `Owls to answer`, `round over`.
    static func phase(_ status: ShakyAPI.State) -> String {
        switch status.phase {
        case .ready: "ready"
        case .indication: "buzzers open"
        case .answering: status.teamUp.map { "\($0) to answer" } ?? "answering"
        case .roundOver: "round over"
        case .gameOver: "game over"
        }
    }

    // MARK: Game

    /// The whole game as `shaky status` shows it; given a `width` (a terminal's), the answers judged and the scoreboard
    /// at game over are fitted to it (the scoreboard as `shaky scoreboard`'s is).
    static func status(_ status: ShakyAPI.State, style: TextStyle, width: Int? = nil) -> String {
        var lines: [String] = []
        var heading: [String] = []
        if let number = status.questionNumber {
            heading.append("Question \(number)/\(status.questionCount)")
        } else {
            heading.append(status.questionCount == 1 ? "1 question" : "\(status.questionCount) questions")
        }
        heading.append(style.strong(phase(status)))
        if let remaining = status.remaining, status.phase == .indication || status.phase == .answering {
            heading.append("\(clock(remaining)) left")
        }
        if status.paused { heading.append(style.strong("PAUSED")) }
        lines.append(heading.joined(separator: " · "))

        switch status.phase {
        case .ready:
            lines.append("Open the first question with `shaky next`.")
        case .indication, .answering, .roundOver:
            if let question = status.question { lines.append(question) }
            if let tiles = status.tiles, status.phase != .roundOver {
                lines.append("  " + self.tiles(tiles, style: style))
            }
            if status.phase != .roundOver, let worth = status.points {
                lines.append(
                    "Worth \(points(worth)) · \(status.hintsUsed) hint\(status.hintsUsed == 1 ? "" : "s") used, "
                        + "\(status.hintsLeft) left")
            }
            if !status.buzzes.isEmpty {
                lines.append("Buzzed: " + buzzOrder(status.buzzes))
            }
            // The answers judged so far, as `shaky watch` and `play` tell them.
            lines += (status.judgements ?? []).map { judgement($0, width: width) }
            if let team = status.teamUp, status.phase == .answering { lines.append("Up: \(team)") }
            if status.phase == .roundOver {
                let answer = status.answer ?? "?"
                lines.append("Answer: \(answer) · " + roundOutcome(winner: status.roundWinner, end: status.roundEnd))
            }
        case .gameOver:
            if let result = status.result {
                let endedDuringQuestion = status.roundEnd == .gameEnded
                return (lines + [self.result(result, endedDuringQuestion: endedDuringQuestion, width: width)])
                    .joined(separator: "\n")
            }
        }
        lines.append("")
        lines.append(teams(status.teams))
        return lines.joined(separator: "\n")
    }

    /// The buzz order: `1. Owls (3.2 s), 2. Foxes (4.0 s)`.
    static func buzzOrder(_ buzzes: [ShakyAPI.BuzzEntry]) -> String {
        buzzes.sorted { $0.order < $1.order }.map { "\($0.order). \($0.team) (\(seconds($0.elapsed)))" }
            .joined(separator: ", ")
    }

    /// The teams and their scores in game order, aligned.
    static func teams(_ teams: [ShakyAPI.TeamScore]) -> String {
        var table = TextTable(columns: [.init("Team"), .init("Score", .right)])
        table.rows = teams.map { [$0.name, "\($0.score)"] }
        return table.render()
    }

    /// How a game ended: winners and the standings (fitted to `width` when given). `endedDuringQuestion`: the host
    /// ended the game while its last question played was open.
    static func result(_ result: ShakyAPI.Result, endedDuringQuestion: Bool = false, width: Int? = nil) -> String {
        let played =
            switch (result.endedEarly, endedDuringQuestion) {
            case _ where result.questionsPlayed == 0: "ended before its first question, so not kept in the history"
            case (true, true): "ended during question \(result.questionsPlayed) of \(result.questionCount)"
            case (true, false): "ended after \(result.questionsPlayed) of \(result.questionCount) questions"
            case (false, _): "\(result.questionsPlayed) of \(result.questionCount) questions played"
            }
        let winners =
            switch result.winners.count {
            case 0: "No winner"
            case 1: "Winner: \(result.winners[0])"
            default: "Winners (tied): " + result.winners.joined(separator: ", ")
            }
        return [
            winners + " · " + played, "", scoreboard(result.standings, width: width),
        ]
        .joined(separator: "\n")
    }

    /// The standings best first, tied teams in the daemon's order (the order the teams were set up in), which is
    /// the order of its winners: the board, `shaky play`, `status` and `scoreboard` list a tie the same way.
    static func inRankOrder(_ standings: [ShakyAPI.Standing]) -> [ShakyAPI.Standing] {
        standings.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element)
    }

    /// The standings as a table with shared ranks.
    ///
    /// Given a `width` (a terminal's), a table wider than it has its long names cut short with "…" (to eight columns
    /// at least), then loses its last columns (average buzz time, buzzes, hints, right answers) until it fits or
    /// only rank, team and points are left.
    static func scoreboard(_ standings: [ShakyAPI.Standing], width: Int? = nil) -> String {
        var table = TextTable(columns: [
            .init("#", .right), .init("Team", narrowest: 8), .init("Points", .right), .init("Right", .right),
            .init("Hints", .right), .init("Buzzes", .right), .init("Avg buzz", .right),
        ])
        table.rows = inRankOrder(standings).map { standing in
            [
                "\(standing.rank)", standing.team, "\(standing.points)", "\(standing.correctAnswers)",
                "\(standing.hintsUsed)", "\(standing.buzzes)", standing.averageBuzzTime.map(seconds) ?? "-",
            ]
        }
        if let width {
            // Names are cut to eight columns first; then the last columns go.
            while table.columns.count > 3,
                table.render(width: width).split(separator: "\n").contains(where: { String($0).displayWidth > width })
            {
                table.columns.removeLast()
                table.rows = table.rows.map { Array($0.prefix(table.columns.count)) }
            }
        }
        let adjustments = standings.flatMap { standing in
            (standing.adjustments ?? []).map { "\(standing.team) \(signed($0.delta)): \($0.reason)" }
        }
        guard !adjustments.isEmpty else { return table.render(width: width) }
        return table.render(width: width) + "\nAdjustments: " + adjustments.joined(separator: "; ")
    }

    // MARK: Records

    /// Finished games, newest first; fitted to `width` (a terminal's) by cutting the scores, winners and notes, then
    /// leaving off the notes and the winners, or whole without one.
    static func history(_ games: [ShakyAPI.FinishedGame], timeZone: TimeZone = .current, width: Int? = nil) -> String {
        guard !games.isEmpty else { return "No finished games yet." }
        var table = TextTable(columns: [
            .init("Game", .right), .init("Finished"), .init("Scores", narrowest: 16), .init("Winner", narrowest: 8),
            .init("Note", narrowest: 12),
        ])
        table.rows = games.map { game in
            let adjustments = (game.adjustments ?? []).map { "\($0.team) \(signed($0.delta)): \($0.reason)" }
            var note: [String] = []
            switch game.kind {
            case .demo: note.append("demo, not on the leaderboard")
            case .replaced: note.append("replaced by a new game, not on the leaderboard")
            case .scoreless: note.append("nobody scored, not on the leaderboard")
            case .played, nil: break
            }
            if !adjustments.isEmpty { note.append("adjusted: " + adjustments.joined(separator: "; ")) }
            return [
                "\(game.id)", finishedAt(game.finishedAt, timeZone: timeZone),
                game.teams.map { "\($0.name) \($0.score)" }.joined(separator: ", "),
                game.winners.joined(separator: ", "), note.joined(separator: " · "),
            ]
        }
        if table.rows.allSatisfy({ $0.last?.isEmpty ?? true }) {
            table.columns.removeLast()
            table.rows = table.rows.map { Array($0.dropLast()) }
        }
        if let width {
            // Cut as far as they go, the columns of a narrow terminal (a phone's) still wrapped every line: the note,
            // then the winner (the scores show it) are left off.
            while table.columns.count > 3,
                table.render(width: width).split(separator: "\n").contains(where: { String($0).displayWidth > width })
            {
                table.columns.removeLast()
                table.rows = table.rows.map { Array($0.prefix(table.columns.count)) }
            }
            // Narrower still (a phone held upright): each game on lines of its own, its scores wrapped under it.
            if table.render(width: width).split(separator: "\n").contains(where: { String($0).displayWidth > width }) {
                return table.rows.map { row in
                    (["Game \(row[0]), \(row[1])"]
                        + DisplayWidth.wrap(row[2], columns: max(width - 2, 1)).map { "  " + $0 })
                        .joined(separator: "\n")
                }.joined(separator: "\n")
            }
        }
        return table.render(width: width)
    }

    /// An ISO 8601 instant (`2026-01-02T20:15:07Z`) in local time, `2026-01-02 21:15` (the zone of
    /// `timeZone`, the machine's by default); other text as is.
    static func finishedAt(_ text: String, timeZone: TimeZone = .current) -> String {
        guard let date = try? Date(text, strategy: .iso8601) else { return text }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(
            format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0)
    }

    /// Teams across games in the daemon's order (most wins, then most points), with ranks shared by teams equal on
    /// both (1, 1, 3), as a game's standings share them.
    static func leaderboard(_ entries: [ShakyAPI.LeaderboardEntry]) -> String {
        guard !entries.isEmpty else { return "No finished games yet." }
        var table = TextTable(columns: [
            .init("#", .right), .init("Team"), .init("Wins", .right), .init("Games", .right), .init("Points", .right),
        ])
        var rank = 0
        table.rows = entries.enumerated().map { index, entry in
            let previous = index > 0 ? entries[index - 1] : nil
            if previous?.wins != entry.wins || previous?.points != entry.points { rank = index + 1 }
            return ["\(rank)", entry.team, "\(entry.wins)", "\(entry.games)", "\(entry.points)"]
        }
        return table.render()
    }

    // MARK: Packs

    /// Every pack with its question counts.
    ///
    /// Given a `width` (a terminal's), a table wider than it has its long names cut short with "…" (to eight columns
    /// at least), then, if that is not enough, leaves out the counts by difficulty (`shaky pack show` has them).
    static func packs(_ packs: [ShakyAPI.Pack], width: Int? = nil) -> String {
        guard !packs.isEmpty else { return "No packs." }
        var table = TextTable(columns: [
            .init("Pack", narrowest: 8), .init("Questions", .right), .init("Easy", .right), .init("Medium", .right),
            .init("Hard", .right), .init("Kind"),
        ])
        table.rows = packs.map { pack in
            [
                pack.name, "\(pack.questions)", "\(pack.easy)", "\(pack.medium)", "\(pack.hard)",
                pack.builtin ? "built-in" : "own",
            ]
        }
        if let width,
            table.render(width: width).split(separator: "\n").contains(where: { String($0).displayWidth > width })
        {
            let byDifficulty: Set = ["Easy", "Medium", "Hard"]
            let kept = table.columns.indices.filter { !byDifficulty.contains(table.columns[$0].title) }
            table.columns = kept.map { table.columns[$0] }
            table.rows = table.rows.map { row in kept.map { row[$0] } }
        }
        return table.render(width: width)
    }

    /// One pack's summary line.
    static func pack(_ pack: ShakyAPI.Pack) -> String {
        "\(pack.name)\(pack.builtin ? " (built-in)" : ""): \(pack.questions) question\(pack.questions == 1 ? "" : "s")"
            + " (\(pack.easy) easy, \(pack.medium) medium, \(pack.hard) hard)"
    }

    /// A pack and its questions.
    static func packDetails(_ details: ShakyAPI.PacksInterface.ShowReply) -> String {
        ([pack(details.pack)] + details.questions.map { "  " + question($0, showingPack: false) })
            .joined(separator: "\n")
    }

    /// A stored question on one line: `#12 [easy] What big cat has stripes? → Tiger (also: …)`.
    static func question(_ question: ShakyAPI.StoredQuestion, showingPack: Bool) -> String {
        var line = "#\(question.id) "
        if showingPack { line += "\(question.pack) " }
        // A question on several lines keeps its later lines indented, apart from the next question's number.
        let text = question.text.replacingOccurrences(of: "\n", with: "\n    ")
        line += "[\(question.difficulty.rawValue)] \(text) → \(question.answer)"
        if !question.alternates.isEmpty { line += " (also: " + question.alternates.joined(separator: ", ") + ")" }
        return line
    }

    /// Search results.
    static func questions(_ questions: [ShakyAPI.StoredQuestion]) -> String {
        guard !questions.isEmpty else { return "No questions found." }
        return questions.map { question($0, showingPack: true) }.joined(separator: "\n")
    }

    // MARK: Daemon

    /// The accelerometer.
    static func sensor(_ sensor: ShakyAPI.SensorStatus) -> String {
        var details: [String] = []
        if let driver = sensor.driver { details.append(driver) }
        if let device = sensor.device { details.append(device) }
        if let rate = sensor.rate { details.append(String(format: "%g Hz", rate)) }
        var lines = [
            "Sensor: \(sensor.state.rawValue)" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
        ]
        lines.append("Shakes: \(sensor.shakes) · sensitivity \(sensor.sensitivity.rawValue)")
        if let frame = sensor.frame { lines.append("Frame: \(frame)") }
        if let controllers = sensor.controllers, !controllers.isEmpty {
            lines.append("Motion controllers shaking too: " + controllers.joined(separator: ", "))
        }
        if sensor.state == .absent, sensor.controllers?.isEmpty ?? true {
            lines.append("Hints are manual: `shaky hint`.")
        }
        if let message = sensor.message { lines.append(message) }
        return lines.joined(separator: "\n")
    }

    /// What a calibration set.
    static func calibration(_ calibration: ShakyAPI.Calibration) -> String {
        let g = 9.80665
        return [
            "Calibrated \(calibration.device): shakes peak near \(String(format: "%.1f", calibration.strokePeak / g)) g, "
                + "noise \(String(format: "%.2f", calibration.noise)) m/s².",
            "Medium now counts strokes above \(String(format: "%.1f", calibration.threshold)) m/s² (steady shaking "
                + "above \(String(format: "%.1f", calibration.sustainedThreshold)) m/s²), from the next question on.",
        ].joined(separator: "\n")
    }

    /// What a list that looks empty says when the daemon set a damaged database aside at start (`damaged`): `what`
    /// from before is in that file, not gone.
    static func damagedDatabaseNote(_ damaged: String, holding what: String) -> String {
        "The database was damaged when the daemon started and is set aside as \(damaged): \(what) are in that "
            + "file (`shaky settings` says more)."
    }

    /// The daemon's settings.
    static func settings(_ settings: ShakyAPI.Settings) -> String {
        var lines = [
            "Sound: \(soundState(settings)) · volume \(String(format: "%.2f", settings.volume)) · "
                + "sensitivity \(settings.sensitivity.rawValue)"
        ]
        if settings.sound, settings.output == nil, let tried = settings.triedDevices, !tried.isEmpty {
            lines.append("`aplay -L` lists the sound devices; set sound-device in the daemon's configuration.")
        }
        if let damaged = settings.damagedDatabase {
            lines.append(
                "The database was damaged when the daemon started, and is set aside as \(damaged); the imported "
                    + "packs, the history, the settings, button assignments and calibrations are in that file "
                    + "(`sqlite3 \(damaged) .dump` writes out what can still be read). The daemon goes on with a "
                    + "new one.")
        }
        return lines.joined(separator: "\n")
    }

    /// Whether sound plays and where: `on (default)`, `on, but no sound device: silent (tried default)`.
    static func soundState(_ settings: ShakyAPI.Settings) -> String {
        guard settings.sound else { return "off" }
        if let output = settings.output { return "on (\(output))" }
        guard let tried = settings.triedDevices else { return "on" }
        if tried.isEmpty { return "on, but the daemon has no sound device (sound-device none): silent" }
        return "on, but no sound device: silent, tried " + tried.joined(separator: ", ")
    }
}
