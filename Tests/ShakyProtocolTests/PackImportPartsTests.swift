import Testing

@testable import ShakyProtocol

/// How the client cuts a large pack file into the parts of an upload.
@Suite struct PackImportPartsTests {
    @Test(arguments: [4, 5, 7, 64])
    func partsStayWithinTheirLengthAndJoinBackToTheText(length: Int) {
        // A fox emoji (4 bytes), "é" as e and a combining accent, Vietnamese letters, a line break in CRLF.
        let text = String(repeating: "Hà Nội 🦊 cafe\u{301}\r\n", count: 40)
        let parts = ShakyClient.parts(of: text, maximumLength: length)
        #expect(parts.joined() == text)
        #expect(parts.allSatisfy { !$0.isEmpty && $0.utf8.count <= length })
        #expect(parts.map(\.utf8.count).reduce(0, +) == text.utf8.count)
    }

    @Test func aFileFitsInOneImportUntilItsMessageWouldNot() {
        #expect(ShakyClient.encodedLength(of: "a\"b") == 6)
        #expect(ShakyClient.largestSingleImport < 1 << 20)
        // Even a part of control characters only, each escaped as \u00XX, fits in one message.
        let worst = String(repeating: "\u{1}", count: ShakyClient.uploadPartLength)
        #expect(ShakyClient.encodedLength(of: worst) < 1 << 20)
    }
}
