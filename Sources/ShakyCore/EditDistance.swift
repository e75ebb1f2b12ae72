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
}
