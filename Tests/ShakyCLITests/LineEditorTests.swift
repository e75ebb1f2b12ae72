import Testing

@testable import ShakyCLI

/// The line the host types in `shaky play` at a terminal.
@Suite struct LineEditorTests {
    private static func editor(typing keys: [TerminalKey]) -> LineEditor {
        var editor = LineEditor()
        for key in keys { _ = editor.apply(key) }
        return editor
    }

    @Test("Keys edit the line where the cursor is, as in bash")
    func editing() {
        var editor = Self.editor(typing: [.text("a tigr"), .left, .text("e")])
        #expect(editor.line == "a tiger" && editor.cursor == 6)
        _ = editor.apply(.home)
        _ = editor.apply(.delete)
        #expect(editor.line == " tiger" && editor.cursor == 0)
        _ = editor.apply(.text("b"))
        _ = editor.apply(.end)
        _ = editor.apply(.deleteWordBefore)
        #expect(editor.line == "b " && editor.cursor == 2)
        _ = editor.apply(.text("snow owls"))
        _ = editor.apply(.wordLeft)
        #expect(editor.cursor == 7)
        _ = editor.apply(.deleteToEnd)
        #expect(editor.line == "b snow ")
        _ = editor.apply(.wordLeft)
        _ = editor.apply(.wordRight)
        #expect(editor.cursor == 6)
        _ = editor.apply(.deleteToStart)
        #expect(editor.line == " " && editor.cursor == 0)
        #expect(editor.apply(.backspace) == .unchanged)
        #expect(editor.apply(.left) == .unchanged)
        #expect(editor.apply(.endOfInputOrDelete) == .changed)
        #expect(editor.line.isEmpty)
    }

    @Test("Enter gives the line and starts an empty one; Ctrl-D on an empty line ends the input")
    func submitting() {
        var editor = Self.editor(typing: [.text("n")])
        #expect(editor.apply(.endOfInputOrDelete) == .unchanged, "Ctrl-D at the end of a line deletes nothing")
        #expect(editor.apply(.enter) == .submitted("n"))
        #expect(editor.line.isEmpty && editor.cursor == 0)
        #expect(editor.apply(.enter) == .submitted(""))
        #expect(editor.apply(.endOfInputOrDelete) == .endOfInput)
    }

    @Test("A line holds at most its longest: a paste beyond it is cut, and typing there changes nothing")
    func longestLine() {
        var editor = LineEditor()
        #expect(editor.apply(.text("a ")) == .changed)
        #expect(editor.apply(.text(String(repeating: "x", count: 5000))) == .overflowed)
        #expect(editor.characters.count == LineEditor.longestLine)
        #expect(editor.apply(.text("y")) == .overflowed)
        _ = editor.apply(.backspace)
        #expect(editor.apply(.text("yz")) == .overflowed)
        #expect(editor.characters.count == LineEditor.longestLine && editor.line.hasSuffix("xy"))
        // Scrolled to its end and back, the longest line shows as any other.
        _ = editor.apply(.home)
        #expect(editor.view(columns: 20) == LineEditor.View(text: "a xxxxxxxxxxxxxxxxx>", cursorColumn: 0))
        _ = editor.apply(.end)
        #expect(editor.view(columns: 20) == LineEditor.View(text: "<xxxxxxxxxxxxxxxxxy", cursorColumn: 19))
    }

    @Test("A combining mark typed after a letter joins it, as on the screen")
    func combiningMark() {
        let editor = Self.editor(typing: [.text("Zoe"), .text("\u{0308}")])
        #expect(editor.line == "Zoë" && editor.characters.count == 3 && editor.cursor == 3)
    }

