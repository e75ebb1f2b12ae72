#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A failed system or C library call: what was being done and the errno it ended with.
///
/// This is the one place where an errno becomes a Swift error. libc calls go through
/// ``checkSyscall(_:_:)`` (`-1` and `errno`, `EINTR` retried); C libraries that return a negative errno
/// (libiio, libevdev, alsa-lib) through ``checkNegativeErrno(_:_:)``. Callers that know more (the device, the
/// socket path) wrap this error in their own, keeping ``code`` and ``reason``.
public struct SystemCallError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// What was being done, as a short phrase (`open`, `create a wake-up pipe`, `chmod 0660`).
    public var operation: String
    /// The positive errno value.
    public var code: Int32

    /// Creates an error from a positive errno value.
    public init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// The C library's text for the errno (`No such file or directory`).
    public var reason: String { Self.reason(for: code) }

    /// The C library's text for `code`.
    public static func reason(for code: Int32) -> String {
        // glibc's strerror returns a static text for every known errno, so it is safe from any thread.
        String(cString: strerror(code))
    }

    public var description: String { "\(operation) failed: \(reason)" }
}

/// Runs a libc call that returns `-1` and sets `errno` on failure, retrying it on `EINTR`; returns its result.
///
/// Not for `close`, which must not be retried on Linux: use ``closeDescriptor(_:)``.
///
/// Inlinable, so that each call is specialized for its result type: the readers call it around every `poll` and
/// `read`, and the generic version compared with -1 through the integer protocol's witnesses.
@inlinable
@discardableResult
public func checkSyscall<Result: BinaryInteger>(
    _ operation: @autoclosure () -> String, _ call: () -> Result
) throws(SystemCallError) -> Result {
    while true {
        let result = call()
        if result != -1 { return result }
        let code = errno
        if code == EINTR { continue }
        throw SystemCallError(operation(), code: code)
    }
}

/// Returns `result` when it is zero or positive; throws when it is a negative errno (libiio, libevdev and
/// alsa-lib return `-errno` on failure). Inlinable, as ``checkSyscall(_:_:)`` is.
@inlinable
@discardableResult
public func checkNegativeErrno<Result: BinaryInteger>(
    _ result: Result, _ operation: @autoclosure () -> String
) throws(SystemCallError) -> Result {
    guard result < 0 else { return result }
    throw SystemCallError(operation(), code: Int32(truncatingIfNeeded: 0 - Int64(result)))
}

/// Closes a file descriptor this code owns. `EINTR` is not retried (Linux has closed the descriptor by then);
/// any other failure (`EBADF`: closed twice, a bug) is thrown.
public func closeDescriptor(_ descriptor: Int32) throws(SystemCallError) {
    guard close(descriptor) == -1 else { return }
    let code = errno
    if code == EINTR { return }
    throw SystemCallError("close descriptor \(descriptor)", code: code)
}
