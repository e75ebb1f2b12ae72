/// How far apart two words are, to name the command a person likely meant.
public enum EditDistance {
    /// The Levenshtein distance between `a` and `b`: the fewest characters inserted, deleted or replaced that make one
    /// the other.
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// Of `names`, the one closest to `word` (ignoring case), when it is at most `most` edits away: the command a
    /// person likely meant by a mistyped one. The first of those as close, in `names`' order.
    public static func closest(to word: String, among names: [String], within most: Int = 2) -> String? {
        let typed = word.lowercased()
        let scored = names.map { (name: $0, distance: between(typed, $0.lowercased())) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= most else { return nil }
        return best.name
    }
}
