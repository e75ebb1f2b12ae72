/// The teams' buttons in words a host understands: "Buzz! handset 2 (red)", "keyboard: A".
extension BoardState {
    /// The colours of a Buzz! handset's five buttons, in hid-sony's order (the big red buzz button first).
    static let buzzColours = ["red", "yellow", "green", "orange", "blue"]

    /// Team `team`'s button in words, with "(unplugged)" while its device is gone; `nil` when it has none.
    public func buttonWords(team: String) -> String? {
        guard let button = buttons[team] else { return nil }
        let device = buttonDevices[button.device]
        var words = Self.words(for: button, on: device, number: deviceNumber(button.device))
        if device?.isPresent == false { words += " (unplugged)" }
        return words
    }

    /// Which of the devices that look alike (two joysticks of one make, two keyboards, two Buzz! sets) the device
    /// `identity` is, from 1, in the order of their identities (the USB ports they are plugged into); `nil` when no
    /// other device looks like it, so that two teams' buttons on twin devices are not said in the same words.
    func deviceNumber(_ identity: String) -> Int? {
        guard let device = buttonDevices[identity] else { return nil }
        let look = Self.deviceWords(device)
        let twins = buttonDevices.filter { Self.deviceWords($0.value) == look && $0.value.kind == device.kind }
        guard twins.count > 1 else { return nil }
        return twins.keys.sorted().firstIndex(of: identity).map { $0 + 1 }
    }

    /// Whether the board has anything to say about buttons: a device seen or a button assigned.
    public var knowsButtons: Bool { !buttons.isEmpty || !buttonDevices.isEmpty }

    /// `button` in words; `number` tells apart devices that look alike (``deviceNumber(_:)``): "keyboard 2: A".
    static func words(for button: Button, on device: ButtonDevice?, number: Int? = nil) -> String {
        let happy = "BTN_TRIGGER_HAPPY"
        let numbered = number.map { " \($0)" } ?? ""
        if device?.kind == "buzz", button.keyName.hasPrefix(happy),
            let handset = Int(button.keyName.dropFirst(happy.count)), (1...20).contains(handset)
        {
            return "Buzz!\(numbered) handset \((handset - 1) / 5 + 1) (\(buzzColours[(handset - 1) % 5]))"
        }
        return "\(device.map(deviceWords) ?? "button")\(numbered): \(keyWords(button.keyName))"
    }

    /// How a device is called: "keyboard", its kernel name, or "button" when it has none.
    static func deviceWords(_ device: ButtonDevice) -> String {
        if device.kind == "keyboard" { return "keyboard" }
        // Kernels pad some names ("DragonRise Inc.   Generic   USB  Joystick  "): one space between words.
        let name = device.name?.split(whereSeparator: \.isWhitespace).joined(separator: " ") ?? ""
        return name.isEmpty ? "button" : name
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
