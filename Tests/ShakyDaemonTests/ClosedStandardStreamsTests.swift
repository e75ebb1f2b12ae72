import Foundation
import ShakyTesting
import Testing

/// A daemon started with a standard stream closed (`shakyd 2>&-`, a service manager's odd unit): the first file or
/// socket it opened took the stream's number, and what it wrote to standard error (its log) went there, or the write
/// trapped.
@Suite("A daemon started with standard error closed")
struct ClosedStandardStreamsTests {
    @Test("It holds /dev/null where standard error was, serves, and stops cleanly")
    func theDaemonRunsWithStandardErrorClosed() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // Started through a shell that closes its standard input, output and error: `exec` keeps the process.
        let wrapper = folder.appending("shakyd-closed")
        let script = "#!/bin/sh\nexec \"\(try BuiltProduct.path("shakyd"))\" \"$@\" <&- >&- 2>&-\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: wrapper))
        #expect(chmod(wrapper, 0o755) == 0)
        let daemon = try DaemonProcess(
            arguments: ["--log-level", "debug"], executable: URL(fileURLWithPath: wrapper))
        try await daemon.withCleanup {
            try await daemon.start()
            let pid = try #require(daemon.processID)
            for descriptor in 0...2 {
                let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)")
                #expect(target == "/dev/null", "descriptor \(descriptor) is \(target)")
            }
            let client = try await daemon.connect()
            _ = try await client.call("io.shakywords.Packs.List")
            await client.close()
            let exit = await daemon.terminate()
            #expect(exit?.status == 0 && exit?.signaled == false, "\(String(describing: exit))")
        }
    }
}
