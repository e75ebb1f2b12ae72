import ShakyProtocol
import ShakyStore
import Synchronization
import Testing

@testable import ShakyDaemon

/// The Packs calls that may read or write a whole pack give the memory they freed back to the kernel.
@Suite("Packs service memory")
struct PacksServiceTests {
    @Test("An import, an export, a show and a search each give freed memory back; a list does not need to")
    func wholePackCallsReleaseFreeMemory() async throws {
        let releases = Mutex(0)
        var service = PacksService(database: try AppDatabase.inMemory(builtinPacks: .skip))
        service.releaseFreeMemory = { releases.withLock { $0 += 1 } }

        _ = try await service.import(data: "question,answer\nCapital of Peru?,Lima\n", format: .csv, name: "Mine")
        #expect(releases.withLock { $0 } == 1)
        _ = try await service.export(name: "Mine", format: .json)
        _ = try await service.show(name: "Mine")
        _ = try await service.search(text: "Peru", pack: nil, limit: nil)
        #expect(releases.withLock { $0 } == 4)
        _ = try await service.list()
        #expect(releases.withLock { $0 } == 4)
        // A refused call gives back what it took too.
        await #expect(throws: ShakyAPI.PacksInterface.ReplyError.self) {
            try await service.export(name: "Nowhere", format: .csv)
        }
        #expect(releases.withLock { $0 } == 5)
    }
}
