import ArgumentParser
import Dispatch
import Foundation
import Logging
import ShakyCore
import ShakyDrivers
import SystemCalls

extension Shakyd {
    /// `shakyd watch-buttons`: prints buzzer presses in fair order, to check buttons before a game.
    struct WatchButtons: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch-buttons",
            abstract: "Print each buzzer press as shakyd ranks it (kernel time order), to check the buttons.",
            discussion: """
                Opens every device `shakyd list-devices` lists as a buzzer and prints one line per press: the \
                kernel's CLOCK_MONOTONIC time, the device's identity (what assignments are kept by), the key and \
                the device node. Presses read from several devices are held for --window milliseconds and \
                printed in kernel-time order. Devices going away and coming back are printed too. Stop with \
                Ctrl-C or --duration. Run it while shakyd is stopped: shakyd grabs its buzzer devices.

                EXAMPLES:
                With the system daemon, its socket and the board stopped, then started again:
                  sudo systemctl stop shaky-board.service shakyd.socket shakyd.service
                  shakyd watch-buttons --light
                  sudo systemctl start shakyd.socket
                """)

        @Option(
            help: ArgumentHelp("Stop after this many seconds, up to 86400 (default: at Ctrl-C).", valueName: "seconds"),
            transform: DecimalText.argument)
        var duration: Double?

        @Option(
            help: ArgumentHelp(
                "How long presses are held to be ranked by kernel time, 0 to 1000 (default: 40, as shakyd's --reorder-window, "
                    + "which takes 10 to 200).",
                valueName: "milliseconds"), transform: DecimalText.wholeNumberArgument)
        var window: Int = 40

        @Flag(help: "Also grab keyboards, so their presses reach nothing else.")
        var grabKeyboards = false

        @Flag(
            help: "Light each pressed button's LED (Buzz! handset, light bar) until the next press; print `lit NAME`.")
        var light = false

        func validate() throws {
            if let duration, !(duration > 0 && duration <= 86_400) {
                throw ValidationError("--duration must be a number of seconds between 0 and 86400")
            }
            guard (0...1000).contains(window) else { throw ValidationError("--window must be 0 to 1000 ms") }
        }

        func run() async throws {
            let candidates = EvdevBuzzerDiscovery().discoverAll()
            if !candidates.contains(where: \.isUsable) {
                // Standard output holds only the events, for scripts; without this a host sees nothing at all.
                StandardStreams.writeError(
                    "shakyd watch-buttons: no buzzer device found (`shakyd list-devices` says what was seen and "
                        + "why); waiting for one to be plugged in\n")
            }
            // A device's failed reads (it is opened again) go to standard error, as the daemon logs them.
            let reader = try EvdevBuzzerReader(
                candidates: candidates, grabKeyboards: grabKeyboards, reorderWidth: .milliseconds(window),
                logger: Logger(label: "shakyd watch-buttons") { StreamLogHandler.standardError(label: $0) })
            let byIdentity = Dictionary(
                candidates.filter(\.isUsable).map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
            let light = light
            let reading = Task {
                let leds = LEDs()
                var lit: BuzzerLight?
                for await event in reader.events {
                    Self.emit(Self.lines(for: event))
                    if light, case .pressed(let presses) = event, let press = presses.last,
                        let next = byIdentity[press.button.device]?.light(for: press.button.key)
                    {
                        if let lit, lit != next { leds.turnOff(lit) }
                        if let error = leds.turnOn(next, colour: (255, 255, 255)) {
                            Self.emit(["light failed\t\(next.name)\t\(error)"])
                        } else {
                            Self.emit(["lit\t\(next.name)"])
                        }
                        lit = next
                    }
                }
                if let lit { leds.turnOff(lit) }
            }
            let interrupts = StopSignals.handle { reader.stop() }
            defer { interrupts.forEach { $0.cancel() } }
            let timer = duration.map { seconds in
                Task {
                    try? await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded())))
                    if !Task.isCancelled { reader.stop() }
                }
            }
            await reading.value
            timer?.cancel()
        }

        /// Writes `lines` to standard output at once (unbuffered, so a pipe sees each press as it comes).
        static func emit(_ lines: [String]) {
            guard !lines.isEmpty else { return }
            CommandOutput.writeOrExit(lines.joined(separator: "\n") + "\n", command: "watch-buttons")
        }

        /// One line per press (`pressed <seconds.micro> <identity> <KEY> <node>`) or device change
        /// (`attached <node> <identity> <kind>`, `gone <node> <identity>`, `back <node> <identity>`).
        static func lines(for event: BuzzerDeviceEvent) -> [String] {
            switch event {
            case .attached(let candidate):
                ["attached\t\(candidate.devicePath)\t\(candidate.identity)\t\(candidate.kind?.rawValue ?? "-")"]
            case .pressed(let presses):
                presses.map { press in
                    "pressed\t\(Self.seconds(press.kernelTime))\t\(press.button.device)\t\(press.keyName)\t"
                        + press.devicePath
                }
            case .gone(let identity, let path):
                ["gone\t\(path)\t\(identity)"]
            case .back(let identity, let path):
                ["back\t\(path)\t\(identity)"]
            }
        }

        /// A kernel time as seconds with six decimals.
        static func seconds(_ time: Duration) -> String {
            let (seconds, attoseconds) = time.components
            let micro = attoseconds / 1_000_000_000_000
            return "\(seconds)."
                + String(String(micro).reversed()).padding(toLength: 6, withPad: "0", startingAt: 0)
                .reversed()
        }
    }
}
