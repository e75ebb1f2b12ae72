import ShakyDaemon
import ShakyProtocol
import ShakyTesting
import Synchronization
import Testing
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// Who may do what: reading is open to every local user; changing the game needs root, the daemon's user or
/// group `shaky`.
@Suite("Access")
struct AccessTests {
    static let serverUID: uid_t = 990
    static let controlGroup: gid_t = 991
    static let policy = ControlGroupAccessPolicy(
        openMethods: ShakyService.openMethods, serverUID: serverUID, controlGroupID: controlGroup)
    static let stranger = VarlinkPeerCredentials(uid: 1001, gid: 1001, pid: 4001)

    @Test("A peer outside the group gets PermissionDenied for New, Buzz and changes, but reads Status and Watch")
    func strangerMayOnlyRead() async throws {
        try await TestDaemon.run(.inProcess, accessPolicy: Self.policy, peer: Self.stranger) { stranger in
            let host = stranger.calling(as: VarlinkPeerCredentials(uid: 0, gid: 0, pid: 4000))
            try await PartyPack.create(on: host)

            let denied = try await stranger.callError("io.shakywords.Game.New", PartyPack.newGame(teams: ["A", "B"]))
            #expect(denied.name == "org.varlink.service.PermissionDenied")
            let noGame = try await stranger.callError("io.shakywords.Game.Status")
            #expect(noGame.name == "io.shakywords.Game.NoGame")

            try await host.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"]))
            try await host.game("Next")
            let watch = try await stranger.watch()
            #expect(try await watch.nextEvent().status?.phase == .indication)

            for (method, parameters) in [
                ("io.shakywords.Game.Buzz", ["team": "Owls"]), ("io.shakywords.Game.Hint", [:]),
                ("io.shakywords.Game.End", [:]), ("io.shakywords.Packs.Create", ["name": "Mine"]),
                ("io.shakywords.Settings.Set", ["volume": 0.1]),
                ("io.shakywords.Buzzers.Assign", ["team": "Owls", "device": "usb-1", "key": "KEY_A"]),
                ("io.shakywords.Buzzers.Join", [:]), ("io.shakywords.Buzzers.Clear", [:]),
            ] as [(String, VarlinkObject)] {
                let error = try await stranger.callError(method, parameters)
                #expect(error.name == "org.varlink.service.PermissionDenied", "\(method)")
            }
            let status = try await stranger.status()
            #expect(status.phase == .indication)
            #expect(status.buzzes.isEmpty)
            let reads: [String: VarlinkObject] = [
                "io.shakywords.Game.Status": [:], "io.shakywords.Game.Scoreboard": [:],
                "io.shakywords.Game.History": [:], "io.shakywords.Game.Leaderboard": [:],
                "io.shakywords.Packs.List": [:], "io.shakywords.Packs.Show": ["name": "Party"],
                "io.shakywords.Packs.Search": ["text": "animal"],
                "io.shakywords.Packs.Export": ["name": "Party", "format": "csv"],
                "io.shakywords.Sensor.Status": [:], "io.shakywords.Settings.Get": [:],
                "io.shakywords.Buzzers.List": [:],
            ]
            #expect(
                Set(reads.keys).union(["io.shakywords.Game.Watch", "io.shakywords.Buzzers.Watch"])
                    == ShakyService.openMethods)
            for (method, parameters) in reads.sorted(by: { $0.key < $1.key }) {
                let reply = try await stranger.call(method, parameters)
                #expect(!reply.isEmpty, "\(method)")
            }
            let info = try await stranger.call("org.varlink.service.GetInfo")
            #expect(info["product"] == "shakyd")

            // Watchers hear the host's moves.
            try await host.game("Buzz", ["team": "Owls"])
            #expect(try await watch.nextEvent().kind == .buzz)
            await watch.cancel()
        }
    }

    @Test("Root, the daemon's user and members of the group (primary or supplementary) may play")
    func membersMayPlay() async throws {
        try await TestDaemon.run(.inProcess, accessPolicy: Self.policy, peer: Self.stranger) { stranger in
            let root = stranger.calling(as: VarlinkPeerCredentials(uid: 0, gid: 0, pid: 1))
            try await PartyPack.create(on: root)
            let daemonUser = stranger.calling(as: VarlinkPeerCredentials(uid: Self.serverUID, gid: 5000, pid: 2))
            try await daemonUser.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"]))
            let primary = stranger.calling(as: VarlinkPeerCredentials(uid: 1003, gid: Self.controlGroup, pid: 3))
            try await primary.game("Next")
            let supplementary = stranger.calling(
                as: VarlinkPeerCredentials(uid: 1002, gid: 1002, pid: 4, groups: [Self.controlGroup]))
            let status = try await supplementary.game("Buzz", ["team": "Owls"])
            #expect(status.buzzes.map(\.team) == ["Owls"])
        }
    }

    @Test("Over the socket the policy sees the caller's real credentials (SO_PEERCRED)")
    func socketPassesPeerCredentials() async throws {
        let recorder = RecordingAccessPolicy()
        try await TestDaemon.run(.socket, accessPolicy: recorder) { client in
            try await client.call("io.shakywords.Settings.Get")
            let watch = try await client.watch()
            _ = try await watch.next()
            await watch.cancel()
        }
        let expected = VarlinkPeerCredentials.currentProcess
        #expect(
            recorder.seen == [
                RecordingAccessPolicy.Check(peer: expected, method: "io.shakywords.Settings.Get"),
                RecordingAccessPolicy.Check(peer: expected, method: "io.shakywords.Game.Watch"),
            ])
    }

    @Test("Control follows the caller's real groups (SO_PEERGROUPS): a group its process holds, not its user's")
    func realGroupsDecide() async throws {
        // Nobody (uid 65534) is in no group 4242 in the user database; only the process started with it is.
        let policy = ControlGroupAccessPolicy(
            openMethods: ShakyService.openMethods, serverUID: Self.serverUID, controlGroupID: 4242)
        try await TestDaemon.run(.socket, accessPolicy: policy) { client in
            #expect(chmod(client.socketPath, 0o666) == 0)
            func setSound(groups: String) async throws -> String {
                let script = """
                    import socket, sys
                    s = socket.socket(socket.AF_UNIX)
                    s.connect(sys.argv[1])
                    s.sendall(b'{"method":"io.shakywords.Settings.Set","parameters":{"sound":false}}\\0')
                    print(s.recv(65536).rstrip(b'\\0').decode())
                    """
                let child = try ChildProcess(
                    "/usr/bin/setpriv",
                    [
                        "--reuid=65534", "--regid=65534", "--groups=\(groups)", "/usr/bin/python3", "-c", script,
                        client.socketPath,
                    ])
                let exit = try await child.waitForExit()
                #expect(exit.status == 0, "\(child.standardError)")
                return child.standardOutput
            }
            #expect(try await setSound(groups: "4343").contains("org.varlink.service.PermissionDenied"))
            let allowed = try await setSound(groups: "100,4242")
            #expect(!allowed.contains("error") && allowed.contains("settings"), "\(allowed)")
        }
    }
}

/// Lets everyone in and records who asked for what.
final class RecordingAccessPolicy: VarlinkAccessPolicy {
    struct Check: Equatable, Sendable {
        var peer: VarlinkPeerCredentials
        var method: String
    }

    private let checks = Mutex<[Check]>([])

    var seen: [Check] { checks.withLock { $0 } }

    func allows(_ peer: VarlinkPeerCredentials, toCall method: String) -> Bool {
        checks.withLock { $0.append(Check(peer: peer, method: method)) }
        return true
    }
}
