import ShakyDaemon
import Testing

/// The buzzer settings of the configuration file and flags.
struct BuzzerSettingsTests {
    @Test func buzzersAreReadAndEarlyPressesOnlyIgnoredByDefault() throws {
        let configuration = DaemonConfiguration(resolving: DaemonOptions())
        #expect(try configuration.readsBuzzers())
        #expect(try configuration.earlyPressLockout() == nil)
    }

    @Test func theFileSetsBuzzersAndTheLockout() throws {
        let settings = try DaemonOptions.parse(
            "buzzers: none\nearly-press-lockout: 1.5\ngrab-keyboards: true\n", path: "shakyd.conf")
        #expect(settings == DaemonOptions(buzzers: "none", earlyPressLockout: 1.5, grabKeyboards: true))
        let configuration = DaemonConfiguration(resolving: settings)
        #expect(configuration.grabKeyboards)
        #expect(DaemonConfiguration(resolving: DaemonOptions()).grabKeyboards == false)
        #expect(try configuration.readsBuzzers() == false)
        #expect(try configuration.earlyPressLockout() == .milliseconds(1500))
    }

    @Test func badValuesAreRefusedWithWhatIsAllowed() throws {
        let configuration = DaemonConfiguration(
            resolving: DaemonOptions(buzzers: "maybe", earlyPressLockout: 600))
        #expect(throws: DaemonStartError.self) { try configuration.readsBuzzers() }
        #expect {
            try configuration.earlyPressLockout()
        } throws: { error in
            "\(error)" == "early-press-lockout must be 0 to 60 seconds, not 600.0"
        }
    }
}

extension BuzzerSettingsTests {
    @Test func theReorderWindowIs40MillisecondsUnlessTheFileSaysAndMotionControllersShake() throws {
        let standard = DaemonConfiguration(resolving: DaemonOptions())
        #expect(try standard.reorderWindow() == .milliseconds(40))
        #expect(try standard.readsShakers())
        let settings = try DaemonOptions.parse("reorder-window: 80\nshakers: none\n", path: "shakyd.conf")
        #expect(settings == DaemonOptions(reorderWindow: 80, shakers: "none"))
        let configuration = DaemonConfiguration(resolving: settings)
        #expect(try configuration.reorderWindow() == .milliseconds(80))
        #expect(try configuration.readsShakers() == false)
        // A flag wins over the file.
        #expect(settings.overridden(by: DaemonOptions(reorderWindow: 25)).reorderWindow == 25)
    }

    @Test(arguments: [
        ("socket: /tmp/s.sock\nreorder-window: 5\n", 2, "reorder-window must be 10 to 200 milliseconds, not 5"),
        ("reorder-window: 500\n", 1, "reorder-window must be 10 to 200 milliseconds, not 500"),
        (
            "log-level: info\n\nreorder-window: 40.5\n", 3,
            "reorder-window must be a whole number of milliseconds from 10 to 200, not “40.5”"
        ),
        ("shakers: some\n", 1, "shakers must be auto or none, not “some”"),
        ("early-press-lockout: 90\n", 1, "early-press-lockout must be 0 to 60 seconds"),
    ])
    func aBadValueInTheFileNamesItsLine(_ text: String, _ line: Int, _ problem: String) throws {
        #expect {
            try DaemonOptions.parse(text, path: "/etc/shaky/shakyd.conf")
        } throws: { error in
            let description = "\(error)"
            return description.hasPrefix("/etc/shaky/shakyd.conf:\(line): ") && description.contains(problem)
        }
    }

    @Test func aReorderWindowOutOfBoundsStopsTheDaemonWithWhatIsAllowed() throws {
        let configuration = DaemonConfiguration(resolving: DaemonOptions(reorderWindow: 0))
        #expect {
            try configuration.reorderWindow()
        } throws: { error in
            "\(error)" == "reorder-window must be 10 to 200 milliseconds, not 0"
        }
    }
}
