import Foundation
import ShakyCore
import Synchronization
import Testing

/// A thread's name reaches the kernel, where `top -H`, `ps -L` and the benchmark's thread list read it.
@Suite struct ThreadNameTests {
    /// The calling thread's name as the kernel keeps it.
    static func kernelName() -> String? {
        (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
    }

    @Test("A thread named on itself has that name in the kernel, cut to the kernel's 15 bytes")
    func aThreadNamesItselfInTheKernel() async throws {
        let seen = Mutex<String?>(nil)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                Thread.nameCurrentThread("shaky-name-probe-too-long")
                let name = Self.kernelName()
                seen.withLock { $0 = name }
                done.resume()
            }.start()
        }
        #expect(seen.withLock { $0 } == "shaky-name-prob")
    }

    @Test("Thread(named:) runs its body with the name already set in the kernel")
    func aNamedThreadRunsUnderItsName() async throws {
        let seen = Mutex<String?>(nil)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread(named: "shaky-named") {
                let name = Self.kernelName()
                seen.withLock { $0 = name }
                done.resume()
            }.start()
        }
        #expect(seen.withLock { $0 } == "shaky-named")
    }
}
