import ShakyCore

extension Game {
    /// Handles one event at clock reading `now` and returns what the runtime should do.
    ///
    /// First the countdown advances to `now`, processing every tick and deadline that fell due since
    /// the last event (a late wake-up catches up completely). Then the event is applied. An event that
    /// is not allowed now throws and leaves the game exactly as it was, time included; the deadlines
    /// it would have caught up are processed by the next accepted event or wake-up.
    ///
    /// The last action is `.wake(after:)` whenever a countdown runs, or `.cancelWake` when this event
    /// stopped it.
    ///
    /// Once the game is over, only the host's corrections are taken besides the clock: `.overrule` (of the last
    /// judgement of the last question played) and `.adjustScore`. Each recomputes the result and ends with
    /// `.resultCorrected`; play does not go on. They are taken for as long as this game is the current one (a new
    /// game replaces it).
    public mutating func handle(_ event: GameEvent, at now: Duration) throws(GameError) -> [GameAction] {
        var next = self
        let actions = try next.apply(event, at: now)
        self = next
        return actions
    }

    private mutating func apply(_ event: GameEvent, at now: Duration) throws(GameError) -> [GameAction] {
        let wasRunning = isCountdownRunning
        var actions: [GameAction] = []
        advance(to: now, actions: &actions)
        if phase == .gameOver, !event.isTakenAfterGameOver {
            throw .gameIsOver
        }
        switch event {
        case .clockAdvanced:
            break
        case .nextQuestion:
            try openNextQuestion(actions: &actions)
        case .skipQuestion:
            guard phase.hasTimer else { throw .noQuestionInPlay(phase: phase) }
            round?.skipped = true
            endRound(winner: nil, as: .skipped, actions: &actions)
        case .pause:
            guard phase.hasTimer else { throw .nothingToPause(phase: phase) }
            guard !isPaused else { throw .alreadyPaused }
            isPaused = true
            actions.append(.paused)
        case .resume:
            guard isPaused else { throw .notPaused }
            isPaused = false
            actions.append(.resumed)
        case .adjustScore(let team, let delta, let reason):
            try adjustScore(team: team, delta: delta, reason: reason, actions: &actions)
            correctResult(actions: &actions)
        case .endGame:
            let allPlayed = phase == .roundOver && round?.number == questions.count
            if phase.hasTimer {
                endRound(winner: nil, as: .gameEnded, actions: &actions)
            }
            finish(endedEarly: !allPlayed, actions: &actions)
        case .hint(let source):
            try giveHint(source: source, actions: &actions)
        case .buzz(let team):
            try buzz(team: team, actions: &actions)
        case .answer(let team, let text):
            try answer(team: team, text: text, actions: &actions)
        case .overrule:
            try overrule(actions: &actions)
            correctResult(actions: &actions)
        case .undoBuzz(let team):
            try undoBuzz(team: team, actions: &actions)
        }
        if isCountdownRunning, let delay = nextWakeDelay {
            actions.append(.wake(after: delay))
        } else if wasRunning {
            actions.append(.cancelWake)
        }
        return actions
    }

    private func teamIndex(_ name: String) throws(GameError) -> Int {
        guard let index = teams.firstIndex(where: { TeamNameKey.of($0.name) == TeamNameKey.of(name) }) else {
            throw .unknownTeam(name)
        }
        return index
    }

    private mutating func openNextQuestion(actions: inout [GameAction]) throws(GameError) {
        guard !phase.hasTimer else { throw .questionInPlay(phase: phase) }
        let number = (round?.number ?? 0) + 1
        guard number <= questions.count else {
            finish(endedEarly: false, actions: &actions)
            return
        }
        let question = questions[number - 1]
        let scramble = Scramble(answer: question.answer, using: &random)
        round = Round(
            number: number, question: question, scramble: scramble, hintsUsed: 0, points: settings.basePoints,
            elapsed: .zero, buzzes: [], turnsTaken: 0, remaining: settings.indicationTime,
            hintCooldownRemaining: .zero, winner: nil)
        phase = .indication
        actions.append(.phaseChanged(.indication))
        actions.append(
            .roundStarted(
                number: number, total: questions.count, question: question.text, display: scramble.display,
                points: settings.basePoints, indicationTime: settings.indicationTime))
    }

