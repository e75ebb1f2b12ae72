import NIOCore
import ShakyCore
import Varlink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What can go wrong for a ``ShakyClient``, said so that a person can act on it.
public enum ShakyClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No daemon answered at any of `paths`; `reason` says why for the last one tried.
    case daemonUnreachable(paths: [String], reason: String)
    /// The connection to the daemon at `path` was lost before the reply came.
    case connectionLost(path: String)
    /// The daemon refused the call: the fully qualified error name, a message for people and, for a `Refused`
    /// error, its machine-readable `reason` (`unknownTeam`, `notAnsweringYet`), which clients tell refusals apart by.
    case refused(name: String, message: String, reason: String? = nil)
    /// The daemon sent something this client does not understand.
    case protocolError(String)
    /// The daemon's reply holds a value this client's interfaces do not list, where the reply cannot do without it:
    /// the daemon is newer than this client. (A streamed reply with one is skipped instead, and an optional field
    /// with one reads as absent.)
    case newerDaemon(UnknownReplyValue)

    public var description: String {
        switch self {
        case .daemonUnreachable(let paths, let reason):
            let places = paths.spokenList("or")
            // A socket that refuses this user, or whose queue of new connections is full, has a daemon behind it:
            // starting one is no help.
            guard reason != Self.permissionDenied, reason != Self.queueFull else {
                return "cannot reach the Shaky Words daemon at \(places) (\(reason)), "
                    + "or point to another socket with --socket PATH or SHAKY_SOCKET."
            }
            return "cannot reach the Shaky Words daemon at \(places) (\(reason)). Start it with `shakyd` "
                + "(or `systemctl start shakyd.socket`), or point to its socket with --socket PATH or SHAKY_SOCKET."
        case .connectionLost(let path):
            return "the daemon at \(path) closed the connection; is it still running? (`systemctl status shakyd`)"
        case .refused(_, let message, _):
            return message
        case .protocolError(let problem):
            return "the daemon's reply was not understood: \(problem)"
        case .newerDaemon(let unknown):
            return "the daemon is newer than this shaky: its reply to \(unknown.method) has \(unknown.field) "
                + "“\(unknown.value)”, which this shaky does not know; \(UnknownReplyValue.advice)"
        }
    }

    /// The `reason` of a `Refused` error (`unknownTeam`), when the daemon refused the call with one.
    public var refusalReason: String? {
        guard case .refused(_, _, let reason) = self else { return nil }
        return reason
    }

    /// The short error name (`PackNotFound`) when the daemon refused the call.
    public var refusalName: String? {
        guard case .refused(let name, _, _) = self else { return nil }
        return String(name.split(separator: ".").last ?? Substring(name))
    }

    /// Turns a Varlink error from a call to the daemon at `path` into a client error; `sent`, the call's parameters,
    /// lets an `InvalidParameter` say what was wrong with the value it names.
    public init(_ error: VarlinkError, path: String, sent: VarlinkObject = [:]) {
        switch error {
        case .remote(let name, let parameters):
            let name = TerminalText.printable(name)
            let message =
                Self.unsafeTextMessage(forError: name, parameters: parameters, sent: sent)
                ?? Self.message(forError: name, parameters: parameters.printable)
            self = .refused(name: name, message: message, reason: parameters["reason"]?.stringValue)
        case .connectionFailed(let failedPath, let underlying):
            self = .daemonUnreachable(paths: [failedPath], reason: Self.reason(underlying, path: failedPath))
        case .connectionClosed:
            self = .connectionLost(path: path)
        case .protocolViolation(let reason):
            self = .protocolError(reason)
        case .noReply(let timeout):
            // systemd holds the socket of a daemon that fails to start (until its start limit), and accepts the
            // connection all the same: the journal says why.
            self = .daemonUnreachable(
                paths: [path],
                reason: "it did not answer within \(timeout.components.seconds) s: it may be failing to start or "
                    + "stuck (`journalctl -u shakyd -b`); a change asked for may still happen, `shaky status` tells")
        }
    }

    /// The words for an `InvalidParameter` that names a string of `sent` holding a character ``TerminalText`` refuses
    /// (the daemon refuses those in every string, and its error can name only the parameter): the value, the
    /// character and what to do. `nil` for any other error.
    static func unsafeTextMessage(forError name: String, parameters: VarlinkObject, sent: VarlinkObject) -> String? {
        guard name == "org.varlink.service.InvalidParameter", let parameter = parameters["parameter"]?.stringValue,
            case .string(let text)? = JSONValue.object(sent).value(at: parameter),
            // A question's text may hold line breaks: a character refused everywhere is the likelier cause.
            let problem = TerminalText.problem(in: text, allowingLineBreaks: true) ?? TerminalText.problem(in: text)
        else { return nil }
        let place = TerminalText.printable(parameter)
        // On one line, the character refused shown as the replacement character, a tab too.
        let shown = String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { TerminalText.isSafe($0) ? $0 : TerminalText.replacement }))
        return "the daemon refused \(place), “\(shown)”: it \(problem); leave it out"
    }

    /// Why a connection to `path` failed, in words; a folder or a plain file where the socket should be is
    /// named as such (connecting to one says only "connection refused").
    static func reason(_ error: any Error, path: String) -> String {
        var status = stat()
        if lstat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFSOCK, S_IFLNK: break
            case S_IFDIR: return "that is a folder, not a socket"
            default: return "that is a file, not a socket"
            }
        }
        return reason(error)
    }

    /// Why a connection to a socket that refuses this user failed.
    static let permissionDenied = "permission denied; join group shaky or use sudo"

    /// Why a connection failed when the daemon's queue of new connections stayed full (`EAGAIN`) while the client
    /// tried again: something else connects faster than the daemon accepts.
    static let queueFull =
        "the daemon is there but its queue of new connections stayed full: another program is flooding it with "
        + "connections (`ss -xp` shows which); try again"

    /// Why a connection failed, in words: `no such file`, `connection refused`, `permission denied`.
    static func reason(_ error: any Error) -> String {
        if let error = error as? SocketAddressError, case .unixDomainSocketPathTooLong = error {
            return "the path is longer than the 107 bytes a socket's path can have"
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ENOENT: return "no socket there"
            case ECONNREFUSED: return "nothing listens on the socket"
            case EACCES, EPERM: return permissionDenied
            case EAGAIN: return queueFull
            case ENOTDIR: return "a part of the path is not a folder"
            default: return String(cString: strerror(error.errnoCode))
            }
        }
        return "\(error)"
    }

    /// A message for people from a daemon error: its `message` parameter when it has one, otherwise
    /// a sentence made from the error's name and parameters.
    public static func message(forError name: String, parameters: VarlinkObject) -> String {
        if let message = parameters["message"]?.stringValue, !message.isEmpty { return message }
        let shortName = String(name.split(separator: ".").last ?? Substring(name))
        let text = { (key: String) in parameters[key]?.stringValue ?? "?" }
        switch shortName {
        case "NoGame":
            return "there is no game; start one with `shaky new --team NAME --team NAME`"
        case "GameInProgress":
            return "a game is in play; end it with `shaky end`, or start anew with `shaky new --replace …`"
        case "PackNotFound":
            return "no such pack: “\(text("name"))”"
        case "PackReadOnly":
            return Self.packReadOnly(text("name"))
        case "PackExists":
            return "a pack named “\(text("name"))” already exists"
        case "GameNotFound":
            return
                "no finished game with id \(parameters["id"].map(render) ?? "?") in the history (see `shaky history`)"
        case "NoTeams":
            return "there are no teams to join: start a game first (`shaky new --team NAME --team NAME`)"
        case "NoBuzzerDevices":
            return "no buzzer device is plugged in, so no team could press to join: plug the buttons in first "
                + "(`shaky buzzers` lists what is found)"
        case "BuzzersNotRead":
            return "the daemon reads no buzzers (it was started with --buzzers none, or `buzzers: none` in its "
                + "configuration file), so no team could press to join: start it with --buzzers auto"
        case "UnknownDevice":
            return "no buzzer device “\(text("device"))” (see `shaky buzzers`)"
        case "UnknownKey":
            return "the device has no key “\(text("key"))”: `shakyd list-devices` lists each device's keys, or let the "
                + "team press its button with `shaky buzzers join`"
        case "QuestionNotFound":
            return "no question with id \(parameters["id"].map(render) ?? "?")"
        case "ImportFailed":
            return importFailure(parameters)
        case "UploadNotFound":
            return "the daemon dropped the file while it was being sent (other imports took its place); import it again"
        case "PermissionDenied":
            return "permission denied: changing the game needs root, the daemon's user or membership of group shaky"
        case "InterfaceNotFound":
            return "the daemon does not serve \(text("interface")); is it an older version?"
        case "MethodNotFound", "MethodNotImplemented":
            return "the daemon does not implement \(text("method")); is it an older version?"
        case "InvalidParameter":
            return "the daemon rejected the parameter “\(text("parameter"))”"
        default:
            let details = parameters.keys.sorted().map { "\($0): \(render(parameters[$0]!))" }
            return details.isEmpty ? shortName : "\(shortName) (\(details.joined(separator: ", ")))"
        }
    }

    /// The words for `ImportFailed`: its one problem on a line, or every bad question listed on a line of its own.
    ///
    ///     nothing imported: 3 questions are bad:
    ///       line 2, field answer: the answer is empty
    ///       line 5, field difficulty: unknown difficulty “extreme” (use easy, medium or hard)
    ///       line 9: expected 3 fields like the header, found 4
    private static func importFailure(_ parameters: VarlinkObject) -> String {
        func line(_ problem: VarlinkObject) -> String {
            var place: [String] = []
            if let line = problem["line"]?.intValue { place.append("line \(line)") }
            if let field = problem["field"]?.stringValue { place.append("field \(field)") }
            let words = problem["problem"]?.stringValue ?? "the file is not a pack"
            return (place.isEmpty ? "" : place.joined(separator: ", ") + ": ") + words
        }
        let problems = parameters["problems"]?.arrayValue?.compactMap(\.objectValue) ?? []
        guard !problems.isEmpty else { return "nothing imported: " + line(parameters) }
        let unlisted = max(0, parameters["unlisted"]?.intValue ?? 0)
        let count = problems.count + unlisted
        var lines = ["nothing imported: \(count) questions are bad:"] + problems.map { "  " + line($0) }
        if unlisted > 0 {
            lines.append("  and \(unlisted) more (correct these and import again to see them)")
        }
        return lines.joined(separator: "\n")
    }

    private static func render(_ value: JSONValue) -> String {
        if case .string(let text) = value { return "“\(text)”" }
        return value.serialized
    }

}

extension ShakyClientError {
    /// What is said of a change refused because the pack `name` is built in.
    public static func packReadOnly(_ name: String) -> String {
        "“\(name)” is a built-in pack and cannot be changed; duplicate it to edit a copy (`shaky pack duplicate`)"
    }
}
