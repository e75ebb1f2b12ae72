import ShakyCore
import Testing

@Suite("Words of a command to paste into a shell")
struct ShellWordTests {
    @Test(
        "A word a shell reads unchanged stays as it is",
        arguments: ["/dev/input/event5", "pci-0000:00:14.0-usb-0:2:1.0", "BTN_SOUTH", "usb-Dell_Keyboard-event-kbd"])
    func plainWordsStay(word: String) {
        #expect(ShellWord.quoted(word) == word)
    }

    /// `shaky buzzers assign TEAM name:Wireless Controller BTN_SOUTH`, suggested for a device without a path or a
    /// serial, failed when pasted: "Unexpected argument 'BTN_SOUTH'".
    @Test func otherWordsAreQuoted() {
        #expect(ShellWord.quoted("name:Wireless Controller") == "'name:Wireless Controller'")
        #expect(ShellWord.quoted("name:Kim's pad") == #"'name:Kim'\''s pad'"#)
        #expect(ShellWord.quoted("name:$HOME*") == "'name:$HOME*'")
        #expect(ShellWord.quoted("") == "''")
    }
}
