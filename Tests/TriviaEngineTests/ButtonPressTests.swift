import Testing
import TriviaEngine

/// Buzzes from real buttons: ranked by kernel time, ties decided by the seed, times taken from the press.
struct ButtonPressTests {
    private func press(_ team: String, at reading: Duration, kernel: Duration? = nil) -> TeamPress {
        TeamPress(team: team, pressedAt: reading, kernelTime: kernel ?? reading + .seconds(1000))
    }

    private func buzzOrder(_ actions: [GameAction]) -> [String] {
        actions.compactMap { action in
            if case .buzzed(let team, _, _, _) = action { return team }
            return nil
        }
    }

    @Test func pressesAreRankedByKernelTimeNotByArrival() throws {
        var game = try EngineFixtures.openGame()
        var rule = EarlyPressRule()
        // Read in this order; the Foxes' button went down 3 ms before the Owls'.
        let presses = [press("Owls", at: ms(2003)), press("Foxes", at: ms(2000))]
        let (actions, outcomes) = game.handlePresses(presses, rule: &rule, at: ms(2040))
        #expect(buzzOrder(actions) == ["Foxes", "Owls"])
        #expect(outcomes == [.buzzed(order: 2), .buzzed(order: 1)])
    }

    @Test func buzzTimesComeFromThePressNotFromTheRead() throws {
        var game = try EngineFixtures.openGame()
        var rule = EarlyPressRule()
        let (actions, _) = game.handlePresses([press("Owls", at: ms(2500))], rule: &rule, at: ms(2540))
        let elapsed = actions.compactMap { action -> Duration? in
            if case .buzzed(_, _, let elapsed, _) = action { return elapsed }
            return nil
        }
        #expect(elapsed == [ms(2500)])
        #expect(game.teams[0].totalBuzzTime == ms(2500))
        // The game itself has been brought to the read time.
        #expect(game.remainingTime(at: ms(2540)) == GameRules().timeAfterFirstBuzz - ms(40))
    }

    @Test func sameMicrosecondTieIsDecidedByTheSeedReproducibly() throws {
        func firstBuzzer(seed: UInt64) throws -> String {
            var game = try EngineFixtures.openGame(seed: seed)
            var rule = EarlyPressRule()
            let kernel = Duration.seconds(5) + .microseconds(123)
            // 400 ns apart but in the same microsecond: a tie.
            let presses = [
                press("Owls", at: ms(1000), kernel: kernel),
                press("Foxes", at: ms(1000), kernel: kernel + .nanoseconds(400)),
            ]
            let (actions, _) = game.handlePresses(presses, rule: &rule, at: ms(1040))
            return try #require(buzzOrder(actions).first)
        }
        let winners = try (1...24).map { try firstBuzzer(seed: UInt64($0)) }
        #expect(try (1...24).map { try firstBuzzer(seed: UInt64($0)) } == winners, "a replay decides the same")
        #expect(Set(winners) == ["Owls", "Foxes"], "the seed, not the read order, decides: \(winners)")
    }

    @Test func pressBeforeTheQuestionOpensIsIgnoredByDefault() throws {
        var game = try EngineFixtures.game()
        var rule = EarlyPressRule()
        let (actions, outcomes) = game.handlePresses([press("Owls", at: ms(500))], rule: &rule, at: ms(510))
        #expect(outcomes == [.early])
        #expect(actions.withoutTimekeeping.isEmpty)
        _ = try game.handle(.nextQuestion, at: sec(1))
        let (later, laterOutcomes) = game.handlePresses([press("Owls", at: ms(1100))], rule: &rule, at: ms(1120))
        #expect(laterOutcomes == [.buzzed(order: 1)])
        #expect(buzzOrder(later) == ["Owls"])
    }

    @Test func pressJustBeforeTheOpeningButReadAfterItIsEarly() throws {
        var game = try EngineFixtures.game()
        var rule = EarlyPressRule()
        _ = try game.handle(.nextQuestion, at: sec(2))
        let (_, outcomes) = game.handlePresses([press("Owls", at: ms(1990))], rule: &rule, at: ms(2020))
        #expect(outcomes == [.early])
        #expect(game.round?.buzzes.isEmpty == true)
    }

    @Test func earlyPressLocksTheTeamOutWhenTheRuleIsOn() throws {
        var game = try EngineFixtures.game()
        var rule = EarlyPressRule(lockout: .seconds(3))
        let (_, early) = game.handlePresses([press("Owls", at: ms(500))], rule: &rule, at: ms(510))
        #expect(early == [.lockedOut(until: ms(3500))])
        _ = try game.handle(.nextQuestion, at: sec(1))
        let (locked, lockedOutcomes) = game.handlePresses(
            [press("Owls", at: ms(2000)), press("Foxes", at: ms(2100))], rule: &rule, at: ms(2140))
        #expect(lockedOutcomes == [.lockedOut(until: ms(3500)), .buzzed(order: 1)])
        #expect(buzzOrder(locked) == ["Foxes"])
        let (_, free) = game.handlePresses([press("Owls", at: ms(3600))], rule: &rule, at: ms(3620))
        #expect(free == [.buzzed(order: 2)])
    }

    @Test func aSecondPressOfTheSameTeamIsRefusedWithoutThrowing() throws {
        var game = try EngineFixtures.openGame()
        var rule = EarlyPressRule()
        let (_, outcomes) = game.handlePresses(
            [press("Owls", at: ms(100)), press("Owls", at: ms(120))], rule: &rule, at: ms(150))
        #expect(outcomes == [.buzzed(order: 1), .refused(.alreadyBuzzed(team: "Owls"))])
    }

    @Test func theLastBuzzEndsTheIndicationAndKeepsOneWakeUp() throws {
        var game = try EngineFixtures.openGame(teams: ["Owls", "Foxes"])
        var rule = EarlyPressRule()
        let (actions, _) = game.handlePresses(
            [press("Owls", at: ms(100)), press("Foxes", at: ms(110))], rule: &rule, at: ms(150))
        #expect(game.phase == .answering(team: "Owls"))
        let wakes = actions.filter {
            if case .wake = $0 { return true }
            return false
        }
        #expect(wakes.count == 1)
        #expect(actions.last.map { if case .wake = $0 { true } else { false } } == true)
    }
}

extension ButtonPressTests {
    @Test func aPressHeldWhileATickWasHandledIsDatedBackToTheButton() throws {
        var game = try EngineFixtures.openGame()
        var rule = EarlyPressRule()
        _ = try game.handle(.clockAdvanced, at: sec(1))
        let (actions, _) = game.handlePresses([press("Owls", at: ms(980))], rule: &rule, at: ms(1020))
        #expect(game.round?.buzzes.map(\.elapsed) == [ms(980)])
        #expect(game.teams[0].totalBuzzTime == ms(980))
        #expect(actions.contains(.buzzed(team: "Owls", order: 1, elapsed: ms(980), indicationRemaining: sec(20))))
    }
}
