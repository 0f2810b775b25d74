// swift-tools-version: 6.0
import PackageDescription

// Strata's benchmarks, apart from the product: one executable,
// `strata-bench`, whose subcommands time each part of Strata and print
// `strata CASE VALUE` lines that pair with the peers' scripts in
// ../shared/bench (see README.md here).
let package = Package(
    name: "StrataBenchmarks",
    dependencies: [
        .package(name: "Strata", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The streaming benchmark's data generator, vectorised.
        .target(name: "CBenchData"),
        .executableTarget(
            name: "strata-bench",
            dependencies: [
                "CBenchData",
                .product(name: "StrataGraphics", package: "Strata"),
                .product(name: "StrataText", package: "Strata"),
                .product(name: "StrataLayers", package: "Strata"),
                .product(name: "StrataQueues", package: "Strata"),
                .product(name: "StrataTiles", package: "Strata"),
                .product(name: "StrataCharts", package: "Strata"),
                .product(name: "StrataControls", package: "Strata"),
                .product(name: "StrataX11", package: "Strata"),
                .product(name: "StrataX11Testing", package: "Strata"),
                .product(name: "StrataWayland", package: "Strata"),
                .product(name: "StrataWaylandTesting", package: "Strata"),
                .product(name: "StrataTestSupport", package: "Strata"),
                .product(name: "StrataDemos", package: "Strata"),
                .product(name: "StrataDocuments", package: "Strata"),
                .product(name: "StrataKit", package: "Strata"),
                .product(name: "StrataAccessibility", package: "Strata"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