    private mutating func adjustScore(
        team: String, delta: Int, reason: String, actions: inout [GameAction]
    ) throws(GameError) {
        let index = try teamIndex(team)
        guard delta != 0 else { throw .zeroAdjustment }
        // `magnitude`, not `abs`: `abs(Int.min)` traps.
        guard delta.magnitude <= Self.largestAdjustment.magnitude else { throw .adjustmentTooLarge(delta) }
        let reason = reason.trimmingWhitespace
        guard !reason.isEmpty else { throw .missingReason }
        let characters = reason.count
        guard characters <= Self.longestAdjustmentReason else { throw .reasonTooLong(characters: characters) }
        let codePoints = reason.unicodeScalars.count
        guard codePoints <= Self.mostCodePointsInText else { throw .reasonTooComplex(codePoints: codePoints) }
        guard teams[index].adjustments.count < Self.mostAdjustmentsPerTeam else {
            throw .adjustmentLimitReached(team: teams[index].name)
        }
        let (score, overflow) = teams[index].score.addingReportingOverflow(delta)
        guard !overflow else { throw .adjustmentTooLarge(delta) }
        teams[index].score = score
        teams[index].adjustments.append(ScoreAdjustment(delta: delta, reason: reason, question: round?.number))
        actions.append(
            .scoreAdjusted(team: teams[index].name, delta: delta, reason: reason, newScore: teams[index].score))
    }

    private mutating func giveHint(source: HintSource, actions: inout [GameAction]) throws(GameError) {
        guard phase == .indication, var round else { throw .roundNotOpen(phase: phase) }
        guard !isPaused else { throw .gamePaused }
        guard round.hintsUsed < settings.maximumHints else { throw .hintLimitReached(maximum: settings.maximumHints) }
        guard round.scramble.fixedCount < round.scramble.hintCapacity else { throw .hintWouldRevealAnswer }
        guard round.hintCooldownRemaining <= .zero else {
            throw .hintCoolingDown(remaining: round.hintCooldownRemaining)
        }
        round.scramble.revealNextLetter(using: &random)
        round.hintsUsed += 1
        round.hintTimes = (round.hintTimes ?? []) + [round.elapsed]
        round.points = settings.points(afterHints: round.hintsUsed)
        round.hintCooldownRemaining = settings.hintCooldown
        self.round = round
        actions.append(
            .hintRevealed(
                display: round.scramble.display, points: round.points, hintsUsed: round.hintsUsed, source: source))
    }

    private mutating func buzz(team name: String, actions: inout [GameAction]) throws(GameError) {
        guard phase == .indication, var round, let remaining = round.remaining else {
            // While a team answers, a button pressed again or in a pause is told so: to the players the question is
            // still open.
            if case .answering = phase, let round {
                guard !isPaused else { throw .gamePaused }
                if let index = try? teamIndex(name), round.buzzes.contains(where: { $0.team == teams[index].name }) {
                    throw .alreadyBuzzed(team: teams[index].name)
                }
            }
            throw .roundNotOpen(phase: phase)
        }
        guard !isPaused else { throw .gamePaused }
        let index = try teamIndex(name)
        let team = teams[index].name
        guard !round.buzzes.contains(where: { $0.team == team }) else { throw .alreadyBuzzed(team: team) }
        round.buzzes.append(Buzz(team: team, elapsed: round.elapsed, points: round.points, hintsUsed: round.hintsUsed))
        if round.buzzes.count == 1 {
            round.remaining = min(remaining, settings.timeAfterFirstBuzz)
            round.timeCutByFirstBuzz = remaining - min(remaining, settings.timeAfterFirstBuzz)
        }
        teams[index].buzzCount += 1
        teams[index].totalBuzzTime += round.elapsed
        self.round = round
        actions.append(
            .buzzed(
                team: team, order: round.buzzes.count, elapsed: round.elapsed,
                indicationRemaining: round.remaining ?? .zero))
        if settings.buzzerMode == .classic || round.buzzes.count == teams.count {
            endIndication(actions: &actions)
        }
    }

