extension Sequence<String> {
    /// The items as a sentence says them: `a`, `a or b`, `a, b or c` (with `conjunction` "or"); empty when there
    /// are none.
    public func spokenList(_ conjunction: String) -> String {
        let items = Array(self)
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
