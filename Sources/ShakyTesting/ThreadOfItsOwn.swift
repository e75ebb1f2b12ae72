import Foundation

/// Runs `work` on a thread of its own and returns what it returns or throws what it throws.
///
/// For work that blocks or runs long without awaiting (a fuzz target's inputs, a blocking read): Swift concurrency's
/// tasks share as many threads as the machine has cores (two on CI), and a test that holds one of them holds up
/// every other test's daemons and clients meanwhile. Worse, work that blocks there until a task of its own has run
/// waits for a thread it may be holding itself.
public func onThreadOfItsOwn<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// Runs `work` on a thread of its own and returns what it returns (see the throwing form).
public func onThreadOfItsOwn<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
