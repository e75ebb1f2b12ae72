import Foundation
import GRDB
import ShakyCore
import TriviaEngine

/// A button that belongs to a team: a device identity (a Bluetooth address, udev `ID_PATH`/`ID_SERIAL`, or its
/// name) and a key code.
///
/// Assignments outlive games: the next game with the same team names finds its buttons already set up.
public struct BuzzerAssignment: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "buzzerAssignment"

    /// The device's stable identity.
    public var device: String
    /// The evdev key code.
    public var keyCode: Int
    /// The key's name (`KEY_SPACE`, `BTN_TRIGGER_HAPPY1`), for people.
    public var keyName: String
    /// The team, as named when it was assigned.
    public var team: String
    /// The team's name as ``TeamNameKey`` folds it: how a later game's team finds it.
    public var teamKey: String

    /// Creates an assignment of the button `device` + `keyCode` to `team`.
    public init(device: String, keyCode: Int, keyName: String, team: String) {
        self.device = device
        self.keyCode = keyCode
        self.keyName = keyName
        self.team = team.trimmingCharacters(in: .whitespacesAndNewlines)
        self.teamKey = TeamNameKey.of(team)
    }

}

/// An assignment the store refuses, with what to change.
public struct BuzzerAssignmentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var problem: String
    public var description: String { problem }
}

extension AppDatabase {
    /// The most buttons that may be assigned at once: a party has at most 8 teams, and each press reads them all.
    public static let mostBuzzerAssignments = 256

    /// Every button assignment, by team then device and key.
    public func buzzerAssignments() throws -> [BuzzerAssignment] {
        try read { db in
            try BuzzerAssignment.order(Column("teamKey"), Column("device"), Column("keyCode")).fetchAll(db)
        }
    }

    /// Gives a button to a team, replacing whoever had it; with `replacingTeamButtons`, the team's other
    /// buttons are released first (press-to-join gives each team exactly one button).
    public func assignBuzzer(_ assignment: BuzzerAssignment, replacingTeamButtons: Bool = false) throws {
        guard !assignment.device.isEmpty, assignment.device.count <= 300 else {
            throw BuzzerAssignmentError(problem: "the device identity must be 1 to 300 characters")
        }
        guard (0...767).contains(assignment.keyCode) else {
            throw BuzzerAssignmentError(problem: "key code \(assignment.keyCode) is outside 0…767")
        }
        guard !assignment.teamKey.isEmpty else { throw BuzzerAssignmentError(problem: "the team name is empty") }
        let longestName = GameSetup.teamNameLengthRange.upperBound
        guard assignment.team.count <= longestName,
            assignment.team.unicodeScalars.count <= GameSetup.teamNameCodePointLimit
        else {
            throw BuzzerAssignmentError(
                problem: "a team name is at most \(longestName) characters (of \(GameSetup.teamNameCodePointLimit) "
                    + "Unicode code points together), as in a game")
        }
        try write { db in
            if replacingTeamButtons {
                try BuzzerAssignment.filter(Column("teamKey") == assignment.teamKey).deleteAll(db)
            }
            if try !assignment.exists(db), try BuzzerAssignment.fetchCount(db) >= Self.mostBuzzerAssignments {
                throw BuzzerAssignmentError(
                    problem: "\(Self.mostBuzzerAssignments) buttons are assigned already, the most there may be; "
                        + "clear a team's buttons first")
            }
            try assignment.save(db)
        }
    }

    /// Releases the buttons of `team`, or every button when `team` is nil; returns how many were released.
    @discardableResult
    public func clearBuzzerAssignments(team: String? = nil) throws -> Int {
        try write { db in
            if let team {
                return try BuzzerAssignment.filter(Column("teamKey") == TeamNameKey.of(team)).deleteAll(db)
            }
            return try BuzzerAssignment.deleteAll(db)
        }
    }
}
