import ArgumentParser
import Foundation
import ShakyProtocol

/// What the shell completion scripts offer for an argument that names something the daemon knows: they ask the
/// daemon the command line talks to (its `--socket`, else `SHAKY_SOCKET`, the user's daemon, then the system's),
/// and offer nothing when none answers. The shell filters the names by what was typed.
enum Completions {
    /// The packs' names.
    static let packNames = CompletionKind.custom { words, _, _ in
        await names(socket: socket(in: words)) { try await $0.packs.list().map(\.name) }
    }

    /// The teams of the game in play (none without a game).
    static let teamNames = CompletionKind.custom { words, _, _ in
        await names(socket: socket(in: words)) { try await $0.game.status().teams.map(\.name) }
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

    /// What `fetch` gets from the daemon at `socket` (or the default sockets), or nothing when it cannot be asked.
    private static func names(
        socket: String?, _ fetch: @Sendable (ShakyClient) async throws -> [String]
    ) async -> [String] {
        guard let client = try? await ShakyClient.connect(socketPath: socket) else { return [] }
        let names = (try? await fetch(client)) ?? []
        await client.close()
        return names
    }
}
