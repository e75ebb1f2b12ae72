import Foundation
import ShakyProtocol
import Synchronization
import Testing
import Varlink

/// A stand-in for `shakyd`: serves the real interface descriptions on a Unix socket in a fresh temporary
/// folder, records every call, and answers from a script.
///
/// The Varlink service checks each call's parameters against the real descriptions (unknown, missing or
/// wrong-typed parameters get `InvalidParameter`), so a passing test proves the client speaks the interface.
/// A method with nothing scripted answers `MethodNotImplemented`.
final class FakeDaemon: Sendable {
    /// What a method answers.
    enum Answer: Sendable {
        /// One reply.
        case reply(VarlinkObject)
        /// An error reply: the error's short or qualified name and its parameters.
        case error(String, VarlinkObject)
        /// Replies for a call with `more`; with `end`, the last one ends the call, otherwise the call
        /// stays open until the client hangs up.
        case events([VarlinkObject], end: Bool)

        /// One reply made from an encodable value.
        static func reply(encoding value: some Encodable) -> Answer {
            guard case .object(let object) = try! JSONValue(encoding: value) else { fatalError("not an object") }
            return .reply(object)
        }

        /// Watch events, each wrapped as `{"event": …}`.
        static func watch(_ events: [ShakyAPI.Event], end: Bool) -> Answer {
            .events(events.map(watchReply), end: end)
        }

        /// A `Game.Watch` reply, `{"event": …}`, to script among replies written by hand.
        static func watchReply(_ event: ShakyAPI.Event) -> VarlinkObject {
            guard case .object(let object) = try! JSONValue(encoding: ShakyAPI.GameInterface.WatchReply(event: event))
            else {
                fatalError("not an object")
            }
            return object
        }
    }

    /// A call as the daemon received it.
    struct Call: Equatable, Sendable, CustomStringConvertible {
        /// The qualified method, e.g. `io.shakywords.Game.Buzz`.
        var method: String
        var parameters: JSONValue

        /// A call to `method`, given as `Game.Buzz` or qualified.
        init(_ method: String, _ parameters: JSONValue = [:]) {
            self.method = FakeDaemon.qualified(method)
            self.parameters = parameters
        }

        var description: String { "\(method) \(parameters.serialized)" }
    }

    private struct State {
        var answers: [String: Answer] = [:]
        var calls: [Call] = []
        /// Open Watch streams, kept so that they stay open until the client hangs up.
        var openStreams: [AsyncThrowingStream<VarlinkStreamReply, any Error>.Continuation] = []
    }

    let socketPath: String
    private let state = Mutex(State())

    private init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// The calls made so far, in order.
    var calls: [Call] { state.withLock { $0.calls } }

    /// The calls made so far, without the `Status` calls a command makes to look before it acts.
    var callsWithoutStatus: [Call] { calls.filter { $0.method != Self.qualified("Game.Status") } }

    /// Scripts the answer of `method` (`Game.Next`, `Packs.List`… or qualified) for every later call.
    func answer(_ method: String, with answer: Answer) {
        state.withLock { $0.answers[Self.qualified(method)] = answer }
    }

    /// `Game.Buzz` → `io.shakywords.Game.Buzz`.
    static func qualified(_ method: String) -> String {
        method.hasPrefix("io.") || method.hasPrefix("org.") ? method : "io.shakywords." + method
    }

    /// Runs `body` against a fake daemon; stops it and removes its folder afterwards.
    ///
    /// With `checksReplies` off the service sends scripted replies that break the interface as they are, for
    /// tests of how the client takes them; otherwise a debug build stops on one.
    static func run<Result>(
        checksReplies: Bool = true, _ body: (FakeDaemon) async throws -> Result
    ) async throws -> Result {
        let directory = "/tmp/shaky-cli-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let daemon = FakeDaemon(socketPath: directory + "/shaky.sock")
        let descriptions = [
            ShakyAPI.GameInterface.description, ShakyAPI.PacksInterface.description,
            ShakyAPI.SensorInterface.description,
            ShakyAPI.SettingsInterface.description, ShakyAPI.BuzzersInterface.description,
        ]
        let interfaces = try descriptions.map { description in
            let definition = try VarlinkInterfaceDefinition(parsing: description)
            var methods: [String: VarlinkMethod] = [:]
            for name in definition.methods.keys {
                let qualified = definition.name + "." + name
                methods[name] = VarlinkMethod(requiresMore: name == "Watch") { request in
                    try daemon.handle(qualified, request)
                }
            }
            return try VarlinkInterface(description: description, methods: methods)
        }
        var service = try VarlinkService(
            vendor: "Shaky Words", product: "fake shakyd", version: "0", url: "https://shakywords.invalid",
            interfaces: interfaces)
        service.checksReplies = checksReplies
        let server = try await VarlinkServer.bind(
            to: .unixSocket(path: daemon.socketPath), service: service, socketGroup: nil)
        let task = Task { try await server.run() }
        defer { task.cancel() }
        let result = try await body(daemon)
        task.cancel()
        _ = try? await task.value
        return result
    }

    private func handle(_ method: String, _ request: VarlinkRequest) throws -> VarlinkMethodResult {
        let answer = state.withLock { state in
            state.calls.append(Call(method, .object(request.parameters)))
            return state.answers[method]
        }
        switch answer {
        case nil:
            throw VarlinkReplyError.methodNotImplemented(method)
        case .reply(let parameters)?:
            return .reply(parameters)
        case .error(let name, let parameters)?:
            let interface = String(method[..<method.lastIndex(of: ".")!])
            throw VarlinkReplyError(name.contains(".") ? name : interface + "." + name, parameters: parameters)
        case .events(let events, let end)?:
            let (stream, continuation) = AsyncThrowingStream<VarlinkStreamReply, any Error>.makeStream()
            for (index, event) in events.enumerated() {
                continuation.yield(
                    VarlinkStreamReply(parameters: event, continues: !(end && index == events.count - 1)))
            }
            if end {
                continuation.finish()
            } else {
                state.withLock { $0.openStreams.append(continuation) }
            }
            return .stream(stream)
        }
    }
}
