import Testing

extension Tag {
    /// Suites that drive real daemons hard (kill -9 and restart, hundreds of connections, the descriptor limit):
    /// `make test` runs them on their own after the rest, so their load cannot starve the timing of other tests.
    /// The Makefile lists them by name in `HEAVY_SUITES`, because `swift test` does not select by tag.
    @Tag static var heavy: Self
}
