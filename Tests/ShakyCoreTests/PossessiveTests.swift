import ShakyCore
import Testing

@Suite struct PossessiveTests {
    @Test("A name takes 's, and only the apostrophe when it ends in s, as team names so often do")
    func possessiveOfANameEndingInSTakesOnlyTheApostrophe() {
        #expect("Zoë".possessive == "Zoë's")
        #expect("Cú Mèo".possessive == "Cú Mèo's")
        #expect("Owls".possessive == "Owls'")
        #expect("Les Éléphants".possessive == "Les Éléphants'")
        #expect("FOXES".possessive == "FOXES'")
    }
}
