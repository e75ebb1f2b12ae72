import ShakyDrivers
import Testing

@Suite struct IIOSamplingFrequencyTests {
    @Test(
        arguments: [
            (100.0, "1.56 6.25 12.5 50 100 200", 100.0),
            (60, "25 50 100 200", 50),
            (75, "50 100", 100),  // a tie goes to the faster rate
            (1000, "12.5 25 50\n", 50),
            (1, "12.5 25 50", 12.5),
            (100, "[1 1 400]", 100),
            (1000, "[1 1 400]", 400),
            (7.3, "[0 2 20]", 8),
        ] as [(Double, String, Double)])
    func picksTheNearestOffered(wanted: Double, available: String, chosen: Double) {
        #expect(IIOSamplingFrequency.nearest(to: wanted, available: available) == chosen)
    }

    @Test func offersNothingForAnEmptyList() {
        #expect(IIOSamplingFrequency.nearest(to: 100, available: "") == nil)
        #expect(IIOSamplingFrequency.nearest(to: 100, available: "[1 2]") == nil)
    }

    @Test func writesFrequenciesAsTheKernelReadsThem() {
        #expect(IIOSamplingFrequency.text(100) == "100")
        #expect(IIOSamplingFrequency.text(12.5) == "12.5")
    }
}
