import ShakyCore

/// A key pressed at a terminal whose own line editing is off, as ``TerminalKeyDecoder`` reads it from the bytes the
/// terminal sends.
enum TerminalKey: Sendable, Equatable {
    /// Text typed or pasted: printable characters only.
    case text(String)
    /// Enter (or Ctrl-J, Ctrl-M).
    case enter
    /// Backspace (or Ctrl-H): the character before the cursor.
    case backspace
    /// Delete: the character under the cursor.
    case delete
    /// Ctrl-D: the end of input on an empty line, else as Delete.
    case endOfInputOrDelete
    /// Left arrow, Ctrl-B.
    case left
    /// Right arrow, Ctrl-F.
    case right
    /// Ctrl-Left, Alt-B: to the start of the word.
    case wordLeft
    /// Ctrl-Right, Alt-F: past the end of the word.
    case wordRight
    /// Home, Ctrl-A.
    case home
    /// End, Ctrl-E.
    case end
    /// Up arrow, Ctrl-P: the line typed before.
    case previousLine
    /// Down arrow, Ctrl-N: the line typed after.
    case nextLine
    /// Ctrl-U: everything before the cursor.
    case deleteToStart
    /// Ctrl-K: everything from the cursor on.
    case deleteToEnd
    /// Ctrl-W, Alt-Backspace: the word before the cursor.
    case deleteWordBefore
    /// Ctrl-L: draw the line again.
    case redraw
}

/// Reads ``TerminalKey``s from the bytes a terminal sends in non-canonical mode: UTF-8 text, control characters,
/// and the escape sequences of xterm-like terminals (VT100 and its descendants: the Linux console, tmux, GNOME's and
/// KDE's terminals) for arrows, Home, End and Delete.
///
/// A key's bytes may be split between two reads: what is incomplete is kept for the next. Escape sequences this
/// does not know are read whole and dropped, so their bytes never show as text; so are control strings (`ESC ]`,
/// `ESC P`… up to their terminator). A lone Escape cannot be told from the start of a sequence until more comes:
/// ``isInsideSequence`` says so, and ``abandonSequence()`` drops it once nothing more came in time.
///
/// Text pasted between the markers of bracketed paste (`ESC [ 200 ~` … `ESC [ 201 ~`, which ``PromptLineInput``
/// asks the terminal for) is text only: its line breaks and tabs are spaces, and no key in it acts, so a paste of
/// several lines is one line to look at before Enter. A tab typed is a space too.
struct TerminalKeyDecoder: Sendable {
    private enum State: Sendable {
        case ground
        case escape
        case controlSequence(length: Int)
        /// Inside a control string (`ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _`), after an Escape in it when
        /// `escaped`.
        case controlString(length: Int, escaped: Bool)
        case singleShift
        case utf8(needed: Int)
    }

    private var state = State.ground
    /// Between bracketed paste's markers.
    private var pasting = false
    /// The last byte was a carriage return of a paste, whose line feed then adds no second space.
    private var afterPastedCarriageReturn = false
    /// The bytes of the UTF-8 character or the control sequence being read.
    private var pending: [UInt8] = []
    /// Printable text read and not yet given out, given out as one ``TerminalKey/text(_:)`` (a paste is one key).
    private var text = ""

    /// The longest control sequence or string read; a longer one is dropped from there on, and what follows read as
    /// keys, so a stream of garbage holds no memory and an unterminated string does not swallow what is typed.
    static let longestSequence = 32
    /// The longest control string read (a window title is the longest a terminal sends back).
    static let longestControlString = 512

    /// Whether the bytes so far end inside an escape sequence, a UTF-8 character or a paste.
    var isInsideSequence: Bool {
        if case .ground = state { return pasting }
        return true
    }

