import Testing

@testable import ShakyStore

@Suite struct SearchKeyTests {
    @Test func foldsCaseDiacriticsAndStrokedLetters() {
        #expect(SearchKey.fold("Hà Nội") == "ha noi")
        #expect(SearchKey.fold("MALMÖ") == "malmo")
        #expect(SearchKey.fold("Tromsø") == "tromso")
        #expect(SearchKey.fold("Đà Nẵng") == "da nang")
        #expect(SearchKey.fold("Ærø") == "aero")
        #expect(SearchKey.fold("  Reykjavík \n  city ") == "reykjavik city")
    }
}
