import Foundation
import Testing

@testable import ShakyBoard

/// What the Linux console's fonts draw, for the board on a TV: read with `psfgettable` (kbd) from the 58 Lat15 and
/// Uni2 fonts of console-setup-linux 1.221 (Debian 12) in /usr/share/consolefonts, the character sets that
/// `dpkg-reconfigure console-setup` offers for Western and Central European languages, in every face (Fixed,
/// Terminus, TerminusBold, VGA…) and size. Kept here so that the tests need no fonts installed.
///
/// A character a font does not have shows as its replacement glyph, which Lat15 fonts share with ♦.
enum ConsoleFonts {
    /// The symbols and punctuation beyond ASCII that every one of those fonts has (box drawing and circled letters
    /// left out).
    static let everyFontHas: Set<Character> = Set(
        "¡¢£¤¥¦§¨©«¬®¯°±´¶·¸»¿×÷˜‐‑‒–—―‘’‚“”„•‹›‼€№™←↑→↓−≈≠≤≥≪≫⊕⊖⊘⊙⊛⊜"
            + "█░▒■▮▲▴▶▸▼▾◀◂◈●☐☑☒♦✗✘⮽")

    /// The characters that one of those fonts or more draws with the glyph of another: Terminus draws ▲ as ↑, and
    /// the Lat15 fonts draw ⊕ as `+` and ◈ as ♦.
    static let drawnAlike: [Character: String] = [
        "«": "≪", "»": "≫", "‐": "-‑‒–−⊖", "‑": "-‐‒–−⊖", "‒": "-‐‑–−⊖", "–": "-‐‑‒−⊖", "—": "―", "―": "—",
        "•": "●", "←": "◀◂", "↑": "▲▴", "→": "▶▸", "↓": "▼▾", "−": "-‐‑‒–⊖", "≪": "«", "≫": "»", "⊕": "+",
        "⊖": "-‐‑‒–−", "⊘": "/", "⊙": ".☐", "⊛": "*", "⊜": "=", "■": "▮", "▮": "■", "▲": "↑▴", "▴": "↑▲",
        "▶": "→▸", "▸": "→▶", "▼": "↓▾", "▾": "↓▼", "◀": "←◂", "◂": "←◀", "◈": "♦", "●": "•", "☐": ".⊙", "☑": "v",
        "☒": "x✗✘⮽", "♦": "◈", "✗": "x☒✘⮽", "✘": "x☒✗⮽", "⮽": "x☒✗✘",
    ]
}

/// The board's marks on the Linux console, where a TV shows it with the fonts the README recommends.
@Suite("The board's marks in the console fonts")
struct ConsoleFontTests {
    static let teamMarks = (0..<TeamMark.count).map { Character(TeamMark(index: $0).symbol) }

    @Test func everyTeamMarkIsInEveryConsoleFontWithAGlyphOfItsOwn() {
        for mark in Self.teamMarks {
            #expect(ConsoleFonts.everyFontHas.contains(mark), "\(mark) is missing from console fonts: it shows as ♦")
            let alike = ConsoleFonts.drawnAlike[mark] ?? ""
            #expect(!alike.contains { $0.isASCII }, "\(mark) is drawn as the plain \(alike.filter(\.isASCII))")
            for other in Self.teamMarks where other != mark {
                #expect(!alike.contains(other), "\(mark) looks like \(other), another team's mark")
            }
        }
    }

    @Test func theMarksOfTeamsFiveToEightAreNotTheBoardsOtherMarks() {
        // The moved letter's marker (▲), the team asked to press (▶ ◀), fixed letters (═), bars and rules.
        let otherMarks: [Character] = ["▲", "▶", "◀", "═", "─", "█", "░", "·"]
        for mark in Self.teamMarks[4...] {
            #expect(!otherMarks.contains(mark))
            #expect(!(ConsoleFonts.drawnAlike[mark] ?? "").contains { otherMarks.contains($0) }, "\(mark)")
        }
    }

    @Test("A judged answer is quoted as `shaky watch`, `play` and `status` quote it, with quotes every font has")
    func judgedAnswersAreQuotedAsTheCommandsQuoteThem() {
        let lines = BoardLayout.render(BoardScenes.answer, width: 80, height: 24, now: BoardScenes.now).lines
            .filter { $0.contains("RIGHT") || $0.contains("WRONG") }
        #expect(
            lines.map { $0.trimmingCharacters(in: .whitespaces) } == [
                "▲ Cú Mèo: “Élan” WRONG", "■ Foxes: “Giraffe” RIGHT +8",
            ])
        for mark in lines.joined().filter({ !$0.isASCII && !$0.isLetter }) {
            #expect(ConsoleFonts.everyFontHas.contains(mark), "\(mark) shows as ♦ on the console: \(lines)")
        }
    }

    @Test func theNoticesUseOnlyWhatTheConsoleFontsHave() {
        var state = BoardScenes.notices
        state.joiningTeam = "Owls"
        let notices = BoardLayout.notices(state)
        #expect(notices.count == 5)
        // "…" is in every font but the VGA faces, as the README says.
        let marks = notices.joined().filter { !$0.isASCII && !$0.isLetter && $0 != "…" }
        for mark in marks {
            #expect(ConsoleFonts.everyFontHas.contains(mark), "\(mark) shows as ♦ on the console: \(notices)")
        }
    }
}

/// The big letters on the Linux console: its fonts have the full block but, all but three of them, not the half
/// blocks (`▀ ▄`), which would show as ♦.
@Suite("The board's big letters on the Linux console")
struct ConsoleBlockLetterTests {
    static let sizes = BoardScenes.sizes + [(width: 120, height: 33), (width: 60, height: 12), (width: 30, height: 8)]

    @Test func theLinuxConsoleShowsFullBlocksOnlyAndEveryOtherTerminalHalfBlocksToo() {
        #expect(BlockFont.Characters(term: "linux") == .fullBlocksOnly)
        #expect(BlockFont.Characters(term: "linux-16color") == .fullBlocksOnly)
        for term in ["xterm-256color", "screen", "tmux-256color", "vt100", "linuxish", nil] {
            #expect(BlockFont.Characters(term: term) == .halfBlocks, "\(term ?? "no TERM")")
        }
    }

    @Test func everySceneOnTheConsoleIsDrawnWithoutHalfBlocks() {
        var halfBlocksElsewhere = 0
        for (name, state) in BoardScenes.all {
            for size in Self.sizes {
                let console = BoardLayout.render(
                    state, width: size.width, height: size.height, now: BoardScenes.now, characters: .fullBlocksOnly
                ).text
                #expect(!console.contains("▀") && !console.contains("▄"), "\(name) at \(size.width)×\(size.height)")
                let terminal = BoardLayout.render(state, width: size.width, height: size.height, now: BoardScenes.now)
                    .text
                if terminal.contains("▀") || terminal.contains("▄") { halfBlocksElsewhere += 1 }
            }
        }
        // The control: the same scenes in a terminal emulator do use them.
        #expect(halfBlocksElsewhere > 0)
    }

    @Test func aTVsConsoleStillShowsTheScrambleInBlockLetters() {
        // 1080p with TerminusBold 16 × 32 (the README's font for a TV): 120 × 33.
        let screen = BoardLayout.render(
            BoardScenes.questionOpen, width: 120, height: 33, now: BoardScenes.now, characters: .fullBlocksOnly
        ).text
        #expect(screen.split(separator: "\n").filter { $0.contains("███") }.count >= 5)
    }
}