    /// The keys `bytes` completes.
    mutating func keys(in bytes: some Sequence<UInt8>) -> [TerminalKey] {
        var keys: [TerminalKey] = []
        func emit(_ key: TerminalKey?) {
            guard let key, !pasting else { return }
            if !text.isEmpty {
                keys.append(.text(text))
                text = ""
            }
            keys.append(key)
        }
        for byte in bytes {
            let afterCarriageReturn = afterPastedCarriageReturn
            afterPastedCarriageReturn = false
            switch state {
            case .ground:
                switch byte {
                case 0x1B: state = .escape
                case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
                case 0xC2...0xDF: startCharacter(byte, needed: 1)
                case 0xE0...0xEF: startCharacter(byte, needed: 2)
                case 0xF0...0xF4: startCharacter(byte, needed: 3)
                case 0x09: text.append(" ")
                case 0x0A where pasting: if !afterCarriageReturn { text.append(" ") }
                case 0x0D where pasting:
                    text.append(" ")
                    afterPastedCarriageReturn = true
                case 0x00..<0x20, 0x7F: emit(Self.control(byte))
                default: break  // A byte that starts no UTF-8 character.
                }
            case .escape:
                switch byte {
                case UInt8(ascii: "["):
                    state = .controlSequence(length: 0)
                    pending.removeAll(keepingCapacity: true)
                case UInt8(ascii: "O"):
                    state = .singleShift
                case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"):
                    state = .controlString(length: 0, escaped: false)
                case 0x1B:
                    break  // Escape pressed twice: the second may start a sequence.
                default:
                    state = .ground
                    emit(Self.alt(byte))
                }
            case .controlSequence(let length):
                if (0x40...0x7E).contains(byte) {
                    state = .ground
                    if byte == UInt8(ascii: "~"), pending == Self.pasteStart || pending == Self.pasteEnd {
                        pasting = pending == Self.pasteStart
                    } else {
                        emit(Self.controlSequence(parameters: pending, final: byte))
                    }
                } else if length >= Self.longestSequence || !(0x20...0x3F).contains(byte) {
                    // Not a sequence this reads: dropped, and what follows is read afresh.
                    state = .ground
                } else {
                    pending.append(byte)
                    state = .controlSequence(length: length + 1)
                }
            case .controlString(let length, let escaped):
                // Ended by BEL or by ST (`ESC \`).
                if byte == 0x07 || (escaped && byte == UInt8(ascii: "\\")) || length >= Self.longestControlString {
                    state = .ground
                } else {
                    state = .controlString(length: length + 1, escaped: byte == 0x1B)
                }
            case .singleShift:
                state = .ground
                emit(Self.singleShift(byte))
            case .utf8(let needed):
                guard (0x80...0xBF).contains(byte) else {
                    // A character cut short: dropped, and this byte read afresh.
                    state = .ground
                    keys += self.keys(in: CollectionOfOne(byte))
                    continue
                }
                pending.append(byte)
                if needed > 1 {
                    state = .utf8(needed: needed - 1)
                } else {
                    state = .ground
                    // Only what a line may hold: a C1 control or a bidirectional mark would act on the terminal.
                    if let scalar = String(validating: pending, as: UTF8.self)?.unicodeScalars.first,
                        TerminalText.isSafe(scalar)
                    {
                        text.unicodeScalars.append(scalar)
                    }
                }
            }
        }
        if !text.isEmpty {
            keys.append(.text(text))
            text = ""
        }
        return keys
    }

    /// The parameters of bracketed paste's markers, `ESC [ 200 ~` and `ESC [ 201 ~`.
    private static let pasteStart = Array("200".utf8)
    private static let pasteEnd = Array("201".utf8)

    /// Drops the sequence or character begun: nothing more came (a lone Escape, a key's bytes lost, a paste whose
    /// end marker was lost).
    mutating func abandonSequence() {
        state = .ground
        pasting = false
        pending.removeAll(keepingCapacity: true)
    }

    private mutating func startCharacter(_ byte: UInt8, needed: Int) {
        pending = [byte]
        state = .utf8(needed: needed)
    }

    /// A control character's key, if it has one (Tab and the others type nothing).
    private static func control(_ byte: UInt8) -> TerminalKey? {
        switch byte {
        case 0x01: .home
        case 0x02: .left
        case 0x04: .endOfInputOrDelete
        case 0x05: .end
        case 0x06: .right
        case 0x08, 0x7F: .backspace
        case 0x0A, 0x0D: .enter
        case 0x0B: .deleteToEnd
        case 0x0C: .redraw
        case 0x0E: .nextLine
        case 0x10: .previousLine
        case 0x15: .deleteToStart
        case 0x17: .deleteWordBefore
        default: nil
        }
    }

    /// Escape and one byte: Alt held with a key.
    private static func alt(_ byte: UInt8) -> TerminalKey? {
        switch byte {
        case UInt8(ascii: "b"): .wordLeft
        case UInt8(ascii: "f"): .wordRight
        case 0x08, 0x7F: .deleteWordBefore
        default: nil
        }
    }

    /// `ESC O` and one byte: the keypad's application mode, which some terminals use for arrows, Home and End.
    private static func singleShift(_ byte: UInt8) -> TerminalKey? {
        switch byte {
        case UInt8(ascii: "A"): .previousLine
        case UInt8(ascii: "B"): .nextLine
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: nil
        }
    }

    /// `ESC [ parameters final`: arrows (`1;5` adds Ctrl), Home, End and Delete.
    private static func controlSequence(parameters: [UInt8], final: UInt8) -> TerminalKey? {
        let fields = String(decoding: parameters, as: UTF8.self).split(separator: ";", omittingEmptySubsequences: false)
        // The modifier is one more than the sum of Shift 1, Alt 2, Ctrl 4.
        let modifier = fields.count > 1 ? Int(fields[1]) ?? 1 : 1
        let byWord = modifier > 1 && (modifier - 1) & 0b110 != 0
        switch final {
        case UInt8(ascii: "A"): return .previousLine
        case UInt8(ascii: "B"): return .nextLine
        case UInt8(ascii: "C"): return byWord ? .wordRight : .right
        case UInt8(ascii: "D"): return byWord ? .wordLeft : .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch fields.first {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            default: return nil
            }
        default: return nil
        }
    }
}
