import Testing

@testable import ShakyBoard

/// The big letters: drawn once per letter and scale, and drawn the same way again however many letters came since.
@Suite("Block font")
struct BlockFontTests {
    @Test("A letter with marks draws its base letter; a glyph drawn again is the same, after any number of others")
    func glyphsDrawTheSameAfterTheCacheFills() {
        let first = BlockFont.render("Ế", scaleX: 2, scaleY: 3)
        #expect(first == BlockFont.render("E", scaleX: 2, scaleY: 3))
        #expect(first.count == BlockFont.glyphHeight(scale: 3))
        #expect(BlockFont.needsLabel("Ế") && !BlockFont.needsLabel("E"))
        // More distinct letters than the cache holds (CJK: framed, not drawn from the font).
        for scalar in 0x4E00..<0x4E00 + 700 {
            _ = BlockFont.render(String(Character(Unicode.Scalar(scalar)!)), scaleX: 1, scaleY: 1)
            _ = BlockFont.baseLetter(of: String(Character(Unicode.Scalar(scalar)!)))
        }
        #expect(BlockFont.render("Ế", scaleX: 2, scaleY: 3) == first)
        #expect(BlockFont.baseLetter(of: "ế") == "E")
    }
}
