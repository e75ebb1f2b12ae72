import Testing
import Varlink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

@Suite("Access policy and systemd socket activation")
struct AccessAndActivationTests {
    /// Server runs as uid 1000; group `shaky` is gid 990; user 1002's process has it as a supplementary group.
    let policy = ControlGroupAccessPolicy(
        openMethods: ["org.shakywords.Game.Status"], serverUID: 1000, controlGroupID: 990)

    @Test(
        "Root, the server's user and members of the control group may control; others only open methods",
        arguments: [
            (VarlinkPeerCredentials(uid: 0, gid: 0, pid: 1), true),
            (VarlinkPeerCredentials(uid: 1000, gid: 1000, pid: 2), true),
            (VarlinkPeerCredentials(uid: 1001, gid: 990, pid: 3), true),
            (VarlinkPeerCredentials(uid: 1002, gid: 1002, pid: 4, groups: [27, 990]), true),
            (VarlinkPeerCredentials(uid: 1003, gid: 1003, pid: 5, groups: [27, 991]), false),
        ])
    func controlRights(peer: VarlinkPeerCredentials, mayControl: Bool) {
        #expect(policy.allows(peer, toCall: "org.shakywords.Game.Start") == mayControl)
        #expect(policy.allows(peer, toCall: "org.shakywords.Game.Status"))
    }

    @Test("Without the control group only root and the server's user may control")
    func noControlGroup() {
        var policy = policy
        policy.controlGroupID = nil
        #expect(
            !policy.allows(VarlinkPeerCredentials(uid: 1002, gid: 990, pid: 4), toCall: "org.shakywords.Game.Start"))
        #expect(policy.allows(VarlinkPeerCredentials(uid: 0, gid: 0, pid: 1), toCall: "org.shakywords.Game.Start"))
    }

    @Test("A process's groups come from /proc when the socket cannot say")
    func processGroups() {
        let count = getgroups(0, nil)
        var groups = [gid_t](repeating: 0, count: Int(count))
        _ = getgroups(count, &groups)
        #expect(VarlinkPeerCredentials.groups(ofProcess: getpid()) == groups)
        #expect(VarlinkPeerCredentials.currentProcess.groups == groups)
        #expect(VarlinkPeerCredentials.groups(ofProcess: -1) == [])
    }

    @Test("The user database knows root's groups and no group with an impossible name")
    func userDatabase() {
        #expect(UserDatabase.groups(ofUser: 0, primaryGroup: 0).contains(0))
        #expect(UserDatabase.groupID(named: "root") == 0)
        #expect(UserDatabase.groupID(named: "no-such-group-shaky-test") == nil)
        #expect(UserDatabase.groups(ofUser: 4_000_000_000, primaryGroup: 77) == [77])
    }

    @Test("LISTEN_FDS and LISTEN_PID are read as sd_listen_fds does")
    func listenFileDescriptors() throws {
        #expect(try SystemdSocketActivation.listeningDescriptors(environment: [:], processID: 42).isEmpty)
        #expect(
            try SystemdSocketActivation.listeningDescriptors(
                environment: ["LISTEN_PID": "42", "LISTEN_FDS": "2"], processID: 42) == 3..<5)
        // The count is the environment's word: the largest one is held without a descriptor list.
        #expect(
            try SystemdSocketActivation.listeningDescriptors(
                environment: ["LISTEN_PID": "42", "LISTEN_FDS": "\(CInt.max - 3)"], processID: 42
            ).count
                == Int(CInt.max - 3))
        #expect(
            try SystemdSocketActivation.listeningDescriptors(
                environment: ["LISTEN_PID": "41", "LISTEN_FDS": "1"], processID: 42
            ).isEmpty)
        #expect(throws: SystemdSocketActivation.InvalidEnvironment(variable: "LISTEN_FDS", value: "x")) {
            try SystemdSocketActivation.listeningDescriptors(
                environment: ["LISTEN_PID": "42", "LISTEN_FDS": "x"], processID: 42)
        }
        #expect(throws: SystemdSocketActivation.InvalidEnvironment(variable: "LISTEN_PID", value: "")) {
            try SystemdSocketActivation.listeningDescriptors(
                environment: ["LISTEN_PID": "", "LISTEN_FDS": "1"], processID: 42)
        }
    }
}
