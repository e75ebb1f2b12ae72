import Synchronization
import TriviaEngine

/// A game's snapshot as JSON text, the same text ``StoreTransaction/json(_:)`` makes of it, made faster for the
/// saves of one game.
///
/// Every change the game makes is saved whole, and Foundation's `JSONEncoder` spends about 500 instructions a byte
/// (its generic containers, key sorting and dynamic casts): a save of a 10-question game took 2.5 M instructions,
/// most of them on the questions, which make four fifths of the text and never change while the game is played.
/// So the questions are encoded once and kept, and each save encodes the rest of the game, where they go as `[]`,
/// and puts them in. The text is the same to the byte (the tests compare it): JSON encoded with sorted keys gives
/// a member's value the same text alone as inside its object.
final class GameSnapshotJSON: Sendable {
    /// The questions last encoded, and their text.
    private let kept = Mutex<(questions: [Question], json: String)?>(nil)

    /// Where the questions go in the text of the rest: no string holds it, as JSON escapes a quote inside a string,
    /// and no other object in a game has a member of that name.
    private static let emptyQuestions = #""questions":[]"#

    /// `game` as JSON text, keys sorted.
    func json(_ game: Game) throws -> String {
        var rest = try StoreTransaction.json(game.questionsLeftOut)
        guard let offset = rest.withUTF8({ Self.offset(of: Self.emptyQuestions, in: $0) }) else {
            // A game whose encoding has no such member any more: the whole of it, the slow way.
            return try StoreTransaction.json(game)
        }
        let questions = try questionsJSON(game.questions)
        let bytes = rest.utf8
        let start = bytes.index(bytes.startIndex, offsetBy: offset)
        let end = bytes.index(start, offsetBy: Self.emptyQuestions.utf8.count)
        return String(rest[..<start]) + #""questions":"# + questions + String(rest[end...])
    }

    /// Where `needle` first is in `text`, in bytes: a plain scan (the standard library's generic `firstRange(of:)`
    /// took 150 000 instructions for this one, and glibc's `memmem` is not in Swift's Glibc module).
    private static func offset(of needle: String, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first, text.count >= pattern.count else { return nil }
        var start = 0
        while start <= text.count - pattern.count {
            if text[start] == first, pattern.indices.allSatisfy({ text[start + $0] == pattern[$0] }) { return start }
            start += 1
        }
        return nil
    }

    /// The questions' text: the one kept when they are the same, else encoded and kept.
    private func questionsJSON(_ questions: [Question]) throws -> String {
        if let json = kept.withLock({ $0?.questions == questions ? $0?.json : nil }) { return json }
        let json = try StoreTransaction.json(questions)
        kept.withLock { $0 = (questions, json) }
        return json
    }
}
