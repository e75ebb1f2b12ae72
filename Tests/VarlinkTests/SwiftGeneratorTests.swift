import Testing
import Varlink
import VarlinkGenerator

@Suite("Code generation from .varlink files")
struct SwiftGeneratorTests {
    static let text = """
        # Things to test the generator with.
        interface org.example.things

        # A colour.
        type Colour (red, green)

        # A thing.
        type Thing (
          # What it is called.
          name: string,
          size: (small, large),
          shade: ?(red, green)
        )

        # Looks a thing up.
        # @open
        method Find(name: string, in: ?(small, large)) -> (thing: Thing)

        # @large-reply
        method Both() -> (a: int, b: ?float)

        # Every change, as it happens.
        # @requires-more
        method Watch() -> (thing: Thing)

        method Forget(name: string) -> ()

        # No such thing.
        error NotFound (name: string)

        error Busy ()

        """

    @Test("Docs and annotations are read; the served description leaves the annotation lines out")
    func readsDocsAndAnnotations() throws {
        let file = try InterfaceFile(text: Self.text, fileName: "Interfaces/org.example.things.varlink")
        #expect(file.interfaceDocs == ["Things to test the generator with."])
        #expect(file.declarationDocs["Find"] == ["Looks a thing up."])
        #expect(file.fieldDocs["Thing"]?["name"] == ["What it is called."])
        #expect(file.annotations["Find"] == [.open])
        #expect(file.annotations["Watch"] == [.requiresMore])
        #expect(file.annotations["Both"] == [.largeReply])
        #expect(file.annotations["Forget"] == nil)
        #expect(!file.servedDescription.contains("@"))
        #expect(file.servedDescription.contains("# Looks a thing up.\nmethod Find("))
        #expect(file.declarationOrder == ["Colour", "Thing", "Find", "Both", "Watch", "Forget", "NotFound", "Busy"])
        #expect(try VarlinkInterfaceDefinition(parsing: file.servedDescription) == file.definition)
    }

    @Test(
        "A file that cannot be generated is refused with its name and line",
        arguments: [
            ("interface a.b\n# @secret\nmethod M() -> ()\n", "x/a.b.varlink:2: unknown annotation @secret"),
            ("interface a.b\n# @open\ntype T (x: int)\n", "x/a.b.varlink:3: annotations belong above a method"),
            ("interface a.b\nmethod M() -> (x: Nope)\n", "x/a.b.varlink: interface description, line 2:"),
            ("interface a.c\nmethod M() -> ()\n", "must be a.c.varlink"),
        ])
    func refusesBadFiles(text: String, message: String) {
        #expect {
            _ = try InterfaceFile(text: text, fileName: "x/a.b.varlink")
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("Types, nested inline enums and their typealiases, messages, errors, the protocol and the client")
    func generatesSwift() throws {
        let file = try InterfaceFile(text: Self.text, fileName: "org.example.things.varlink")
        let output = try SwiftGenerator(namespace: "API").generate([file])
        #expect(output.map(\.name) == ["API+ThingsInterface.swift"])
        let swift = try #require(output.first).contents
        for expected in [
            "/// A colour.\n    public enum Colour: String, Codable, Equatable, Sendable, CaseIterable, JSONWritable, "
                + "VarlinkEnum {",
            "        /// What it is called.\n        public var name: String",
            "        public enum Size: String, Codable, Equatable, Sendable, CaseIterable, JSONWritable, VarlinkEnum {",
            // A value the enum does not list is a VarlinkUnknownEnumValue, which a client's reply decoding knows.
            """
                        public init(from decoder: any Decoder) throws {
                            self = try Self.decodeValue(from: decoder)
                        }
            """,
            "    public struct Thing: Codable, Equatable, Sendable, JSONWritable {",
            // Each type writes itself: members in ascending key order, nil optionals left out, enums as strings.
            """
                    public func writeJSON(to writer: inout JSONWriter) {
                        writer.beginObject()
                        writer.writeMember("name", name)
                        writer.writeOptionalMember("shade", shade)
                        writer.writeMember("size", size)
                        writer.endObject()
                    }
            """,
            "writer.writeOptionalMember(\"in\", `in`)",
            "            writer.writeString(rawValue)\n",
            "        /// The same values as `API.Colour`.\n        public typealias Shade = API.Colour",
            "        public var shade: API.Thing.Shade?",
            "            public typealias In = API.Thing.Size",
            "public static let openMethods: Set<String> = [\"org.example.things.Find\"]",
            "func find(name: String, `in`: API.ThingsInterface.FindParameters.In?) async throws -> API.Thing",
            "func both() async throws -> API.ThingsInterface.BothReply",
            "func watch() async throws -> AsyncThrowingStream<VarlinkStreamReply, any Error>",
            "func forget(name: String) async throws\n",
            "\"Watch\": .stream { _ in try await implementation.watch() },",
            "\"Both\": .typed(VarlinkEmptyParameters.self, largeReply: true) { _, _ in",
            "\"Forget\": .typed(ForgetParameters.self) { parameters, _ in",
            "case notFound(name: String)",
            "case busy\n",
            "case \"org.example.things.NotFound\":",
            "public func find(name: String, `in`: API.ThingsInterface.FindParameters.In? = nil) async throws(",
            "public func forget(_ parameters: ForgetParameters) async throws(Transport.Failure) {",
        ] {
            #expect(swift.contains(expected), "missing: \(expected)")
        }
        #expect(swift.contains("implementation.find(name: parameters.name, `in`: parameters.`in`)"))
    }

    @Test("Two interfaces may not define the same type name in one namespace")
    func refusesSharedTypeNames() throws {
        let first = try InterfaceFile(
            text: "interface a.b\ntype T (x: int)\nmethod M() -> (t: T)\n", fileName: "a.b.varlink")
        let second = try InterfaceFile(
            text: "interface a.c\ntype T (y: int)\nmethod M() -> (t: T)\n", fileName: "a.c.varlink")
        #expect(throws: GeneratorError("type T is defined by both a.b and a.c")) {
            try SwiftGenerator(namespace: "API").generate([first, second])
        }
    }
}
