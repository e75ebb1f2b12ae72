import Foundation
import GRDB
import ShakyCore
import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

/// A real `shakyd` whose database file is damaged sets it aside (`damaged-database-<UTC time>.sqlite`, with its
/// write-ahead log and index) and starts with a new one, as journald does with a damaged journal; a database it may
/// not read still stops it.
@Suite("A damaged database at start")
struct DamagedDatabaseTests {
    /// The built-in packs (`Sources/ShakyStore/BuiltinPacks`), which come back in a new database.
    static let builtinPackCount = 7

    /// The files in the daemon's state folder whose names start with `damaged-database-`, sorted.
    static func setAsideFiles(_ daemon: DaemonProcess) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory)
            .filter { $0.hasPrefix("damaged-database-") }.sorted()
    }

    /// What a host sees: the packs, and the settings that say where the damaged file went.
    static func packsAndSettings(
        _ daemon: DaemonProcess
    ) async throws -> (packs: [ShakyAPI.Pack], settings: ShakyAPI.Settings) {
        let connection = try await daemon.connect()
        defer { Task { await connection.close() } }
        let packs = try await ShakyAPI.PacksInterface.Client(connection).list()
        let settings = try await ShakyAPI.SettingsInterface.Client(connection).get()
        return (packs, settings)
    }

    @Test("A file that is not a database, with a log beside it: set aside as it was, and a new database serves")
    func garbageIsSetAside() async throws {
        let daemon = try DaemonProcess()
        try await daemon.withCleanup {
            try FileManager.default.createDirectory(atPath: daemon.stateDirectory, withIntermediateDirectories: true)
            let garbage = Data(String(repeating: "not a database, just words\n", count: 600).utf8)
            let garbageLog = Data(String(repeating: "no log either\n", count: 300).utf8)
            try garbage.write(to: URL(fileURLWithPath: daemon.databasePath))
            try garbageLog.write(to: URL(fileURLWithPath: daemon.databasePath + "-wal"))
            try await daemon.start()

            let files = try Self.setAsideFiles(daemon)
            let setAside = try #require(files.first { $0.wholeMatch(of: /.*\.sqlite/) != nil })
            #expect(setAside.wholeMatch(of: /damaged-database-\d{8}T\d{6}Z\.sqlite/) != nil, "\(setAside)")
            // With its log, and the index SQLite made for reading it.
            #expect(Set(files) == [setAside, setAside + "-wal", setAside + "-shm"], "\(files)")
            let path = daemon.stateDirectory + "/" + setAside
            #expect(FileManager.default.contents(atPath: path) == garbage, "the file is kept as it was")
            #expect(FileManager.default.contents(atPath: path + "-wal") == garbageLog)

            let (packs, settings) = try await Self.packsAndSettings(daemon)
            #expect(packs.count == Self.builtinPackCount && packs.allSatisfy(\.builtin), "\(packs.map(\.name))")
            #expect(settings.damagedDatabase == path)
            let log = daemon.log()
            #expect(log.contains("the database was damaged and is set aside"), "\(log)")
            #expect(log.contains(path), "the log says where the file went")
            #expect(log.contains("the imported packs, the history of finished games"), "and what was lost with it")

            // Damaged again: the earlier file is kept, and the names of this minute are taken, as two boots of a
            // board without a real-time clock give the same time: the new file is numbered.
            #expect(await daemon.terminate() == .exited(0), "\(daemon.log())")
            let secondGarbage = Data(String(repeating: "still not a database\n", count: 600).utf8)
            try secondGarbage.write(to: URL(fileURLWithPath: daemon.databasePath))
            let taken = try Self.takeTheNamesOfTheComingMinute(in: daemon.stateDirectory)
            try await daemon.start()
            // Numbered after the name of its second, which was taken.
            let told = try #require(try await Self.packsAndSettings(daemon).settings.damagedDatabase)
            let second = URL(fileURLWithPath: told).lastPathComponent
            let unnumbered = second.replacing("Z-2.sqlite", with: "Z.sqlite")
            #expect(unnumbered != second, "\(second)")
            #expect(taken.union([setAside]).contains(unnumbered), "\(second)")
            #expect(told == daemon.stateDirectory + "/" + second)
            #expect(FileManager.default.contents(atPath: told) == secondGarbage)
            #expect(FileManager.default.contents(atPath: path) == garbage, "the first one is not replaced")
            for name in taken {
                let earlier = FileManager.default.contents(atPath: daemon.stateDirectory + "/" + name)
                #expect(earlier == Data("an earlier file\n".utf8), "\(name) is not replaced")
            }
        }
    }

    /// Files named as a damaged database set aside in each second from now to a minute on; returns their names.
    static func takeTheNamesOfTheComingMinute(in folder: String) throws -> Set<String> {
        let now = Date()
        var names: Set<String> = []
        for second in 0..<60 {
            let stamp = UTCDateText.iso8601(now.addingTimeInterval(Double(second))).filter { $0 != "-" && $0 != ":" }
            let name = "damaged-database-\(stamp).sqlite"
            guard !FileManager.default.fileExists(atPath: folder + "/" + name) else { continue }
            try Data("an earlier file\n".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
            names.insert(name)
        }
        return names
    }

    /// How a real database is damaged past its first page, which SQLite reads when it opens it.
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        /// The page of the history's games, which a start does not read: only a check of every page finds it.
        case historyPageOverwritten = "the history's page overwritten"
        /// Every page after the first two, as a disk that wrote another file's blocks over it.
        case pagesOverwritten = "pages overwritten"
        case truncated = "cut short"

        var testDescription: String { rawValue }

        func apply(to path: String) throws {
            let (historyPage, pageSize) = try DatabaseQueue(path: path).read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'finishedGame'") ?? 0,
                    try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
                )
            }
            let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
            defer { try? file.close() }
            let size = try file.seekToEnd()
            switch self {
            case .historyPageOverwritten:
                try file.seek(toOffset: UInt64((historyPage - 1) * pageSize))
                file.write(Data(repeating: 0xA5, count: pageSize))
            case .pagesOverwritten:
                try file.seek(toOffset: UInt64(2 * pageSize))
                file.write(Data(repeating: 0xA5, count: Int(size) - 2 * pageSize))
            case .truncated:
                try file.truncate(atOffset: size / 2)
            }
        }
    }

    @Test("A real database damaged past its first page is found at start and set aside", arguments: Damage.allCases)
    func malformedDatabaseIsSetAside(damage: Damage) async throws {
        try await DaemonProcess.withRunning { daemon in
            var client = DaemonProcess.GameClient(try await daemon.connect())
            try await client.createPack("Imported", questions: PartyPack.questions)
            _ = try await client.new(teams: ["Owls", "Foxes"], packs: ["Imported"], questions: 1)
            _ = try await client.next()
            _ = try await client.adjustScore(team: "Owls", delta: 5, reason: "warm-up")
            _ = try await client.end()
            let history = try await client.history()
            #expect(history.count == 1, "\(history)")
            await client.transport.close()
            #expect(await daemon.terminate() == .exited(0), "\(daemon.log())")
            try damage.apply(to: daemon.databasePath)
            let damaged = try #require(FileManager.default.contents(atPath: daemon.databasePath))

            try await daemon.start()
            let files = try Self.setAsideFiles(daemon)
            let path = daemon.stateDirectory + "/" + (files.first { $0.wholeMatch(of: /.*\.sqlite/) != nil } ?? "")
            #expect(files.filter { $0.wholeMatch(of: /.*\.sqlite/) != nil }.count == 1, "\(files)")
            #expect(FileManager.default.contents(atPath: path) == damaged, "the file is kept as it was")
            let (packs, settings) = try await Self.packsAndSettings(daemon)
            #expect(packs.count == Self.builtinPackCount && packs.allSatisfy(\.builtin), "\(packs.map(\.name))")
            #expect(settings.damagedDatabase == path)
            client = DaemonProcess.GameClient(try await daemon.connect())
            _ = try await client.new(teams: ["Owls", "Foxes"], packs: ["Animals"], questions: 1)
            #expect(try await client.next().phase == .indication, "the party goes on")
            await client.transport.close()
        }
    }

    @Test("A database the daemon may not read still stops it, saying why, and is not set aside")
    func unreadableDatabaseStopsTheStart() async throws {
        let scripts = try TemporaryDirectory(prefix: "shakyd-nobody")
        defer { scripts.remove() }
        // shakyd as user nobody, who may not read the database root made.
        let wrapper = URL(fileURLWithPath: scripts.path).appendingPathComponent("shakyd-as-nobody")
        let command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        try
            ("#!/bin/sh\nexec " + (command + [try BuiltProduct.path("shakyd")]).map { "'\($0)'" }.joined(separator: " ")
            + " \"$@\"\n").write(to: wrapper, atomically: true, encoding: .utf8)
        #expect(chmod(wrapper.path, 0o755) == 0)
        let daemon = try DaemonProcess(executable: wrapper)
        try await daemon.withCleanup {
            try FileManager.default.createDirectory(atPath: daemon.stateDirectory, withIntermediateDirectories: true)
            #expect(chmod(daemon.folder.path, 0o755) == 0)
            #expect(chmod(daemon.stateDirectory, 0o777) == 0)
            // Damaged too, but what stops the daemon is that it may not read it: that is what it must say.
            try Data(String(repeating: "not a database\n", count: 600).utf8)
                .write(to: URL(fileURLWithPath: daemon.databasePath))
            #expect(chmod(daemon.databasePath, 0o600) == 0)
            let before = FileManager.default.contents(atPath: daemon.databasePath)

            let failure = await #expect(throws: DaemonProcess.Failure.self) { try await daemon.start() }
            #expect(
                failure?.description.contains("Cannot open the database \(daemon.databasePath)") == true,
                "\(String(describing: failure))")
            #expect(try Self.setAsideFiles(daemon).isEmpty)
            #expect(FileManager.default.contents(atPath: daemon.databasePath) == before)
        }
    }
}
