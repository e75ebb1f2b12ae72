import ShakyCore
import Testing

@Suite("The command meant by a mistyped one")
struct EditDistanceTests {
    @Test("Edits are counted: insertions, deletions, replacements")
    func distances() {
        #expect(EditDistance.between("detetc", "detect") == 2)
        #expect(EditDistance.between("lst", "list") == 1)
        #expect(EditDistance.between("", "serve") == 5)
        #expect(EditDistance.between("zoë", "zoe") == 1)
    }

    @Test("The closest name within two edits, ignoring case; none when every name is further")
    func closest() {
        let names = ["serve", "detect", "record", "list-devices"]
        #expect(EditDistance.closest(to: "DETETC", among: names) == "detect")
        #expect(EditDistance.closest(to: "recrod", among: names) == "record")
        #expect(EditDistance.closest(to: "frobnicate", among: names) == nil)
        // The closest wins over an earlier one that is also near.
        #expect(EditDistance.closest(to: "lis", among: ["lost", "list"]) == "list")
    }
}
