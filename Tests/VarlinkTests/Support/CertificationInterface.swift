import Foundation
import ShakyTesting
import Synchronization
import Varlink

/// `org.varlink.certification` on the `Varlink` module, as the reference servers serve it: each call must come
/// in order (Start, Test01 … Test11, End) and carry exactly what the previous reply gave the client, or it gets
/// `CertificationError` with what was wanted and what came.
///
/// The description is the one the PyPI `varlink` package ships, read from the venv at run time.
enum CertificationInterface {
    static let name = "org.varlink.certification"

    /// The description from the installed python package (`varlink/tests/org.varlink.certification.varlink`).
    static func description() throws -> String {
        _ = try PythonVarlink.python()
        let lib = BuiltProduct.checkout.appendingPathComponent(".venv/lib").path
        for version in try FileManager.default.contentsOfDirectory(atPath: lib).sorted() {
            let path = "\(lib)/\(version)/site-packages/varlink/tests/\(name).varlink"
            if FileManager.default.fileExists(atPath: path) { return try String(contentsOfFile: path, encoding: .utf8) }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(lib)/*/site-packages/varlink/tests"])
    }

    static let string = "a lot of string"
    static let structure: JSONValue = ["bool": false, "int": 2, "float": .double(.pi), "string": .string(string)]
    static let map: JSONValue = ["foo": "Foo", "bar": "Bar"]
    static let set: JSONValue = ["one": [:], "two": [:], "three": [:]]
    static let myType: JSONValue = [
        "object": [
            "method": "org.varlink.certification.Test09", "parameters": ["map": ["foo": "Foo", "bar": "Bar"]],
        ],
        "enum": "two",
        "struct": ["first": 1, "second": "2"],
        "array": ["one", "two", "three"],
        "dictionary": ["foo": "Foo", "bar": "Bar"],
        "stringset": ["one": [:], "two": [:], "three": [:]],
        "interface": [
            "foo": [nil, ["foo": "foo", "bar": "bar"], nil, ["one": "foo", "two": "bar"]],
            "anon": ["foo": true, "bar": false],
        ],
    ]
    static let replyNumbers: [JSONValue] = (1...10).map { .string("Reply number \($0)") }

    /// Which method each client must call next, by client id.
    final class Progress: Sendable {
        private let next = Mutex<[String: String]>([:])

        func start() -> String {
            let id = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            next.withLock { $0[id] = "Test01" }
            return id
        }

        /// Checks that `method` is the one `id` must call now and moves it on to `following`.
        func advance(_ id: String, calling method: String, then following: String?) throws {
            try next.withLock { next in
                guard let expected = next[id] else {
                    throw certificationError(wants: "a client id from Start", got: .string(id))
                }
                guard expected == method else {
                    next[id] = nil
                    throw certificationError(
                        wants: .string("Call to method \(name).\(expected)"),
                        got: .string("Call to method \(name).\(method)"))
                }
                next[id] = following
            }
        }
    }

    static func certificationError(wants: JSONValue, got: JSONValue) -> VarlinkReplyError {
        VarlinkReplyError("\(name).CertificationError", parameters: ["wants": wants, "got": got])
    }

    /// Throws `CertificationError` unless the call's parameters besides `client_id` are `wants`.
    static func expect(_ request: VarlinkRequest, _ wants: VarlinkObject) throws {
        var got = request.parameters
        got["client_id"] = nil
        guard got == wants else { throw certificationError(wants: .object(wants), got: .object(got)) }
    }

    static func make() throws -> VarlinkInterface {
        let progress = Progress()
        func step(
            _ method: String, then following: String?, wants: VarlinkObject, reply: VarlinkObject
        ) -> VarlinkMethod {
            .reply { request in
                let id = request.parameters["client_id"]?.stringValue ?? ""
                try progress.advance(id, calling: method, then: following)
                try expect(request, wants)
                return reply
            }
        }
        let pi = JSONValue.double(.pi)
        return try VarlinkInterface(
            description: try description(),
            methods: [
                "Start": .reply { _ in ["client_id": .string(progress.start())] },
                "Test01": step("Test01", then: "Test02", wants: [:], reply: ["bool": true]),
                "Test02": step("Test02", then: "Test03", wants: ["bool": true], reply: ["int": 1]),
                "Test03": step("Test03", then: "Test04", wants: ["int": 1], reply: ["float": .double(1)]),
                "Test04": step("Test04", then: "Test05", wants: ["float": .double(1)], reply: ["string": "ping"]),
                "Test05": step(
                    "Test05", then: "Test06", wants: ["string": "ping"],
                    reply: ["bool": false, "int": 2, "float": pi, "string": .string(string)]),
                "Test06": step(
                    "Test06", then: "Test07", wants: ["bool": false, "int": 2, "float": pi, "string": .string(string)],
                    reply: ["struct": structure]),
                "Test07": step("Test07", then: "Test08", wants: ["struct": structure], reply: ["map": map]),
                "Test08": step("Test08", then: "Test09", wants: ["map": map], reply: ["set": set]),
                "Test09": step("Test09", then: "Test10", wants: ["set": set], reply: ["mytype": myType]),
                "Test10": .stream { request in
                    let id = request.parameters["client_id"]?.stringValue ?? ""
                    try progress.advance(id, calling: "Test10", then: "Test11")
                    // A client may send back the optional fields it received as null.
                    var mytype = request.parameters["mytype"]?.objectValue ?? [:]
                    for key in ["nullable", "nullable_array_struct"] where mytype[key] == .null { mytype[key] = nil }
                    guard JSONValue.object(mytype) == myType else {
                        throw certificationError(wants: myType, got: .object(mytype))
                    }
                    return AsyncThrowingStream { continuation in
                        for (index, number) in replyNumbers.enumerated() {
                            continuation.yield(
                                VarlinkStreamReply(parameters: ["string": number], continues: index < 9))
                        }
                        continuation.finish()
                    }
                },
                "Test11": .reply { request in
                    let id = request.parameters["client_id"]?.stringValue ?? ""
                    try progress.advance(id, calling: "Test11", then: "End")
                    guard request.call.oneway else {
                        throw certificationError(wants: ["oneway": true], got: ["oneway": false])
                    }
                    try expect(request, ["last_more_replies": .array(replyNumbers)])
                    return [:]
                },
                "End": step("End", then: nil, wants: [:], reply: ["all_ok": true]),
            ])
    }
}
