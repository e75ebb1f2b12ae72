extension String {
    /// The string without leading and trailing whitespace (Foundation-free).
    var trimmingWhitespace: String {
        let characters = Substring(self)
        guard let first = characters.firstIndex(where: { !$0.isWhitespace }),
            let last = characters.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(characters[first...last])
    }
}
