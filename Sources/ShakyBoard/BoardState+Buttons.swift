/// The teams' buttons in words a host understands: "Buzz! handset 2 (red)", "keyboard: A".
extension BoardState {
    /// The colours of a Buzz! handset's five buttons, in hid-sony's order (the big red buzz button first).
    static let buzzColours = ["red", "yellow", "green", "orange", "blue"]

    /// Team `team`'s button in words, with "(unplugged)" while its device is gone; `nil` when it has none.
    public func buttonWords(team: String) -> String? {
        guard let button = buttons[team] else { return nil }
        let device = buttonDevices[button.device]
        var words = Self.words(for: button, on: device)
        if device?.isPresent == false { words += " (unplugged)" }
        return words
    }

    /// Whether the board has anything to say about buttons: a device seen or a button assigned.
    public var knowsButtons: Bool { !buttons.isEmpty || !buttonDevices.isEmpty }

    static func words(for button: Button, on device: ButtonDevice?) -> String {
        let happy = "BTN_TRIGGER_HAPPY"
        if device?.kind == "buzz", button.keyName.hasPrefix(happy),
            let number = Int(button.keyName.dropFirst(happy.count)), (1...20).contains(number)
        {
            return "Buzz! handset \((number - 1) / 5 + 1) (\(buzzColours[(number - 1) % 5]))"
        }
        let deviceWords: String
        if device?.kind == "keyboard" {
            deviceWords = "keyboard"
        } else if let name = device?.name?.split(whereSeparator: \.isWhitespace).joined(separator: " "),
            !name.isEmpty
        {
            // Kernels pad some names ("DragonRise Inc.   Generic   USB  Joystick  "): one space between words.
            deviceWords = name
        } else {
            deviceWords = "button"
        }
        return "\(deviceWords): \(keyWords(button.keyName))"
    }

    /// `KEY_A` → "A", `KEY_SPACE` → "Space", `BTN_TRIGGER` → "button trigger".
    static func keyWords(_ name: String) -> String {
        if name.hasPrefix("KEY_") {
            let rest = name.dropFirst(4)
            if rest.count == 1 { return String(rest) }
            let lower = rest.lowercased().split(separator: "_").joined(separator: " ")
            return lower.prefix(1).uppercased() + lower.dropFirst()
        }
        if name.hasPrefix("BTN_") {
            return "button " + name.dropFirst(4).lowercased().split(separator: "_").joined(separator: " ")
        }
        return name
    }
}
