import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Too many bytes of messages are held for this connection's user, or for the server: the connection is closed.
public struct VarlinkMessageBudgetExceeded: Error, Equatable, Sendable, CustomStringConvertible {
    /// The most bytes held for one user's connections.
    public var perUser: Int
    /// The most bytes held for all connections.
    public var total: Int
    /// The user whose message did not fit.
    public var uid: UInt32

    public var description: String {
        "the messages received and not yet answered would take more than \(perUser) bytes for uid \(uid), or more "
            + "than \(total) bytes in all"
    }
}

/// Keeps the bytes of the messages a server holds within bounds: those received in part, and those received whole
/// and not yet answered (waiting behind a call, or running), over all connections and per user.
///
/// Without a bound, a thousand connections each sending most of a 1 MiB message and then nothing more hold a
/// gigabyte, which is enough to have a Pi's daemon killed. A message of up to ``uncountedBytesPerConnection`` bytes on
/// each connection is not counted, so ordinary calls go through while another user's large messages fill the
/// budget; the connection whose message would go over a bound is closed (a client whose message is refused learns
/// it from the closed connection, as for a message over the length limit).
final class VarlinkMessageBudget: Sendable {
    /// The bytes of each connection's messages that are not counted: any ordinary call fits.
    static let uncountedBytesPerConnection = 4096

    private struct State {
        var total = 0
        var perUser: [uid_t: Int] = [:]
    }

    private let limits: VarlinkServer.ConnectionLimits
    private let state = Mutex(State())

    init(limits: VarlinkServer.ConnectionLimits) {
        self.limits = limits
    }

    /// The bytes counted now, in all (for tests).
    var total: Int { state.withLock { $0.total } }

    /// Counts `bytes` more for `uid`, or throws when that would go over a bound (and counts nothing).
    func reserve(_ bytes: Int, for uid: uid_t) throws(VarlinkMessageBudgetExceeded) {
        let fits = state.withLock { state -> Bool in
            let user = state.perUser[uid, default: 0]
            guard bytes <= limits.heldMessageBytesPerUser - user, bytes <= limits.heldMessageBytes - state.total
            else { return false }
            state.total += bytes
            state.perUser[uid] = user + bytes
            return true
        }
        guard fits else {
            throw VarlinkMessageBudgetExceeded(
                perUser: limits.heldMessageBytesPerUser, total: limits.heldMessageBytes, uid: uid)
        }
    }

    /// Counts `bytes` of `uid` out.
    func release(_ bytes: Int, for uid: uid_t) {
        guard bytes > 0 else { return }
        state.withLock { state in
            state.total -= bytes
            let user = state.perUser[uid, default: bytes] - bytes
            state.perUser[uid] = user > 0 ? user : nil
        }
    }
}

/// One connection's messages as its server's ``VarlinkMessageBudget`` counts them: the bytes its frame decoder holds
/// (a message received in part) and those of the messages it decoded that are not yet answered.
///
/// Whatever is still counted returns to the budget when the connection's decoder and serving task are both gone.
final class VarlinkConnectionMessages: Sendable {
    private struct State {
        /// Bytes in the decoder, not yet a whole message.
        var buffered = 0
        /// Bytes of whole messages handed on and not yet answered.
        var held = 0
        /// What is counted in the budget: the sum beyond the uncounted allowance.
        var counted = 0
    }

    private let budget: VarlinkMessageBudget
    private let uid: uid_t
    private let state = Mutex(State())

    init(budget: VarlinkMessageBudget, uid: uid_t) {
        self.budget = budget
        self.uid = uid
    }

    deinit {
        budget.release(state.withLock { $0.counted }, for: uid)
    }

    /// The decoder holds `bytes` not yet handed on; throws when counting them goes over a bound.
    func decoderHolds(_ bytes: Int) throws(VarlinkMessageBudgetExceeded) {
        try update { $0.buffered = bytes }
    }

    /// The decoder handed on a message of `bytes` (its NUL included): it is held until ``answered(_:)``.
    func decoded(_ bytes: Int) {
        // Moving bytes from one part to the other changes no sum, so this cannot go over a bound.
        try? update {
            $0.buffered -= bytes
            $0.held += bytes
        }
    }

    /// The message of `bytes` (its NUL included) was answered.
    func answered(_ bytes: Int) {
        try? update { $0.held -= bytes }
    }

    private func update(_ change: (inout State) -> Void) throws(VarlinkMessageBudgetExceeded) {
        try state.withLock { state throws(VarlinkMessageBudgetExceeded) in
            var next = state
            change(&next)
            next.counted = max(0, next.buffered + next.held - VarlinkMessageBudget.uncountedBytesPerConnection)
            if next.counted > state.counted {
                try budget.reserve(next.counted - state.counted, for: uid)
            } else {
                budget.release(state.counted - next.counted, for: uid)
            }
            state = next
        }
    }
}
