/// The values exchanged over Shaky Words' Varlink interfaces, generated from `Interfaces/*.varlink` into
/// `Generated/` (`make generate`).
///
/// Each IDL `type` is `ShakyAPI.Name`; each interface is `ShakyAPI.<Name>Interface`, with its description,
/// parameters and replies, errors, the `Implementation` protocol the daemon serves and the typed `Client`.
/// Times are seconds as `Double`; optional fields are left out of the JSON when `nil`.
public enum ShakyAPI {}
