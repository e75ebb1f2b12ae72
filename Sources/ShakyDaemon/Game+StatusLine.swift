import TriviaEngine

extension Game {
    /// The one-line summary systemd shows (`STATUS=`): phase, pause, question and scores.
    var statusLine: String {
        var line = "\(phase)"
        if isPaused { line += ", paused" }
        if let number = round?.number { line += ", question \(number)/\(questionCount)" }
        return line + ", " + teams.map { "\($0.name) \($0.score)" }.joined(separator: ", ")
    }

    /// The summary when there is no game.
    static let noGameStatusLine = "no game; start one with `shaky new`"
}
