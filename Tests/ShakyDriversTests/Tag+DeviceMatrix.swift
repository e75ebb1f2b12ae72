import Testing

extension Tag {
    /// The emulated device matrix: many sensors replayed through umockdev in real time. `make test` runs it on its
    /// own after the rest (`--filter tag:deviceMatrix`), so its load cannot starve the timing of other tests.
    @Tag static var deviceMatrix: Self
}
