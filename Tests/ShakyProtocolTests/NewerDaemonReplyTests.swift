import Testing
import Varlink

@testable import ShakyProtocol

/// Replies of a daemon newer than this client, with values its interfaces do not list, as the client decodes them.
@Suite("Replies with values this client does not know")
struct NewerDaemonReplyTests {
    static let watch = "io.shakywords.Game.Watch"
    static let status = "io.shakywords.Game.Status"

    /// The game as `Status` and the first `Watch` reply send it, with `roundEnd` and `phase` given.
    static func state(phase: String = "roundOver", roundEnd: String = "timeUp") -> String {
        """
        {"phase": "\(phase)", "paused": false, "questionNumber": 1, "questionCount": 3, "hintsUsed": 0,
         "hintsLeft": 2, "teams": [{"name": "Owls", "score": 0}], "buzzes": [], "answer": "Lion",
         "roundEnd": "\(roundEnd)"}
        """
    }

    static func decode<Reply: Decodable>(_ text: String, as type: Reply.Type, from method: String) throws -> Reply {
        guard case .object(let parameters) = try JSONValue(parsing: text) else { throw Unexpected() }
        return try ShakyClient.decode(parameters, as: type, from: method)
    }

    struct Unexpected: Error {}

    @Test("A new Event.kind fails the event as a newer daemon's, which a stream skips")
    func unknownEventKind() {
        #expect(throws: ShakyClientError.newerDaemon(.init(method: Self.watch, field: "event.kind", value: "confetti")))
        {
            try Self.decode(
                #"{"event": {"kind": "confetti", "team": "Owls"}}"#, as: ShakyAPI.GameInterface.WatchReply.self,
                from: Self.watch)
        }
    }

    @Test("A new ButtonEvent.kind inside a buzzer event fails the event the same way, naming the nested field")
    func unknownNestedButtonEventKind() throws {
        #expect(
            throws: ShakyClientError.newerDaemon(
                .init(method: Self.watch, field: "event.buzzer.kind", value: "batteryLow"))
        ) {
            try Self.decode(
                #"{"event": {"kind": "buzzer", "buzzer": {"kind": "batteryLow", "team": "Owls"}}}"#,
                as: ShakyAPI.GameInterface.WatchReply.self, from: Self.watch)
        }
        // Buzzers.Watch sends the button event itself.
        #expect(
            throws: ShakyClientError.newerDaemon(
                .init(method: "io.shakywords.Buzzers.Watch", field: "event.kind", value: "batteryLow"))
        ) {
            try Self.decode(
                #"{"event": {"kind": "batteryLow", "team": "Owls"}}"#, as: ShakyAPI.BuzzersInterface.WatchReply.self,
                from: "io.shakywords.Buzzers.Watch")
        }
        let known = try Self.decode(
            #"{"event": {"kind": "buzzer", "buzzer": {"kind": "joined", "team": "Owls"}}}"#,
            as: ShakyAPI.GameInterface.WatchReply.self, from: Self.watch)
        #expect(known.event.buzzer?.kind == .joined)
    }

    @Test("A new value of the optional roundEnd reads as absent, in Status and in an answerRevealed event")
    func unknownOptionalRoundEnd() throws {
        let status = try Self.decode(
            #"{"status": \#(Self.state(roundEnd: "abandoned"))}"#, as: ShakyAPI.GameInterface.StatusReply.self,
            from: Self.status)
        #expect(status.status.roundEnd == nil)
        #expect(status.status.phase == .roundOver)
        #expect(status.status.answer == "Lion")
        let known = try Self.decode(
            #"{"status": \#(Self.state(roundEnd: "timeUp"))}"#, as: ShakyAPI.GameInterface.StatusReply.self,
            from: Self.status)
        #expect(known.status.roundEnd == .timeUp)
        let revealed = try Self.decode(
            #"{"event": {"kind": "answerRevealed", "answer": "Lion", "roundEnd": "abandoned"}}"#,
            as: ShakyAPI.GameInterface.WatchReply.self, from: Self.watch)
        #expect(revealed.event.kind == .answerRevealed)
        #expect(revealed.event.answer == "Lion")
        #expect(revealed.event.roundEnd == nil)
    }

    @Test("A new value of a required field fails the reply, saying plainly that the daemon is newer")
    func unknownRequiredValue() {
        let error = #expect(throws: ShakyClientError.self) {
            try Self.decode(
                #"{"status": \#(Self.state(phase: "intermission"))}"#, as: ShakyAPI.GameInterface.StatusReply.self,
                from: Self.status)
        }
        #expect(error == .newerDaemon(.init(method: Self.status, field: "status.phase", value: "intermission")))
        #expect(
            error?.description
                == "the daemon is newer than this shaky: its reply to io.shakywords.Game.Status has status.phase "
                + "“intermission”, which this shaky does not know; update shaky to the daemon's version "
                + "(`shakyd --version` prints it)")
    }

    @Test("Any other mismatch stays a protocol error: a wrong type, a missing field, a wrongly typed enum value")
    func otherMismatchesAreProtocolErrors() {
        for text in [
            #"{"status": {"phase": "ready"}}"#,
            #"{"status": \#(Self.state().replacingOccurrences(of: #""paused": false"#, with: #""paused": 1"#))}"#,
            #"{"status": \#(Self.state().replacingOccurrences(of: #""roundEnd": "timeUp""#, with: #""roundEnd": 2"#))}"#,
        ] {
            #expect("\(text)") {
                try Self.decode(text, as: ShakyAPI.GameInterface.StatusReply.self, from: Self.status)
            } throws: { error in
                guard case .protocolError(let problem) = error as? ShakyClientError else { return false }
                return problem.hasPrefix("the reply of io.shakywords.Game.Status does not match its interface")
            }
        }
    }

    @Test(
        "The daemon's own decoding of a call stays strict: an unknown value in an optional field is refused",
        arguments: [
            (["difficulty": "extreme"], "difficulty"),
            (["rules": ["buzzerMode": "relay"]], "rules.buzzerMode"),
        ] as [(VarlinkObject, String)])
    func callsStayStrict(unknown: VarlinkObject, parameter: String) throws {
        let parameters = unknown.merging(["teams": ["Owls", "Foxes"]]) { first, _ in first }
        let request = VarlinkRequest(
            call: VarlinkCall(method: "io.shakywords.Game.New", parameters: parameters), peer: .currentProcess)
        #expect(throws: VarlinkReplyError.invalidParameter(parameter)) {
            try request.decodeParameters(as: ShakyAPI.GameInterface.NewParameters.self)
        }
        let known = VarlinkRequest(
            call: VarlinkCall(
                method: "io.shakywords.Game.New",
                parameters: ["teams": ["Owls", "Foxes"], "difficulty": "hard", "rules": ["buzzerMode": "classic"]]),
            peer: .currentProcess)
        let decoded = try known.decodeParameters(as: ShakyAPI.GameInterface.NewParameters.self)
        #expect(decoded.difficulty == .hard)
        #expect(decoded.rules?.buzzerMode == .classic)
    }
}
