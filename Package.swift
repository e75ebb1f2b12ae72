// swift-tools-version: 6.1
import PackageDescription

/// System libraries: headers only, one per C library; shims only wrap macros.
let systemLibraries: [Target] = [
    // libiio and libsndfile: headers only (libiio-dev, libsndfile1-dev), not linked; ShakyDrivers loads each at
    // first need (LibIIO, LibSndfile), so a daemon that reads no IIO device or plays no sound never maps them.
    .systemLibrary(name: "CIIO"),
    .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
    .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
    .systemLibrary(name: "CSndfile"),
    .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
    // ncursesw's pkg-config flags (-D_XOPEN_SOURCE…) are ones SwiftPM refuses; its headers need none of them.
    .systemLibrary(name: "CNcurses"),
    // glibc's malloc.h (mallopt): part of libc.
    .systemLibrary(name: "CMalloc"),
    // The Swift runtime's hook for tasks with no executor of their own: part of the runtime.
    .systemLibrary(name: "CConcurrencyHook"),
    // glibc's posix_spawn with its GNU file actions, for the programs tests run: part of libc.
    .systemLibrary(name: "CSpawn"),
    // Linux's timerfd and eventfd, for the game's inbox thread to wait on CLOCK_BOOTTIME: part of libc.
    .systemLibrary(name: "CTimerFD"),
]

let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")
let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
let serviceLifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let yams = Target.Dependency.product(name: "Yams", package: "Yams")
let propertyBased = Target.Dependency.product(name: "PropertyBased", package: "swift-property-based")

