import ArgumentParser

extension Shaky {
    /// Refuses words after a command's one team: a name of several words typed without quotes, or a second team.
    /// `command` is the command as typed before the team (`shaky buzz`), to show the line with the name quoted.
    static func refuseWordsAfterTeam(_ words: [String], team: String, command: String) throws {
        guard words.isEmpty else {
            let name = ([team] + words).joined(separator: " ")
            throw ValidationError("Give one team; a name of several words goes in quotes: \(command) \"\(name)\"")
        }
    }
}
