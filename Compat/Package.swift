// swift-tools-version: 6.0
// Published iOS code built unchanged against Strata's Apple-named modules.
// The sources are not copied here: `Corpus/` holds links into
// `../shared/compat-corpus/` (beside the clone, as CI has it), so what
// builds is exactly what was published.
//
// `swift build --package-path Compat` builds them; `swift test
// --package-path Compat` renders SwiftChart's example charts headless and
// compares them with the reference pictures in Tests/.
import PackageDescription

let package = Package(
    name: "StrataCompat",
    dependencies: [.package(name: "Strata", path: "..")],
    targets: [
        // gpbl/SwiftChart's Source/ (MIT), as published in 2018: Swift 5.
        .target(
            name: "SwiftChart",
            dependencies: [.product(name: "StrataKit", package: "Strata")],
            path: "Corpus/SwiftChart",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "SwiftChartTests",
            dependencies: [
                "SwiftChart", .product(name: "StrataKit", package: "Strata"),
                .product(name: "StrataTestSupport", package: "Strata"), .product(name: "StrataGraphics", package: "Strata"),
                .product(name: "StrataX11Testing", package: "Strata"),
            ],
            exclude: ["Resources"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
