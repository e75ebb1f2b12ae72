import ShakyCore
import Testing

@Suite struct TextFoldMatchTests {
    @Test("A name typed without its accents, in another case or spacing, finds the one name it means")
    func onlyMatchFindsTheOneNameMeant() {
        let teams = ["Zoë", "Les Éléphants", "Tromsø Trolls"]
        #expect(TextFold.onlyMatch(for: "zoe", among: teams) == "Zoë")
        #expect(TextFold.onlyMatch(for: "les  elephants ", among: teams) == "Les Éléphants")
        #expect(TextFold.onlyMatch(for: "tromso trolls", among: teams) == "Tromsø Trolls")
        #expect(TextFold.onlyMatch(for: "Owls", among: teams) == nil)
        // Two names that fold alike: neither is guessed.
        #expect(TextFold.onlyMatch(for: "zoe", among: ["Zoé", "Zoë"]) == nil)
    }
}
