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

    /// A letter that is a compatibility form of others (the digraph "ǅ", a ligature, fullwidth letters) folds as those
    /// letters: "dzemal" found nothing for "ǅemal", which a typed answer "Dzemal" gets right.
    @Test func foldsCompatibilityFormsAsTheirLetters() {
        #expect(TextFold.fold("ǅemal") == "dzemal")
        #expect(TextFold.fold("Ǆ") == "dz")
        #expect(TextFold.fold("ﬁnland") == "finland")
        #expect(TextFold.fold("ＰＡＲＩＳ") == "paris")
    }
}
