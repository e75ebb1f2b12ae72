import Glibc
import SystemCalls
import Testing

@Suite("The errno funnel")
struct SystemCallErrorTests {
    @Test("A failed call throws its operation and errno, with the C library's text")
    func failedCall() {
        #expect {
            try checkSyscall("open") { open("/nonexistent/\(#function)", O_RDONLY) }
        } throws: { error in
            guard let error = error as? SystemCallError else { return false }
            return error.code == ENOENT && error.reason == "No such file or directory"
                && error.description == "open failed: No such file or directory"
        }
    }

    @Test("A successful call returns its result")
    func successfulCall() throws {
        let descriptor = try checkSyscall("open") { open("/dev/null", O_RDONLY | O_CLOEXEC) }
        #expect(descriptor >= 0)
        try closeDescriptor(descriptor)
        // Closing it again is the bug the funnel reports rather than ignores.
        #expect(throws: SystemCallError("close descriptor \(descriptor)", code: EBADF)) {
            try closeDescriptor(descriptor)
        }
    }

    @Test("A call interrupted by a signal (EINTR) is made again")
    func interruptedCallIsRetried() throws {
        var attempts = 0
        let result = try checkSyscall("read") { () -> Int in
            attempts += 1
            if attempts < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7)
        #expect(attempts == 3)
    }

    @Test("A negative errno from a C library becomes the same error; zero and more pass through")
    func negativeErrno() throws {
        #expect(throws: SystemCallError("snd_pcm_open", code: EBUSY)) { try checkNegativeErrno(-EBUSY, "snd_pcm_open") }
        #expect(try checkNegativeErrno(Int32(12), "read") == 12)
    }
}
