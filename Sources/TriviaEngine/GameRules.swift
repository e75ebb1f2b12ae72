/// The timing and scoring rules of one game; every value has the original game's default.
public struct GameRules: Codable, Equatable, Sendable {
    /// How long teams may buzz after a question opens (default 60 s).
    public var indicationTime: Duration
    /// The most indication time left once the first team has buzzed (default 20 s);
    /// if less is left already, that is kept.
    public var timeAfterFirstBuzz: Duration
    /// How long each team that buzzed has to give its answer (default 60 s).
    public var answerTime: Duration
    /// What a question is worth before any hint (default 10).
    public var basePoints: Int
    /// How much each hint lowers what the question is worth (default 2).
    public var pointsPerHint: Int
    /// The floor: hints never lower a question's worth below this (default 2, so with the other
    /// defaults a question is worth 10, 8, 6, then 4 after the third and last hint).
    public var minimumPoints: Int
    /// The most hints per question (default 3). Fewer are given when the answer is short: at least
    /// two different letters always stay unplaced, so a hint never gives the whole answer away.
    public var maximumHints: Int
    /// The least time between two hints (default 1.5 s), so one long shake spends one hint.
    public var hintCooldown: Duration
    /// Whether near misses count (default on): an edit distance of 1 for answers of 4–7 letters and
    /// 2 for 8 or more; answers of up to 3 letters must match exactly.
    public var answerTolerance: Bool
    /// Whether accents and similar marks are ignored when checking answers (default on), so "Ha Noi"
    /// counts for "Hà Nội".
    public var ignoreDiacritics: Bool
    /// How buzzing turns into answering (default `.buzzOrder`, the original game's rule).
    public var buzzerMode: BuzzerMode
    /// How long a team that presses its button before a question opens cannot buzz (default `nil`: the rule is
    /// off and an early press is only ignored), as buzzer systems do.
    public var earlyPressLockout: Duration?

    /// The longest any of the durations may be.
    public static let longestDuration: Duration = .seconds(3600)
    /// The longest early-press lock-out.
    public static let longestEarlyPressLockout: Duration = .seconds(60)
    /// The most points a question may be worth.
    public static let largestPoints = 1000

    /// Creates rules; every argument defaults to the original game's value.
    public init(
        indicationTime: Duration = .seconds(60),
        timeAfterFirstBuzz: Duration = .seconds(20),
        answerTime: Duration = .seconds(60),
        basePoints: Int = 10,
        pointsPerHint: Int = 2,
        minimumPoints: Int = 2,
        maximumHints: Int = 3,
        hintCooldown: Duration = .milliseconds(1500),
        answerTolerance: Bool = true,
        ignoreDiacritics: Bool = true,
        buzzerMode: BuzzerMode = .buzzOrder,
        earlyPressLockout: Duration? = nil
    ) {
        self.indicationTime = indicationTime
        self.timeAfterFirstBuzz = timeAfterFirstBuzz
        self.answerTime = answerTime
        self.basePoints = basePoints
        self.pointsPerHint = pointsPerHint
        self.minimumPoints = minimumPoints
        self.maximumHints = maximumHints
        self.hintCooldown = hintCooldown
        self.answerTolerance = answerTolerance
        self.ignoreDiacritics = ignoreDiacritics
        self.buzzerMode = buzzerMode
        self.earlyPressLockout = earlyPressLockout
    }

    private enum CodingKeys: String, CodingKey {
        case indicationTime, timeAfterFirstBuzz, answerTime, basePoints, pointsPerHint, minimumPoints
        case maximumHints, hintCooldown, answerTolerance, ignoreDiacritics, buzzerMode, earlyPressLockout
    }

