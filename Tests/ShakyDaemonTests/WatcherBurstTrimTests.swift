import Testing

@testable import ShakyDaemon

/// When the memory of a burst of watchers that hung up goes back to the kernel.
@Suite("Giving a burst of watchers' memory back")
struct WatcherBurstTrimTests {
    /// `count` watchers join one by one.
    private func joined(_ count: Int) -> WatcherBurstTrim {
        var trim = WatcherBurstTrim()
        for attached in 1...count { trim.joined(count: attached) }
        return trim
    }

    @Test("200 watchers hanging up: trims when a quarter is left (and a quarter of that), once more at the next event")
    func burstOfTwoHundred() {
        var trim = joined(200)
        let trimsWhileLeaving = (0..<200).reversed().filter { trim.left(count: $0) }
        #expect(trimsWhileLeaving == [50, 12])
        #expect(trim.isDraining)
        let trimmed1 = trim.published()  // the tick after: the last connections are freed by now
        #expect(trimmed1)
        let trimmed2 = trim.published()  // nobody left since: the burst is over
        #expect(!trimmed2)
        #expect(!trim.isDraining)
        let trimmed3 = trim.published()
        #expect(!trimmed3)
    }

    @Test("watchers still leaving across events: each event trims once, until an event with no hang-up before it")
    func slowDrain() {
        var trim = joined(40)
        for attached in (10..<40).reversed() {
            let trimmed = trim.left(count: attached)
            #expect(trimmed == (attached == 10))
        }
        let trimmed4 = trim.published()  // nothing left since the trim at 10, but some left since the last event
        #expect(!trimmed4)
        #expect(trim.isDraining)
        let trimmed5 = trim.published()
        #expect(!trimmed5)
        #expect(!trim.isDraining)

        trim = joined(40)
        for attached in (10..<40).reversed() { _ = trim.left(count: attached) }
        _ = trim.left(count: 9)
        let trimmed6 = trim.published()
        #expect(trimmed6)
        _ = trim.left(count: 8)
        _ = trim.left(count: 7)
        let trimmed7 = trim.published()
        #expect(trimmed7)
        let trimmed8 = trim.published()
        #expect(!trimmed8)
        #expect(!trim.isDraining)
    }

    @Test("fewer than 32 watchers, or most of them still there, never trim")
    func noBurst() {
        var small = joined(31)
        let smallTrims = (0..<31).reversed().filter { small.left(count: $0) }
        #expect(smallTrims.isEmpty)
        let trimmed9 = small.published()
        #expect(!trimmed9)

        var staying = joined(100)
        let stayingTrims = (26..<100).reversed().filter { staying.left(count: $0) }
        #expect(stayingTrims.isEmpty)
        let trimmed10 = staying.published()
        #expect(!trimmed10)
        #expect(!staying.isDraining)
    }

    @Test("a second burst after the first is measured from what was left")
    func secondBurst() {
        var trim = joined(64)
        let firstTrims = (0..<64).reversed().filter { trim.left(count: $0) }
        #expect(firstTrims == [16])
        _ = trim.published()
        _ = trim.published()
        for attached in 1...40 { trim.joined(count: attached) }
        #expect(trim.peak == 40)
        let secondTrims = (0..<40).reversed().filter { trim.left(count: $0) }
        #expect(secondTrims == [10])
    }
}
