extension ShakyClient {
    /// `io.shakywords.Buzzers`: the teams' buttons.
    public var buzzers: ShakyAPI.BuzzersInterface.Client<ShakyClient> { .init(self) }
}
