import Foundation

/// Where the daemon listens and keeps its state when nothing else is said.
///
/// A system daemon (root, or started by systemd with `RuntimeDirectory=`/`StateDirectory=`) uses
/// `/run/shaky/shaky.sock` and `/var/lib/shaky`; a developer's daemon uses `$XDG_RUNTIME_DIR/shaky/shaky.sock`
/// and `$XDG_STATE_HOME/shaky` (or `~/.local/state/shaky`), so `swift run shakyd` works without root.
/// `SHAKY_SOCKET` overrides the socket for both the daemon and the client.
public struct DefaultPaths: Sendable, Equatable {
    /// The system socket, used by the systemd units.
    public static let systemSocket = "/run/shaky/shaky.sock"
    /// The system state folder.
    public static let systemStateDirectory = "/var/lib/shaky"
    /// The system configuration file.
    public static let systemConfigurationFile = "/etc/shaky/shakyd.conf"

    /// The environment the paths are derived from.
    public var environment: [String: String]
    /// Whether the process runs as root.
    public var isRoot: Bool

    /// Creates paths for the given environment and user.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        isRoot: Bool = geteuid() == 0
    ) {
        self.environment = environment
        self.isRoot = isRoot
    }

    /// The user's own socket, when the session has a runtime folder.
    public var userSocket: String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
        return runtime + "/shaky/shaky.sock"
    }

    /// The socket folder when the session has no runtime folder: `/tmp/shaky-UID`. Anyone may create a folder
    /// in `/tmp`, so the daemon creates this one private and both sides refuse it unless it is (see
    /// `PrivateSocketDirectory`).
    public var fallbackSocketDirectory: String { "/tmp/shaky-\(getuid())" }

    /// The socket the daemon listens on.
    public var daemonSocket: String {
        if let explicit = environment["SHAKY_SOCKET"], !explicit.isEmpty { return explicit }
        if let runtime = environment["RUNTIME_DIRECTORY"], !runtime.isEmpty {
            return firstPath(in: runtime) + "/shaky.sock"
        }
        if isRoot { return Self.systemSocket }
        return userSocket ?? fallbackSocketDirectory + "/shaky.sock"
    }

    /// The sockets a client tries, in order: an explicit one, the user's own daemon, then the system daemon.
    public var clientSockets: [String] {
        if let explicit = environment["SHAKY_SOCKET"], !explicit.isEmpty { return [explicit] }
        if isRoot { return [Self.systemSocket] }
        return [userSocket ?? fallbackSocketDirectory + "/shaky.sock", Self.systemSocket]
    }

    /// The folder holding the database.
    public var stateDirectory: String {
        if let state = environment["STATE_DIRECTORY"], !state.isEmpty { return firstPath(in: state) }
        if isRoot { return Self.systemStateDirectory }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return xdg + "/shaky" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/state/shaky"
    }

    /// systemd passes several folders separated by colons; the first is ours.
    private func firstPath(in list: String) -> String {
        String(list.split(separator: ":").first ?? Substring(list))
    }
}
