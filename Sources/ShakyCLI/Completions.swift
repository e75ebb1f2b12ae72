import ArgumentParser
import Foundation
import ShakyProtocol
import Synchronization

/// What the shell completion scripts offer for an argument that names something the daemon knows: they ask the
/// daemon the command line talks to (its `--socket`, else `SHAKY_SOCKET`, the user's daemon, then the system's),
/// and offer nothing when none answers. The shell filters the names by what was typed.
enum Completions {
    /// The packs' names.
    static let packNames = CompletionKind.custom { words, _, _ in
        forShell(await names(socket: socket(in: words)) { try await $0.packs.list().map(\.name) })
    }

    /// The teams of the game in play (none without a game).
    static let teamNames = CompletionKind.custom { words, _, _ in
        forShell(await names(socket: socket(in: words)) { try await $0.game.status().teams.map(\.name) })
    }

    /// `names` as the shell asking takes them: for bash, each ASCII sign and space after a backslash. Bash's script
    /// hands the names to `compgen -W`, which expands each word as the shell expands a command's: a pack called
    /// `$(touch x)` ran `touch` in the host's shell at a Tab, and `O'Brien` came out `OBrien`. zsh and fish take the
    /// names as they are.
    static func forShell(_ names: [String], shell: CompletionShell? = CompletionShell.requesting) -> [String] {
        guard shell == .bash else { return names }
        return names.map { name in
            var escaped = ""
            for character in name {
                if character.isASCII, !character.isLetter, !character.isNumber { escaped.append("\\") }
                escaped.append(character)
            }
            return escaped
        }
    }

    /// The socket the command line being completed names: the last `--socket PATH` or `--socket=PATH` (one word, or
    /// three as bash splits it) before a `--` (after it every word is an argument), with a leading `~/` read as the
    /// home folder, as the shell will when it runs the command. `nil` when it names none.
    static func socket(in words: [String], home: String? = ProcessInfo.processInfo.environment["HOME"]) -> String? {
        var found: String?
        var index = words.startIndex
        while index < words.endIndex, words[index] != "--" {
            let word = words[index]
            if word == "--socket" {
                var value = index + 1
                if value < words.endIndex, words[value] == "=" { value += 1 }
                if value < words.endIndex, !words[value].isEmpty { found = words[value] }
                index = value
            } else if word.hasPrefix("--socket="), word.count > "--socket=".count {
                found = String(word.dropFirst("--socket=".count))
            }
            index += 1
        }
        guard let found, found.hasPrefix("~/"), let home, !home.isEmpty else { return found }
        return home + found.dropFirst()
    }

    /// How long a completion waits for the daemon: a socket that systemd holds for a daemon that fails to start
    /// takes the connection and never answers, and the shell would wait as long as a command does.
    static let patience = Duration.seconds(2)

    /// What `fetch` gets from the daemon at `socket` (or the default sockets), or nothing when it cannot be asked or
    /// has not answered within ``patience``. The call still waiting then is left behind: the completion's process
    /// prints and exits.
    private static func names(
        socket: String?, _ fetch: @escaping @Sendable (ShakyClient) async throws -> [String]
    ) async -> [String] {
        await withCheckedContinuation { continuation in
            let reply = FirstReply(continuation)
            Task {
                guard let client = try? await ShakyClient.connect(socketPath: socket) else { return reply.give([]) }
                let names = (try? await fetch(client)) ?? []
                await client.close()
                reply.give(names)
            }
            Task {
                try? await Task.sleep(for: patience)
                reply.give([])
            }
        }
    }

    /// Resumes a continuation with the first names given, from whichever task gives them first.
    private final class FirstReply: Sendable {
        private let continuation: CheckedContinuation<[String], Never>
        private let given = Atomic<Bool>(false)

        init(_ continuation: CheckedContinuation<[String], Never>) {
            self.continuation = continuation
        }

        func give(_ names: [String]) {
            if given.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
                continuation.resume(returning: names)
            }
        }
    }
}
