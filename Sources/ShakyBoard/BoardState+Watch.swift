import ShakyProtocol

// The one place the board reads the wire: `Watch` events and `Sensor.Status`, `Settings.Get` and `Buzzers.List`
// replies become board state. Everything else in the board speaks `BoardState`.

extension BoardState {
    /// Applies one `Watch` event that arrived at board time `now`.
    public mutating func apply(_ event: ShakyAPI.Event, at now: Duration) {
        let counted = countdown.remaining(at: now)
        defer { countdown.apply(event, at: now) }
        switch event.kind {
        case .state:
            if let status = event.status { apply(status) } else { clearGame() }
        case .roundStarted:
            clearRound()
            phase = .open
            isPaused = false
            questionNumber = event.number ?? questionNumber
            questionCount = event.total ?? questionCount
            question = event.question
            tiles = (event.tiles ?? []).map(Tile.init)
            points = event.points
            remaining = event.remaining
            countdownLength = event.remaining
            indicationLength = event.remaining ?? indicationLength
        case .hint:
            let newTiles = (event.tiles ?? []).map(Tile.init)
            hintedTiles = Set(
                newTiles.indices.filter { index in
                    newTiles[index].isFixed && (index >= tiles.count || !tiles[index].isFixed)
                })
            hintedAt = now
            // The board's own sensor needs no words; a controller's shake says whose it was.
            hintShaker = event.shaker.flatMap { $0.kind == .controller ? $0.team ?? "a controller" : nil }
            tiles = newTiles
            points = event.points ?? points
            hintsUsed = event.hintsUsed ?? hintsUsed
        case .buzz:
            if let team = event.team {
                // The points freeze at the buzz: the question's worth now is what a right answer scores.
                buzzes.append(
                    Buzz(
                        team: team, order: event.order ?? buzzes.count + 1, elapsed: event.elapsed ?? 0,
                        points: points))
            }
            if let left = event.remaining { remaining = left }
        case .teamUp:
            teamUp = event.team
            if let team = event.team { phase = .answering(team: team) }
            remaining = event.remaining
            countdownLength = event.remaining
            answerLength = event.remaining ?? answerLength
        case .judged:
            guard let team = event.team else { return }
            let correct = event.correct ?? false
            let awarded = event.awarded ?? 0
            judgements.append(Judgement(team: team, given: event.given, isCorrect: correct, awarded: awarded))
            if correct, let index = teams.firstIndex(where: { $0.name == team }) {
                teams[index].score = teams[index].score &+ awarded
            }
        case .answerRevealed:
            answer = event.answer
            roundWinner = event.winner
            roundEnd = event.roundEnd.map(RoundEnd.init)
            phase = .roundOver
            teamUp = nil
            remaining = nil
            // A question ends unpaused (skipped or the game ended while paused): no `resumed` event follows.
            isPaused = false
        case .scoreAdjusted:
            if let team = event.team, let score = event.score, let index = teams.firstIndex(where: { $0.name == team })
            {
                teams[index].score = score
            }
            if let team = event.team, let delta = event.delta {
                scoreChange = ScoreChange(team: team, delta: delta, reason: event.reason, at: now)
            }
        case .overruled:
            guard let team = event.team else { return }
            let correct = event.correct ?? false
            if let score = event.score, let index = teams.firstIndex(where: { $0.name == team }) {
                teams[index].score = score
            }
            if let index = judgements.lastIndex(where: { $0.team == team }) {
                judgements[index].isCorrect = correct
                judgements[index].awarded = correct ? event.delta ?? 0 : 0
            } else {
                // A judgement made before the board connected (the state carries none): the overrule says it.
                judgements.append(
                    Judgement(
                        team: team, given: event.timedOut == true ? nil : event.given, isCorrect: correct,
                        awarded: correct ? event.delta ?? 0 : 0))
            }
            if !correct {
                // Right after all wrong: play goes on, so the answer is not out any more.
                roundWinner = nil
                roundEnd = nil
                answer = nil
            }
        case .buzzUndone:
            guard let team = event.team else { return }
            buzzes.removeAll { $0.team == team }
            for index in buzzes.indices { buzzes[index].order = index + 1 }
            if teamUp == team { teamUp = nil }
        case .tick:
            if let name = event.phase { applyPhase(named: name) }
            remaining = event.remaining
            if let left = event.remaining { countdownLength = max(phaseLength ?? countdownLength ?? 0, left) }
        case .phaseChanged:
            if let name = event.phase { applyPhase(named: name) }
            // A new countdown (buzzing reopened, a team called up): its own length, not what is left at the change,
            // as a board that reads the state afterwards draws it. Unknown (the question started before the board
            // connected), the tick that follows starts the bar full.
            switch phase {
            case .open, .answering: countdownLength = phaseLength
            case .noGame, .ready, .roundOver, .gameOver: break
            }
        case .paused:
            isPaused = true
            // The time left as the daemon says it (a daemon that does not: as counted here); no tick comes while
            // paused.
            if let left = event.remaining ?? counted { remaining = left }
        case .resumed:
            isPaused = false
        case .gameOver:
            phase = .gameOver
            remaining = nil
            isPaused = false
            if let result = event.result { apply(result) }
        case .sensor:
            isSensorGone = event.sensorPresent == false
        case .buzzer:
            // The buzz itself arrives as its own `buzz` event; here joins, devices going and coming back, and
            // presses that did nothing.
            if let buzzer = event.buzzer { apply(buzzer, at: now) }
        }
    }

