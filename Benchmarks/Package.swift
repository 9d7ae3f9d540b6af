// swift-tools-version: 6.2
import PackageDescription

/// Benchmarks of the coaching engine, kept out of `swift test` and CI.
/// Run: `swift run -c release --package-path Benchmarks CoachBenchmark`. The root package is named
/// explicitly (`ptcoach`), so this works whatever the checkout folder is called.
let package = Package(
    name: "CoachBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "ptcoach", path: "..")],
    targets: [
        // Counts calls to malloc & co. by interposing them (glibc), to check "no allocation per frame".
        .target(name: "MallocCounter"),
        .executableTarget(
            name: "CoachBenchmark",
            dependencies: [
                "MallocCounter",
                .product(name: "CoachKit", package: "ptcoach"),
                .product(name: "PoseKit", package: "ptcoach"),
            ]
        ),
    ]
)
