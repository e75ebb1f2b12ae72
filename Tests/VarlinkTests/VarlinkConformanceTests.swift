import ShakyTesting
import Testing
import Varlink

/// One malformed message and why it is malformed.
struct MalformedMessage: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]

    init(_ name: String, _ text: String) {
        self.name = name
        self.bytes = Array(text.utf8)
    }

    init(_ name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    var testDescription: String { name }

    static let all: [MalformedMessage] = [
        MalformedMessage("invalid JSON", #"{"method": "org.shakywords.Example.Hello", "#),
        MalformedMessage("empty message", ""),
        MalformedMessage(
            "invalid UTF-8",
            bytes: Array(#"{"method":"org.shakywords.Example.Hello","parameters":{"name":""#.utf8) + [0xC3, 0x28]
                + Array(#""}}"#.utf8)),
        MalformedMessage("an array instead of an object", #"["org.shakywords.Example.Hello"]"#),
        MalformedMessage("a string instead of an object", #""org.shakywords.Example.Hello""#),
        MalformedMessage("missing method", #"{"parameters":{"name":"Ada"}}"#),
        MalformedMessage("method is a number", #"{"method":42}"#),
        MalformedMessage("method is null", #"{"method":null}"#),
        MalformedMessage(
            "unknown header key without a dot", #"{"method":"org.shakywords.Example.Hello","sneaky":true}"#),
        MalformedMessage(
            "oneway is not a bool",
            #"{"method":"org.shakywords.Example.Hello","parameters":{"name":"Ada"},"oneway":1}"#),
        MalformedMessage(
            "more is not a bool", #"{"method":"org.shakywords.Example.Count","parameters":{"to":1},"more":"yes"}"#),
        MalformedMessage(
            "upgrade is not a bool",
            #"{"method":"org.shakywords.Example.Hello","parameters":{"name":"Ada"},"upgrade":null}"#),
        MalformedMessage(
            "more together with oneway",
            #"{"method":"org.shakywords.Example.Count","parameters":{"to":1},"more":true,"oneway":true}"#),
        MalformedMessage("parameters is an array", #"{"method":"org.shakywords.Example.Hello","parameters":[]}"#),
        MalformedMessage("parameters is a string", #"{"method":"org.shakywords.Example.Hello","parameters":"Ada"}"#),
        MalformedMessage(
            "duplicate key", #"{"method":"org.shakywords.Example.Hello","method":"org.shakywords.Example.Hello"}"#),
    ]
}

@Suite("Varlink conformance over a real Unix socket")
struct VarlinkConformanceTests {
    @Test("Malformed input closes the connection without a reply", arguments: MalformedMessage.all)
    func malformedInputClosesWithoutReply(message: MalformedMessage) async throws {
        try await ExampleServer.run { server in
            let socket = try RawSocket(path: server.socketPath)
            await socket.write(message.bytes + [0])
            // A valid call behind it must not be answered either.
            await socket.send(#"{"method":"org.shakywords.Example.Hello","parameters":{"name":"Ada"}}"#)
            #expect(await socket.readUntilClosed() == .success([]))
        }
    }

    @Test("A header key with a dot is an extension and is ignored")
    func dottedHeaderKeyIsIgnored() async throws {
        try await ExampleServer.run { server in
            let socket = try RawSocket(path: server.socketPath)
            await socket.send(
                #"{"method":"org.shakywords.Example.Hello","parameters":{"name":"Ada"},"org.example.trace":"x"}"#)
            let reply = try await socket.readReply()
            #expect(reply == VarlinkReply(parameters: ["greeting": "Hello, Ada!"]))
        }
    }

    @Test("\"parameters\": null is taken as {}: answered when nothing is required, InvalidParameter otherwise")
    func nullParametersAreEmpty() async throws {
        try await ExampleServer.run { server in
            let socket = try RawSocket(path: server.socketPath)
            await socket.send(#"{"method":"org.varlink.service.GetInfo","parameters":null}"#)
            let info = try await socket.readReply()
            #expect(info.error == nil)
            #expect(info.parameters["product"] != nil)
            await socket.send(#"{"method":"org.shakywords.Example.Hello","parameters":null}"#)
            #expect(
                try await socket.readReply()
                    == .error("org.varlink.service.InvalidParameter", parameters: ["parameter": "name"]))
        }
    }

    @Test("A message over 1 MiB closes the connection; one just under is answered")
    func oversizedMessageCloses() async throws {
        try await ExampleServer.run { server in
            let prefix = #"{"method":"org.shakywords.Example.Hello","parameters":{"name":""#
            let suffix = #""}}"#
            let limit = VarlinkFrameDecoder.defaultMaximumFrameLength
            let nameLength = limit - prefix.utf8.count - suffix.utf8.count
            let fitting = prefix + String(repeating: "a", count: nameLength) + suffix
            let fittingSocket = try RawSocket(path: server.socketPath)
            await fittingSocket.send(fitting)
            let reply = try await fittingSocket.readReply()
            #expect(reply.parameters["greeting"]?.stringValue?.utf8.count == nameLength + "Hello, !".utf8.count)

            let oversized = prefix + String(repeating: "a", count: limit) + suffix
            let socket = try RawSocket(path: server.socketPath)
            await socket.send(oversized)
            #expect(await socket.readUntilClosed() == .success([]))

            // Cut off before a NUL arrives at all.
            let endless = try RawSocket(path: server.socketPath)
            await endless.write(Array(repeating: UInt8(ascii: " "), count: limit + 1))
            #expect(await endless.readUntilClosed() == .success([]))
        }
    }

    @Test("An unknown interface gets InterfaceNotFound; an unknown method gets MethodNotFound")
    func unknownInterfaceAndMethod() async throws {
        try await ExampleServer.run { server in
            let socket = try RawSocket(path: server.socketPath)
            await socket.send(#"{"method":"org.shakywords.Nothing.Hello","parameters":{}}"#)
            #expect(
                try await socket.readReply()
                    == .error(
                        "org.varlink.service.InterfaceNotFound", parameters: ["interface": "org.shakywords.Nothing"]))
            await socket.send(#"{"method":"org.shakywords.Example.Goodbye"}"#)
            #expect(
                try await socket.readReply()
                    == .error(
                        "org.varlink.service.MethodNotFound", parameters: ["method": "org.shakywords.Example.Goodbye"]))
            await socket.send(#"{"method":"NoDots"}"#)
            #expect(
                try await socket.readReply()
                    == .error("org.varlink.service.InterfaceNotFound", parameters: ["interface": ""]))
            await socket.send(#"{"method":"org.shakywords.Example.Missing"}"#)
            #expect(
                try await socket.readReply()
                    == .error(
                        "org.varlink.service.MethodNotImplemented",
                        parameters: ["method": "org.shakywords.Example.Missing"]))
        }
    }

    @Test(
        "Missing, wrong-typed or unknown parameters get InvalidParameter naming the parameter",
        arguments: [
            (#"{}"#, "name"),
            (#"{"name":null}"#, "name"),
            (#"{"name":42}"#, "name"),
            (#"{"name":"Ada","nickname":"A"}"#, "nickname"),
            (#"{"name":["Ada"]}"#, "name"),
        ])
    func invalidParameters(parameters: String, expected: String) async throws {
        try await ExampleServer.run { server in
            let socket = try RawSocket(path: server.socketPath)
            await socket.send(#"{"method":"org.shakywords.Example.Hello","parameters":\#(parameters)}"#)
            #expect(
                try await socket.readReply()
                    == .error("org.varlink.service.InvalidParameter", parameters: ["parameter": .string(expected)]))
        }
    }

    @Test("Nested parameters are checked too: struct members, array elements, map values, enums")
    func invalidNestedParameters() async throws {
        try await ExampleServer.run { server in
            let valid: VarlinkObject = [
                "flag": true, "count": 3, "ratio": 0.5, "text": "x", "extra": ["any": [1, "thing"]],
                "numbers": [1, 2], "labels": ["a": "b"], "tags": ["t": [:]], "team": ["name": "Owls", "score": 2],
                "outcome": "solved", "point": ["x": 1, "y": 2],
            ]
            let cases: [(String, JSONValue, String)] = [
                ("team", ["name": "Owls"], "team.score"),
                ("team", ["name": "Owls", "score": 1, "captain": "Ada"], "team.captain"),
                ("numbers", [1, "two"], "numbers[1]"),
                ("labels", ["a": 1], "labels[a]"),
                ("tags", ["t": ["u": 1]], "tags[t].u"),
                ("outcome", "won", "outcome"),
                ("point", ["x": 1.5, "y": 2], "point.x"),
                ("teams", [["name": "Owls", "score": "high"]], "teams[0].score"),
                ("ratio", "half", "ratio"),
            ]
            let socket = try RawSocket(path: server.socketPath)
            await socket.send(
                JSONValue.object(["method": "org.shakywords.Example.Echo", "parameters": .object(valid)]).serialized)
            #expect(try await socket.readReply() == VarlinkReply(parameters: valid))
            for (key, value, expected) in cases {
                var parameters = valid
                parameters[key] = value
                await socket.send(
                    JSONValue.object(["method": "org.shakywords.Example.Echo", "parameters": .object(parameters)])
                        .serialized)
                #expect(
                    try await socket.readReply()
                        == .error("org.varlink.service.InvalidParameter", parameters: ["parameter": .string(expected)]),
                    "\(key) = \(value.serialized)")
            }
        }
    }

    @Test("A number beyond any float (1e999) is valid JSON: InvalidParameter, and the connection stays open")
    func numbersBeyondAnyFloat() async throws {
        try await ExampleServer.run { server in
            let valid: VarlinkObject = [
                "flag": true, "count": 3, "ratio": 0.5, "text": "x", "extra": [:], "numbers": [1], "labels": [:],
                "tags": [:], "team": ["name": "Owls", "score": 2], "outcome": "solved", "point": ["x": 1, "y": 2],
            ]
            let cases: [(String, JSONValue, String)] = [
                ("ratio", "@", "ratio"), ("count", "@", "count"), ("point", ["x": "@", "y": 2], "point.x"),
                ("numbers", [1, "@"], "numbers[1]"),
            ]
            let socket = try RawSocket(path: server.socketPath)
            for (key, placeholder, expected) in cases {
                for number in ["1e999", "-1E+999", "123456789e400"] {
                    var parameters = valid
                    parameters[key] = placeholder
                    let call = JSONValue.object([
                        "method": "org.shakywords.Example.Echo", "parameters": .object(parameters),
                    ])
                    .serialized.replacingOccurrences(of: #""@""#, with: number)
                    await socket.send(call)
                    #expect(
                        try await socket.readReply()
                            == .error(
                                "org.varlink.service.InvalidParameter", parameters: ["parameter": .string(expected)]),
                        "\(call)")
                }
            }
            await socket.send(
                JSONValue.object(["method": "org.shakywords.Example.Echo", "parameters": .object(valid)]).serialized)
            #expect(try await socket.readReply() == VarlinkReply(parameters: valid))
        }
    }

    @Test("oneway calls get no reply, not even an error")
    func onewayGetsNoReply() async throws {
        try await ExampleServer.run { server in
            let socket = try RawSocket(path: server.socketPath)
            let calls = [
                #"{"method":"org.shakywords.Example.Hello","parameters":{"name":"Ada"},"oneway":true}"#,
                #"{"method":"org.shakywords.Nothing.Hello","oneway":true}"#,
                #"{"method":"org.shakywords.Example.Goodbye","oneway":true}"#,
                #"{"method":"org.shakywords.Example.Hello","parameters":{"name":7},"oneway":true}"#,
                #"{"method":"org.shakywords.Example.Check","parameters":{"value":9,"limit":1},"oneway":true}"#,
                #"{"method":"org.shakywords.Example.Count","parameters":{"to":2},"oneway":true}"#,
                #"{"method":"org.shakywords.Example.Reset","oneway":true}"#,
                #"{"method":"org.shakywords.Example.Hello","parameters":{"name":"Bob"}}"#,
            ]
            await socket.write(Array(calls.map { $0 + "\0" }.joined().utf8))
            #expect(try await socket.readReply() == VarlinkReply(parameters: ["greeting": "Hello, Bob!"]))
            socket.hangUp()
            server.probe.finish()
            #expect(await server.probe.resetCount() == 1, "the oneway Reset still ran")
        }
    }

    @Test("Pipelined calls are answered in call order")
    func repliesComeInCallOrder() async throws {
        try await ExampleServer.run { server in
            let socket = try RawSocket(path: server.socketPath)
            let calls = [
                #"{"method":"org.shakywords.Example.Hello","parameters":{"name":"A"}}"#,
                #"{"method":"org.shakywords.Example.Check","parameters":{"value":9,"limit":1}}"#,
                #"{"method":"org.shakywords.Example.Hello","parameters":{"name":"B"}}"#,
                #"{"method":"org.shakywords.Example.Count","parameters":{"to":2},"more":true}"#,
                #"{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":"nope.nope"}}"#,
                #"{"method":"org.shakywords.Example.Hello","parameters":{"name":"C"}}"#,
            ]
            // Split mid-message, to check that framing does not depend on write boundaries.
            let bytes = Array(calls.map { $0 + "\0" }.joined().utf8)
            await socket.write(Array(bytes[..<37]))
            await socket.write(Array(bytes[37...]))
            var replies: [VarlinkReply] = []
            for _ in 0..<7 { replies.append(try await socket.readReply()) }
            #expect(
                replies == [
                    VarlinkReply(parameters: ["greeting": "Hello, A!"]),
                    .error("org.shakywords.Example.TooLarge", parameters: ["value": 9, "limit": 1]),
                    VarlinkReply(parameters: ["greeting": "Hello, B!"]),
                    VarlinkReply(parameters: ["value": 1], continues: true),
                    VarlinkReply(parameters: ["value": 2]),
                    .error("org.varlink.service.InterfaceNotFound", parameters: ["interface": "nope.nope"]),
                    VarlinkReply(parameters: ["greeting": "Hello, C!"]),
                ])
        }
    }

    @Test("A call pipelined behind a stream is answered after the stream's final reply")
    func callBehindStreamWaits() async throws {
        try await ExampleServer.run { server in
            let socket = try RawSocket(path: server.socketPath)
            await socket.send(#"{"method":"org.shakywords.Example.Pace","more":true}"#)
            await socket.send(#"{"method":"org.shakywords.Example.Hello","parameters":{"name":"Ada"}}"#)
            #expect(try await socket.readReply() == VarlinkReply(parameters: ["step": 1], continues: true))
            // Hello has been sent and the stream is still open: its reply must wait for the final step.
            server.probe.openGate()
            #expect(try await socket.readReply() == VarlinkReply(parameters: ["step": 2]))
            #expect(try await socket.readReply() == VarlinkReply(parameters: ["greeting": "Hello, Ada!"]))
        }
    }

    @Test("A streaming-only method called without more gets ExpectedMore")
    func expectedMore() async throws {
        try await ExampleServer.run { server in
            let socket = try RawSocket(path: server.socketPath)
            await socket.send(#"{"method":"org.shakywords.Example.Count","parameters":{"to":3}}"#)
            #expect(try await socket.readReply() == .error("org.varlink.service.ExpectedMore"))
        }
    }

    @Test("A streaming handler learns that the client hung up")
    func hangupEndsTheStream() async throws {
        try await ExampleServer.run { server in
            let socket = try RawSocket(path: server.socketPath)
            await socket.send(#"{"method":"org.shakywords.Example.Follow","more":true}"#)
            #expect(try await socket.readReply() == VarlinkReply(parameters: ["value": 1], continues: true))
            socket.hangUp()
            #expect(await server.probe.nextHangup() == "Follow")
        }
    }

    @Test("upgrade is refused with InvalidParameter, as no method here supports it")
    func upgradeIsRefused() async throws {
        try await ExampleServer.run { server in
            let socket = try RawSocket(path: server.socketPath)
            await socket.send(#"{"method":"org.shakywords.Example.Hello","parameters":{"name":"A"},"upgrade":true}"#)
            #expect(
                try await socket.readReply()
                    == .error("org.varlink.service.InvalidParameter", parameters: ["parameter": "upgrade"]))
        }
    }

    @Test("A refused peer gets PermissionDenied; org.varlink.service stays open")
    func permissionDenied() async throws {
        struct OnlyHello: VarlinkAccessPolicy {
            func allows(_ peer: VarlinkPeerCredentials, toCall method: String) -> Bool {
                method == "org.shakywords.Example.Hello"
            }
        }
        try await ExampleServer.run(accessPolicy: OnlyHello()) { server in
            let socket = try RawSocket(path: server.socketPath)
            await socket.send(#"{"method":"org.shakywords.Example.Reset"}"#)
            #expect(try await socket.readReply() == .error("org.varlink.service.PermissionDenied"))
            await socket.send(#"{"method":"org.varlink.service.GetInfo"}"#)
            #expect(try await socket.readReply().error == nil)
            await socket.send(#"{"method":"org.shakywords.Example.Hello","parameters":{"name":"A"}}"#)
            #expect(try await socket.readReply() == VarlinkReply(parameters: ["greeting": "Hello, A!"]))
        }
    }
}
