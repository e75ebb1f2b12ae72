import ArgumentParser
import Foundation
import ShakyProtocol

/// The options every command takes: where the daemon is, and whether to print JSON.
struct GlobalOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The daemon's socket (default: $SHAKY_SOCKET, else the user's daemon, then the system daemon).",
            valueName: "path"),
        completion: .file())
    var socket: String?

    @Flag(
        help: """
            Print the daemon's reply as JSON (keys sorted) instead of text for people: pretty-printed, or one \
            object per line for what goes on (watch).
            """)
    var json = false

    func validate() throws {
        // An empty path would be tried as a socket and reported as a daemon that is not there.
        if socket?.isEmpty == true { throw ValidationError("--socket needs the path of the daemon's socket.") }
    }

    /// Connects to the daemon, runs `body`, and closes the connection.
    func withClient<Result>(_ body: (ShakyClient) async throws -> Result) async throws -> Result {
        let client = try await ShakyClient.connect(socketPath: socket)
        do {
            let result = try await body(client)
            await client.close()
            return result
        } catch {
            await client.close()
            throw error
        }
    }

    /// Prints `reply` as JSON with `--json`, otherwise the text `human` makes.
    func emit<Reply: Encodable>(_ reply: Reply, on console: any Console, human: (TextStyle) -> String) throws {
        if json {
            console.print(try JSONOutput.render(reply))
        } else {
            let text = human(console.style)
            if !text.isEmpty { console.print(text) }
        }
    }
}

/// A command that talks to the daemon; its `run()` connects and hands over the client.
protocol ClientCommand: AsyncParsableCommand {
    /// The global options.
    var global: GlobalOptions { get }
    /// Does the command's work with a connected client, writing to `console`.
    func run(client: ShakyClient, console: any Console) async throws
}

extension ClientCommand {
    func run() async throws {
        let console = CurrentConsole.value
        try await global.withClient { client in try await run(client: client, console: console) }
    }
}

/// JSON as `--json` prints it.
enum JSONOutput {
    /// `value` as pretty-printed JSON with sorted keys; an empty object is `{}` (Foundation writes it on three
    /// lines).
    static func render(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        return text.filter { !$0.isWhitespace } == "{}" ? "{}" : text
    }

    /// `value` as JSON on one line with sorted keys, for streams of replies.
    static func renderLine(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A failure of the command itself (a file that cannot be read or written), reported with exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
