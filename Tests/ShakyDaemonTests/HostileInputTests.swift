import ShakyProtocol
import ShakyTesting
import Testing

/// Numbers no honest client sends: each is refused with a typed error, and the daemon keeps serving.
@Suite("Hostile input")
struct HostileInputTests {
    static let durationFields = ["indicationTime", "timeAfterFirstBuzz", "answerTime", "hintCooldown"]

    @Test(
        "A duration too large for any clock is InvalidSetup naming the field, not a trap",
        arguments: TestDaemon.Mode.allCases)
    func hugeDurations(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            try await PartyPack.create(on: client)
            for field in Self.durationFields {
                for seconds in [1e300, 1e19, 18_446_744_073_709_551_616, -1e300, 9.3e15] {
                    let error = try await client.callError(
                        "io.shakywords.Game.New",
                        PartyPack.newGame(teams: ["Owls", "Foxes"], rules: [field: .double(seconds)]))
                    #expect(error.name == "io.shakywords.Game.InvalidSetup", "\(field) = \(seconds)")
                    #expect(error.parameters["message"]?.stringValue?.contains(field) == true, "\(field)")
                }
            }
            // Still serving: a sound game starts.
            #expect(try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"])).phase == .ready)
        }
    }

    @Test(
        "AdjustScore with the smallest integer is refused as too large, not a trap",
        arguments: TestDaemon.Mode.allCases)
    func smallestIntegerAdjustment(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            try await PartyPack.create(on: client)
            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"]))
            for delta in [Int.min, Int.max, Int.min + 1] {
                let error = try await client.callError(
                    "io.shakywords.Game.AdjustScore", ["team": "Owls", "delta": .int(delta), "reason": "x"])
                #expect(error.name == "io.shakywords.Game.Refused", "\(delta)")
                #expect(error.parameters["reason"] == "adjustmentTooLarge", "\(delta)")
            }
            #expect(try await client.status().scores == ["Owls": 0, "Foxes": 0])
        }
    }
}
