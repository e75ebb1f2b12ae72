import Foundation
import ShakyCore
import ShakyProtocol
import ShakyTesting
import Testing

/// A damaged data file does not stop a party: the daemon starts without the pack it held, and says why.
@Suite struct BuiltinPackStartTests {
    @Test("A damaged built-in pack file is skipped, named in the log with its problem, and the others are served")
    func aDamagedBuiltinPackDoesNotStopTheDaemon() async throws {
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let packs = data.appending("packs")
        try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
        let shipped = InstallLayout.sourceCheckout.appendingPathComponent(
            InstallLayout.DataSet.builtinPacks.checkoutPath)
        try FileManager.default.copyItem(
            atPath: shipped.appendingPathComponent("animals.json").path, toPath: packs + "/animals.json")
        try Data().write(to: URL(fileURLWithPath: packs + "/empty.json"))
        try await DaemonProcess.withRunning(environment: ["SHAKY_DATA_DIR": data.path]) { daemon in
            let client = try await daemon.connect()
            let names = try await ShakyAPI.PacksInterface.Client(client).list().map(\.name)
            #expect(names == ["Animals"])
            let log = daemon.log()
            #expect(
                log.contains(
                    "a built-in pack was skipped: The built-in pack file \(packs)/empty.json is invalid: line 1: the file "
                        + "is not valid JSON at column 1: the file ends where a value was expected."),
                "\(log)")
        }
    }
}
