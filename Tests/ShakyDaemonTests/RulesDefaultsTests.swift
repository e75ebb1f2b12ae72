import ShakyProtocol
import Testing
import TriviaEngine

@testable import ShakyDaemon

/// A rule not given in `New` takes its default, which may depend on the rules that were given.
@Suite struct RulesDefaultsTests {
    /// `shaky new --base-points 1` was refused for a hint's default cost of 2, which the host never typed.
    @Test(arguments: [(1, 1, 1), (2, 2, 2), (10, 2, 2)])
    func aHintsCostAndTheLeastAQuestionIsWorthAreAtMostItsWorthByDefault(
        basePoints: Int, pointsPerHint: Int, minimumPoints: Int
    ) throws {
        let settings = try ShakyAPI.Rules(basePoints: basePoints).gameSettings()
        #expect(settings.pointsPerHint == pointsPerHint)
        #expect(settings.minimumPoints == minimumPoints)
        try settings.validate()
    }

    @Test func givenValuesAreKeptAndCheckedAsGiven() throws {
        let settings = try ShakyAPI.Rules(basePoints: 1, pointsPerHint: 2).gameSettings()
        #expect(settings.pointsPerHint == 2)
        #expect(throws: GameRulesError.pointsPerHintOutOfRange(2, basePoints: 1)) { try settings.validate() }
        #expect(throws: GameRulesError.self) { try ShakyAPI.Rules(basePoints: 0).gameSettings().validate() }
    }
}
