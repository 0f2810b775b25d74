// swift-tools-version: 6.0
// Small programs that use Strata as a library, one per main use. Each is a
// few tens of lines; the README's first programs are these. Build them all
// with `swift build --package-path Examples`, run one with
// `swift run --package-path Examples CanvasToPNG`.
import PackageDescription

let strata: Package.Dependency = .package(name: "Strata", path: "..")

func uses(_ products: String...) -> [Target.Dependency] {
    products.map { .product(name: $0, package: "Strata") }
}

let package = Package(
    name: "StrataExamples",
    dependencies: [strata],
    targets: [
        // A drawing written to a PNG file.
        .executableTarget(name: "CanvasToPNG", dependencies: uses("StrataGraphics", "StrataText")),
        // A two-page PDF report with a chart and a table, and the chart as SVG.
        .executableTarget(
            name: "ChartReport", dependencies: uses("StrataGraphics", "StrataText", "StrataCharts", "StrataDocuments")),
        // A Health-style line chart of a CSV file's column, as a PNG.
        .executableTarget(name: "HealthChart", dependencies: uses("StrataGraphics", "StrataLayers", "StrataCharts", "StrataText")),
        // A live streaming graph of the numbers arriving on standard input, in a window.
        .executableTarget(
            name: "LiveGraph", dependencies: uses("StrataGraphics", "StrataLayers", "StrataCharts", "StrataControls", "StrataWindow")),
        // The weight ruler in a window.
        .executableTarget(
            name: "WeightRuler", dependencies: uses("StrataGraphics", "StrataLayers", "StrataControls", "StrataWindow")),
        // A feed of ten thousand posts drawn off the main thread, in a window.
        .executableTarget(
            name: "Feed", dependencies: uses("StrataGraphics", "StrataLayers", "StrataText", "StrataControls", "StrataWindow")),
        // iOS code on Linux: a UIKit view, label and gesture in a window.
        .executableTarget(name: "UIKitCard", dependencies: uses("StrataKit")),
        // The seed articles' code ported to today's Swift with Apple's names,
        // built on StrataKit's UIKit, QuartzCore, Core Text and Core Graphics.
        // The Health-style chart of seed 004.
        .executableTarget(name: "SeedHealthChart", dependencies: uses("StrataKit")),
        // The real-time tiled graph of seed 000.
        .executableTarget(name: "SeedLiveGraph", dependencies: uses("StrataKit")),
        // The feed of seed 003: text drawn off the main thread with Core Text,
        // rows a fling passes over skipped.
        .executableTarget(name: "SeedFeed", dependencies: uses("StrataKit")),
        // Core Animation's special layers of seed 001.
        .executableTarget(name: "SeedSpecialLayers", dependencies: uses("StrataKit")),
        // The infinite weight ruler of seed 002.
        .executableTarget(name: "SeedWeightRuler", dependencies: uses("StrataKit")),
        // Each seed port rendered headless against its reference picture
        // (`swift test --package-path Examples`).
        .testTarget(
            name: "SeedPortTests",
            dependencies: ["SeedHealthChart", "SeedWeightRuler", "SeedLiveGraph", "SeedFeed", "SeedSpecialLayers"]
                + uses("StrataKit", "StrataGraphics", "StrataTestSupport"),
            exclude: ["Resources"]
        ),
    ]
)
