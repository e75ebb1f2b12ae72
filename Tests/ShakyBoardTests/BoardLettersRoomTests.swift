import Foundation
import Testing

@testable import ShakyBoard

/// The scramble is what the room solves: a short board gives way with everything else first, and never shows
/// fewer letters than the answer has (a scramble cut short is another puzzle).
@Suite("The letters keep their room on a short board")
struct BoardLettersRoomTests {
    /// The letters of the rows that hold only the scramble's tiles (letters, brackets, marks and gaps), in reading
    /// order.
    private func shownLetters(_ lines: [String]) -> String {
        tileRows(lines).map { String($0.filter(\.isUppercase)) }.joined()
    }

    /// The rows that hold only the scramble's tiles.
    private func tileRows(_ lines: [String]) -> [String] {
        let tileCharacters = Set(" []…═▲→")
        return lines.filter { row in
            row.contains { $0.isUppercase } && row.allSatisfy { $0.isUppercase || tileCharacters.contains($0) }
        }
    }

    private func state(scramble: String, teams: Int = 3) -> BoardState {
        var state = BoardScenes.eightTeamsOpen
        state.question = "Which sport has the Super Bowl?"
        state.tiles = BoardScenes.tiles(scramble)
        state.teams = Array(state.teams.prefix(teams))
        state.buzzes = []
        return state
    }

    /// At 40×12 the second word of "American football" was left out, and the room read one 8-letter word.
    @Test(arguments: [(40, 12), (40, 14), (50, 12), (60, 18)])
    func aTwoWordScrambleKeepsBothWords(width: Int, height: Int) {
        let scramble = "ANOBOMRI EFLTAACL"
        let lines = BoardLayout.render(state(scramble: scramble), width: width, height: height, now: BoardScenes.now)
            .lines
        let text = lines.joined(separator: "\n")
        #expect(shownLetters(lines) == scramble.filter { $0 != " " }, "at \(width)x\(height):\n\(text)")
        #expect(text.contains("Buzzers open"), "who is up stays: \(text)")
    }

    /// A 39-letter answer on a board with eight teams: a whole row of it was left out.
    @Test(arguments: [(40, 12), (60, 18), (60, 24)])
    func aLongScrambleIsShownWhole(width: Int, height: Int) {
        let scramble = "LLANFAIRPWLLGWYNGYLLGOGERYCHWYRNDROBWLL"
        var board = state(scramble: scramble, teams: 8)
        board.question = "A long place name?"
        let lines = BoardLayout.render(board, width: width, height: height, now: BoardScenes.now).lines
        let text = lines.joined(separator: "\n")
        #expect(shownLetters(lines) == scramble, "at \(width)x\(height):\n\(text)")
        #expect(text.contains("Buzzers open") && text.contains(" 5 s"), "who is up, and the time: \(text)")
    }

    /// Buzzes with no row left are counted on the phase's line.
    @Test func buzzesWithNoRowLeftAreCountedOnThePhasesLine() {
        var board = state(scramble: "LLANFAIRPWLLGWYNGYLLGOGERYCHWYRNDROBWLL", teams: 8)
        board.buzzes = [
            BoardState.Buzz(team: "猫头鹰", order: 1, elapsed: 1.5), BoardState.Buzz(team: "Foxes", order: 2, elapsed: 2),
        ]
        let text = BoardLayout.render(board, width: 40, height: 12, now: BoardScenes.now).text
        #expect(text.contains("Buzzed:") || text.contains("· 2 buzzed"), "\(text)")
        // And judged answers, which were left out without a count.
        board.phase = .answering(team: "Foxes")
        board.teamUp = "Foxes"
        board.judgements = [BoardState.Judgement(team: "猫头鹰", given: "Cardiff", isCorrect: false, awarded: 0)]
        let judged = BoardLayout.render(board, width: 40, height: 12, now: BoardScenes.now).text
        #expect(judged.contains("judged"), "\(judged)")
    }

