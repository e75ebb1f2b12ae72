import Testing

/// The udev rule that lets shakyd light the buzzers.
struct BuzzerUdevRulesTests {
    @Test func buzzerLightsGetGroupShakyWriteAccess() throws {
        let rule = try #require(try UdevRulesTests.rules().first { $0.matches["SUBSYSTEM"] == "leds" })
        let kernel = try #require(rule.matches["KERNEL"])
        #expect(kernel.split(separator: "|") == ["*::buzz[1-4]", "*:rgb:indicator", "*shaky-team*"])
        let run = try #require(rule.assignments["RUN"]?.first)
        #expect(run.contains("brightness multi_intensity"))
        #expect(run.contains("chgrp shaky") && run.contains("chmod g+w"))
        #expect(rule.assignments["GROUP"] == nil, "the LED device itself keeps its owner")
    }
}
