import ArgumentParser
import ShakyCore
import ShakyProtocol

/// How a new game is set up: teams, packs, questions and rules (`shaky new`, `shaky play`).
struct GameSetupOptions: ParsableArguments {
    @Option(
        name: .customLong("team"),
        help: ArgumentHelp("A team's name (2 to 8 teams, 1-24 characters each; repeat the option).", valueName: "name"))
    var teams: [String] = []

    @Option(
        name: .customLong("pack"),
        help: ArgumentHelp("A pack to draw questions from (repeat; default: every pack).", valueName: "name"),
        completion: Completions.packNames)
    var packs: [String] = []

    @Option(
        help: ArgumentHelp("How many questions, 1 to 50 (default: 10).", valueName: "count"),
        transform: DecimalText.wholeNumberArgument)
    var questions: Int?

    @Option(help: "Which questions to draw.")
    var difficulty: ShakyAPI.GameInterface.NewParameters.Difficulty?

    @Option(
        help: ArgumentHelp(
            "Seed for drawing and scrambling, to replay the same game (default: a new one each game).",
            valueName: "number"), transform: DecimalText.wholeNumberArgument)
    var seed: Int?

    @Flag(help: "End a game still in play first, instead of refusing.")
    var replace = false

    @Option(
        help: ArgumentHelp("Seconds to buzz, 0.1 to 3600 (default: 60).", valueName: "seconds"),
        transform: DecimalText.argument)
    var indicationTime: Double?

    @Option(
        help: ArgumentHelp(
            "Seconds left after the first buzz, or what is left if less; 0.1 to 3600 (default: 20).",
            valueName: "seconds"), transform: DecimalText.argument)
    var timeAfterFirstBuzz: Double?

    @Option(
        help: ArgumentHelp("Seconds each team has to answer, 0.1 to 3600 (default: 60).", valueName: "seconds"),
        transform: DecimalText.argument)
    var answerTime: Double?

    @Option(
        help: ArgumentHelp("What a question is worth with no hints, 1 to 1000 (default: 10).", valueName: "points"),
        transform: DecimalText.wholeNumberArgument)
    var basePoints: Int?

    @Option(
        help: ArgumentHelp(
            "Points lost per hint, 0 up to --base-points (default: 2, or --base-points if less).", valueName: "points"),
        transform: DecimalText.wholeNumberArgument)
    var pointsPerHint: Int?

    @Option(
        help: ArgumentHelp(
            "The least a question is worth after hints, 0 up to --base-points (default: 2, or --base-points if less).",
            valueName: "points"),
        transform: DecimalText.wholeNumberArgument)
    var minimumPoints: Int?

    @Option(
        help: ArgumentHelp("Most hints per question, 0 to 40 (default: 3).", valueName: "count"),
        transform: DecimalText.wholeNumberArgument)
    var maximumHints: Int?

