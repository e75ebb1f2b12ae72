import ShakyBoard

/// The line the host is typing in `shaky play` at a terminal, and how it is edited: Emacs-style keys as in bash
/// (``TerminalKey``), the lines typed before one Up away.
///
/// Pure: ``PromptLineInput`` feeds it keys and draws ``view(columns:)``. A line wider than the screen scrolls
/// sideways on its one row, as readline's `horizontal-scroll-mode` does, so it never wraps onto the rows the game
/// writes to.
struct LineEditor: Sendable, Equatable {
    /// What a key did.
    enum Outcome: Sendable, Equatable {
        /// The line or the cursor changed: draw it again.
        case changed
        /// Nothing changed.
        case unchanged
        /// Enter: the line, and the editor holds an empty one.
        case submitted(String)
        /// Ctrl-D on an empty line: the host has no more commands.
        case endOfInput
        /// Text typed or pasted did not all fit in ``LineEditor/longestLine``: what fit is in (draw the line again)
        /// and the rest dropped, which the terminal's bell says.
        case overflowed
    }

    /// The part of the line that shows on the screen.
    struct View: Sendable, Equatable {
        /// The characters shown, with `<` in front when the line goes on to the left and `>` after when it goes on
        /// to the right.
        var text: String
        /// The cursor's column, from 0, within ``text``.
        var cursorColumn: Int
    }

    /// The line's characters.
    private(set) var characters: [Character] = []
    /// Where the cursor is: the index in ``characters`` of the character it is on, or their count at the end.
    private(set) var cursor = 0
    /// The first character shown when the line is wider than the screen.
    private var firstShown = 0
    /// The lines entered before, oldest first.
    private var history: [String] = []
    /// Which of ``history`` Up and Down have brought back, while they are browsing it.
    private var historyIndex: Int?
    /// The lines as edited while browsing, by their index in ``history``; the line being typed when Up was first
    /// pressed is at `history.count`. Up and Down come back to them as they were left, as in bash, until Enter.
    private var edits: [Int: [Character]] = [:]

    /// How many lines Up can bring back.
    static let historyLimit = 200

    /// The most characters a line holds; what is typed or pasted beyond is dropped. Five times what any command
    /// needs (an answer or a reason is at most 200 characters), and a paste of a whole file stays cheap to edit.
    static let longestLine = 1000

    /// The line as text.
    var line: String { String(characters) }

    /// Applies `key` and says what it did.
    mutating func apply(_ key: TerminalKey) -> Outcome {
        switch key {
        case .text(let text):
            let room = Self.longestLine - characters.count
            guard room > 0 else { return .overflowed }
            insert(String(text.prefix(room)))
            if text.count > room { return .overflowed }
        case .enter:
            let line = line
            if !line.allSatisfy(\.isWhitespace), history.last != line {
                history.append(line)
                if history.count > Self.historyLimit { history.removeFirst() }
            }
            replaceLine(with: [])
            historyIndex = nil
            edits = [:]
            return .submitted(line)
        case .backspace:
            guard cursor > 0 else { return .unchanged }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete:
            guard cursor < characters.count else { return .unchanged }
            characters.remove(at: cursor)
        case .endOfInputOrDelete:
            if characters.isEmpty { return .endOfInput }
            return apply(.delete)
        case .left:
            guard cursor > 0 else { return .unchanged }
            cursor -= 1
        case .right:
            guard cursor < characters.count else { return .unchanged }
            cursor += 1
        case .wordLeft:
            cursor = startOfWord(before: cursor)
        case .wordRight:
            var index = cursor
            while index < characters.count, characters[index].isWhitespace { index += 1 }
            while index < characters.count, !characters[index].isWhitespace { index += 1 }
            cursor = index
        case .home:
            cursor = 0
        case .end:
            cursor = characters.count
        case .deleteToStart:
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .deleteToEnd:
            characters.removeSubrange(cursor...)
        case .deleteWordBefore:
            let start = startOfWord(before: cursor)
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .previousLine:
            guard !history.isEmpty, historyIndex != 0 else { return .unchanged }
            browseHistory(to: (historyIndex ?? history.count) - 1)
        case .nextLine:
            guard let index = historyIndex else { return .unchanged }
            browseHistory(to: index + 1)
        case .redraw:
            break
        }
        return .changed
    }

    /// The part of the line shown in `columns` columns, scrolled so that the cursor shows; the least scrolling
    /// from where it was last shown.
    mutating func view(columns: Int) -> View {
        let columns = max(columns, 4)
        // The columns the characters before each index take, so that any stretch's width is one subtraction.
        var widthBefore = [0]
        widthBefore.reserveCapacity(characters.count + 1)
        for character in characters {
            widthBefore.append(widthBefore[widthBefore.count - 1] + DisplayWidth.of(character))
        }
        func width(_ range: Range<Int>) -> Int { widthBefore[range.upperBound] - widthBefore[range.lowerBound] }
        firstShown = min(firstShown, cursor)
        // What is before the cursor, the `<` when the line goes on to the left, the cursor's cell and the `>` when
        // the line goes on to the right must fit.
        let cursorCell =
            cursor < characters.count
            ? width(cursor..<cursor + 1) + (cursor + 1 < characters.count ? 1 : 0) : 1
        func fits(from first: Int) -> Bool {
            (first > 0 ? 1 : 0) + width(first..<cursor) + cursorCell <= columns
        }
        while firstShown < cursor, !fits(from: firstShown) { firstShown += 1 }
        // Text deleted at the end leaves room: the line comes back into it rather than leave it empty.
        while firstShown > 0, width(firstShown - 1..<characters.count) + (firstShown > 1 ? 1 : 0) + 1 <= columns {
            firstShown -= 1
        }
        var text = firstShown > 0 ? "<" : ""
        var used = text.count
        var index = firstShown
        while index < characters.count {
            // The last column is kept for `>` while more follows.
            let room = columns - (index + 1 < characters.count ? 1 : 0)
            guard used + width(index..<index + 1) <= room else { break }
            text.append(characters[index])
            used += width(index..<index + 1)
            index += 1
        }
        if index < characters.count { text.append(">") }
        let cursorColumn = (firstShown > 0 ? 1 : 0) + width(firstShown..<cursor)
        return View(text: text, cursorColumn: cursorColumn)
    }

    /// Inserts `text` at the cursor. A combining mark joins the character before it, as it does on the screen.
    private mutating func insert(_ text: String) {
        let before = Array(String(characters[..<cursor]) + text)
        characters = before + characters[cursor...]
        cursor = before.count
    }

    /// Shows the line at `index` of ``history`` (the line being typed at its end), as last edited; keeps the line
    /// left as edited.
    private mutating func browseHistory(to index: Int) {
        let current = historyIndex ?? history.count
        if current == history.count || characters != Array(history[current]) { edits[current] = characters }
        historyIndex = index < history.count ? index : nil
        replaceLine(with: edits[index] ?? (index < history.count ? Array(history[index]) : []))
    }

    private mutating func replaceLine(with line: [Character]) {
        characters = line
        cursor = line.count
        firstShown = 0
    }

    /// The start of the word before `index`, as Ctrl-W and Alt-B find it: spaces skipped, then the word's
    /// characters.
    private func startOfWord(before index: Int) -> Int {
        var start = index
        while start > 0, characters[start - 1].isWhitespace { start -= 1 }
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        return start
    }
}