    /// Decodes rules; a missing key takes its default, so a partial rules object is enough.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = GameRules()
        indicationTime =
            try container.decodeIfPresent(Duration.self, forKey: .indicationTime) ?? defaults.indicationTime
        timeAfterFirstBuzz =
            try container.decodeIfPresent(Duration.self, forKey: .timeAfterFirstBuzz) ?? defaults.timeAfterFirstBuzz
        answerTime = try container.decodeIfPresent(Duration.self, forKey: .answerTime) ?? defaults.answerTime
        basePoints = try container.decodeIfPresent(Int.self, forKey: .basePoints) ?? defaults.basePoints
        pointsPerHint = try container.decodeIfPresent(Int.self, forKey: .pointsPerHint) ?? defaults.pointsPerHint
        minimumPoints = try container.decodeIfPresent(Int.self, forKey: .minimumPoints) ?? defaults.minimumPoints
        maximumHints = try container.decodeIfPresent(Int.self, forKey: .maximumHints) ?? defaults.maximumHints
        hintCooldown = try container.decodeIfPresent(Duration.self, forKey: .hintCooldown) ?? defaults.hintCooldown
        answerTolerance =
            try container.decodeIfPresent(Bool.self, forKey: .answerTolerance) ?? defaults.answerTolerance
        ignoreDiacritics =
            try container.decodeIfPresent(Bool.self, forKey: .ignoreDiacritics) ?? defaults.ignoreDiacritics
        buzzerMode = try container.decodeIfPresent(BuzzerMode.self, forKey: .buzzerMode) ?? defaults.buzzerMode
        earlyPressLockout = try container.decodeIfPresent(Duration.self, forKey: .earlyPressLockout)
    }

    /// Checks that every value makes a playable game.
    public func validate() throws(GameRulesError) {
        let timers: [(String, Duration)] = [
            ("indicationTime", indicationTime), ("timeAfterFirstBuzz", timeAfterFirstBuzz),
            ("answerTime", answerTime),
        ]
        for (name, value) in timers {
            guard value > .zero else { throw .durationNotPositive(setting: name, value: value) }
            guard value <= Self.longestDuration else { throw .durationTooLong(setting: name, value: value) }
        }
        guard hintCooldown >= .zero else { throw .durationNegative(setting: "hintCooldown", value: hintCooldown) }
        guard hintCooldown <= Self.longestDuration else {
            throw .durationTooLong(setting: "hintCooldown", value: hintCooldown)
        }
        if let earlyPressLockout {
            guard earlyPressLockout > .zero else {
                throw .durationNotPositive(setting: "earlyPressLockout", value: earlyPressLockout)
            }
            guard earlyPressLockout <= Self.longestEarlyPressLockout else {
                throw .durationTooLong(setting: "earlyPressLockout", value: earlyPressLockout)
            }
        }
        guard (1...Self.largestPoints).contains(basePoints) else { throw .basePointsOutOfRange(basePoints) }
        guard pointsPerHint >= 0 && pointsPerHint <= basePoints else {
            throw .pointsPerHintOutOfRange(pointsPerHint, basePoints: basePoints)
        }
        guard minimumPoints >= 0 && minimumPoints <= basePoints else {
            throw .minimumPointsOutOfRange(minimumPoints, basePoints: basePoints)
        }
        guard (0...Self.mostHints).contains(maximumHints) else { throw .maximumHintsOutOfRange(maximumHints) }
    }

    /// The largest value `maximumHints` may take.
    public static let mostHints = 40

    /// What a question is worth after `hints` hints: lowered by `pointsPerHint` per hint, never below
    /// `minimumPoints` (and never raised to it: a base below the floor is rejected by `validate()`).
    public func points(afterHints hints: Int) -> Int {
        max(minimumPoints, basePoints - hints * pointsPerHint)
    }
}

/// How buzzing turns into answering.
public enum BuzzerMode: String, Codable, Equatable, Sendable, CaseIterable {
    /// Every team may buzz while the question is open; once buzzing is over (time up, or every team
    /// buzzed), the teams answer one after another in buzz order.
    case buzzOrder = "buzz-order"
    /// The first team to buzz answers at once; a wrong answer (or running out of time) reopens
    /// buzzing for the teams that have not buzzed yet, with the time that was left.
    case classic
}

/// Why a set of game rules cannot be played.
public enum GameRulesError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A timer is zero or negative.
    case durationNotPositive(setting: String, value: Duration)
    /// A duration that may be zero is negative.
    case durationNegative(setting: String, value: Duration)
    /// A duration is longer than `GameRules.longestDuration`.
    case durationTooLong(setting: String, value: Duration)
    /// `basePoints` is not in 1...`GameRules.largestPoints`.
    case basePointsOutOfRange(Int)
    /// `pointsPerHint` is negative or larger than the base points.
    case pointsPerHintOutOfRange(Int, basePoints: Int)
    /// `minimumPoints` is negative or larger than the base points.
    case minimumPointsOutOfRange(Int, basePoints: Int)
    /// `maximumHints` is not in 0...`GameRules.mostHints`.
    case maximumHintsOutOfRange(Int)

    /// A refused duration as it was given, to the millisecond: "3600.04 s", "-0.001 s", "0 s". (Rounded up to tenths,
    /// as the game's own messages say times, 3600.04 read "3600.1 s" and -0.001 "-0.1 s".)
    static func exactSeconds(_ duration: Duration) -> String {
        let (whole, atto) = duration.components
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return "\(whole) s" }
        let milliseconds = scaled + atto / 1_000_000_000_000_000
        var text = "\(milliseconds.magnitude / 1000)"
        let fraction = milliseconds.magnitude % 1000
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 3 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return (milliseconds < 0 ? "-" : "") + text + " s"
    }

    /// The longest a duration setting may be.
    private static func limit(of setting: String) -> Duration {
        setting == "earlyPressLockout" ? GameRules.longestEarlyPressLockout : GameRules.longestDuration
    }

    /// A message a host can act on.
    public var description: String {
        switch self {
        case .durationNotPositive(let setting, let value):
            "setting \(setting) must be longer than zero (times are read to the millisecond), not "
                + Self.exactSeconds(value)
        case .durationNegative(let setting, let value):
            "setting \(setting) must not be negative, not \(Self.exactSeconds(value))"
        case .durationTooLong(let setting, let value):
            "setting \(setting) must be at most \(Self.exactSeconds(Self.limit(of: setting))), "
                + "not \(Self.exactSeconds(value))"
        case .basePointsOutOfRange(let points):
            "setting basePoints must be between 1 and \(GameRules.largestPoints), not \(points)"
        case .pointsPerHintOutOfRange(let points, let basePoints):
            "setting pointsPerHint must be between 0 and basePoints (\(basePoints)), not \(points)"
        case .minimumPointsOutOfRange(let points, let basePoints):
            "setting minimumPoints must be between 0 and basePoints (\(basePoints)), not \(points)"
        case .maximumHintsOutOfRange(let hints):
            "setting maximumHints must be between 0 and \(GameRules.mostHints), not \(hints)"
        }
    }
}
