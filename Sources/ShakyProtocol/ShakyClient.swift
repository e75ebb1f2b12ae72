import ShakyCore

/// A typed client of the Shaky Words daemon: one method per method of its Varlink interfaces.
///
/// ```swift
/// let client = try await ShakyClient.connect(socketPath: nil)   // SHAKY_SOCKET or the default sockets
/// defer { Task { await client.close() } }
/// let status = try await client.next()
/// ```
///
/// Calls may run concurrently on the one connection; ``watch()`` opens a connection of its own, so
/// calls made while watching are answered at once. Every error is a ``ShakyClientError``.
public final class ShakyClient: Sendable {
    /// The socket this client is connected to.
    public let socketPath: String
    private let connection: VarlinkClient

    private init(socketPath: String, connection: VarlinkClient) {
        self.socketPath = socketPath
        self.connection = connection
    }

    /// Connects to the daemon at `socketPath`, or when `nil` to the first of `defaults.clientSockets`
    /// that answers (`SHAKY_SOCKET`, then the user's daemon, then the system daemon).
    ///
    /// Throws ``ShakyClientError/daemonUnreachable(paths:reason:)`` naming every path tried.
    public static func connect(
        socketPath: String?, defaults: DefaultPaths = DefaultPaths()
    ) async throws(ShakyClientError) -> ShakyClient {
        try await connect(
            trying: socketPath.map { [$0] } ?? defaults.clientSockets,
            privateDirectory: socketPath == nil ? defaults.fallbackSocketDirectory : nil)
    }

    /// Connects to the first of `paths` where a daemon answers.
    ///
    /// A path inside `privateDirectory` is tried only when that folder passes
    /// ``PrivateSocketDirectory/verify(_:)``, so that a folder another user made in `/tmp` is never trusted.
    /// Throws ``ShakyClientError/daemonUnreachable(paths:reason:)`` naming every path tried.
    public static func connect(
        trying paths: [String], privateDirectory: String? = nil
    ) async throws(ShakyClientError) -> ShakyClient {
        var reasons: [String] = []
        for path in paths {
            if let privateDirectory, path.hasPrefix(privateDirectory + "/") {
                do {
                    try PrivateSocketDirectory.verify(privateDirectory)
                } catch {
                    reasons.append("\(error.path): \(error.reason)")
                    continue
                }
            }
            do {
                return ShakyClient(socketPath: path, connection: try await VarlinkClient.connect(unixSocketPath: path))
            } catch {
                if case .connectionFailed(_, let underlying) = error {
                    reasons.append(ShakyClientError.reason(underlying))
                } else {
                    reasons.append(error.description)
                }
            }
        }
        let distinct = reasons.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        throw .daemonUnreachable(paths: paths, reason: distinct.joined(separator: "; "))
    }

    /// Closes the connection.
    public func close() async {
        await connection.close()
    }

    /// Calls `method` (fully qualified) with `request` and decodes its reply.
    public func call<Request: Encodable, Reply: Decodable>(
        _ method: String, _ request: Request, as reply: Reply.Type = Reply.self
    ) async throws(ShakyClientError) -> Reply {
        let parameters: VarlinkObject
        do {
            guard case .object(let object) = try JSONValue(encoding: request) else {
                throw ShakyClientError.protocolError("the parameters of \(method) are not an object")
            }
            parameters = object
        } catch {
            throw error as? ShakyClientError ?? .protocolError("cannot encode the parameters of \(method): \(error)")
        }
        let replyParameters: VarlinkObject
        do {
            replyParameters = try await connection.call(method, parameters: parameters)
        } catch {
            throw ShakyClientError(error, path: socketPath)
        }
        return try Self.decode(replyParameters, as: Reply.self, from: method)
    }

    static func decode<Reply: Decodable>(
        _ parameters: VarlinkObject, as type: Reply.Type, from method: String
    ) throws(ShakyClientError) -> Reply {
        do {
            // Whatever the daemon says is made printable before any of it can reach a terminal.
            return try JSONValue.object(parameters.printable).decode(as: Reply.self)
        } catch {
            throw .protocolError("the reply of \(method) does not match its interface: \(error)")
        }
    }
}

