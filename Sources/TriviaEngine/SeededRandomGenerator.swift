/// A small, seedable random number generator (xoshiro256**) whose state is part of a game's snapshot.
///
/// The same seed always yields the same sequence on every platform and toolchain, and a decoded
/// generator continues exactly where the encoded one stopped. Bounded numbers and shuffles are
/// implemented here rather than through the standard library's generic algorithms, whose exact
/// use of random bits is not promised to stay the same between Swift releases.
public struct SeededRandomGenerator: RandomNumberGenerator, Codable, Equatable, Sendable {
    private var state: [UInt64]

    /// Creates a generator whose whole state is derived from `seed` with SplitMix64.
    public init(seed: UInt64) {
        var mixer = seed
        var words: [UInt64] = []
        for _ in 0..<4 {
            mixer &+= 0x9E37_79B9_7F4A_7C15
            var z = mixer
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            words.append(z ^ (z >> 31))
        }
        state = words
    }

    /// Whether the state can generate: four words, not all zero (xoshiro's one state that yields only zeros, where
    /// ``next(below:)`` would never find a value). Every seeded or advanced generator is usable; a decoded one may not be.
    var isUsable: Bool { state.count == 4 && state.contains { $0 != 0 } }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = rotateLeft(state[1] &* 5, by: 7) &* 9
        let shifted = state[1] << 17
        state[2] ^= state[0]
        state[3] ^= state[1]
        state[1] ^= state[2]
        state[0] ^= state[3]
        state[2] ^= shifted
        state[3] = rotateLeft(state[3], by: 45)
        return result
    }

    /// A uniformly distributed number in `0..<bound`; `bound` must be positive.
    public mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let limit = UInt64(bound)
        // Reject the low values that would make some results more likely than others.
        let threshold = (0 &- limit) % limit
        while true {
            let value = next()
            if value >= threshold {
                return Int(value % limit)
            }
        }
    }

    /// Shuffles `elements` in place (Fisher–Yates), using only this generator's own arithmetic.
    public mutating func shuffle<Element>(_ elements: inout [Element]) {
        guard elements.count > 1 else { return }
        for index in stride(from: elements.count - 1, to: 0, by: -1) {
            let other = next(below: index + 1)
            elements.swapAt(index, other)
        }
    }

    private func rotateLeft(_ value: UInt64, by amount: UInt64) -> UInt64 {
        (value << amount) | (value >> (64 - amount))
    }
}
