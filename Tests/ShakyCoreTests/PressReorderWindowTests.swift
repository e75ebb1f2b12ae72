import ShakyCore
import Testing

/// The reorder window: presses held a short while leave in kernel-time order.
struct PressReorderWindowTests {
    private func press(_ device: String, kernelMilliseconds: Int) -> ButtonPress {
        ButtonPress(
            button: ButtonID(device: device, key: 0x120), keyName: "BTN_TRIGGER", devicePath: "/dev/input/\(device)",
            kernelTime: .milliseconds(kernelMilliseconds), age: .zero)
    }

    @Test func pressesReadOutOfKernelOrderLeaveInKernelOrder() {
        var window = PressReorderWindow(width: .milliseconds(40))
        window.add(press("late", kernelMilliseconds: 5_500), at: .milliseconds(100))
        window.add(press("early", kernelMilliseconds: 5_400), at: .milliseconds(120))
        #expect(window.deadline == .milliseconds(140))
        #expect(window.release(at: .milliseconds(139)).isEmpty, "held until the window closes")
        #expect(window.release(at: .milliseconds(140)).map(\.button.device) == ["early", "late"])
        #expect(window.isEmpty)
        #expect(window.deadline == nil)
    }

    @Test func equalKernelTimesKeepTheirArrivalOrder() {
        var window = PressReorderWindow(width: .zero)
        window.add(press("b", kernelMilliseconds: 7), at: .zero)
        window.add(press("a", kernelMilliseconds: 7), at: .zero)
        #expect(window.release(at: .zero).map(\.button.device) == ["b", "a"])
    }

    @Test func aPressAfterTheWindowClosedStartsTheNextBatch() {
        var window = PressReorderWindow(width: .milliseconds(40))
        window.add(press("first", kernelMilliseconds: 10), at: .zero)
        #expect(window.release(at: .milliseconds(40)).count == 1)
        window.add(press("second", kernelMilliseconds: 5), at: .milliseconds(50))
        #expect(window.deadline == .milliseconds(90))
        #expect(window.flush().map(\.button.device) == ["second"])
    }
}
