#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Decides whether a peer may call a method; a refused call gets `org.varlink.service.PermissionDenied`.
///
/// The service never asks about `org.varlink.service`, which everyone may call.
public protocol VarlinkAccessPolicy: Sendable {
    /// Whether `peer` may call `method` (fully qualified, e.g. `org.example.Game.Start`).
    func allows(_ peer: VarlinkPeerCredentials, toCall method: String) -> Bool
}

/// Lets everyone call everything: for services whose socket permissions are the only gate.
public struct AllowEveryoneAccessPolicy: VarlinkAccessPolicy {
    /// Creates the policy.
    public init() {}

    public func allows(_ peer: VarlinkPeerCredentials, toCall method: String) -> Bool { true }
}

/// Grants control to root, the server's own user and members of one group; others may call only open methods.
///
/// A peer is a member when its primary group (from `SO_PEERCRED`) or one of its process's supplementary
/// groups (from `SO_PEERGROUPS`, so a group the caller dropped or has not yet logged in to does not count)
/// is the control group.
public struct ControlGroupAccessPolicy: VarlinkAccessPolicy {
    /// Methods anyone may call (fully qualified), e.g. read-only status.
    public var openMethods: Set<String>
    /// The user the server runs as.
    public var serverUID: uid_t
    /// The control group's id, or `nil` when the group does not exist on this system.
    public var controlGroupID: gid_t?

    /// Creates a policy from explicit ids.
    public init(openMethods: Set<String>, serverUID: uid_t, controlGroupID: gid_t?) {
        self.openMethods = openMethods
        self.serverUID = serverUID
        self.controlGroupID = controlGroupID
    }

    /// A policy for this process: its effective uid and the group named `controlGroupName` if it exists.
    public static func forCurrentProcess(
        controlGroupName: String, openMethods: Set<String>
    ) -> ControlGroupAccessPolicy {
        ControlGroupAccessPolicy(
            openMethods: openMethods, serverUID: geteuid(),
            controlGroupID: UserDatabase.groupID(named: controlGroupName))
    }

    public func allows(_ peer: VarlinkPeerCredentials, toCall method: String) -> Bool {
        if openMethods.contains(method) || peer.uid == 0 || peer.uid == serverUID { return true }
        guard let controlGroupID else { return false }
        return peer.gid == controlGroupID || peer.groups.contains(controlGroupID)
    }
}

/// Lookups in the system's user and group database (NSS), thread-safe.
public enum UserDatabase {
    /// The id of the group named `name`, or `nil` when there is none.
    public static func groupID(named name: String) -> gid_t? {
        var group = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16384)
        guard getgrnam_r(name, &group, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return group.gr_gid
    }

    /// The groups of the user with id `uid` (its primary group included), or just `primaryGroup`
    /// when the user is not in the database.
    @Sendable public static func groups(ofUser uid: uid_t, primaryGroup: gid_t) -> [gid_t] {
        var buffer = [CChar](repeating: 0, count: 16384)
        return buffer.withUnsafeMutableBufferPointer { storage -> [gid_t] in
            var passwd = passwd()
            var result: UnsafeMutablePointer<passwd>?
            guard getpwuid_r(uid, &passwd, storage.baseAddress!, storage.count, &result) == 0, result != nil,
                let name = passwd.pw_name
            else { return [primaryGroup] }
            var count: Int32 = 64
            while true {
                var groups = [gid_t](repeating: 0, count: Int(count))
                let capacity = count
                if getgrouplist(name, primaryGroup, &groups, &count) >= 0 {
                    return Array(groups.prefix(Int(count)))
                }
                count = max(count, capacity * 2)
            }
        }
    }
}