extension ShakyClient {
    private static func game(_ method: String) -> String { ShakyAPI.gameInterface + "." + method }

    /// `Game.New`: starts a new game.
    public func newGame(_ setup: ShakyAPI.NewGame) async throws(ShakyClientError) -> ShakyAPI.Status {
        try await call(Self.game("New"), setup, as: ShakyAPI.StatusReply.self).status
    }

    /// `Game.Next`: opens the next question, or ends the game after the last.
    public func next() async throws(ShakyClientError) -> ShakyAPI.Status {
        try await call(Self.game("Next"), ShakyAPI.Empty(), as: ShakyAPI.StatusReply.self).status
    }

    /// `Game.Skip`: closes the current question without points.
    public func skip() async throws(ShakyClientError) -> ShakyAPI.Status {
        try await call(Self.game("Skip"), ShakyAPI.Empty(), as: ShakyAPI.StatusReply.self).status
    }

    /// `Game.Pause`: freezes the countdown.
    public func pause() async throws(ShakyClientError) -> ShakyAPI.Status {
        try await call(Self.game("Pause"), ShakyAPI.Empty(), as: ShakyAPI.StatusReply.self).status
    }

    /// `Game.Resume`: lets the countdown run again.
    public func resume() async throws(ShakyClientError) -> ShakyAPI.Status {
        try await call(Self.game("Resume"), ShakyAPI.Empty(), as: ShakyAPI.StatusReply.self).status
    }

    /// `Game.End`: ends the game now.
    public func end() async throws(ShakyClientError) -> ShakyAPI.Status {
        try await call(Self.game("End"), ShakyAPI.Empty(), as: ShakyAPI.StatusReply.self).status
    }

    /// `Game.Buzz`: `team` indicates it knows the answer.
    public func buzz(team: String) async throws(ShakyClientError) -> ShakyAPI.Status {
        try await call(Self.game("Buzz"), ShakyAPI.TeamParameter(team: team), as: ShakyAPI.StatusReply.self).status
    }

    /// `Game.Answer`: the team up gives its answer.
    public func answer(team: String, answer: String) async throws(ShakyClientError) -> ShakyAPI.AnswerReply {
        try await call(Self.game("Answer"), ShakyAPI.AnswerParameters(team: team, answer: answer))
    }

    /// `Game.Hint`: reveals one more letter.
    public func hint() async throws(ShakyClientError) -> ShakyAPI.Status {
        try await call(Self.game("Hint"), ShakyAPI.Empty(), as: ShakyAPI.StatusReply.self).status
    }

    /// `Game.AdjustScore`: adds (or takes, with a negative `delta`) points.
    public func adjustScore(
        team: String, delta: Int, reason: String
    ) async throws(ShakyClientError) -> ShakyAPI.Status {
        let parameters = ShakyAPI.AdjustScoreParameters(team: team, delta: delta, reason: reason)
        return try await call(Self.game("AdjustScore"), parameters, as: ShakyAPI.StatusReply.self).status
    }

    /// `Game.Status`: the game as it stands.
    public func status() async throws(ShakyClientError) -> ShakyAPI.Status {
        try await call(Self.game("Status"), ShakyAPI.Empty(), as: ShakyAPI.StatusReply.self).status
    }

    /// `Game.Scoreboard`: teams by points, with shared ranks.
    public func scoreboard() async throws(ShakyClientError) -> [ShakyAPI.Standing] {
        try await call(Self.game("Scoreboard"), ShakyAPI.Empty(), as: ShakyAPI.ScoreboardReply.self).standings
    }

    /// `Game.History`: finished games, newest first.
    public func history(limit: Int? = nil) async throws(ShakyClientError) -> [ShakyAPI.FinishedGame] {
        try await call(Self.game("History"), ShakyAPI.LimitParameter(limit: limit), as: ShakyAPI.HistoryReply.self)
            .games
    }

    /// `Game.Leaderboard`: teams by wins, then points.
    public func leaderboard(limit: Int? = nil) async throws(ShakyClientError) -> [ShakyAPI.LeaderboardEntry] {
        try await call(
            Self.game("Leaderboard"), ShakyAPI.LimitParameter(limit: limit), as: ShakyAPI.LeaderboardReply.self
        ).entries
    }
}
