import Foundation
import ShakyTesting
import Testing

/// `make install` into a DESTDIR, and what systemd thinks of the installed units.
@Suite(.serialized) struct InstallTests {
    static let make = "/usr/bin/make"

    /// Installs into a fresh DESTDIR with PREFIX=/usr from this build's products; returns the DESTDIR.
    static func install() async throws -> URL {
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("shaky-install-\(UUID())")
        let result = try await Self.run(
            make,
            [
                "-s", "install-files", "DESTDIR=\(destination.path)", "PREFIX=/usr",
                "BIN_PATH=\(BuiltProduct.directory.path)",
                "GENERATE_MANUAL=\(try BuiltProduct.path("generate-manual"))",
            ], currentDirectory: BuiltProduct.checkout)
        #expect(result.status == 0, "make install-files failed: \(result.standardError)")
        return destination
    }

    /// Runs a command to its end and returns its exit status and output.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String?] = [:],
        currentDirectory: URL? = nil, timeout: Duration = .seconds(120)
    ) async throws -> (status: Int32, standardOutput: String, standardError: String) {
        let child = try ChildProcess(
            executable, arguments, environment: environment, currentDirectory: currentDirectory)
        let exit = try await child.waitForExit(within: timeout)
        return (exit.status, child.standardOutput, child.standardError)
    }

    static func files(under root: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        var files: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                files.append(String(url.path.dropFirst(root.path.count)))
            }
        }
        return files.sorted()
    }

    @Test func theInstalledTreeIsCompleteAndUninstallRemovesAllOfIt() async throws {
        let destination = try await Self.install()
        defer { try? FileManager.default.removeItem(at: destination) }
        let installed = Set(Self.files(under: destination))
        let expected: [String] = [
            "/usr/bin/shakyd", "/usr/bin/shaky",
            "/usr/lib/systemd/system/shakyd.service", "/usr/lib/systemd/system/shakyd.socket",
            "/usr/lib/sysusers.d/shaky.conf", "/usr/lib/udev/rules.d/70-shaky.rules",
            "/usr/share/shaky/shakyd.conf.example", "/usr/share/shaky/traces/demo-shakes.csv",
            "/usr/share/shaky/sounds/hint.wav", "/usr/share/shaky/sounds/buzz-7.wav",
            "/usr/share/shaky/sounds/game-over.wav", "/usr/share/shaky/sounds/README.md",
            "/usr/share/shaky/packs/animals.json", "/usr/share/shaky/packs/places-with-accents.json",
            "/usr/share/man/man1/shakyd.1", "/usr/share/man/man1/shaky.1", "/usr/share/man/man1/shakyd.serve.1",
            "/usr/share/bash-completion/completions/shaky", "/usr/share/zsh/site-functions/_shakyd",
            "/usr/share/fish/vendor_completions.d/shaky.fish", "/usr/share/shaky/install-manifest",
        ]
        for file in expected {
            #expect(installed.contains(file), "missing from the install: \(file)")
        }
        let soundCount = installed.count { $0.hasPrefix("/usr/share/shaky/sounds/") && $0.hasSuffix(".wav") }
        #expect(soundCount == 16)
        let manifest = try String(
            contentsOf: destination.appendingPathComponent("usr/share/shaky/install-manifest"), encoding: .utf8)
        #expect(Set(manifest.split(separator: "\n").map(String.init)) == installed)
        let service = try String(
            contentsOf: destination.appendingPathComponent("usr/lib/systemd/system/shakyd.service"), encoding: .utf8)
        #expect(service.contains("ExecStart=/usr/bin/shakyd serve"))
        #expect(!service.contains("@bindir@"))
        #expect(FileManager.default.isExecutableFile(atPath: destination.path + "/usr/bin/shakyd"))

        let uninstall = try await Self.run(
            Self.make, ["-s", "uninstall", "DESTDIR=\(destination.path)", "PREFIX=/usr"],
            currentDirectory: BuiltProduct.checkout)
        #expect(uninstall.status == 0, "make uninstall failed: \(uninstall.standardError)")
        #expect(Self.files(under: destination) == [])
    }

    @Test func theInstalledDaemonFindsItsDataUnderItsPrefix() async throws {
        let destination = try await Self.install()
        defer { try? FileManager.default.removeItem(at: destination) }
        let shakyd = destination.path + "/usr/bin/shakyd"
        let result = try await Self.run(
            shakyd, ["list-devices", "--input", "trace:\(destination.path)/usr/share/shaky/traces/demo-shakes.csv"],
            environment: ["SHAKY_DATA_DIR": nil], timeout: .seconds(30))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("demo-shakes.csv"))
    }

    @Test func systemdAcceptsTheUnits() async throws {
        let destination = try await Self.install()
        defer { try? FileManager.default.removeItem(at: destination) }
        let units = destination.appendingPathComponent("verify")
        try FileManager.default.createDirectory(at: units, withIntermediateDirectories: true)
        let installedUnits = destination.appendingPathComponent("usr/lib/systemd/system")
        let service = try String(contentsOf: installedUnits.appendingPathComponent("shakyd.service"), encoding: .utf8)
            .replacingOccurrences(of: "ExecStart=/usr/bin/shakyd", with: "ExecStart=\(destination.path)/usr/bin/shakyd")
        try service.write(to: units.appendingPathComponent("shakyd.service"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            at: installedUnits.appendingPathComponent("shakyd.socket"),
            to: units.appendingPathComponent("shakyd.socket"))
        let verify = try await Self.run(
            "/usr/bin/systemd-analyze", ["verify", "--man=no", "./shakyd.socket", "./shakyd.service"],
            currentDirectory: units)
        #expect(verify.status == 0, "systemd-analyze verify: \(verify.standardOutput)\(verify.standardError)")
        #expect(!verify.standardError.contains("shakyd"), "\(verify.standardError)")
    }

    @Test func theServiceIsHardenedToAnExposureOfAtMostTwo() async throws {
        let unit = BuiltProduct.checkout.appendingPathComponent("systemd/shakyd.service")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shaky-unit-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try String(contentsOf: unit, encoding: .utf8).replacingOccurrences(of: "@bindir@", with: "/usr/bin")
        try text.write(to: folder.appendingPathComponent("shakyd.service"), atomically: true, encoding: .utf8)
        let security = try await Self.run(
            "/usr/bin/systemd-analyze", ["security", "--offline=yes", "./shakyd.service"], currentDirectory: folder)
        let line = security.standardOutput.split(separator: "\n").first { $0.contains("Overall exposure level") }
        let exposure = line.flatMap { line in
            line.split(separator: " ").compactMap { Double($0) }.first
        }
        #expect(exposure != nil, "no exposure figure in: \(security.standardOutput)\(security.standardError)")
        #expect((exposure ?? 10) <= 2.0, "exposure \(exposure ?? -1): \(security.standardOutput)")
    }

    /// The value of `key=` in a unit file's text (the last one when it repeats).
    static func unitValue(_ key: String, in text: String) -> String? {
        text.split(separator: "\n").last { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    @Test func theUnitsKeepHotplugAndTheSocketModeWorking() throws {
        let folder = BuiltProduct.checkout.appendingPathComponent("systemd")
        let service = try String(contentsOf: folder.appendingPathComponent("shakyd.service"), encoding: .utf8)
        let socket = try String(contentsOf: folder.appendingPathComponent("shakyd.socket"), encoding: .utf8)
        // udev's netlink events reach only the host's network namespace.
        #expect(Self.unitValue("PrivateNetwork", in: service) == nil)
        #expect(Self.unitValue("RestrictAddressFamilies", in: service)?.contains("AF_NETLINK") == true)
        #expect(Self.unitValue("IPAddressDeny", in: service) == "any")
        // Both units make /run/shaky; the same mode, and one others may enter, so SocketMode=0666 means it.
        let runtimeMode = try #require(Self.unitValue("RuntimeDirectoryMode", in: service))
        #expect(runtimeMode == Self.unitValue("DirectoryMode", in: socket))
        #expect(Int(runtimeMode, radix: 8).map { $0 & 0o005 == 0o005 } == true)
        // Enough descriptors for the connection cap.
        #expect(Self.unitValue("LimitNOFILE", in: service).flatMap { Int($0) }.map { $0 > 4096 } == true)
    }

    @Test func aRefusedConfigurationOrCommandLineIsNotRestartedInALoop() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shaky-restart-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("shakyd.conf")
        try Data("input: bogus\n".utf8).write(to: config)
        let shakyd = try BuiltProduct.path("shakyd")
        let badConfiguration = try await Self.run(
            shakyd, ["--config", config.path, "--socket", folder.appendingPathComponent("s.sock").path])
        let badCommandLine = try await Self.run(shakyd, ["serve", "--no-such-flag"])
        let service = try String(
            contentsOf: BuiltProduct.checkout.appendingPathComponent("systemd/shakyd.service"), encoding: .utf8)
        let prevented = Set(
            (Self.unitValue("RestartPreventExitStatus", in: service) ?? "").split(separator: " ").compactMap {
                Int32($0)
            })
        #expect(Self.unitValue("Restart", in: service) == "on-failure")
        for status in [badConfiguration.status, badCommandLine.status] {
            #expect(status != 0 && status != 1, "a refusal has an exit status of its own, not \(status)")
            #expect(prevented.contains(status), "exit status \(status) would restart in a loop")
        }
        #expect(!prevented.contains(1), "a daemon that fails at run time is still restarted")
    }
}
