import Foundation

extension Thread {
    /// A thread that takes `name` as it starts, then runs `body`.
    ///
    /// Foundation on Linux gives a thread its name only when `name` is set on the thread itself: set before `start()`,
    /// it stays in `Thread.name` but never reaches the kernel, so `top -H`, `ps -L` and `/proc` show the name of the
    /// thread that started it. The kernel keeps the first 15 bytes.
    public convenience init(named name: String, body: @escaping @Sendable () -> Void) {
        self.init {
            Thread.current.name = name
            body()
        }
    }
}
