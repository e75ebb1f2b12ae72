import ShakyCore
import Testing

@Suite struct SpokenListTests {
    @Test("Items as a sentence says them")
    func spokenList() {
        #expect([String]().spokenList("or") == "")
        #expect(["a"].spokenList("or") == "a")
        #expect(["a", "b"].spokenList("or") == "a or b")
        #expect(["3", "7", "9"].spokenList("and") == "3, 7 and 9")
    }
}