    /// Applies a `Buzzers.List` reply: every assignment and device, replacing what was known.
    public mutating func apply(buzzers: ShakyAPI.BuzzersInterface.ListReply) {
        var devices: [String: ButtonDevice] = [:]
        for device in buzzers.devices {
            devices[device.identity] = ButtonDevice(name: device.name, kind: device.kind, isPresent: device.present)
        }
        buttonDevices = devices
        var assigned: [String: Button] = [:]
        for assignment in buzzers.assignments {
            assigned[assignment.team] = Button(device: assignment.device, keyName: assignment.keyName)
        }
        buttons = assigned
        joiningTeam = buzzers.joining.first
    }

    private mutating func apply(_ buzzer: ShakyAPI.ButtonEvent, at now: Duration) {
        switch buzzer.kind {
        case .joined:
            guard let team = buzzer.team, let device = buzzer.device, let keyName = buzzer.keyName else { return }
            // A button has one team: whoever held it before lost it to this join.
            for (other, button) in buttons where button.device == device && button.keyName == keyName {
                buttons[other] = nil
            }
            buttons[team] = Button(device: device, keyName: keyName)
            if buttonDevices[device] == nil { buttonDevices[device] = ButtonDevice() }
            // The next team's `joinAsking` follows, unless this was the last.
            if joiningTeam == team { joiningTeam = nil }
            unheardPress = nil
        case .joinAsking:
            joiningTeam = buzzer.team
        case .joinEnded:
            // A new game of other teams, or another joining: nobody is asked any more.
            joiningTeam = nil
            unheardPress = nil
        case .cleared:
            // Clearing also stops a joining.
            joiningTeam = nil
            unheardPress = nil
            if let team = buzzer.team {
                for name in buttons.keys where name.lowercased() == team.lowercased() { buttons[name] = nil }
            } else {
                buttons = [:]
            }
        case .deviceGone, .deviceBack:
            guard let device = buzzer.device else { return }
            buttonDevices[device, default: ButtonDevice()].isPresent = buzzer.kind == .deviceBack
        case .pressed:
            // A press that buzzed or came early is told by the game's events; one that did nothing only here.
            guard let keyName = buzzer.keyName else { return }
            switch buzzer.outcome {
            case "unassigned":
                guard let device = buzzer.path ?? buzzer.device else { return }
                unheardPress = UnheardPress(keyName: keyName, device: device, at: now)
            case "taken":
                guard let owner = buzzer.team, let asking = buzzer.asking else { return }
                unheardPress = UnheardPress(
                    keyName: keyName, device: buzzer.device ?? "", owner: owner, asking: asking, at: now)
            default:
                break
            }
        }
    }