    @Test("Up and Down go through the lines entered before and back to the one being typed")
    func history() {
        var editor = Self.editor(typing: [
            .text("b Owls"), .enter, .text("n"), .enter, .text("n"), .enter, .text("  "), .enter, .text("a ti"),
        ])
        _ = editor.apply(.previousLine)
        #expect(editor.line == "n", "a line entered twice in a row, and a blank one, are kept once")
        _ = editor.apply(.previousLine)
        #expect(editor.line == "b Owls" && editor.cursor == 6)
        #expect(editor.apply(.previousLine) == .unchanged)
        _ = editor.apply(.nextLine)
        #expect(editor.line == "n")
        _ = editor.apply(.nextLine)
        #expect(editor.line == "a ti", "the line being typed is back")
        #expect(editor.apply(.nextLine) == .unchanged)
        _ = editor.apply(.previousLine)
        _ = editor.apply(.text("ext"))
        #expect(editor.apply(.enter) == .submitted("next"))
        _ = editor.apply(.previousLine)
        #expect(editor.line == "next")
    }

    @Test("A line brought back and edited stays as edited while Up and Down browse, until Enter")
    func historyEdits() {
        var editor = Self.editor(typing: [.text("t"), .enter, .text("st"), .enter, .text("n")])
        _ = editor.apply(.previousLine)
        _ = editor.apply(.deleteToStart)
        _ = editor.apply(.text("a snow leopard"))
        _ = editor.apply(.previousLine)
        #expect(editor.line == "t")
        _ = editor.apply(.nextLine)
        #expect(editor.line == "a snow leopard", "the edit of st")
        _ = editor.apply(.nextLine)
        #expect(editor.line == "n", "the line being typed")
        _ = editor.apply(.previousLine)
        #expect(editor.apply(.enter) == .submitted("a snow leopard"))
        _ = editor.apply(.previousLine)
        _ = editor.apply(.previousLine)
        #expect(editor.line == "st", "after Enter the lines entered are as they were")
    }

    @Test("Up brings back at most the last lines, the oldest forgotten")
    func historyLimit() {
        var editor = LineEditor()
        for number in 0..<(LineEditor.historyLimit + 10) {
            _ = editor.apply(.text("\(number)"))
            _ = editor.apply(.enter)
        }
        for _ in 0..<(LineEditor.historyLimit + 10) { _ = editor.apply(.previousLine) }
        #expect(editor.line == "10")
    }

    @Test("A line that fits shows whole, the cursor after what is before it")
    func shortLineView() {
        var editor = Self.editor(typing: [.text("a tiger"), .left, .left])
        #expect(editor.view(columns: 20) == LineEditor.View(text: "a tiger", cursorColumn: 5))
    }

    @Test("A line wider than the screen scrolls sideways to keep the cursor in sight, with < and > where it goes on")
    func longLineView() {
        let text = "a the quick brown fox jumps over the lazy dog"
        var editor = Self.editor(typing: [.text(text)])
        #expect(editor.view(columns: 20) == LineEditor.View(text: "< over the lazy dog", cursorColumn: 19))
        _ = editor.apply(.home)
        let start = editor.view(columns: 20)
        #expect(start == LineEditor.View(text: "a the quick brown f>", cursorColumn: 0))
        // The least scrolling: moving right within what shows does not scroll.
        for _ in 0..<10 { _ = editor.apply(.right) }
        #expect(editor.view(columns: 20) == LineEditor.View(text: "a the quick brown f>", cursorColumn: 10))
        for _ in 0..<10 { _ = editor.apply(.right) }
        let middle = editor.view(columns: 20)
        #expect(middle.text.hasPrefix("<") && middle.text.hasSuffix(">") && middle.text.count == 20)
        #expect(middle.cursorColumn == 18, "the cursor's character shows, then >: \(middle)")
        // Deleting the end brings the start back into the room it leaves.
        _ = editor.apply(.deleteToEnd)
        for _ in 0..<5 { _ = editor.apply(.backspace) }
        #expect(editor.view(columns: 20) == LineEditor.View(text: "a the quick bro", cursorColumn: 15))
    }

    @Test("Wide characters take two columns of the view and are never cut")
    func wideCharacters() {
        var editor = Self.editor(typing: [.text("b 🦉🦉🦉🦉🦉🦉")])
        let view = editor.view(columns: 8)
        #expect(view == LineEditor.View(text: "<🦉🦉🦉", cursorColumn: 7))
        _ = editor.apply(.home)
        #expect(editor.view(columns: 8) == LineEditor.View(text: "b 🦉🦉>", cursorColumn: 0))
    }
}
