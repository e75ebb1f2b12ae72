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
        if phase == .gameOver, event != .clockAdvanced {
            throw .gameIsOver
        }
        switch event {
        case .clockAdvanced:
            break
        case .nextQuestion:
            try openNextQuestion(actions: &actions)
        case .skipQuestion:
            guard phase.hasTimer else { throw .noQuestionInPlay(phase: phase) }
            endRound(winner: nil, actions: &actions)
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
        case .endGame:
            let allPlayed = phase == .roundOver && round?.number == questions.count
            if phase.hasTimer {
                endRound(winner: nil, actions: &actions)
            }
            finish(endedEarly: !allPlayed, actions: &actions)
        case .hint(let source):
            try giveHint(source: source, actions: &actions)
        case .buzz(let team):
            try buzz(team: team, actions: &actions)
        case .answer(let team, let text):
            try answer(team: team, text: text, actions: &actions)
        }
        if isCountdownRunning, let delay = nextWakeDelay {
            actions.append(.wake(after: delay))
        } else if wasRunning {
            actions.append(.cancelWake)
        }
        return actions
    }

    private func teamIndex(_ name: String) throws(GameError) -> Int {
        guard let index = teams.firstIndex(where: { Self.teamKey($0.name) == Self.teamKey(name) }) else {
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
        let (score, overflow) = teams[index].score.addingReportingOverflow(delta)
        guard !overflow else { throw .adjustmentTooLarge(delta) }
        teams[index].score = score
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
        round.points = settings.points(afterHints: round.hintsUsed)
        round.hintCooldownRemaining = settings.hintCooldown
        self.round = round
        actions.append(
            .hintRevealed(
                display: round.scramble.display, points: round.points, hintsUsed: round.hintsUsed, source: source))
    }

    private mutating func buzz(team name: String, actions: inout [GameAction]) throws(GameError) {
        guard phase == .indication, var round, let remaining = round.remaining else {
            throw .roundNotOpen(phase: phase)
        }
        guard !isPaused else { throw .gamePaused }
        let index = try teamIndex(name)
        let team = teams[index].name
        guard !round.buzzes.contains(where: { $0.team == team }) else { throw .alreadyBuzzed(team: team) }
        round.buzzes.append(Buzz(team: team, elapsed: round.elapsed))
        if round.buzzes.count == 1 {
            round.remaining = min(remaining, settings.timeAfterFirstBuzz)
        }
        teams[index].buzzCount += 1
        teams[index].totalBuzzTime += round.elapsed
        self.round = round
        actions.append(
            .buzzed(
                team: team, order: round.buzzes.count, elapsed: round.elapsed,
                indicationRemaining: round.remaining ?? .zero))
        if round.buzzes.count == teams.count {
            endIndication(actions: &actions)
        }
    }

    private mutating func answer(team name: String, text: String, actions: inout [GameAction]) throws(GameError) {
        let upNow: String
        switch phase {
        case .indication:
            throw .notAnsweringYet
        case .answering(let team):
            upNow = team
        case .ready, .roundOver, .gameOver:
            throw .noAnswerExpected(phase: phase)
        }
        guard !isPaused else { throw .gamePaused }
        let index = try teamIndex(name)
        guard teams[index].name == upNow else { throw .notYourTurn(team: teams[index].name, upNow: upNow) }
        guard let round else { return }
        if AnswerChecker(settings: settings).accepts(text, for: round.question) {
            teams[index].score += round.points
            teams[index].correctAnswers += 1
            teams[index].hintsUsed += round.hintsUsed
            actions.append(.judged(team: upNow, given: text, correct: true, pointsAwarded: round.points))
            endRound(winner: upNow, actions: &actions)
        } else {
            actions.append(.judged(team: upNow, given: text, correct: false, pointsAwarded: 0))
            passTurn(actions: &actions)
        }
    }

    /// Ends buzzing: the first team that buzzed is up, or, if none did, the question is over.
    mutating func endIndication(actions: inout [GameAction]) {
        guard let round, !round.buzzes.isEmpty else {
            endRound(winner: nil, actions: &actions)
            return
        }
        callTeam(actions: &actions)
    }

    /// Moves on after a wrong answer or a timeout: the next team that buzzed, or the end of the question.
    mutating func passTurn(actions: inout [GameAction]) {
        guard var round else { return }
        round.turnsTaken += 1
        self.round = round
        if round.turnsTaken < round.buzzes.count {
            callTeam(actions: &actions)
        } else {
            endRound(winner: nil, actions: &actions)
        }
    }

    private mutating func callTeam(actions: inout [GameAction]) {
        guard var round else { return }
        let team = round.buzzes[round.turnsTaken].team
        round.remaining = settings.answerTime
        self.round = round
        phase = .answering(team: team)
        actions.append(.phaseChanged(phase))
        actions.append(.teamUp(team: team, answerTime: settings.answerTime))
    }

    /// Closes the question in play: the answer is revealed and the host may go on.
    mutating func endRound(winner: String?, actions: inout [GameAction]) {
        guard var round else { return }
        round.remaining = nil
        round.winner = winner
        self.round = round
        isPaused = false
        phase = .roundOver
        actions.append(.answerRevealed(answer: round.question.answer, winner: winner))
        actions.append(.phaseChanged(.roundOver))
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
