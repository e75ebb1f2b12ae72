import Testing

extension Tag {
    /// Suites that drive real daemons hard (kill -9 and restart, hundreds of connections): `make test` runs them on
    /// their own after the rest (`--filter tag:heavy`), so their load cannot starve the timing of other tests.
    @Tag static var heavy: Self
}
