// swift-tools-version: 6.3;(experimentalCGen)
import PackageDescription

let package = Package(
    name: "Strata",
    products: [
        .library(name: "StrataGraphics", targets: ["StrataGraphics"]),
        .library(name: "StrataText", targets: ["StrataText"]),
        .library(name: "StrataLayers", targets: ["StrataLayers"]),
        .library(name: "StrataQueues", targets: ["StrataQueues"]),
        .library(name: "StrataTiles", targets: ["StrataTiles"]),
        .library(name: "StrataCharts", targets: ["StrataCharts"]),
        .library(name: "StrataControls", targets: ["StrataControls"]),
        .library(name: "StrataX11", targets: ["StrataX11"]),
        .library(name: "StrataWayland", targets: ["StrataWayland"]),
        .library(name: "StrataWindow", targets: ["StrataWindow"]),
        .library(name: "StrataDocuments", targets: ["StrataDocuments"]),
        .library(name: "StrataAccessibility", targets: ["StrataAccessibility"]),
        // Apple's framework names over Strata's engine, so that code
        // written for iOS builds on Linux as it is: CoreGraphics so far.
        .library(
            name: "StrataKit", targets: ["CoreGraphics", "QuartzCore", "CoreText", "UIKit", "_Testing_CoreGraphics", "_Testing_UIKit"]),
        .executable(name: "strata", targets: ["strata"]),
        // For tests and the benchmarks package, not for apps: virtual
        // displays and synthetic input for window tests; the tests' image
        // comparison and fixtures; the gallery and demo apps `strata` shows.
        .library(name: "StrataX11Testing", targets: ["StrataX11Testing"]),
        .library(name: "StrataWaylandTesting", targets: ["StrataWaylandTesting"]),
        .library(name: "StrataTestSupport", targets: ["StrataTestSupport"]),
        .library(name: "StrataDemos", targets: ["StrataDemos"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // `swift package generate-documentation` (the DocC catalogs; CI builds them).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // libpng, found through pkg-config; Debian's libpng-dev provides it.
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        // Intel's ISA-L (Debian's libisal-dev): its igzip compresses DEFLATE
        // about ten times faster than zlib's fastest level, with SIMD; the
        // fast PNG encoder uses it.
        .systemLibrary(
            name: "CISAL",
            pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"])]
        ),
        // zlib (Debian's zlib1g-dev, which libpng-dev brings): PDF streams.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // A thin C layer over libpng: libpng reports errors with longjmp, which must
        // never cross Swift frames, so every libpng call is made from C.
        .target(
            name: "CPNG",
            dependencies: ["CLibPNG", "CISAL"]
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
        // The thread machinery under everything: serial queues with threads of
        // their own scheduled below the main thread, the queue pool, and the
        // lock around shared values of the package.
        .target(
            name: "StrataQueues",
            dependencies: [.product(name: "DequeModule", package: "swift-collections")]
        ),
        .target(
            name: "StrataGraphics",
            dependencies: ["CPNG", "CJPEG", "CPixels", "StrataQueues"]
        ),
        // Span-compositing kernels for AVX2, chosen at run time (the package
        // itself targets baseline x86-64).
        .target(name: "CPixels"),
        // FreeType loads faces and their outlines; fontconfig finds fonts and
        // fallbacks (Debian: libfreetype-dev, libfontconfig-dev).
        // ICU's common library (Debian's libicu-dev) for grapheme clusters and
        // line breaking by UAX #14, driven from a little C (its functions'
        // names carry the version through macros Swift cannot import).
        .systemLibrary(
            name: "CLibICU",
            pkgConfig: "icu-uc",
            providers: [.apt(["libicu-dev"])]
        ),
        .target(
            name: "CICU",
            dependencies: ["CLibICU"]
        ),
        // HarfBuzz (Debian's libharfbuzz-dev): OpenType shaping (ligatures,
        // marks, contextual forms, kerning) for the text engine.
        .systemLibrary(
            name: "CHarfBuzz",
            pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]
        ),
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
                "StrataQueues", "StrataGraphics", "CFreeType", "CFontconfig", "CHarfBuzz", "CICU",
            ]
        ),
        // The layer tree, transactions, animations and the compositor.
        .target(
            name: "StrataLayers",
            dependencies: ["CPixels", "StrataQueues", "StrataGraphics", "StrataText"]
        ),
        // The charts: decimation, the streaming graph and the line chart,
        // built on the public layer API only, as an app would.
        // The decimation kernel in C, compiled for AVX2 and chosen at run time
        // (the rest of the package targets baseline x86-64).
        .target(name: "CDecimate"),
        .target(
            name: "StrataCharts",
            dependencies: ["CDecimate", "StrataQueues", "StrataGraphics", "StrataText", "StrataLayers"]
        ),
        // UIKit's additions to Foundation (IndexPath's rows and sections),
        // shared by StrataControls and UIKit, which both re-export it.
        .target(name: "StrataFoundation"),
        // Controls: input events, views over layers, gesture recognizers, scroll
        // physics and the ruler; nothing here knows a window system.
        .target(
            name: "StrataControls",
            dependencies: ["StrataFoundation", "StrataGraphics", "StrataText", "StrataLayers"]
        ),
        // X11: Xlib, MIT-SHM and XInput 2 through pkg-config
        // (Debian: libx11-dev, libxext-dev, libxi-dev), and XTest (libxtst-dev)
        // for the synthetic input that tests and the window benchmark drive
        // windows with; apps need only the first.
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        .target(
            name: "StrataAccessibility",
            dependencies: ["CDBus", "StrataControls", "StrataFoundation", "StrataGraphics"]
        ),
        .systemLibrary(
            name: "CX11",
            pkgConfig: "x11 xext xi",
            providers: [.apt(["libx11-dev", "libxext-dev", "libxi-dev"])]
        ),
        .systemLibrary(
            name: "CXTest",
            pkgConfig: "xtst",
            providers: [.apt(["libxtst-dev"])]
        ),
        // Windows on an X11 display: presentation, the frame loop, input.
        .target(
            name: "StrataX11",
            dependencies: ["CX11", "StrataQueues", "StrataGraphics", "StrataLayers", "StrataControls", "StrataAccessibility"]
        ),
        // Wayland (Debian's libwayland-dev): the client library, and the
        // interface tables of the protocols beyond the core one, made at build
        // time by wayland-scanner from wayland-protocols' XML (the plugin).
        .systemLibrary(
            name: "CWaylandClient",
            pkgConfig: "wayland-client",
            providers: [.apt(["libwayland-dev", "libdecor-0-dev"])]
        ),
        .systemLibrary(
            name: "CXKBCommon",
            pkgConfig: "xkbcommon",
            providers: [.apt(["libxkbcommon-dev"])]
        ),
        .plugin(name: "WaylandScanner", capability: .buildTool()),
        .target(name: "CWaylandProtocols", dependencies: ["CWaylandClient"], plugins: ["WaylandScanner"]),
        // Documents from the same drawing calls: PDF (and SVG to come), the
        // canvas's vector devices.
        .systemLibrary(
            name: "CHarfBuzzSubset",
            pkgConfig: "harfbuzz-subset",
            providers: [.apt(["libharfbuzz-dev"])]
        ),
        .target(
            name: "StrataDocuments", dependencies: ["CZlib", "CISAL", "CHarfBuzzSubset", "StrataQueues", "StrataGraphics", "StrataText"]),
        // Windows on a Wayland compositor: xdg-shell toplevels, shared-memory
        // buffers paced by frame callbacks.
        .target(
            name: "StrataWayland",
            dependencies: [
                "CWaylandClient", "CWaylandProtocols", "CXKBCommon", "StrataGraphics", "StrataLayers", "StrataControls", "StrataAccessibility",
            ]
        ),
        // Headless weston and sway compositors for the Wayland tests and
        // benchmark, and virtual input through sway.
        .target(name: "StrataWaylandTesting", dependencies: ["CWaylandClient", "CWaylandProtocols", "CXKBCommon", "StrataGraphics"]),
        // One window API over both: Wayland where the desktop runs it, X11
        // otherwise.
        .target(
            name: "StrataWindow",
            dependencies: ["StrataX11", "StrataWayland", "StrataGraphics", "StrataLayers", "StrataControls"]
        ),
        // Xvfb servers and XTest input for the window tests and benchmark.
        .target(
            name: "StrataX11Testing",
            dependencies: ["CX11", "CXTest", "StrataX11"]
        ),
        // The offline tile cutter: images of any size streamed from disk into a
        // `TilePyramid` that `TilePyramidLayer` shows.
        .target(
            name: "StrataTiles",
            dependencies: ["StrataQueues", "StrataGraphics", "StrataLayers", "CJPEG", "CPNG"]
        ),
        // Core Graphics by its own names (CGContext, CGPath, CGColor, …),
        // drawing through StrataGraphics' Canvas; Foundation's CGFloat,
        // CGPoint, CGSize and CGRect are its geometry.
        .target(
            name: "CoreGraphics",
            dependencies: ["StrataGraphics", "StrataText", "StrataDocuments"]
        ),
        // The module the compiler asks for when a file imports both Testing
        // and CoreGraphics (Swift Testing's cross-import overlay): empty,
        // as Linux's toolchain has none.
        .target(name: "_Testing_CoreGraphics"),
        // Core Text by its own names (CTFont, CTLine, CTFramesetter, …) over
        // StrataText, and the attribute keys and paragraph styles that Core
        // Text and UIKit read.
        .target(
            name: "CoreText",
            dependencies: ["CoreGraphics", "StrataGraphics", "StrataText"]
        ),
        // Core Animation by its own names (CALayer, CAShapeLayer,
        // CATransaction, …): each CALayer stands for one Strata layer.
        .target(
            name: "QuartzCore",
            dependencies: ["CoreGraphics", "CoreText", "StrataGraphics", "StrataText", "StrataLayers"]
        ),
        // UIKit by its own names (UIView, UIControl, UILabel, UIWindow, …):
        // each UIView stands for one Strata view over its CALayer's layer.
        .target(
            name: "UIKit",
            dependencies: [
                "CoreGraphics", "QuartzCore", "CoreText", "StrataFoundation", "StrataGraphics", "StrataText", "StrataLayers",
                "StrataControls", "StrataX11", "StrataWindow",
            ]
        ),
        .target(name: "_Testing_UIKit"),
        // What `strata` shows: the gallery's pictures, the demo apps (the
        // feed, the windows of `strata demo`) and the drivers that script
        // them. A library so that the benchmarks package times exactly what
        // the command shows.
        .target(
            name: "StrataDemos",
            dependencies: ["StrataGraphics", "StrataText", "StrataLayers", "StrataCharts", "StrataControls"]
        ),
        .executableTarget(
            name: "strata",
            dependencies: [
                "StrataGraphics",
                "StrataText",
                "StrataLayers",
                "StrataTiles",
                "StrataCharts",
                "StrataControls",
                "StrataDemos",
                "StrataDocuments",
                "StrataX11",
                "StrataWayland",
                "StrataWindow",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What the test targets share: image comparison with stated
        // tolerances (and reference images written on request), `near`, the
        // random source, tags, and the fixtures (the benchmark scenes of
        // SCENES.md, the hostile files, the decimation series), which the
        // benchmarks package uses too. Each test target depends on its own
        // module, the modules below it and this, nothing above.
        .target(
            name: "StrataTestSupport",
            dependencies: ["StrataGraphics"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "StrataQueuesTests",
            dependencies: ["StrataQueues", "StrataTestSupport"]
        ),
        .testTarget(
            name: "StrataGraphicsTests",
            dependencies: ["StrataGraphics", "StrataTestSupport"],
            exclude: ["Resources"]
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
            name: "StrataTilesTests",
            dependencies: ["StrataTiles", "StrataLayers", "StrataGraphics", "StrataTestSupport"]
        ),
        .testTarget(
            name: "StrataChartsTests",
            dependencies: ["StrataCharts", "StrataLayers", "StrataText", "StrataGraphics", "StrataTestSupport"]
        ),
        .testTarget(
            name: "StrataAccessibilityTests",
            dependencies: [
                "StrataAccessibility", "StrataControls", "StrataCharts", "StrataDemos", "StrataLayers", "StrataGraphics", "StrataTestSupport",
            ],
            exclude: ["atspi_read.py"]
        ),
        .testTarget(
            name: "StrataControlsTests",
            dependencies: ["StrataControls", "StrataLayers", "StrataGraphics", "StrataText", "StrataTestSupport"]
        ),
        .testTarget(
            name: "StrataX11Tests",
            dependencies: [
                "CX11", "StrataX11", "StrataX11Testing", "StrataControls", "StrataLayers", "StrataGraphics", "StrataTestSupport",
                "StrataAccessibility",
            ]
        ),
        .testTarget(
            name: "StrataDocumentsTests",
            dependencies: ["StrataDocuments", "StrataGraphics", "StrataText", "StrataLayers", "StrataCharts", "StrataTestSupport"]
        ),
        .testTarget(
            name: "StrataWaylandTests",
            dependencies: [
                "CWaylandClient", "CXKBCommon", "StrataWayland", "StrataWaylandTesting", "StrataWindow", "StrataX11", "StrataX11Testing",
                "StrataControls", "StrataAccessibility",
                "StrataLayers", "StrataGraphics", "StrataTestSupport",
            ]
        ),
        .testTarget(
            name: "CoreGraphicsTests",
            dependencies: ["CoreGraphics", "_Testing_CoreGraphics", "StrataGraphics", "StrataTestSupport"]
        ),
        .testTarget(
            name: "QuartzCoreTests",
            dependencies: ["QuartzCore", "CoreText", "CoreGraphics", "_Testing_CoreGraphics", "StrataLayers", "StrataGraphics", "StrataTestSupport"]
        ),
        .testTarget(
            name: "CoreTextTests",
            dependencies: ["CoreText", "CoreGraphics", "_Testing_CoreGraphics", "StrataGraphics", "StrataTestSupport"]
        ),
        .testTarget(
            name: "UIKitTests",
            dependencies: ["UIKit", "_Testing_UIKit", "_Testing_CoreGraphics", "StrataGraphics", "StrataControls", "StrataTestSupport"]
        ),
        // The gallery's pictures against their goldens, the demo apps, and
        // the `strata` command (which the gallery test runs).
        .testTarget(
            name: "StrataDemosTests",
            dependencies: [
                "StrataDemos", "strata", "StrataX11", "StrataX11Testing", "StrataControls", "StrataCharts", "StrataLayers",
                "StrataText", "StrataGraphics", "StrataTestSupport",
            ],
            exclude: ["Resources"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
