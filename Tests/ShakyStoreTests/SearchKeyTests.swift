import ShakyCore
import Testing

@testable import ShakyStore

@Suite struct SearchKeyTests {
    @Test func foldsCaseDiacriticsAndStrokedLetters() {
        #expect(TextFold.fold("Hà Nội") == "ha noi")
        #expect(TextFold.fold("MALMÖ") == "malmo")
        #expect(TextFold.fold("Tromsø") == "tromso")
        #expect(TextFold.fold("Đà Nẵng") == "da nang")
        #expect(TextFold.fold("Ærø") == "aero")
        #expect(TextFold.fold("  Reykjavík \n  city ") == "reykjavik city")
    }
}
