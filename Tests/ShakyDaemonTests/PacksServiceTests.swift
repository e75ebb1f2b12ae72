import ShakyProtocol
import ShakyStore
import Synchronization
import Testing

@testable import ShakyDaemon

/// An import of a whole pack gives the memory it freed back to the kernel.
@Suite("Packs service memory")
struct PacksServiceTests {
    @Test("An import gives freed memory back, refused or not; a list does not need to")
    func wholePackCallsReleaseFreeMemory() async throws {
        let releases = Mutex(0)
        var service = PacksService(database: try AppDatabase.inMemory(builtinPacks: .skip))
        service.releaseFreeMemory = { releases.withLock { $0 += 1 } }

        _ = try await service.import(data: "question,answer\nCapital of Peru?,Lima\n", format: .csv, name: "Mine")
        #expect(releases.withLock { $0 } == 1)
        _ = try await service.list()
        #expect(releases.withLock { $0 } == 1)
        // A refused import gives back what it took too.
        await #expect(throws: ShakyAPI.PacksInterface.ReplyError.self) {
            try await service.import(data: "question,answer\nCapital of Chile?,Santiago\n", format: .csv, name: "Mine")
        }
        #expect(releases.withLock { $0 } == 2)
    }
}