let package = Package(
    name: "ShakyWords",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "shakyd", targets: ["shakyd"]),
        .executable(name: "shaky", targets: ["shaky"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: systemLibraries + [
        // Pure vocabulary and ports.
        .target(name: "ShakyCore"),
        // Pure logic: synchronous, no I/O, time as an input.
        .target(name: "ShakeDetection", dependencies: ["ShakyCore"]),
        .target(name: "TriviaEngine", dependencies: ["ShakyCore"]),
        // The one database.
        .target(
            name: "ShakyStore", dependencies: ["ShakyCore", "SystemCalls", "TriviaEngine", grdb],
            exclude: ["BuiltinPacks"]),
        // The one errno funnel: a failed system call as a typed error (Varlink and ShakyDrivers use it).
        .target(name: "SystemCalls"),
        // Varlink, with no Shaky Words names: framing, JSON, the IDL, server, client, socket activation.
        .target(name: "Varlink", dependencies: ["SystemCalls", nioCore, nioPosix, logging]),
        // Swift code from `.varlink` interface files: wire types, one protocol per interface, typed clients.
        .target(name: "VarlinkGenerator", dependencies: ["Varlink"]),
        // Shaky Words' interfaces: the `.varlink` files, the code generated from them, the daemon's client.
        .target(name: "ShakyProtocol", dependencies: ["ShakyCore", "Varlink", nioCore], exclude: ["Interfaces"]),
        // The Linux edge: the only module that imports C.
        .target(
            name: "ShakyDrivers",
            dependencies: [
                "ShakyCore", "SystemCalls", "CIIO", "CEvdev", "CALSA", "CSndfile", "CUdev", "CMalloc",
                logging,
            ]
        ),
        // Composition root.
        .target(
            name: "ShakyDaemon",
            dependencies: [
                "ShakyCore", "ShakeDetection", "TriviaEngine", "ShakyStore", "Varlink", "ShakyProtocol", "ShakyDrivers",
                "SystemCalls", "CTimerFD", logging, nioPosix, serviceLifecycle, yams,
            ],
            exclude: ["Demo"]
        ),
        .target(
            name: "ShakyTesting",
            dependencies: [
                "ShakyCore", "SystemCalls", "TriviaEngine", "Varlink", "ShakyProtocol", "ShakyDrivers", "ShakyDaemon",
                "CSpawn", logging,
            ]
        ),
        // The `shaky` command tree, a library so that tests can parse and run it in-process.
        .target(
            name: "ShakyCLI",
            dependencies: ["ShakyCore", "SystemCalls", "Varlink", "ShakyProtocol", "ShakyBoard", argumentParser]),
        // The room's board: a pure layout and a thin ncurses edge.
        .target(name: "ShakyBoard", dependencies: ["ShakyCore", "ShakyProtocol", "CNcurses"]),
        // The parsers and handlers of outside input as functions of bytes, for fuzzing and its corpus.
        .target(
            name: "ShakyFuzzing",
            dependencies: [
                "ShakyCore", "ShakeDetection", "Varlink", "ShakyProtocol", "ShakyStore", "ShakyDaemon", "ShakyDrivers",
                "ShakyTesting", "TriviaEngine", logging,
            ]
        ),
        // Thin mains.
        .executableTarget(
            name: "shakyd",
            dependencies: [
                "ShakyDaemon", "ShakyDrivers", "ShakeDetection", "ShakyCore", "SystemCalls", "CConcurrencyHook",
                argumentParser, logging, nioCore, nioPosix,
            ]),
        .executableTarget(name: "shaky", dependencies: ["ShakyCLI", "SystemCalls"]),
        // libFuzzer harness (`make fuzz`); an ordinary build replays corpus files.
        .executableTarget(name: "shaky-fuzz", dependencies: ["ShakyFuzzing"]),
        // `make generate`: regenerates Sources/ShakyProtocol/Generated from the `.varlink` files.
        .executableTarget(name: "varlink-generate", dependencies: ["VarlinkGenerator"]),
        // `make manual`: makes the FILES, ENVIRONMENT and EXIT STATUS of a command's discussion real man page sections.
        .executableTarget(name: "manual-sections"),
        // Benchmarks: prints figures; never part of the test run.
        .executableTarget(
            name: "shaky-bench",
            dependencies: [
                "ShakyCore", "ShakeDetection", "ShakyDrivers", "ShakyDaemon", "ShakyProtocol", "Varlink", logging,
            ]
        ),

        .testTarget(name: "ShakyCoreTests", dependencies: ["ShakyCore", "ShakyTesting"]),
        .testTarget(
            name: "ShakeDetectionTests", dependencies: ["ShakeDetection", "ShakyCore", "ShakyTesting"],
            exclude: ["Fixtures"]),
        .testTarget(name: "TriviaEngineTests", dependencies: ["TriviaEngine", propertyBased]),
        .testTarget(
            name: "ShakyStoreTests", dependencies: ["ShakyStore", "TriviaEngine", grdb], exclude: ["Fixtures"]),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"]),
        .testTarget(name: "VarlinkTests", dependencies: ["Varlink", "VarlinkGenerator", "ShakyTesting", logging]),
        .testTarget(
            name: "ShakyProtocolTests", dependencies: ["ShakyProtocol", "Varlink", "VarlinkGenerator", "ShakyTesting"]),
        .testTarget(
            name: "ShakyDriversTests",
            dependencies: ["ShakyDrivers", "ShakeDetection", "ShakyTesting", "SystemCalls", logging],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "ShakyDaemonTests", dependencies: ["ShakyDaemon", "ShakyTesting", "Varlink", grdb]),
        .testTarget(name: "SystemIntegrationTests", dependencies: ["ShakyTesting", "ShakyFuzzing"]),
        .testTarget(
            name: "ShakyBoardTests", dependencies: ["ShakyBoard", "ShakyProtocol", "ShakyTesting"],
            exclude: ["Snapshots"]),
        .testTarget(
            name: "ShakyCLITests",
            dependencies: ["ShakyCLI", "ShakyProtocol", "Varlink", "ShakyTesting", argumentParser]),
    ],
    swiftLanguageModes: [.v6]
)
