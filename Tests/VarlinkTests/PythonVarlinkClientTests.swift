import ShakyTesting
import Testing
import Varlink

/// The PyPI `varlink` package as an independent client: its CLI and its library (which parses the
/// served interface descriptions and checks replies against them).
@Suite("Independent client: python varlink")
struct PythonVarlinkClientTests {
    @Test("varlink.cli info lists the service and its interfaces")
    func info() async throws {
        try await ExampleServer.run { server in
            let output = try await PythonVarlink.cli(["info", server.address])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(
                output.stdout == """
                    Vendor: Shaky Words
                    Product: shaky-protocol-tests
                    Version: 1.0
                    URL: https://shakywords.invalid
                    Interfaces:
                       org.varlink.service
                       org.shakywords.Example

                    """)
        }
    }

    @Test("varlink.cli help prints each interface description verbatim")
    func help() async throws {
        try await ExampleServer.run { server in
            let example = try await PythonVarlink.cli(["help", "\(server.address)/org.shakywords.Example"])
            #expect(example.status == 0, "\(example.stderr)")
            #expect(example.stdout == ExampleInterface.description + "\n")
            let service = try await PythonVarlink.cli(["help", "\(server.address)/org.varlink.service"])
            #expect(service.stdout == VarlinkInterface.orgVarlinkServiceDescription + "\n")
        }
    }

    @Test("varlink.cli call gets replies and error replies")
    func call() async throws {
        try await ExampleServer.run { server in
            let hello = try await PythonVarlink.cli([
                "call", "\(server.address)/org.shakywords.Example.Hello", #"{"name": "Ada"}"#,
            ])
            #expect(hello.status == 0, "\(hello.stderr)")
            #expect(try JSONValue(parsing: hello.stdout) == ["greeting": "Hello, Ada!"])

            let tooLarge = try await PythonVarlink.cli([
                "call", "\(server.address)/org.shakywords.Example.Check", #"{"value": 9, "limit": 5}"#,
            ])
            #expect(tooLarge.stdout.isEmpty)
            #expect(tooLarge.stderr.contains("org.shakywords.Example.TooLarge"), "\(tooLarge.stderr)")

            let unknown = try await PythonVarlink.cli([
                "call", "\(server.address)/org.shakywords.Example.Hello", #"{"name": "Ada", "age": 3}"#,
            ])
            #expect(unknown.stderr.contains("org.varlink.service.InvalidParameter"), "\(unknown.stderr)")
            #expect(unknown.stderr.contains("age"), "\(unknown.stderr)")
        }
    }

    @Test("varlink.cli call --more prints every reply of a stream")
    func callMore() async throws {
        try await ExampleServer.run { server in
            let output = try await PythonVarlink.cli([
                "call", "--more", "\(server.address)/org.shakywords.Example.Count", #"{"to": 3}"#,
            ])
            #expect(output.status == 0, "\(output.stderr)")
            let values = output.stdout.split(separator: "}").compactMap { chunk in
                try? JSONValue(parsing: String(chunk) + "}")["value"]?.intValue
            }
            #expect(values == [1, 2, 3], "\(output.stdout)")
        }
    }

    @Test("The python library client makes typed calls checked against the served description")
    func libraryClient() async throws {
        let script = #"""
            import json, sys, varlink
            with varlink.Client(address=sys.argv[1]) as client, \
                    client.open("org.shakywords.Example") as example:
                print(example.Hello(name="Ada")["greeting"])
                print(example.Check(value=3, limit=5)["value"])
                try:
                    example.Check(value=9, limit=5)
                except varlink.VarlinkError as error:
                    print(error.error(), json.dumps(error.parameters(), sort_keys=True))
                print([reply["value"] for reply in example.Count(to=3, _more=True)])
                echo = example.Echo(flag=True, count=2, ratio=0.5, text="é", extra={"any": [1]},
                    numbers=[1, 2], labels={"a": "b"}, tags={"t": {}}, team={"name": "Owls", "score": 4},
                    outcome="skipped", point={"x": 1, "y": 2})
                print(json.dumps(echo, sort_keys=True, default=sorted))
                example.Reset(_oneway=True)
                print(example.Hello(name="Bob")["greeting"])
            """#
        try await ExampleServer.run { server in
            let output = try await PythonVarlink.run(["-c", script, server.address])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(
                output.stdout.split(separator: "\n") == [
                    "Hello, Ada!",
                    "3",
                    #"org.shakywords.Example.TooLarge {"limit": 5, "value": 9}"#,
                    "[1, 2, 3]",
                    #"{"count": 2, "extra": {"any": [1]}, "flag": true, "labels": {"a": "b"}, "numbers": [1, 2], "#
                        + #""outcome": "skipped", "point": {"x": 1, "y": 2}, "ratio": 0.5, "tags": ["t"], "#
                        + #""team": {"name": "Owls", "score": 4}, "text": "\u00e9"}"#,
                    "Hello, Bob!",
                ])
            server.probe.finish()
            #expect(await server.probe.resetCount() == 1)
        }
    }
}
