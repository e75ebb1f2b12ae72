import Foundation
import ShakyTesting
import Testing

/// The programs tests run: how each ended is known at once, whatever another one does, and each starts clean.
@Suite struct ChildProcessTests {
    @Test("A child that closes every descriptor and waits does not hold up learning how another child ended")
    func aWaitingActivatorDoesNotHoldUpOtherExits() async throws {
        let activator = try #require(
            ["/usr/bin/systemd-socket-activate", "/bin/systemd-socket-activate"]
                .first { FileManager.default.isExecutableFile(atPath: $0) },
            "systemd-socket-activate is missing: install systemd (make setup)")
        let folder = try TemporaryDirectory(prefix: "shaky-child")
        defer { folder.remove() }
        // It closes what it did not open and then waits for a connection that never comes.
        let waiting = try ChildProcess(activator, ["-l", folder.appending("socket"), "--", "/bin/true"])
        defer { waiting.send(SIGKILL) }
        try await waiting.wait(for: "the activation socket", within: .seconds(20)) {
            waiting.standardError.contains("Listening on")
        }

        let quick = try ChildProcess("/bin/sh", ["-c", "exit 3"])
        #expect(try await quick.waitForExit(within: .seconds(10)) == .exited(3))
        #expect(waiting.exit == nil)
        waiting.send(SIGKILL)
        #expect(try await waiting.waitForExit(within: .seconds(10)) == .signalled(SIGKILL))
    }

    @Test("A socket file that is bound but not yet listening is not taken for a server that listens")
    func aBoundSocketIsNotYetListening() async throws {
        let folder = try TemporaryDirectory(prefix: "shaky-child")
        defer { folder.remove() }
        let path = folder.appending("socket")
        let script = """
            import signal, socket
            signal.signal(signal.SIGUSR1, lambda *_: None)
            server = socket.socket(socket.AF_UNIX)
            server.bind("\(path)")
            print("bound", flush=True)
            signal.pause()
            server.listen()
            print("listening", flush=True)
            signal.pause()
            """
        let server = try ChildProcess("/usr/bin/python3", ["-c", script])
        defer { server.send(SIGKILL) }
        try await server.waitForOutput(containing: "bound")
        #expect(FileManager.default.fileExists(atPath: path))
        await #expect(throws: ChildProcess.TimedOut.self) {
            try await server.waitUntilListening(at: path, within: .milliseconds(50))
        }
        server.send(SIGUSR1)
        try await server.waitUntilListening(at: path, within: .seconds(10))
    }

    @Test("A child killed at its deadline takes what it started along (a daemon under a wrapper)")
    func aTimedOutChildTakesItsOwnAlong() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "sleep 300 & echo $!; wait"])
        try await child.waitForOutput(containing: "\n")
        let started = try #require(pid_t(child.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        await #expect(throws: ChildProcess.TimedOut.self) { try await child.waitForExit(within: .milliseconds(100)) }
        try await child.wait(for: "the background sleep to end", within: .seconds(10)) {
            let state = (try? String(contentsOfFile: "/proc/\(started)/stat", encoding: .utf8))?
                .split(separator: ")").last?.split(separator: " ").first
            return state == nil || state == "Z"
        }
        #expect(try await child.waitForExit(within: .seconds(10)) == .signalled(SIGKILL))
    }

    @Test("A child starts with no signal blocked, though the thread that started it blocks one")
    func noSignalIsBlocked() async throws {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGUSR1)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let child: ChildProcess
        do {
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            child = try ChildProcess("/bin/grep", ["SigBlk", "/proc/self/status"])
        }
        #expect(try await child.waitForExit(within: .seconds(10)) == .exited(0))
        #expect(child.standardOutput == "SigBlk:\t0000000000000000\n")
    }

    @Test("A child has only its standard input, output and error, not a descriptor this process left inheritable")
    func onlyTheStandardDescriptorsAreInherited() async throws {
        let inheritable = open("/dev/null", O_RDONLY)
        try #require(inheritable > 2)
        defer { close(inheritable) }
        let child = try ChildProcess(
            "/bin/sh", ["-c", "test -e /proc/$$/fd/\(inheritable) && echo open || echo closed"])
        #expect(try await child.waitForExit(within: .seconds(10)) == .exited(0))
        #expect(child.standardOutput == "closed\n")
    }

    @Test("A child starts in the folder it is given, reads the input it is given and its signal death is told")
    func folderInputAndSignal() async throws {
        let folder = try TemporaryDirectory(prefix: "shaky-child")
        defer { folder.remove() }
        let child = try ChildProcess(
            "/bin/sh", ["-c", "pwd; cat; kill -TERM $$"], currentDirectory: URL(fileURLWithPath: folder.path),
            standardInput: Data("typed\n".utf8))
        #expect(try await child.waitForExit(within: .seconds(10)) == .signalled(SIGTERM))
        #expect(child.standardOutput == folder.path + "\ntyped\n")

        let missing = folder.appending("no-such-program")
        #expect(throws: ChildProcess.CannotStart.self) { try ChildProcess(missing, []) }
    }
}
