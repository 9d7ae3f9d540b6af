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
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        // MARK: - Domain core (no I/O)
        .target(name: "PoseKit", swiftSettings: swiftSettings),
        .target(
            name: "CoachKit",
            dependencies: ["PoseKit"],
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
        .target(
            name: "MediaIO",
            dependencies: ["PoseKit", "CoachKit", "CCairo"],
            swiftSettings: swiftSettings
        ),

        // MARK: - The one wiring point
        .executableTarget(
            name: "ptcoach",
            dependencies: [
                "PoseKit", "CoachKit", "PoseEstimation", "MediaIO",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - Tests
        .testTarget(name: "PoseKitTests", dependencies: ["PoseKit"], swiftSettings: swiftSettings),
        .testTarget(name: "CoachKitTests", dependencies: ["CoachKit", "PoseKit"], swiftSettings: swiftSettings),
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
            name: "ptcoachTests",
            dependencies: ["ptcoach", "PoseKit", "CoachKit", "MediaIO"],
            swiftSettings: swiftSettings
        ),
    ]
)
