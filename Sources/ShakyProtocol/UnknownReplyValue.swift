import Varlink

/// A value in the daemon's reply that this client's interfaces do not list: the daemon is newer than the client
/// (it added an event kind, or a value to an enum), so the client should be updated.
public struct UnknownReplyValue: Hashable, Sendable {
    /// The method that replied, fully qualified (`io.shakywords.Game.Watch`).
    public var method: String
    /// The field that held the value, from the reply's members down (`event.buzzer.kind`).
    public var field: String
    /// The value, made printable.
    public var value: String

    /// The value `value` in `field` of a reply to `method`.
    public init(method: String, field: String, value: String) {
        self.method = method
        self.field = field
        self.value = value
    }

    /// The value of `error`, met in a reply to `method`.
    init(_ error: VarlinkUnknownEnumValue, method: String) {
        self.init(method: method, field: error.field, value: error.value)
    }

    /// What to do about it.
    public static let advice = "update shaky to the daemon's version (`shakyd --version` prints it)"
}
