import Testing
import Varlink

@Suite("Varlink interface definition parsing and parameter checks")
struct VarlinkInterfaceDefinitionTests {
    @Test("Parses org.varlink.service")
    func parsesService() throws {
        let definition = try VarlinkInterfaceDefinition(parsing: VarlinkInterface.orgVarlinkServiceDescription)
        #expect(definition.name == "org.varlink.service")
        #expect(
            definition.methods["GetInterfaceDescription"]
                == VarlinkMethodSignature(
                    name: "GetInterfaceDescription", input: [VarlinkField("interface", .string)],
                    output: [VarlinkField("description", .string)]))
        #expect(definition.methods["GetInfo"]?.output.last == VarlinkField("interfaces", .array(.string)))
        #expect(
            Set(definition.errors.keys) == [
                "InterfaceNotFound", "MethodNotFound", "MethodNotImplemented", "InvalidParameter", "PermissionDenied",
                "ExpectedMore",
            ])
        #expect(definition.errors["PermissionDenied"] == [])
    }

    @Test("Parses every type form")
    func parsesTypes() throws {
        let definition = try VarlinkInterfaceDefinition(parsing: ExampleInterface.description)
        let echo = try #require(definition.methods["Echo"])
        #expect(
            echo.input == [
                VarlinkField("flag", .bool), VarlinkField("count", .int), VarlinkField("ratio", .float),
                VarlinkField("text", .string), VarlinkField("extra", .object), VarlinkField("note", .optional(.string)),
                VarlinkField("numbers", .array(.int)), VarlinkField("labels", .map(.string)),
                VarlinkField("tags", .map(.structure([]))), VarlinkField("team", .named("Team")),
                VarlinkField("outcome", .named("Outcome")),
                VarlinkField("point", .structure([VarlinkField("x", .int), VarlinkField("y", .int)])),
                VarlinkField("teams", .optional(.array(.named("Team")))),
            ])
        #expect(definition.types["Outcome"] == .enumeration(["solved", "skipped", "timeout"]))
        #expect(definition.errors["TooLarge"] == [VarlinkField("value", .int), VarlinkField("limit", .int)])
    }

    @Test(
        "Rejects broken descriptions, naming the line",
        arguments: [
            ("interface org.example\nmethod Foo() -> (x: Missing)", 2, "type Missing is not defined"),
            ("interface org.example\ntype Mode (only)", 2, "an enum needs at least two values"),
            ("interface org.example\nmethod Foo(x: any) -> ()", 2, "\"any\" is not a type"),
            ("interface org.example\nmethod Foo(x: ??int) -> ()", 2, "\"??\" is not a type"),
            ("interface org.example\nmethod foo() -> ()", 2, "not a member name"),
            ("interface org.example\nmethod Foo() -> ()\nerror Foo ()", 3, "\"Foo\" is defined twice"),
            ("interface org.example\nmethod Foo(a: int, a: int) -> ()", 2, "field \"a\" appears twice"),
            ("interface org.example\nmethod Foo(a__b: int) -> ()", 2, "\"a__b\" is not a field name"),
            ("interface org.example\nmethod Foo(a_: int) -> ()", 2, "\"a_\" is not a field name"),
            ("interface org.example\nmethod Foo(a_b__: int) -> ()", 2, "\"a_b__\" is not a field name"),
            ("interface example\n", 1, "not a reverse-domain interface name"),
            ("interface org.example\nmethod Foo() (x: int)", 2, "expected \"->\""),
            ("# no interface line\nmethod Foo() -> ()", 2, "expected \"interface\""),
        ])
    func rejectsBrokenDescriptions(text: String, line: Int, reason: String) {
        do {
            _ = try VarlinkInterfaceDefinition(parsing: text)
            Issue.record("parsed: \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test("Field names may hold single underscores and digits")
    func acceptsUnderscoredFieldNames() throws {
        let definition = try VarlinkInterfaceDefinition(
            parsing: "interface org.example\nmethod Foo(a_b_c: int, x1_y2: string) -> ()")
        #expect(definition.methods["Foo"] != nil)
    }

    @Test("A handler for an undeclared method is refused when the interface is made")
    func refusesUndeclaredHandler() {
        #expect(throws: VarlinkIDLError.self) {
            try VarlinkInterface(
                description: "interface org.example\nmethod Foo() -> ()",
                methods: ["Bar": .reply { _ in [:] }])
        }
    }

    @Test("Parameter checks accept valid values, integral floats for int, and absent optionals")
    func acceptsValidParameters() throws {
        let definition = try VarlinkInterfaceDefinition(parsing: ExampleInterface.description)
        let check = try #require(definition.methods["Check"])
        #expect(definition.firstInvalidParameter(in: ["value": 2, "limit": 3.0], against: check.input) == nil)
        #expect(definition.firstInvalidParameter(in: ["value": 2, "limit": 3.5], against: check.input) == "limit")
        let echo = try #require(definition.methods["Echo"])
        var parameters: VarlinkObject = [
            "flag": false, "count": 0, "ratio": 1, "text": "", "extra": nil, "numbers": [], "labels": [:],
            "tags": [:], "team": ["name": "", "score": 0], "outcome": "timeout", "point": ["x": 0, "y": 0],
        ]
        #expect(definition.firstInvalidParameter(in: parameters, against: echo.input) == nil)
        parameters["note"] = .null
        parameters["teams"] = []
        #expect(definition.firstInvalidParameter(in: parameters, against: echo.input) == nil)
        parameters["flag"] = 1
        #expect(definition.firstInvalidParameter(in: parameters, against: echo.input) == "flag")
    }
}
