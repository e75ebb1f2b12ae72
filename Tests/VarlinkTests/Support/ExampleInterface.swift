import Synchronization
import Varlink

/// `org.shakywords.Example`: a test-only interface with every field type, streams, an error with
/// parameters, a method that needs control rights and one that is declared but not implemented.
enum ExampleInterface {
    static let description = #"""
        # An interface that exercises the Varlink machinery in tests: every field
        # type, streams, an error with parameters and a method that needs control.
        interface org.shakywords.Example

        # A team and its score.
        type Team (
          name: string,
          score: int
        )

        # How a round ended.
        type Outcome (solved, skipped, timeout)

        # Greets someone.
        method Hello(name: string) -> (greeting: string)

        # Returns every parameter unchanged.
        method Echo(
          flag: bool,
          count: int,
          ratio: float,
          text: string,
          extra: object,
          note: ?string,
          numbers: []int,
          labels: [string]string,
          tags: [string](),
          team: Team,
          outcome: Outcome,
          point: (x: int, y: int),
          teams: ?[]Team
        ) -> (
          flag: bool,
          count: int,
          ratio: float,
          text: string,
          extra: object,
          note: ?string,
          numbers: []int,
          labels: [string]string,
          tags: [string](),
          team: Team,
          outcome: Outcome,
          point: (x: int, y: int),
          teams: ?[]Team
        )

        # Counts from 1 to `to`, one reply each; must be called with `more`.
        method Count(to: int) -> (value: int)

        # Replies with step 1, waits for the test to open the gate, then replies
        # with step 2 as the final reply.
        method Pace() -> (step: int)

        # Replies once, then waits until the client hangs up.
        method Follow() -> (value: int)

        # Waits until the test releases it, deaf to the client hanging up, then
        # replies with `size` letters.
        method Hold(size: ?int) -> (text: ?string)

        # Waits until the server's unread replies are under their bound, then
        # replies with `size` letters.
        method Large(size: int) -> (text: string)

        # Returns `value` when it is at most `limit`.
        method Check(value: int, limit: int) -> (value: int)

        # Changes state: needs control rights.
        method Reset() -> ()

        # Declared, but the test server has no handler for it.
        method Missing() -> ()

        # The value is over the limit.
        error TooLarge (value: int, limit: int)
        """#

    static let name = "org.shakywords.Example"

    struct CheckParameters: Codable, Sendable {
        var value: Int
        var limit: Int
    }

    struct CheckReply: Codable, Sendable, Equatable {
        var value: Int
    }

    /// The interface with handlers that report to `probe`.
    static func make(probe: ExampleProbe) throws -> VarlinkInterface {
        try VarlinkInterface(
            description: description,
            methods: [
                "Hello": .reply { request in
                    ["greeting": .string("Hello, \(request.parameters["name"]?.stringValue ?? "")!")]
                },
                "Echo": .reply { request in request.parameters },
                "Count": .stream { request in
                    let count = request.parameters["to"]?.intValue ?? 0
                    return AsyncThrowingStream { continuation in
                        for value in 1...max(count, 1) {
                            continuation.yield(
                                VarlinkStreamReply(parameters: ["value": .int(value)], continues: value < count))
                        }
                        continuation.finish()
                    }
                },
                "Pace": .stream { _ in
                    let (stream, continuation) = AsyncThrowingStream<VarlinkStreamReply, any Error>.makeStream()
                    continuation.yield(VarlinkStreamReply(parameters: ["step": 1], continues: true))
                    let task = Task {
                        await probe.waitForGate()
                        continuation.yield(VarlinkStreamReply(parameters: ["step": 2], continues: false))
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                    return stream
                },
                "Follow": .stream { _ in
                    let (stream, continuation) = AsyncThrowingStream<VarlinkStreamReply, any Error>.makeStream()
                    continuation.yield(VarlinkStreamReply(parameters: ["value": 1], continues: true))
                    continuation.onTermination = { termination in
                        if case .cancelled = termination { probe.recordHangup("Follow") }
                    }
                    return stream
                },
                "Hold": .reply { request in
                    await probe.hold()
                    guard let size = request.parameters["size"]?.intValue else { return [:] }
                    return ["text": .string(String(repeating: "a", count: max(size, 0)))]
                },
                "Large": .reply { request in
                    if !request.call.oneway { try await request.waitForRoomToReply() }
                    let size = request.parameters["size"]?.intValue ?? 0
                    return ["text": .string(String(repeating: "a", count: max(size, 0)))]
                },
                "Check": .typed(CheckParameters.self) { parameters, _ in
                    guard parameters.value <= parameters.limit else {
                        throw try VarlinkReplyError("\(name).TooLarge", encoding: parameters)
                    }
                    return CheckReply(value: parameters.value)
                },
                "Reset": .reply { _ in
                    probe.recordReset()
                    return [:]
                },
            ])
    }
}

/// What the example handlers report, the gate the `Pace` stream waits on, and the release `Hold` calls wait for.
final class ExampleProbe: Sendable {
    private let hangupStream: AsyncStream<String>
    private let hangupContinuation: AsyncStream<String>.Continuation
    private let gateStream: AsyncStream<Void>
    private let gateContinuation: AsyncStream<Void>.Continuation
    private let resetStream: AsyncStream<Void>
    private let resetContinuation: AsyncStream<Void>.Continuation
    private let holdStartStream: AsyncStream<Void>
    private let holdStartContinuation: AsyncStream<Void>.Continuation
    /// Whether `Hold` calls are released, and those waiting.
    private let holds = Mutex<(released: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    init() {
        (hangupStream, hangupContinuation) = AsyncStream.makeStream()
        (gateStream, gateContinuation) = AsyncStream.makeStream()
        (resetStream, resetContinuation) = AsyncStream.makeStream()
        (holdStartStream, holdStartContinuation) = AsyncStream.makeStream()
    }

    /// A `Hold` call: says that it started, then waits until ``releaseHolds()``, whether cancelled or not (a handler
    /// that goes on after its client left).
    func hold() async {
        holdStartContinuation.yield()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let released = holds.withLock { holds in
                if !holds.released { holds.waiting.append(continuation) }
                return holds.released
            }
            if released { continuation.resume() }
        }
    }

    /// Lets every `Hold` call, waiting or to come, reply.
    func releaseHolds() {
        let waiting = holds.withLock { holds in
            holds.released = true
            defer { holds.waiting = [] }
            return holds.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once the next `Hold` call has started.
    func nextHoldStarted() async {
        for await _ in holdStartStream { return }
    }

    func recordHangup(_ method: String) { hangupContinuation.yield(method) }
    func recordReset() { resetContinuation.yield() }
    func openGate() { gateContinuation.yield() }

    func waitForGate() async {
        for await _ in gateStream { return }
    }

    /// The method whose stream saw the client hang up next.
    func nextHangup() async -> String? {
        for await method in hangupStream { return method }
        return nil
    }

    /// Ends the probe's streams (no more events will come), so nothing waits forever.
    func finish() {
        hangupContinuation.finish()
        resetContinuation.finish()
        gateContinuation.finish()
        holdStartContinuation.finish()
    }

    /// How many `Reset` calls ran, counted after ``finish()``.
    func resetCount() async -> Int {
        var count = 0
        for await _ in resetStream { count += 1 }
        return count
    }
}
