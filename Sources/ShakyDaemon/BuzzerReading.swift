import Logging
import ShakyDrivers
import TriviaEngine

/// Connects the buzzer devices to the game: the reader's events go to the ``BuzzerService`` in order, and
/// the runtime's events come back to it in order (for the lights).
final class BuzzerReading: Sendable {
    private let reader: EvdevBuzzerReader?
    private let forwarding: Task<Void, Never>
    private let following: Task<Void, Never>
    private let service: BuzzerService

    private init(
        reader: EvdevBuzzerReader?, forwarding: Task<Void, Never>, following: Task<Void, Never>,
        service: BuzzerService
    ) {
        self.reader = reader
        self.forwarding = forwarding
        self.following = following
        self.service = service
    }

    /// Starts reading the buzzer devices when `enabled` (grabbing keyboards too with `grabKeyboards`, holding
    /// presses `reorderWindow` for reordering); the lights follow the game either way.
    static func start(
        enabled: Bool, grabKeyboards: Bool, reorderWindow: Duration, gameEvents: AsyncStream<RuntimeEvent>,
        service: BuzzerService, logger: Logger
    ) async -> BuzzerReading {
        let following = Task {
            for await event in gameEvents { await service.follow(event) }
        }
        var reader: EvdevBuzzerReader?
        if enabled {
            let candidates = EvdevBuzzerDiscovery().discoverAll()
            do {
                reader = try EvdevBuzzerReader(
                    candidates: candidates, grabKeyboards: grabKeyboards, reorderWidth: reorderWindow, logger: logger)
            } catch {
                logger.error("cannot read the buzzer devices", metadata: ["error": "\(error)"])
            }
        }
        let events = reader?.events
        let forwarding = Task {
            guard let events else { return }
            for await event in events { await service.handle(event) }
        }
        return BuzzerReading(reader: reader, forwarding: forwarding, following: following, service: service)
    }

    /// Stops reading, releases the devices and turns the lights off.
    func stop() async {
        reader?.stop()
        await forwarding.value
        following.cancel()
        await service.allOff()
    }
}