    /// A team answering, paused, with a 40-letter answer and eight teams: at 40x12 who is up was left out while a row
    /// stood empty; below 12 rows the letters were drawn over the scores' separator, and at 40x5 not at all.
    @Test(arguments: 5...14)
    func lettersAndWhoIsUpKeepTheirPlaceOnTheSmallestBoards(height: Int) {
        let scramble = "SUPGEICFSSIULCCDEXAAIORITIROSAIPWLORLIDO"
        var board = state(scramble: scramble, teams: 8)
        board.question = "Forty letters?"
        board.phase = .answering(team: "Foxes")
        board.teamUp = "Foxes"
        board.buzzes = [BoardState.Buzz(team: "Foxes", order: 1, elapsed: 1.5, points: 10)]
        board.isPaused = true
        let lines = BoardLayout.render(board, width: 40, height: height, now: BoardScenes.now).lines
        let text = lines.joined(separator: "\n")
        let separator = lines.firstIndex { $0.hasPrefix("───") }
        #expect(separator.map { lines[$0].allSatisfy { $0 == "─" } } ?? true, "the separator is clear: \n\(text)")
        let shown = shownLetters(lines)
        // At 40x5 the title, the pause notice, the scores and their separator leave no row.
        #expect(height < 6 || !shown.isEmpty, "at 40x\(height):\n\(text)")
        if height >= 12 {
            #expect(shown == scramble, "at 40x\(height):\n\(text)")
            #expect(text.contains("Foxes to answer"), "who is up, at 40x\(height):\n\(text)")
        } else if !shown.isEmpty, shown != scramble {
            #expect(text.contains("…"), "a cut scramble says so, at 40x\(height):\n\(text)")
        }
    }

    /// The words of the scramble's rows as the room reads them: letters one or two spaces apart are one word, three
    /// spaces or more part words.
    private func shownWords(_ lines: [String]) -> [String] {
        tileRows(lines).flatMap { line in
            line.components(separatedBy: "   ").map { String($0.filter { $0.isLetter || $0 == "→" }) }
                .filter { !$0.isEmpty }
        }
    }

    private func answerState(_ answer: String) -> BoardState {
        var board = state(scramble: answer)
        board.question = "A place?"
        return board
    }

    /// A 20-letter word at 40 columns showed as rows of 12 and 8 letters: two words to the room.
    @Test(arguments: [12, 24])
    func aTwentyLetterWordStaysWholeOnARowAtFortyColumns(height: Int) {
        let word = "LLANFAIRPWLLGWYNGYLL"
        let lines = BoardLayout.render(answerState(word), width: 40, height: height, now: BoardScenes.now).lines
        let text = lines.joined(separator: "\n")
        #expect(shownWords(lines).contains(word), "at 40x\(height):\n\(text)")
        #expect(!text.contains("→"), "\(text)")
    }

    /// "Eyjafjallajökull Grímsvötn Hekla Katla" at 40 columns broke inside three of its four words.
    @Test(arguments: [12, 24])
    func fourWordsStayWholeAtFortyColumns(height: Int) {
        let words = ["EYJAFJALLAJÖKULL", "GRÍMSVÖTN", "HEKLA", "KATLA"]
        let lines = BoardLayout.render(
            answerState(words.joined(separator: " ")), width: 40, height: height, now: BoardScenes.now
        ).lines
        let text = lines.joined(separator: "\n")
        let shown = shownWords(lines)
        for word in words {
            #expect(shown.contains(word), "\(word) whole at 40x\(height):\n\(text)")
        }
    }

    /// Only a word longer than a whole row even tightly spaced is broken, and its row says it goes on.
    @Test func aWordLongerThanARowIsBrokenWithAContinuationMark() {
        let word = "PNEUMONOULTRAMICROSCOPICSILICOVOLCANOCONIOSIS"
        let lines = BoardLayout.render(answerState(word), width: 40, height: 12, now: BoardScenes.now).lines
        let text = lines.joined(separator: "\n")
        #expect(shownLetters(lines) == word, "\(text)")
        let pieces = shownWords(lines)
        #expect(pieces.count == 3 && pieces.dropLast().allSatisfy { $0.hasSuffix("→") }, "\(text)")
    }

    /// Four teams buzzed and two judged while the third answers: at 40x12 the phase's line had no room for the
    /// counts and dropped them with empty rows under it; at 50x12 it dropped the judged count.
    @Test(arguments: [40, 50])
    func theCountsTakeASpareRowWhenThePhasesLineIsTooNarrow(width: Int) {
        var board = state(scramble: "FGEIRFA", teams: 8)
        board.teams[3].name = "Bees"
        let teams = board.teams.prefix(4).map(\.name)
        board.buzzes = teams.enumerated().map { BoardState.Buzz(team: $1, order: $0 + 1, elapsed: 1.5, points: 10) }
        board.judgements = teams.prefix(2).map { BoardState.Judgement(team: $0, given: "Hippo", isCorrect: false) }
        board.phase = .answering(team: "Bees")
        board.teamUp = "Bees"
        let text = BoardLayout.render(board, width: width, height: 12, now: BoardScenes.now).text
        #expect(text.contains("Bees to answer for 10 points"), "\(text)")
        #expect(text.contains("4 buzzed, 2 judged") || text.contains("Buzzed:"), "at \(width)x12:\n\(text)")
        #expect(text.contains("2 judged") || text.contains("WRONG"), "at \(width)x12:\n\(text)")
    }
}