    private mutating func answer(team name: String, text: String, actions: inout [GameAction]) throws(GameError) {
        let upNow: String
        switch phase {
        case .indication:
            throw settings.buzzerMode == .classic ? .nobodyHasBuzzed : .notAnsweringYet
        case .answering(let team):
            upNow = team
        case .ready, .roundOver, .gameOver:
            throw .noAnswerExpected(phase: phase)
        }
        guard !isPaused else { throw .gamePaused }
        let index = try teamIndex(name)
        guard teams[index].name == upNow else { throw .notYourTurn(team: teams[index].name, upNow: upNow) }
        guard let round else { return }
        // As said, without the spaces or line breaks around it, which every watcher would show inside its quotes.
        let text = text.trimmingWhitespace
        let characters = text.count
        guard characters <= Self.longestGivenAnswer else { throw .answerTooLong(characters: characters) }
        let codePoints = text.unicodeScalars.count
        guard codePoints <= Self.mostCodePointsInText else { throw .answerTooComplex(codePoints: codePoints) }
        let correct = AnswerChecker(settings: settings).accepts(text, for: round.question)
        judge(given: text, correct: correct, actions: &actions)
    }

    /// Judges the answer of the team that is up (`given` is nil when its time ran out): a right answer
    /// scores the points frozen at its buzz and ends the question; a wrong one passes the turn on.
    mutating func judge(given: String?, correct: Bool, actions: inout [GameAction]) {
        guard var round, case .answering(let team) = phase, round.turnsTaken < round.buzzes.count,
            let index = teams.firstIndex(where: { $0.name == team })
        else { return }
        let buzz = round.buzzes[round.turnsTaken]
        let judgement = Judgement(
            team: team, given: given, correct: correct, points: buzz.points ?? round.points,
            hintsUsed: buzz.hintsUsed ?? round.hintsUsed)
        round.lastJudgement = judgement
        round.judgements = (round.judgements ?? []) + [judgement]
        self.round = round
        if correct {
            teams[index].score += judgement.points
            teams[index].correctAnswers += 1
            teams[index].hintsUsed += judgement.hintsUsed
            actions.append(.judged(team: team, given: given, correct: true, pointsAwarded: judgement.points))
            endRound(winner: team, as: .answered, actions: &actions)
        } else {
            actions.append(.judged(team: team, given: given, correct: false, pointsAwarded: 0))
            passTurn(actions: &actions)
        }
    }

    /// Ends buzzing: the next team that buzzed and has not answered is up, or, if there is none, the
    /// question is over (its time ran out). The indication time left is kept, so buzzing can reopen with it.
    mutating func endIndication(actions: inout [GameAction]) {
        guard var round, round.turnsTaken < round.buzzes.count else {
            endRound(winner: nil, as: .timeUp, actions: &actions)
            return
        }
        round.indicationRemaining = round.remaining ?? .zero
        self.round = round
        callTeam(actions: &actions)
    }

