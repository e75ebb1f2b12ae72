import Testing

@testable import ShakyCore

@Suite struct DefaultPathsTests {
    @Test func rootUsesTheSystemPaths() {
        let paths = DefaultPaths(environment: ["HOME": "/root"], isRoot: true)
        #expect(paths.daemonSocket == "/run/shaky/shaky.sock")
        #expect(paths.stateDirectory == "/var/lib/shaky")
        #expect(paths.clientSockets == ["/run/shaky/shaky.sock"])
    }

    @Test func aUserDaemonLivesInTheUsersFolders() {
        let paths = DefaultPaths(
            environment: ["XDG_RUNTIME_DIR": "/run/user/1000", "XDG_STATE_HOME": "/home/a/.state", "HOME": "/home/a"],
            isRoot: false)
        #expect(paths.daemonSocket == "/run/user/1000/shaky/shaky.sock")
        #expect(paths.stateDirectory == "/home/a/.state/shaky")
        #expect(paths.clientSockets == ["/run/user/1000/shaky/shaky.sock", "/run/shaky/shaky.sock"])
    }

    @Test func stateFallsBackToLocalState() {
        let paths = DefaultPaths(environment: ["HOME": "/home/b"], isRoot: false)
        #expect(paths.stateDirectory == "/home/b/.local/state/shaky")
    }

    @Test func systemdDirectoriesWin() {
        let paths = DefaultPaths(
            environment: ["RUNTIME_DIRECTORY": "/run/shaky:/run/other", "STATE_DIRECTORY": "/var/lib/shaky"],
            isRoot: false)
        #expect(paths.daemonSocket == "/run/shaky/shaky.sock")
        #expect(paths.stateDirectory == "/var/lib/shaky")
    }

    @Test func anExplicitSocketServesDaemonAndClient() {
        let paths = DefaultPaths(environment: ["SHAKY_SOCKET": "/tmp/x.sock"], isRoot: false)
        #expect(paths.daemonSocket == "/tmp/x.sock")
        #expect(paths.clientSockets == ["/tmp/x.sock"])
    }
}
