import Foundation
import ShakyDrivers
import Testing

@Suite("Device fallback order and back-off")
struct SoundDeviceFallbackTests {
    @Test("configured first, then the fallbacks, without repeats")
    func order() {
        #expect(
            SoundDeviceFallback(device: "hw:1", fallbacks: ["default"], retryInterval: .seconds(10)).devices == [
                "hw:1", "default",
            ])
        #expect(
            SoundDeviceFallback(device: "default", fallbacks: ["default"], retryInterval: .seconds(10)).devices == [
                "default"
            ])
    }

    @Test("each failure and the fall to silence are reported once; retry after the interval")
    func reportOnceAndRetry() {
        var fallback = SoundDeviceFallback(device: "a", fallbacks: ["b"], retryInterval: .seconds(10))
        let missing = DeviceError(device: "a", operation: "open", code: ENOENT)
        let busy = DeviceError(device: "b", operation: "open", code: EBUSY)
        #expect(fallback.mayTry(at: .zero))
        let firstMissing = fallback.recordFailure(missing)
        #expect(firstMissing)
        let firstBusy = fallback.recordFailure(busy)
        #expect(firstBusy)
        let firstSilence = fallback.recordAllFailed(at: .seconds(1))
        #expect(firstSilence)
        #expect(!fallback.mayTry(at: .seconds(10.999)))
        #expect(fallback.mayTry(at: .seconds(11)))
        let repeatedMissing = fallback.recordFailure(missing)
        #expect(!repeatedMissing)
        let repeatedBusy = fallback.recordFailure(busy)
        #expect(!repeatedBusy)
        let repeatedSilence = fallback.recordAllFailed(at: .seconds(11))
        #expect(!repeatedSilence)
        #expect(!fallback.mayTry(at: .seconds(12)))
        fallback.recordOpened()
        #expect(fallback.mayTry(at: .seconds(12)))
        let missingAfterReopen = fallback.recordFailure(missing)
        #expect(missingAfterReopen)
    }

    @Test("a device lost while playing may be replaced at once")
    func lostDevice() {
        var fallback = SoundDeviceFallback(device: "a", fallbacks: [], retryInterval: .seconds(10))
        _ = fallback.recordAllFailed(at: .seconds(5))
        fallback.recordLost()
        #expect(fallback.mayTry(at: .seconds(5)))
    }
}
