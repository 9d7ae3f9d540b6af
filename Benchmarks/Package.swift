// swift-tools-version: 6.2
import PackageDescription

/// Benchmarks of the coaching engine, kept out of `swift test` and CI.
/// Run: `swift run -c release --package-path Benchmarks CoachBenchmark`.
let package = Package(
    name: "CoachBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        // Counts calls to malloc & co. by interposing them (glibc), to check "no allocation per frame".
        .target(name: "MallocCounter"),
        .executableTarget(
            name: "CoachBenchmark",
            dependencies: [
                "MallocCounter",
                .product(name: "CoachKit", package: "main"),
                .product(name: "PoseKit", package: "main"),
            ]
        ),
    ]
)
