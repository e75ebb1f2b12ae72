import ShakyCore

extension Game {
    /// The most any duration of a saved game may be either way: far beyond what play reaches (every timer is at most
    /// an hour), and small enough that no sum of a game's durations overflows.
    static let longestSavedDuration: Duration = .seconds(100_000_000)
    /// The most any count or score of a saved game may be either way, for the same reason.
    static let largestSavedNumber = 1_000_000_000_000

    /// What makes this game, decoded from a saved snapshot, impossible to play on; `nil` when it is consistent.
    ///
    /// A game only ever reaches consistent states through its own moves, but a snapshot is a file: damaged, edited
    /// or written by a faulty version, it could hold an index out of range, a negative count or a number whose
    /// arithmetic overflows, and the game would trap on it. This checks every value the moves index with or do
    /// arithmetic on, against the rules the moves keep (teams and names as a setup allows, a round's number among
    /// the questions, its scramble's positions inside its answer, buzzes by teams that play, the team up among
    /// them) and generous bounds for the rest (``longestSavedDuration``, ``largestSavedNumber``).
    public var inconsistency: String? {
        do {
            try checkConsistency()
            return nil
        } catch {
            return error.problem
        }
    }

    private func checkConsistency() throws(SavedGameInconsistency) {
        do {
            try settings.validate()
        } catch {
            throw .init("its rules: \(error)")
        }
        try check(GameSetup.teamCountRange.contains(teams.count), "it has \(teams.count) teams")
        for team in teams {
            try check(
                !TeamNameKey.of(team.name).isEmpty && team.name.count <= GameSetup.teamNameLengthRange.upperBound,
                "a team name is empty or too long")
            try check(
                teams.count(where: { TeamNameKey.of($0.name) == TeamNameKey.of(team.name) }) == 1,
                "two teams are called \(team.name)")
            for number in [team.score, team.correctAnswers, team.hintsUsed, team.buzzCount] {
                try checkNumber(number, "team \(team.name.possessive) statistics")
            }
            try check(team.correctAnswers >= 0 && team.hintsUsed >= 0 && team.buzzCount >= 0, "a negative count")
            try checkDuration(team.totalBuzzTime, "team \(team.name.possessive) buzz time")
            try check(team.adjustments.count <= Self.mostAdjustmentsPerTeam, "too many adjustments")
            for adjustment in team.adjustments {
                try check(
                    adjustment.delta.magnitude <= Self.largestAdjustment.magnitude, "an adjustment out of range")
            }
        }
        try check(GameSetup.questionCountRange.contains(questions.count), "it has \(questions.count) questions")
        // Every given answer is checked against each of a question's answers: a pack holds 20 of 40 letters at most.
        try check(
            questions.allSatisfy { question in
                question.alternates.count <= 100
                    && ([question.answer] + question.alternates).allSatisfy { $0.unicodeScalars.count <= 200 }
            }, "a question has too many or too long answers")
        try check(random.isUsable, "its random generator's state is damaged")
        // `lastUpdate`, a reading of the clock of the run that saved it, is not checked: a restore replaces it.
        if let round { try check(round) }
        switch phase {
        case .ready:
            try check(round == nil, "it is waiting for the first question, but one was played")
        case .indication:
            try check(round?.remaining != nil, "a question is open without a countdown")
        case .answering(let team):
            guard let round, round.remaining != nil, round.turnsTaken < round.buzzes.count,
                round.buzzes[round.turnsTaken].team == team
            else { throw .init("\(team) is up to answer, but not next in the buzz order") }
        case .roundOver:
            try check(round != nil, "a question is over, but none was played")
        case .gameOver:
            try check(result != nil, "the game is over without a result")
        }
    }

    private func check(_ round: Round) throws(SavedGameInconsistency) {
        // Compared, not offset: a number from the file may be the smallest there is.
        try check(
            round.number >= 1 && round.number <= questions.count, "its question number \(round.number) is not played")
        let scramble = round.scramble
        try check(
            scramble.shown.count == scramble.solution.count
                && zip(scramble.letterPositions, scramble.letterPositions.dropFirst()).allSatisfy { $0 < $1 }
                && scramble.letterPositions.allSatisfy { scramble.solution.indices.contains($0) }
                && (0...scramble.letterCount).contains(scramble.fixedCount),
            "its scramble does not fit its answer")
        // The letters shown are the answer's, moved about: an edited file showed letters the answer does not have.
        try check(scramble.shown.sorted() == scramble.solution.sorted(), "its scramble shows letters of another answer")
        let hints = 0...GameRules.mostHints
        try check(hints.contains(round.hintsUsed), "\(round.hintsUsed) hints were used")
        try check(round.points.magnitude <= GameRules.largestPoints, "the question is worth \(round.points)")
        for duration in [round.elapsed, round.hintCooldownRemaining]
            + [round.remaining, round.indicationRemaining, round.timeCutByFirstBuzz]
            .compactMap({ $0 }) + (round.hintTimes ?? [])
        {
            try checkDuration(duration, "the question's times")
        }
        // No countdown is ever longer than the longest timer: a file's 100 000 s showed as "16666:39 left".
        for countdown in [round.remaining, round.indicationRemaining].compactMap({ $0 }) {
            try check(
                countdown >= .zero && countdown <= GameRules.longestDuration,
                "its countdown of \(countdown) is longer than any timer")
        }
        try check((round.hintTimes?.count ?? 0) <= GameRules.mostHints, "too many hint times")
        try check(round.buzzes.count <= teams.count, "more buzzes than teams")
        try check((0...round.buzzes.count).contains(round.turnsTaken), "\(round.turnsTaken) turns were taken")
        let names = Set(teams.map(\.name))
        for (index, buzz) in round.buzzes.enumerated() {
            try check(names.contains(buzz.team), "a buzz by \(buzz.team), who does not play")
            try check(!round.buzzes[..<index].contains { $0.team == buzz.team }, "\(buzz.team) buzzed twice")
            try checkDuration(buzz.elapsed, "a buzz's time")
            try check(buzz.hintsUsed.map(hints.contains) ?? true, "a buzz's hints are out of range")
            try check((buzz.points?.magnitude ?? 0) <= GameRules.largestPoints, "a buzz's points are out of range")
        }
        try check((round.judgements?.count ?? 0) <= teams.count, "more judgements than teams")
        for judgement in [round.lastJudgement].compactMap({ $0 }) + (round.judgements ?? []) {
            try check(names.contains(judgement.team), "a judgement of \(judgement.team), who does not play")
            try check(hints.contains(judgement.hintsUsed), "a judgement's hints are out of range")
            try check(judgement.points.magnitude <= GameRules.largestPoints, "a judgement's points are out of range")
        }
    }

    private func check(_ condition: Bool, _ problem: @autoclosure () -> String) throws(SavedGameInconsistency) {
        guard condition else { throw .init(problem()) }
    }

    private func checkNumber(_ number: Int, _ what: String) throws(SavedGameInconsistency) {
        try check(number.magnitude <= Self.largestSavedNumber, "\(what): \(number) is out of range")
    }

    private func checkDuration(_ duration: Duration, _ what: String) throws(SavedGameInconsistency) {
        try check(
            duration >= .zero - Self.longestSavedDuration && duration <= Self.longestSavedDuration,
            "\(what): \(duration) is out of range")
    }
}

/// Why a saved game cannot be played on.
private struct SavedGameInconsistency: Error {
    var problem: String
    init(_ problem: String) { self.problem = problem }
}
