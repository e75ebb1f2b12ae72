import Foundation
import ShakyTesting
import Testing
import Varlink

/// The reference certification client (PyPI `varlink`: `python -m varlink.tests.test_certification --client`)
/// against `org.varlink.certification` served by this module.
@Suite("Varlink certification")
struct CertificationTests {
    @Test("The python certification client passes against a server on the Varlink module")
    func pythonClientPasses() async throws {
        let directory = try ExampleServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socketPath = directory + "/certification.sock"
        let service = try VarlinkService(
            vendor: "Varlink", product: "varlink-certification", version: "1", url: "https://varlink.org",
            interfaces: [try CertificationInterface.make()])
        let server = try await VarlinkServer.bind(to: .unixSocket(path: socketPath), service: service)
        let task = Task { try await server.run() }
        defer { task.cancel() }
        let output = try await PythonVarlink.run([
            "-m", "varlink.tests.test_certification", "--client", "--varlink=unix:\(socketPath)",
        ])
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        #expect(output.stdout.contains("End: {'all_ok': True}"), "\(output.stdout)")
        #expect(output.stdout.hasSuffix("Certification passed\n"), "\(output.stdout)")
    }

    @Test("A call out of order or with other values gets CertificationError, as from the reference servers")
    func wrongCallsAreRefused() async throws {
        let service = try VarlinkService(
            vendor: "Varlink", product: "varlink-certification", version: "1", url: "https://varlink.org",
            interfaces: [try CertificationInterface.make()])
        func call(_ method: String, _ parameters: VarlinkObject) async throws -> VarlinkReply {
            var replies: [VarlinkReply] = []
            try await service.handle(
                VarlinkCall(method: "org.varlink.certification.\(method)", parameters: parameters),
                from: .currentProcess
            ) { replies.append($0) }
            return try #require(replies.first)
        }
        let start = try await call("Start", [:])
        let id = try #require(start.parameters["client_id"])
        #expect(
            try await call("Test02", ["client_id": id, "bool": true]).error?.hasSuffix("CertificationError") == true)
        let again = try #require(try await call("Start", [:]).parameters["client_id"])
        #expect(try await call("Test01", ["client_id": again]).parameters == ["bool": true])
        #expect(
            try await call("Test02", ["client_id": again, "bool": false]).error?.hasSuffix("CertificationError") == true
        )
    }
}
