import ShakyCore
import Testing

/// Options given a negative number as their value, joined to it for the parser.
@Suite struct NegativeOptionValuesTests {
    @Test(arguments: [
        (["settings", "--volume", "-0.5"], ["settings", "--volume=-0.5"]),
        (["new", "--base-points", "-5", "--team", "A"], ["new", "--base-points=-5", "--team", "A"]),
        (["history", "--limit", "-1e3"], ["history", "--limit=-1e3"]),
        (["history", "--limit", "-.5"], ["history", "--limit=-.5"]),
    ])
    func anOptionFollowedByANegativeNumberTakesIt(arguments: [String], joined: [String]) {
        #expect(NegativeOptionValues.joined(arguments) == joined)
    }

    @Test(arguments: [
        ["score", "Owls", "-3"], ["score", "Owls", "--", "--reason", "-3"], ["history", "--limit"],
        ["settings", "--volume", "-x"], ["settings", "--volume=-1"], ["x", "--", "-1"],
        ["settings", "--volume", "-nan"],
        ["history", "-", "-1"],
    ])
    func nothingElseIsJoined(arguments: [String]) {
        #expect(NegativeOptionValues.joined(arguments) == nil)
    }

    @Test func theParsersMessageForAnOptionWithoutItsValueIsRecognised() {
        #expect(NegativeOptionValues.isMissingValue("Missing value for '--limit <count>'"))
        #expect(NegativeOptionValues.isMissingValue("Error: Missing value for '--limit <count>'"))
        #expect(!NegativeOptionValues.isMissingValue("Unknown option '--x'"))
    }
}
