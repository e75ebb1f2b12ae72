import ShakyCore
import Testing

@Suite("UTF-16 and UTF-32 told from their first bytes")
struct WideTextTests {
    @Test("A byte order mark, or UTF-16 of the ASCII range without one, is named; UTF-8 and empty text are not")
    func wideTextIsNamed() {
        let text = "question,answer"
        let le = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let be = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(WideText.encoding(of: [0xFF, 0xFE] + le)?.sign == "it starts with a UTF-16 byte order mark")
        #expect(WideText.encoding(of: [0xFE, 0xFF] + be)?.name == "UTF-16")
        #expect(WideText.encoding(of: [0xFF, 0xFE, 0, 0, 0x71, 0, 0, 0])?.name == "UTF-32")
        #expect(WideText.encoding(of: le)?.sign == "every other byte of its first character is zero")
        #expect(WideText.encoding(of: be)?.name == "UTF-16")
        for utf8 in [Array(text.utf8), Array("Zoë".utf8), [0xEF, 0xBB, 0xBF] + Array(text.utf8), [0x71], []] {
            #expect(WideText.encoding(of: utf8) == nil, "\(utf8)")
        }
    }
}