    /// Moves on after a wrong answer or a timeout: the next team that buzzed, or buzzing reopens while time and a
    /// team that has not buzzed are left, or the question is over, ended as `end` (`wrongAnswers`, or `overruled`
    /// when an overrule took a right answer back).
    ///
    /// Buzzing reopens in classic mode after each wrong answer; in buzz-order mode only when buzzing ended early
    /// because every team had buzzed and the host has since taken a buzz back (a buzz pressed by mistake): that team
    /// may still buzz with the time that was left.
    mutating func passTurn(endingAs end: RoundEnd = .wrongAnswers, actions: inout [GameAction]) {
        guard var round else { return }
        round.turnsTaken += 1
        self.round = round
        if round.turnsTaken < round.buzzes.count {
            callTeam(actions: &actions)
        } else {
            reopenBuzzing(endingAs: end, actions: &actions)
        }
    }

    /// Reopens buzzing with the indication time that was left, if any is and a team has not buzzed;
    /// otherwise the question is over, ended as `end`.
    private mutating func reopenBuzzing(endingAs end: RoundEnd, actions: inout [GameAction]) {
        guard var round, let left = round.indicationRemaining, left > .zero, round.buzzes.count < teams.count else {
            endRound(winner: nil, as: end, actions: &actions)
            return
        }
        round.remaining = left
        round.indicationRemaining = nil
        round.end = nil
        self.round = round
        phase = .indication
        actions.append(.phaseChanged(.indication))
    }

    private mutating func callTeam(actions: inout [GameAction]) {
        guard var round else { return }
        let team = round.buzzes[round.turnsTaken].team
        round.remaining = settings.answerTime
        round.end = nil
        self.round = round
        phase = .answering(team: team)
        actions.append(.phaseChanged(phase))
        actions.append(.teamUp(team: team, answerTime: settings.answerTime))
    }

    /// Reverses the last judgement on the question in play or just over, or, once the game is over, on the last
    /// question played (then play does not go on: the game stays over).
    private mutating func overrule(actions: inout [GameAction]) throws(GameError) {
        guard phase.hasTimer || phase == .roundOver || phase == .gameOver, var round,
            var judgement = round.lastJudgement,
            let index = teams.firstIndex(where: { $0.name == judgement.team })
        else { throw .nothingToOverrule }
        judgement.correct.toggle()
        round.lastJudgement = judgement
        if let position = round.judgements?.lastIndex(where: { $0.team == judgement.team }) {
            round.judgements?[position].correct = judgement.correct
        }
        self.round = round
        let team = judgement.team
        if judgement.correct {
            // Wrong after all right: the team scores what it would have, and the question ends with it.
            teams[index].score += judgement.points
            teams[index].correctAnswers += 1
            teams[index].hintsUsed += judgement.hintsUsed
            actions.append(
                .judgementOverruled(
                    team: team, given: judgement.given, correct: true, pointsDelta: judgement.points,
                    newScore: teams[index].score))
            if phase.hasTimer {
                // Overruled while buzzing was open again (classic mode, after the wrong answer): the buzzing time
                // left is kept, as when a team is called to answer, for an overrule back to wrong to reopen with it.
                if phase == .indication, var open = self.round {
                    open.indicationRemaining = open.remaining
                    self.round = open
                }
                // Paused: an overrule back to wrong brings the question back paused, as the host left it.
                if isPaused, var open = self.round {
                    open.pausedWhenOverruled = true
                    self.round = open
                }
                endRound(winner: team, as: .overruled, actions: &actions)
            } else {
                round.winner = team
                // The host ended the game in this question: the game-over line still says so.
                if round.end != .gameEnded { round.end = .overruled }
                self.round = round
                // After the end the answer is not revealed again: the corrected result follows.
                if phase == .roundOver {
                    actions.append(.answerRevealed(answer: round.question.answer, winner: team, end: .overruled))
                }
            }
        } else {
            // Right after all wrong: the points go back and play goes on as after a wrong answer (not after the end).
            teams[index].score -= judgement.points
            teams[index].correctAnswers -= 1
            teams[index].hintsUsed -= judgement.hintsUsed
            round.winner = nil
            // A question the host skipped stays skipped, and after the end the question stays over, settled by the
            // overrule; otherwise play goes on.
            let staysOver = phase == .gameOver || round.skipped == true
            if !staysOver, let position = round.buzzes.firstIndex(where: { $0.team == team }) {
                round.turnsTaken = position
            }
            if staysOver, round.end != .gameEnded { round.end = round.skipped == true ? .skipped : .overruled }
            let pausedWhenOverruled = round.pausedWhenOverruled == true
            round.pausedWhenOverruled = nil
            self.round = round
            actions.append(
                .judgementOverruled(
                    team: team, given: judgement.given, correct: false, pointsDelta: -judgement.points,
                    newScore: teams[index].score))
            if !staysOver {
                passTurn(endingAs: .overruled, actions: &actions)
                if pausedWhenOverruled, phase.hasTimer {
                    isPaused = true
                    actions.append(.paused)
                }
            } else if phase == .roundOver, let end = round.end {
                // A skipped question, told again as such now that nobody got it.
                actions.append(.answerRevealed(answer: round.question.answer, winner: nil, end: end))
            }
        }
    }

