extension VarlinkInterface {
    /// The description of `io.shakywords.Game`, served verbatim.
    public static let gameDescription = #"""
        # Shaky Words: teams race to name the answer from its scrambled letters.
        # Shaking the device (or Hint) puts one more letter in its right place, for
        # fewer points; the first team to buzz answers first, the others in buzz order.
        #
        # Reading the game (Status, Scoreboard, Watch, History, Leaderboard) is open
        # to every local user; changing it needs root, the daemon's user or group shaky.
        interface io.shakywords.Game

        # One tile of the scrambled answer.
        type Tile (
          # The letter, space or punctuation mark shown.
          text: string,
          # False for spaces and punctuation, which are never scrambled.
          letter: bool,
          # True once a hint has put this letter in its right place.
          fixed: bool
        )

        # A team and its score.
        type TeamScore (
          name: string,
          score: int
        )

        # A buzz on the current question.
        type BuzzEntry (
          team: string,
          # Place in the buzz order, from 1.
          order: int,
          # Seconds since the question opened (pauses left out).
          elapsed: float
        )

        # One line of the final scoreboard.
        type Standing (
          team: string,
          points: int,
          # Shared on ties: 1, 1, 3.
          rank: int,
          correctAnswers: int,
          hintsUsed: int,
          buzzes: int,
          # Mean seconds from question to buzz; null when the team never buzzed.
          averageBuzzTime: ?float
        )

        # How a game ended.
        type Result (
          standings: []Standing,
          # Every team ranked first.
          winners: []string,
          questionsPlayed: int,
          questionCount: int,
          endedEarly: bool
        )

        # Rules of one game; every field is optional and defaults as shown.
        type Rules (
          # Seconds to buzz (60).
          indicationTime: ?float,
          # Seconds left after the first buzz, or what is left if less (20).
          timeAfterFirstBuzz: ?float,
          # Seconds each team has to answer (60).
          answerTime: ?float,
          # What a question is worth with no hints (10).
          basePoints: ?int,
          # Points lost per hint (2).
          pointsPerHint: ?int,
          # The least a question is worth after hints (2).
          minimumPoints: ?int,
          # Most hints per question (3).
          maximumHints: ?int,
          # Seconds between two hints, so one long shake spends one hint (1.5).
          hintCooldown: ?float,
          # Accept near misses: 1 typo for 4-7 letters, 2 for 8 or more (true).
          answerTolerance: ?bool,
          # Accept answers without accents (true).
          ignoreDiacritics: ?bool
        )

        # Everything a board or a player needs to show the game.
        type State (
          phase: (ready, indication, answering, roundOver, gameOver),
          # The countdown is frozen.
          paused: bool,
          # The team whose turn it is to answer, in phase answering.
          teamUp: ?string,
          # The question in play or last played, from 1.
          questionNumber: ?int,
          questionCount: int,
          question: ?string,
          # The scrambled answer, while a question is in play.
          tiles: ?[]Tile,
          # Word lengths, e.g. "_ _ _ / _ _ _ _".
          pattern: ?string,
          # What a right answer scores now.
          points: ?int,
          hintsUsed: int,
          hintsLeft: int,
          # Seconds left in the countdown.
          remaining: ?float,
          teams: []TeamScore,
          buzzes: []BuzzEntry,
          # The answer, once the question is over.
          answer: ?string,
          # The team that got the last question right.
          roundWinner: ?string,
          # The result, once the game is over.
          result: ?Result
        )

        # One thing that happened, as Watch reports it. `kind` says which fields are set.
        type Event (
          kind: (state, roundStarted, hint, buzz, teamUp, judged, answerRevealed, scoreAdjusted, tick, phaseChanged, paused, resumed, gameOver, sensor),
          # kind state: the whole game (the first reply, and after New).
          status: ?State,
          # roundStarted: question number, total and text.
          number: ?int,
          total: ?int,
          question: ?string,
          # roundStarted, hint: the arrangement, what the question is worth, hints used.
          tiles: ?[]Tile,
          pattern: ?string,
          points: ?int,
          hintsUsed: ?int,
          # hint: shake or manual.
          source: ?string,
          # buzz, teamUp, judged, scoreAdjusted: the team.
          team: ?string,
          # buzz: place in the buzz order and seconds since the question opened.
          order: ?int,
          elapsed: ?float,
          # buzz, teamUp, tick: seconds left in the countdown.
          remaining: ?float,
          # judged: the answer given (null on a timeout), whether right, points won.
          given: ?string,
          correct: ?bool,
          awarded: ?int,
          # answerRevealed: the answer and the team that got it.
          answer: ?string,
          winner: ?string,
          # scoreAdjusted: the change, why, and the new score.
          delta: ?int,
          reason: ?string,
          score: ?int,
          # tick, phaseChanged: the phase, e.g. "answering(Owls)".
          phase: ?string,
          # gameOver: the result.
          result: ?Result,
          # sensor: the accelerometer went away or came back.
          sensorPresent: ?bool,
          sensorDevice: ?string
        )

        # A finished game.
        type FinishedGame (
          id: int,
          # ISO 8601, UTC.
          finishedAt: string,
          teams: []TeamScore,
          winners: []string
        )

        # A team's record across finished games.
        type LeaderboardEntry (
          team: string,
          games: int,
          wins: int,
          points: int
        )

        # Start a new game. Teams: 2-8 names, unique ignoring case, 1-24 characters.
        # Packs default to every pack; questions to 10; difficulty to any.
        # A game still in play is ended first only when replace is true.
        method New(
          teams: []string,
          packs: ?[]string,
          questions: ?int,
          difficulty: ?(any, easy, medium, hard),
          seed: ?int,
          rules: ?Rules,
          replace: ?bool
        ) -> (status: State)

        # Open the next question (the first one after New); after the last, end the game.
        method Next() -> (status: State)

        # Close the current question without points and reveal its answer.
        method Skip() -> (status: State)

        # Freeze the countdown, keeping the time left exactly.
        method Pause() -> (status: State)

        # Let the countdown run again.
        method Resume() -> (status: State)

        # End the game now; the result counts in history.
        method End() -> (status: State)

        # A team indicates it knows the answer (once per question).
        method Buzz(team: string) -> (status: State)

        # The team up gives its answer.
        method Answer(team: string, answer: string) -> (correct: bool, status: State)

        # Reveal one more letter, as a shake does.
        method Hint() -> (status: State)

        # Add (or with a negative delta take) points, with a reason.
        method AdjustScore(team: string, delta: int, reason: string) -> (status: State)

        # The game as it stands.
        method Status() -> (status: State)

        # Teams by points, with shared ranks.
        method Scoreboard() -> (standings: []Standing)

        # The state now, then every event until the client hangs up. Needs more.
        # A client that reads too slowly is disconnected.
        method Watch() -> (event: Event)

        # Finished games, newest first.
        method History(limit: ?int) -> (games: []FinishedGame)

        # Teams by wins, then points, across finished games.
        method Leaderboard(limit: ?int) -> (entries: []LeaderboardEntry)

        # There is no game; start one with New.
        error NoGame ()

        # A game is in play; end it, or call New with replace.
        error GameInProgress ()

        # The game cannot be set up as asked.
        error InvalidSetup (message: string)

        # The move is not allowed now; reason names the rule, message says it for people.
        error Refused (reason: string, message: string)

        # The daemon could not save; nothing was changed.
        error StorageFailed (message: string)

        """#
}
