import ArgumentParser
import ShakyProtocol
import Testing

@testable import ShakyCLI

/// `shaky new --early-press-lockout SECONDS`: the game's early-press rule, sent in `New`'s rules.
struct EarlyPressLockoutParsingTests {
    @Test func theLockoutIsOneOfTheGamesRules() throws {
        let command = try Shaky.parseAsRoot([
            "new", "--team", "Owls", "--team", "Foxes", "--early-press-lockout", "2.5",
        ])
        let new = try #require(command as? Shaky.New)
        #expect(new.setup.request.rules == ShakyAPI.Rules(earlyPressLockout: 2.5))
        let off = try #require(
            try Shaky.parseAsRoot(["new", "--team", "A", "--team", "B", "--early-press-lockout", "0"]) as? Shaky.New)
        #expect(off.setup.request.rules == ShakyAPI.Rules(earlyPressLockout: 0), "0 turns the daemon's default off")
    }

    @Test(arguments: ["-1", "61", "99999.99999999999"])
    func aLockoutOutOfRangeIsRefusedWithWhatIsAllowed(_ value: String) {
        let arguments = ["new", "--team", "A", "--team", "B", "--early-press-lockout=\(value)"]
        do {
            _ = try Shaky.parseAsRoot(arguments)
            Issue.record("\(arguments) parsed")
        } catch {
            #expect(Shaky.message(for: error).contains("--early-press-lockout must be 0 to 60 seconds"))
        }
    }

    @Test("What is not a decimal number is refused as such: NaN, an infinity, hexadecimal")
    func aLockoutThatIsNoDecimalNumberIsRefused() {
        for value in ["nan", "inf", "0x10"] {
            let arguments = ["new", "--team", "A", "--team", "B", "--early-press-lockout=\(value)"]
            #expect(throws: (any Error).self) { try Shaky.parseAsRoot(arguments) }
            do {
                _ = try Shaky.parseAsRoot(arguments)
            } catch {
                #expect(
                    Shaky.message(for: error).contains("'\(value)' is invalid for '--early-press-lockout <seconds>'"))
            }
        }
    }
}
