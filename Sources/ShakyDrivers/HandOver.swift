import Foundation

/// Passes a non-Sendable value to exactly one reader thread, which owns it from then on.
final class HandOver<Value>: @unchecked Sendable {
    private var value: Value?
    private let lock = NSLock()

    init(_ value: Value) {
        self.value = value
    }

    /// Takes the value; traps if taken twice.
    func take() -> Value {
        lock.withLock {
            defer { value = nil }
            return value!
        }
    }
}
