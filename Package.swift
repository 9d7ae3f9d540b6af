// swift-tools-version: 6.2
import PackageDescription

/// The same upcoming features for every target (STYLE.md).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

let package = Package(
    name: "ptcoach",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ptcoach", targets: ["ptcoach"]),
        .library(name: "PoseKit", targets: ["PoseKit"]),
        .library(name: "CoachKit", targets: ["CoachKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // MARK: - Domain core (no I/O)
        .target(
            name: "PoseKit",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CoachKit",
            dependencies: ["PoseKit", .product(name: "RealModule", package: "swift-numerics")],
            exclude: ["Guides.md"],
            resources: [.copy("Resources/Exercises")],
            swiftSettings: swiftSettings
        ),

        // MARK: - Adapters
        .target(name: "CMediaPipe"),
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
        .target(
            name: "PoseEstimation",
            dependencies: ["PoseKit", "CMediaPipe"],
            swiftSettings: swiftSettings
        ),
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .target(
            name: "MediaIO",
            dependencies: ["PoseKit", "CoachKit", "CCairo", "CTurboJPEG"],
            swiftSettings: swiftSettings
        ),
        // The store's port: the `ClinicStore` protocol and its records, without the database drivers.
        .target(name: "CoachStore", dependencies: ["PoseKit", "CoachKit"], swiftSettings: swiftSettings),
        // The store's adapters: SQLite (GRDB) and PostgreSQL (PostgresNIO).
        .target(
            name: "CoachDatabase",
            dependencies: [
                "CoachKit", "CoachStore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CoachServer",
            dependencies: [
                "PoseKit", "CoachKit", "CoachPipeline", "CoachStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources/Public")],
            swiftSettings: swiftSettings
        ),

        // The one coaching pipeline: frame sources and the body and hand sessions stepped frame by frame, for
        // `ptcoach analyze` and the live server alike.
        .target(name: "CoachPipeline", dependencies: ["PoseKit", "CoachKit"], swiftSettings: swiftSettings),
        // The passes of `ptcoach analyze` over the pipeline: finding a video's poses (the pose-estimator port, the
        // MediaPipe estimators behind it), the counting and drawing passes, the report's inputs, the text report;
        // the hand analysis.
        .target(
            name: "CoachAnalysis",
            dependencies: ["PoseKit", "CoachKit", "CoachPipeline", "CoachStore", "MediaIO", "PoseEstimation"],
            swiftSettings: swiftSettings
        ),

        // MARK: - The one wiring point
        .executableTarget(
            name: "ptcoach",
            dependencies: [
                "PoseKit", "CoachKit", "CoachPipeline", "CoachAnalysis", "PoseEstimation", "MediaIO", "CoachStore",
                "CoachDatabase", "CoachServer", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - Tests
        // Synthetic sessions and the shared recordings, for the tests of every target.
        .target(
            name: "CoachTestSupport",
            dependencies: [
                "PoseKit", "CoachKit", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/CoachTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "PoseKitTests", dependencies: ["PoseKit"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CoachKitTests",
            dependencies: ["CoachKit", "PoseKit", "CoachTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CoachPipelineTests",
            dependencies: ["CoachPipeline", "CoachKit", "PoseKit", "CoachTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PoseEstimationTests",
            dependencies: ["PoseEstimation", "PoseKit"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MediaIOTests",
            dependencies: ["MediaIO", "PoseKit", "CoachKit"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CoachStoreTests",
            dependencies: [
                "CoachStore", "CoachDatabase", "CoachKit", "CoachTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CoachServerTests",
            dependencies: [
                "CoachServer", "CoachStore", "CoachDatabase", "CoachKit", "PoseKit", "CoachTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ptcoachTests",
            dependencies: [
                "ptcoach", "PoseKit", "CoachKit", "CoachPipeline", "CoachAnalysis", "MediaIO", "CoachServer",
                "CoachStore", "CoachTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
