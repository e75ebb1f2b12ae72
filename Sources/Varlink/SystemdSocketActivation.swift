#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Sockets passed by systemd socket activation (`LISTEN_FDS`, `LISTEN_PID`), as `sd_listen_fds(3)` reads them.
public enum SystemdSocketActivation {
    /// The first passed descriptor; the others follow it.
    public static let firstDescriptor: CInt = 3

    /// A malformed `LISTEN_PID` or `LISTEN_FDS`.
    public struct InvalidEnvironment: Error, Equatable, Sendable, CustomStringConvertible {
        /// The variable's name.
        public var variable: String
        /// Its value.
        public var value: String

        /// Creates the error for `variable`'s `value`.
        public init(variable: String, value: String) {
            self.variable = variable
            self.value = value
        }

        public var description: String { "\(variable)=\(value) is not a valid count or process id" }
    }

    /// The descriptors passed to process `processID`: empty when `LISTEN_PID` or `LISTEN_FDS` is unset
    /// or `LISTEN_PID` names another process (the variables were inherited, not meant for this process).
    ///
    /// A range, not a list: the count is the environment's word, and any count up to the largest descriptor costs
    /// nothing to hold.
    public static func listeningDescriptors(
        environment: [String: String], processID: pid_t
    ) throws(InvalidEnvironment) -> Range<CInt> {
        let none = firstDescriptor..<firstDescriptor
        guard let pidText = environment["LISTEN_PID"], let countText = environment["LISTEN_FDS"] else { return none }
        guard let pid = pid_t(pidText), pid > 0 else {
            throw InvalidEnvironment(variable: "LISTEN_PID", value: pidText)
        }
        guard pid == processID else { return none }
        guard let count = CInt(countText), count >= 0, count <= CInt.max - firstDescriptor else {
            throw InvalidEnvironment(variable: "LISTEN_FDS", value: countText)
        }
        return firstDescriptor..<(firstDescriptor + count)
    }
}
