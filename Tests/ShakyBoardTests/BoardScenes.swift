import ShakyBoard

/// Board states for every screen the board shows, with non-ASCII and wide names and letters.
enum BoardScenes {
    /// The snapshot sizes: the Pi's console, a laptop terminal, a TV terminal, and a narrow one.
    static let sizes: [(width: Int, height: Int)] = [(80, 24), (120, 40), (200, 60), (40, 20)]

    /// The board time every scene is drawn at.
    static let now: Duration = .seconds(100)

    static let teams = [
        BoardState.Team(name: "Owls", score: 12),
        BoardState.Team(name: "Foxes", score: 20),
        BoardState.Team(name: "Cú Mèo", score: 12),
        BoardState.Team(name: "Γλαύκες", score: 4),
    ]

    static let eightTeams =
        teams + [
            BoardState.Team(name: "猫头鹰", score: 7),
            BoardState.Team(name: "Bats 🦇", score: 0),
            BoardState.Team(name: "Émeus", score: 15),
            BoardState.Team(name: "Yaks", score: 3),
        ]

    static func tiles(_ text: String, fixed: Set<Int> = []) -> [BoardState.Tile] {
        text.enumerated().map { index, character in
            BoardState.Tile(text: String(character), isLetter: character != " ", isFixed: fixed.contains(index))
        }
    }

    static var all: [(name: String, state: BoardState)] {
        [
            ("waiting", waiting), ("ready", ready), ("ready-buttons", readyButtons), ("question-open", questionOpen),
            ("hint", hint),
            ("buzzes", buzzes), ("judged", judged), ("answer", answer), ("skipped", skipped), ("game-over", gameOver),
            ("notices", notices), ("wide-letters", wideLetters), ("eight-teams", eightTeamsOpen),
            ("no-daemon", noDaemon),
        ]
    }

    static var waiting: BoardState {
        var state = BoardState()
        state.connection = .connected
        return state
    }

    /// The daemon does not answer yet (a wrong socket, or a daemon failing to start).
    static var noDaemon: BoardState {
        var state = BoardState()
        state.connection = .reconnecting(attempt: 3)
        state.daemonSockets = ["/run/shaky/shaky.sock"]
        state.daemonProblem = "no socket there"
        return state
    }

    static var ready: BoardState {
        var state = waiting
        state.phase = .ready
        state.questionCount = 10
        state.teams = teams.map { BoardState.Team(name: $0.name) }
        return state
    }

    /// The ready screen while teams join: a Buzz! handset, a keyboard key, an unplugged arcade button and a
    /// team still to press.
    static var readyButtons: BoardState {
        var state = ready
        state.buttonDevices = [
            "usb-buzz": BoardState.ButtonDevice(name: "Logitech Buzz(tm) Controller V1", kind: "buzz"),
            "usb-kbd": BoardState.ButtonDevice(name: "USB Keyboard", kind: "keyboard"),
            "usb-arcade": BoardState.ButtonDevice(name: "DragonRise Arcade Encoder", kind: "arcade", isPresent: false),
        ]
        state.buttons = [
            "Owls": BoardState.Button(device: "usb-buzz", keyName: "BTN_TRIGGER_HAPPY6"),
            "Foxes": BoardState.Button(device: "usb-kbd", keyName: "KEY_A"),
            "Cú Mèo": BoardState.Button(device: "usb-arcade", keyName: "BTN_TRIGGER"),
        ]
        return state
    }

    static var questionOpen: BoardState {
        var state = waiting
        state.phase = .open
        state.questionNumber = 3
        state.questionCount = 10
        state.question = "Which animal has the longest neck?"
        state.tiles = tiles("FGEIRFA", fixed: [0])
        state.points = 8
        state.hintsUsed = 1
        state.remaining = 23
        state.countdownLength = 40
        state.teams = teams
        return state
    }

    static var hint: BoardState {
        var state = questionOpen
        state.tiles = tiles("GIEFRFA", fixed: [0, 1])
        state.hintedTiles = [1]
        state.hintedAt = now - .seconds(1)
        state.points = 6
        state.hintsUsed = 2
        return state
    }

    static var buzzes: BoardState {
        var state = questionOpen
        state.phase = .answering(team: "Cú Mèo")
        state.teamUp = "Cú Mèo"
        state.buzzes = [
            BoardState.Buzz(team: "Cú Mèo", order: 1, elapsed: 3.46, points: 10),
            BoardState.Buzz(team: "Foxes", order: 2, elapsed: 4.1, points: 8),
        ]
        state.remaining = 27
        state.countdownLength = 30
        return state
    }

    static var judged: BoardState {
        var state = buzzes
        state.phase = .answering(team: "Foxes")
        state.teamUp = "Foxes"
        state.judgements = [BoardState.Judgement(team: "Cú Mèo", given: "Élan", isCorrect: false)]
        state.remaining = 30
        return state
    }

    static var answer: BoardState {
        var state = judged
        state.phase = .roundOver
        state.teamUp = nil
        state.judgements.append(BoardState.Judgement(team: "Foxes", given: "Giraffe", isCorrect: true, awarded: 8))
        state.answer = "Giraffe"
        state.roundWinner = "Foxes"
        state.roundEnd = .answered
        state.remaining = nil
        return state
    }

    /// The host skipped the question before anyone buzzed.
    static var skipped: BoardState {
        var state = questionOpen
        state.phase = .roundOver
        state.answer = "Giraffe"
        state.roundEnd = .skipped
        state.remaining = nil
        return state
    }

    static var gameOver: BoardState {
        var state = waiting
        state.phase = .gameOver
        state.questionNumber = 10
        state.questionCount = 10
        state.teams = teams
        state.result = BoardState.Result(
            standings: [
                BoardState.Standing(
                    team: "Foxes", points: 20, rank: 1, correctAnswers: 3, hintsUsed: 2, buzzes: 5,
                    averageBuzzTime: 4.25),
                BoardState.Standing(
                    team: "Owls", points: 12, rank: 2, correctAnswers: 2, hintsUsed: 4, buzzes: 6,
                    averageBuzzTime: 6.5),
                BoardState.Standing(
                    team: "Cú Mèo", points: 12, rank: 2, correctAnswers: 2, hintsUsed: 1, buzzes: 3,
                    averageBuzzTime: 3.0),
                BoardState.Standing(team: "Γλαύκες", points: 4, rank: 4, correctAnswers: 1, hintsUsed: 0, buzzes: 1),
            ], winners: ["Foxes"], questionsPlayed: 10, questionCount: 10)
        return state
    }

    static var notices: BoardState {
        var state = questionOpen
        state.connection = .reconnecting(attempt: 3)
        state.isPaused = true
        state.isSensorGone = true
        state.isSoundSilent = true
        return state
    }

    static var wideLetters: BoardState {
        var state = questionOpen
        state.question = "Món ăn nào của Hà Nội? 🍜 Ποιο φαγητό; 東京の料理は？"
        state.tiles = tiles("PHỞ BÒ 東京 ΛΆΜΔΑ", fixed: [2, 7])
        state.hintedTiles = [7]
        state.hintedAt = now
        return state
    }

    static var eightTeamsOpen: BoardState {
        var state = questionOpen
        state.question = "Which ocean is the largest?"
        state.tiles = tiles("OCIFAPC NOCAE", fixed: [])
        state.teams = eightTeams
        state.buzzes = [BoardState.Buzz(team: "猫头鹰", order: 1, elapsed: 1.5)]
        state.remaining = 5
        return state
    }
}
