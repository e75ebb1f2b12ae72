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