    @Option(
        help: ArgumentHelp(
            "Seconds between two hints, so one long shake spends one hint; 0 to 3600 (default: 1.5).",
            valueName: "seconds"), transform: DecimalText.argument)
    var hintCooldown: Double?

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Accept near misses: 1 typo for 4-7 letters, 2 for 8 or more, never at a word's first or last letter "
                + "nor in a number; a missing accent counts as one (default: on)."))
    var answerTolerance: Bool?

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Accept answers without accents (default: on). Off, a missing accent is still a near miss that "
                + "--answer-tolerance accepts: turn both off for exact accents."))
    var ignoreDiacritics: Bool?

    @Option(help: ArgumentHelp("Who answers after a buzz.", valueName: "mode"))
    var buzzerMode: BuzzerModeArgument?

    @Option(
        help: ArgumentHelp(
            "Seconds a team that presses its button before the question opens cannot buzz, as buzzer systems do; "
                + "0 to 60, 0 turns the rule off (default: the daemon's early-press-lockout setting, off unless "
                + "set).",
            valueName: "seconds"), transform: DecimalText.argument)
    var earlyPressLockout: Double?

    /// Whether any rule differs from the defaults.
    var rules: ShakyAPI.Rules? {
        let rules = ShakyAPI.Rules(
            indicationTime: indicationTime, timeAfterFirstBuzz: timeAfterFirstBuzz, answerTime: answerTime,
            basePoints: basePoints, pointsPerHint: pointsPerHint, minimumPoints: minimumPoints,
            maximumHints: maximumHints, hintCooldown: hintCooldown, answerTolerance: answerTolerance,
            ignoreDiacritics: ignoreDiacritics, buzzerMode: buzzerMode?.wire, earlyPressLockout: earlyPressLockout)
        return rules == ShakyAPI.Rules() ? nil : rules
    }

    /// The `Game.New` parameters.
    var request: ShakyAPI.GameInterface.NewParameters {
        ShakyAPI.GameInterface.NewParameters(
            teams: teams, packs: packs.isEmpty ? nil : packs, questions: questions, difficulty: difficulty, seed: seed,
            rules: rules, replace: replace ? true : nil)
    }

    /// Checks the teams and rules, with messages that say what to change.
    func validate() throws {
        guard teams.isEmpty || teams.count >= 2 else {
            throw ValidationError("A game needs at least 2 teams: add another --team NAME.")
        }
        guard teams.count <= 8 else {
            throw ValidationError("A game takes at most 8 teams, not \(teams.count).")
        }
        var seen: [String: String] = [:]
        for team in teams {
            let name = team.trimmingSpaces
            guard !name.isEmpty else {
                throw ValidationError("A team name is empty or only spaces: give each team a name to show.")
            }
            // A tab or a line break, which the command line lets through: a name is one line on the board.
            if let problem = TerminalText.problem(in: name) {
                let shown = TerminalText.printable(team, allowingLineBreaks: false)
                throw ValidationError("Team name “\(shown)” \(problem): leave it out.")
            }
            guard name.count <= 24 else {
                throw ValidationError("Team name “\(team)” has \(name.count) characters; a name has at most 24.")
            }
            if let earlier = seen[name.lowercased()] {
                throw ValidationError("Teams “\(earlier)” and “\(team)” have the same name; give each team its own.")
            }
            seen[name.lowercased()] = team
        }
        if let questions, !(1...50).contains(questions) {
            throw ValidationError("--questions must be from 1 to 50, not \(questions).")
        }
        let times = [
            ("--indication-time", indicationTime), ("--time-after-first-buzz", timeAfterFirstBuzz),
            ("--answer-time", answerTime),
        ]
        for case (let name, let value?) in times where !(value >= 0.1 && value <= 3600) {
            let said = DecimalText.said(value, outside: 0.1...3600)
            throw ValidationError("\(name) must be a number of seconds from 0.1 to 3600 (an hour), not \(said).")
        }
        if let hintCooldown, !(hintCooldown >= 0 && hintCooldown <= 3600) {
            throw ValidationError(
                "--hint-cooldown must be 0 to 3600 seconds, not \(DecimalText.said(hintCooldown, outside: 0...3600)).")
        }
        if let earlyPressLockout, !(earlyPressLockout >= 0 && earlyPressLockout <= 60) {
            let said = DecimalText.said(earlyPressLockout, outside: 0...60)
            throw ValidationError("--early-press-lockout must be 0 to 60 seconds, not \(said).")
        }
        // Each refusal names the whole range, as the help does.
        if let basePoints, basePoints < 1 || basePoints > 1000 {
            throw ValidationError("--base-points must be 1 to 1000, not \(basePoints).")
        }
        let base = basePoints ?? 10
        for case (let name, let value?) in [("--points-per-hint", pointsPerHint), ("--minimum-points", minimumPoints)]
        where value < 0 || value > base {
            throw ValidationError(
                "\(name) must be 0 to the question's worth (--base-points, \(base)), not \(value).")
        }
        if let maximumHints, maximumHints < 0 || maximumHints > 40 {
            throw ValidationError("--maximum-hints must be 0 to 40, not \(maximumHints).")
        }
    }
}

extension String {
    /// The string without whitespace at either end.
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return String(text)
    }
}

/// `--buzzer-mode` as typed.
enum BuzzerModeArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case buzzOrder = "buzz-order"
    case classic

    var defaultValueDescription: String {
        switch self {
        case .buzzOrder: "Every team may buzz, then teams answer in buzz order once buzzing is over (the default)."
        case .classic: "The first team to buzz answers at once, and a wrong answer reopens buzzing."
        }
    }

    /// The rule as the daemon takes it.
    var wire: ShakyAPI.Rules.BuzzerMode {
        switch self {
        case .buzzOrder: .buzzOrder
        case .classic: .classic
        }
    }
}
