// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Strata",
    products: [
        .library(name: "StrataGraphics", targets: ["StrataGraphics"]),
        .library(name: "StrataText", targets: ["StrataText"]),
        .library(name: "StrataLayers", targets: ["StrataLayers"]),
        .executable(name: "strata", targets: ["strata"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        // libpng, found through pkg-config; Debian's libpng-dev provides it.
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        // A thin C layer over libpng: libpng reports errors with longjmp, which must
        // never cross Swift frames, so every libpng call is made from C.
        .target(
            name: "CPNG",
            dependencies: ["CLibPNG"]
        ),
        // libjpeg (Debian's libjpeg-dev: libjpeg-turbo), and the C layer that
        // keeps its longjmp error handling out of Swift.
        .systemLibrary(
            name: "CLibJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-dev"])]
        ),
        .target(
            name: "CJPEG",
            dependencies: ["CLibJPEG"]
        ),
        .target(
            name: "StrataGraphics",
            dependencies: ["CPNG", "CJPEG"]
        ),
        // FreeType loads faces and their outlines; fontconfig finds fonts and
        // fallbacks (Debian: libfreetype-dev, libfontconfig-dev).
        .systemLibrary(
            name: "CFreeType",
            pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]
        ),
        .systemLibrary(
            name: "CFontconfig",
            pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"])]
        ),
        .target(
            name: "StrataText",
            dependencies: [
                "StrataGraphics", "CFreeType", "CFontconfig",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // The layer tree, transactions, animations and the compositor.
        .target(
            name: "StrataLayers",
            dependencies: ["StrataGraphics", "StrataText", "CJPEG", "CPNG"]
        ),
        .executableTarget(
            name: "strata",
            dependencies: [
                "StrataGraphics",
                "StrataText",
                "StrataLayers",
                "StrataTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Helpers the test targets share, and the hostile files that both the
        // tests and `strata bench limits` write.
        .target(
            name: "StrataTestSupport",
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "StrataTextTests",
            dependencies: ["StrataText", "StrataGraphics", "CFreeType", "StrataTestSupport"],
            exclude: ["Resources"]
        ),
        .testTarget(
            name: "StrataLayersTests",
            dependencies: ["StrataLayers", "StrataText", "StrataGraphics", "StrataTestSupport"]
        ),
        .testTarget(
            name: "StrataGraphicsTests",
            dependencies: ["StrataGraphics", "strata", "StrataTestSupport"],
            exclude: ["Resources"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
