import ShakyCore

/// One line typed (or scripted) in `shaky play`.
enum PlayCommand: Equatable, Sendable {
    /// `n`: open the next question.
    case next
    /// `h`: reveal a letter.
    case hint
    /// `b TEAM`: a team buzzes, by name.
    case buzz(team: String)
    /// `1`…`8`: a team buzzes, by its number in the game.
    case buzzNumber(Int)
    /// `a TEXT`: the team up answers.
    case answer(String)
    /// `o`: overrule the last judgement.
    case overrule
    /// `u TEAM`: take back a team's buzz (by name or number).
    case undoBuzz(team: String)
    /// `p`: pause, or resume when paused.
    case togglePause
    /// `s`: skip the question.
    case skip
    /// `e`: end the game (after the host confirms with `y`).
    case end
    /// `+ TEAM N [REASON]`, `- TEAM N [REASON]`: the host adjusts a team's score.
    case adjust(team: String, delta: Int, reason: String)
    /// `j`: press to join: ask each team in turn to press its button.
    case join
    /// `t`: show the scoreboard.
    case scoreboard
    /// `st`: show the whole status.
    case status
    /// `w SECONDS`: wait, so that a script leaves time for shakes and buzzes.
    case wait(seconds: Double)
    /// `?`: list the commands.
    case help
    /// `q`: leave (the game goes on in the daemon).
    case quit
    /// An empty line or a `#` comment.
    case nothing

    /// The commands for people, as `?` shows them.
    static let summary = """
        n next question · h hint · b TEAM (or its number) buzz
        a ANSWER answer for the team up · o overrule the last judgement
        + TEAM N [REASON] / - TEAM N [REASON] adjust a score (TEAM may be its number)
        u TEAM take back a buzz · j teams join by pressing their buttons
        p pause/resume · s skip · e end game (asks first) · t scoreboard · st status
        w SECONDS wait · ? help · q quit
        """

    /// Parses one line; throws a message for people when the line is not a command. `teams` are the game's team
    /// names: a score change for a team whose name holds a number ("+ Top 10 5") takes its points after the name.
    static func parse(_ line: String, teams: [String] = []) throws(PlayCommandError) -> PlayCommand {
        let text = line.trimmingSpaces
        guard !text.isEmpty, !text.hasPrefix("#") else { return .nothing }
        if let problem = TerminalText.problem(in: text) {
            // An arrow, Home or a function key at the prompt types an escape sequence into the line.
            throw PlayCommandError(
                "the line \(problem) (an arrow or function key types one): play reads whole lines, so type the "
                    + "command again without it")
        }
        if let sign = text.first, sign == "+" || sign == "-", text.count > 1, text.dropFirst().first != " " {
            // "+Owls 5" reads as "+ Owls 5".
            return try adjustment(sign: sign == "+" ? 1 : -1, String(text.dropFirst()), teams: teams)
        }
        let parts = text.split(separator: " ", maxSplits: 1)
        let typed = String(parts[0])
        let word = typed.lowercased()
        let rest = parts.count > 1 ? String(parts[1]).trimmingSpaces : ""
        if let number = Int(word), rest.isEmpty {
            guard (1...8).contains(number) else { throw PlayCommandError("there is no team \(number)") }
            return .buzzNumber(number)
        }
        let needsNothing = { (command: PlayCommand) throws(PlayCommandError) -> PlayCommand in
            guard rest.isEmpty else { throw PlayCommandError("“\(typed)” takes nothing after it") }
            return command
        }
        switch word {
        case "n", "next": return try needsNothing(.next)
        case "h", "hint": return try needsNothing(.hint)
        case "p", "pause", "resume": return try needsNothing(.togglePause)
        case "s", "skip": return try needsNothing(.skip)
        case "e", "end": return try needsNothing(.end)
        case "t", "scores", "scoreboard": return try needsNothing(.scoreboard)
        case "j", "join": return try needsNothing(.join)
        case "st", "status": return try needsNothing(.status)
        case "?", "help": return .help
        case "q", "quit", "exit": return try needsNothing(.quit)
        case "b", "buzz":
            guard !rest.isEmpty else { throw PlayCommandError("say who buzzes: b TEAM, or just the team's number") }
            if let number = Int(rest) { return .buzzNumber(number) }
            return .buzz(team: rest)
        case "a", "answer":
            guard !rest.isEmpty else { throw PlayCommandError("say the answer: a WORDS") }
            return .answer(rest)
        case "o", "overrule": return try needsNothing(.overrule)
        case "u", "undo":
            guard !rest.isEmpty else { throw PlayCommandError("say whose buzz to take back: u TEAM") }
            return .undoBuzz(team: rest)
        case "+", "-":
            return try adjustment(sign: word == "+" ? 1 : -1, rest, teams: teams)
        case "w", "wait":
            guard let seconds = DecimalText.number(rest), seconds >= 0, seconds <= 3600 else {
                throw PlayCommandError("say how long to wait in seconds: w 5")
            }
            return .wait(seconds: seconds)
        default:
            // Quoted as far as a command's word could go: a long line pasted by mistake is not said back whole.
            let shown = typed.count > 40 ? typed.prefix(39) + "…" : typed
            throw PlayCommandError("unknown command “\(shown)”; type ? for the commands")
        }
    }
}

extension PlayCommand {
    /// `TEAM N [REASON]` after `+` or `-`: the team (a name or its number), the points and the reason.
    private static func adjustment(
        sign: Int, _ text: String, teams: [String]
    ) throws(PlayCommandError) -> PlayCommand {
        let words = text.split(separator: " ").map(String.init)
        let usage = PlayCommandError("say whose score changes and by how much: + TEAM 5 [REASON] or - TEAM 3 [REASON]")
        let numbers = words.indices.dropFirst().filter { Int(words[$0]) != nil }
        // The points follow the team's name: the first number after a whole name of the game, else the first number.
        let afterName = numbers.first { index in
            let name = words[..<index].joined(separator: " ").lowercased()
            return teams.contains { $0.split(separator: " ").joined(separator: " ").lowercased() == name }
        }
        guard let pointsIndex = afterName ?? numbers.first,
            let points = Int(words[pointsIndex])
        else { throw usage }
        guard points > 0, points <= 1000 else {
            throw PlayCommandError("a score changes by 1 to 1000 points, not \(points)")
        }
        let team = words[..<pointsIndex].joined(separator: " ")
        let reason = words[(pointsIndex + 1)...].joined(separator: " ")
        return .adjust(team: team, delta: sign * points, reason: reason.isEmpty ? Shaky.Score.defaultReason : reason)
    }
}

/// A line in `shaky play` that is not a command.
struct PlayCommandError: Error, Equatable, Sendable, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