    /// Takes back a team's buzz that has not been judged yet.
    private mutating func undoBuzz(team name: String, actions: inout [GameAction]) throws(GameError) {
        guard phase.hasTimer, var round else { throw .buzzNotUndoable(phase: phase) }
        let index = try teamIndex(name)
        let team = teams[index].name
        guard let position = round.buzzes.firstIndex(where: { $0.team == team }) else {
            throw .noBuzzToUndo(team: team)
        }
        guard position >= round.turnsTaken else { throw .buzzAlreadyJudged(team: team) }
        let buzz = round.buzzes.remove(at: position)
        teams[index].buzzCount -= 1
        teams[index].totalBuzzTime -= buzz.elapsed
        if round.buzzes.isEmpty, let cut = round.timeCutByFirstBuzz {
            // No buzz is left: the question goes on as if none had come, with the time the first one took away.
            if phase == .indication {
                round.remaining = round.remaining.map { $0 + cut }
            } else {
                round.indicationRemaining = round.indicationRemaining.map { $0 + cut }
            }
            round.timeCutByFirstBuzz = nil
        }
        self.round = round
        actions.append(.buzzUndone(team: team))
        guard phase == .answering(team: team) else { return }
        if round.turnsTaken < round.buzzes.count {
            callTeam(actions: &actions)
        } else {
            // A team is left to buzz (this one), so buzzing stays shut only when its time is gone.
            reopenBuzzing(endingAs: .timeUp, actions: &actions)
        }
    }

    /// Closes the question in play, ended as `end`: the answer is revealed and the host may go on.
    mutating func endRound(winner: String?, as end: RoundEnd, actions: inout [GameAction]) {
        guard var round else { return }
        round.remaining = nil
        round.winner = winner
        round.end = end
        self.round = round
        isPaused = false
        phase = .roundOver
        actions.append(.answerRevealed(answer: round.question.answer, winner: winner, end: end))
        actions.append(.phaseChanged(.roundOver))
    }

    /// Once the game is over, recomputes its result after a correction (an overrule or a score adjustment): the
    /// standings and winners follow the teams' scores; the questions played and how the game ended stay.
    private mutating func correctResult(actions: inout [GameAction]) {
        guard phase == .gameOver, let result else { return }
        let corrected = GameResult(
            teams: teams, questionsPlayed: result.questionsPlayed, questionCount: result.questionCount,
            endedEarly: result.endedEarly)
        self.result = corrected
        actions.append(.resultCorrected(corrected))
    }

    private mutating func finish(endedEarly: Bool, actions: inout [GameAction]) {
        let result = GameResult(
            teams: teams, questionsPlayed: round?.number ?? 0, questionCount: questions.count,
            endedEarly: endedEarly)
        self.result = result
        phase = .gameOver
        isPaused = false
        actions.append(.phaseChanged(.gameOver))
        actions.append(.gameOver(result))
    }
}