    /// Applies a `Sensor.Status` reply.
    public mutating func apply(sensor: ShakyAPI.SensorStatus) {
        isSensorGone = sensor.state == .gone
    }

    /// Applies a `Settings.Get` reply.
    public mutating func apply(settings: ShakyAPI.Settings) {
        isSoundSilent = !settings.sound || settings.volume <= 0
    }

    private mutating func apply(_ status: ShakyAPI.State) {
        clearGame()
        switch status.phase {
        case .ready: phase = .ready
        case .indication: phase = .open
        case .answering: phase = status.teamUp.map { .answering(team: $0) } ?? .open
        case .roundOver: phase = .roundOver
        case .gameOver: phase = .gameOver
        }
        isPaused = status.paused
        teamUp = status.teamUp
        questionNumber = status.questionNumber
        questionCount = status.questionCount
        question = status.question
        tiles = (status.tiles ?? []).map(Tile.init)
        points = status.points
        hintsUsed = status.hintsUsed
        remaining = status.remaining
        // An older daemon does not say the countdown's length: the bar then starts full from what is left.
        countdownLength = status.countdownLength ?? status.remaining
        switch status.phase {
        case .indication: indicationLength = status.countdownLength
        case .answering: answerLength = status.countdownLength
        case .ready, .roundOver, .gameOver: break
        }
        teams = status.teams.map { Team(name: $0.name, score: $0.score) }
        buzzes = status.buzzes.map { Buzz(team: $0.team, order: $0.order, elapsed: $0.elapsed, points: $0.points) }
        judgements = (status.judgements ?? []).map {
            Judgement(team: $0.team, given: $0.given, isCorrect: $0.correct, awarded: $0.awarded)
        }
        answer = status.answer
        roundWinner = status.roundWinner
        roundEnd = status.roundEnd.map(RoundEnd.init)
        if let result = status.result { apply(result) }
    }

    private mutating func apply(_ result: ShakyAPI.Result) {
        self.result = Result(
            standings: result.standings.map {
                Standing(
                    team: $0.team, points: $0.points, rank: $0.rank, correctAnswers: $0.correctAnswers,
                    hintsUsed: $0.hintsUsed, buzzes: $0.buzzes, averageBuzzTime: $0.averageBuzzTime)
            },
            winners: result.winners, questionsPlayed: result.questionsPlayed, questionCount: result.questionCount,
            endedEarly: result.endedEarly)
        for standing in result.standings {
            if let index = teams.firstIndex(where: { $0.name == standing.team }) {
                teams[index].score = standing.points
            }
        }
    }

    /// The full length of the running phase's countdown, when known: the time to buzz or to answer.
    private var phaseLength: Double? {
        switch phase {
        case .open: indicationLength
        case .answering: answerLength
        case .noGame, .ready, .roundOver, .gameOver: nil
        }
    }

    /// The daemon names phases `indication`, `answering(Owls)`, `roundOver`, `gameOver`, `ready`.
    private mutating func applyPhase(named name: String) {
        switch name {
        case "ready": phase = .ready
        case "indication":
            phase = .open
            teamUp = nil
        case "roundOver": phase = .roundOver
        case "gameOver": phase = .gameOver
        default:
            if name.hasPrefix("answering("), name.hasSuffix(")") {
                let team = String(name.dropFirst("answering(".count).dropLast())
                phase = .answering(team: team)
                teamUp = team
            }
        }
    }
}

extension BoardState.RoundEnd {
    init(_ end: ShakyAPI.State.RoundEnd) {
        switch end {
        case .answered: self = .answered
        case .timeUp: self = .timeUp
        case .wrongAnswers: self = .wrongAnswers
        case .skipped: self = .skipped
        case .gameEnded: self = .gameEnded
        case .overruled: self = .overruled
        }
    }
}

extension BoardState.Tile {
    init(_ tile: ShakyAPI.Tile) {
        self.init(text: tile.text, isLetter: tile.letter, isFixed: tile.fixed)
    }
}
