import Foundation
import Testing

@testable import ShakyStore

/// Button assignments kept per device identity and key, across games and restarts.
struct BuzzerAssignmentTests {
    private let buzz = "pci-0000:00:14.0-usb-0:2:1.0"

    @Test func assignmentsSurviveReopeningTheDatabase() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("shaky.sqlite").path
        do {
            let database = try AppDatabase.open(path: path, builtinPacks: .skip)
            try database.assignBuzzer(
                BuzzerAssignment(device: buzz, keyCode: 0x2c0, keyName: "BTN_TRIGGER_HAPPY1", team: " Owls "))
            try database.assignBuzzer(
                BuzzerAssignment(device: buzz, keyCode: 0x2c5, keyName: "BTN_TRIGGER_HAPPY6", team: "Foxes"))
        }
        let reopened = try AppDatabase.open(path: path, builtinPacks: .skip)
        let assignments = try reopened.buzzerAssignments()
        #expect(assignments.map(\.team) == ["Foxes", "Owls"])
        #expect(assignments.map(\.teamKey) == ["foxes", "owls"])
        #expect(assignments.map(\.keyCode) == [0x2c5, 0x2c0])
    }

    @Test func aButtonBelongsToOneTeamAndJoiningReplacesATeamsButtons() throws {
        let database = try AppDatabase.inMemory()
        try database.assignBuzzer(BuzzerAssignment(device: buzz, keyCode: 0x2c0, keyName: "A", team: "Owls"))
        try database.assignBuzzer(BuzzerAssignment(device: buzz, keyCode: 0x2c0, keyName: "A", team: "Foxes"))
        #expect(try database.buzzerAssignments().map(\.team) == ["Foxes"])
        try database.assignBuzzer(BuzzerAssignment(device: "kbd", keyCode: 30, keyName: "KEY_A", team: "Foxes"))
        #expect(try database.buzzerAssignments().count == 2, "assign adds a button to a team")
        try database.assignBuzzer(
            BuzzerAssignment(device: "kbd", keyCode: 48, keyName: "KEY_B", team: "FOXES"), replacingTeamButtons: true)
        #expect(try database.buzzerAssignments().map(\.keyCode) == [48])
    }

    @Test func clearingOneTeamOrAll() throws {
        let database = try AppDatabase.inMemory()
        for (key, team) in [(30, "Owls"), (48, "Foxes"), (46, "Bears")] {
            try database.assignBuzzer(BuzzerAssignment(device: "kbd", keyCode: key, keyName: "K", team: team))
        }
        #expect(try database.clearBuzzerAssignments(team: "owls") == 1)
        #expect(try database.buzzerAssignments().map(\.team) == ["Bears", "Foxes"])
        #expect(try database.clearBuzzerAssignments() == 2)
        #expect(try database.buzzerAssignments().isEmpty)
    }

    @Test func badAssignmentsAreRefusedWithAReason() throws {
        let database = try AppDatabase.inMemory()
        #expect(throws: BuzzerAssignmentError.self) {
            try database.assignBuzzer(BuzzerAssignment(device: "", keyCode: 30, keyName: "K", team: "Owls"))
        }
        #expect(throws: BuzzerAssignmentError.self) {
            try database.assignBuzzer(BuzzerAssignment(device: "kbd", keyCode: 9999, keyName: "K", team: "Owls"))
        }
        #expect(throws: BuzzerAssignmentError.self) {
            try database.assignBuzzer(BuzzerAssignment(device: "kbd", keyCode: 30, keyName: "K", team: "  "))
        }
        let tooLong = BuzzerAssignmentError(
            problem: "a team name is at most 24 characters (of 192 Unicode code points together), as in a game")
        #expect(throws: tooLong) {
            try database.assignBuzzer(
                BuzzerAssignment(device: "kbd", keyCode: 30, keyName: "K", team: String(repeating: "ö", count: 25)))
        }
        #expect(throws: tooLong) {
            try database.assignBuzzer(
                BuzzerAssignment(
                    device: "kbd", keyCode: 30, keyName: "K", team: "Z" + String(repeating: "\u{0301}", count: 5000)))
        }
        try database.assignBuzzer(
            BuzzerAssignment(device: "kbd", keyCode: 30, keyName: "K", team: String(repeating: "ö", count: 24)))
    }

    @Test func atMost256ButtonsAreAssignedAndAnAssignedOneCanStillChangeHands() throws {
        let database = try AppDatabase.inMemory()
        for key in 0..<AppDatabase.mostBuzzerAssignments {
            try database.assignBuzzer(
                BuzzerAssignment(device: "pci-0000:00:14.0-usb-0:\(key % 4)", keyCode: key, keyName: "K", team: "Owls"))
        }
        #expect(throws: BuzzerAssignmentError.self) {
            try database.assignBuzzer(
                BuzzerAssignment(device: "pci-0000:00:14.0-usb-0:9", keyCode: 1, keyName: "K", team: "Foxes"))
        }
        try database.assignBuzzer(
            BuzzerAssignment(device: "pci-0000:00:14.0-usb-0:1", keyCode: 1, keyName: "K", team: "Foxes"))
        #expect(try database.buzzerAssignments().count == AppDatabase.mostBuzzerAssignments)
        #expect(try database.buzzerAssignments().filter { $0.team == "Foxes" }.count == 1)
    }
}

extension BuzzerAssignmentTests {
    @Test func theCommittedVersionOneDatabaseTakesAssignmentsAfterUpgrading() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("v1.sqlite").path
        try FileManager.default.copyItem(
            atPath: StoreFixtures.fixturesFolder.appendingPathComponent("v1.sqlite").path, toPath: path)
        let database = try AppDatabase.open(path: path, builtinPacks: .skip)
        #expect(try database.buzzerAssignments().isEmpty)
        try database.assignBuzzer(
            BuzzerAssignment(device: buzz, keyCode: 0x2c0, keyName: "BTN_TRIGGER_HAPPY1", team: "Owls"))
        #expect(try database.buzzerAssignments().map(\.team) == ["Owls"])
        #expect(try database.loadSnapshot() != nil, "the saved game is still there")
    }
}
