import Testing

extension Tag {
    /// The emulated device matrix: many sensors replayed through umockdev in real time, and the game played on
    /// buttons replayed on a fixed schedule. `make test` runs it on its
    /// own after the rest, so its load cannot starve the timing of other tests. The Makefile names it in
    /// `DEVICE_MATRIX`, because `swift test` does not select by tag.
    @Tag static var deviceMatrix: Self
}
