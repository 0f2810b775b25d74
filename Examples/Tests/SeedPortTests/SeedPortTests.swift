import Foundation
import StrataGraphics
import StrataTestSupport
import Testing
import UIKit

@testable import SeedHealthChart

// The seed articles' ports (../shared/seeds), each rendered headless in a
// `UIWindow` as its app shows it, against a reference picture that was
// looked at beside the article's figure.

let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources").path

@MainActor
func render(_ controller: UIViewController, size: CGSize) throws -> Image {
    let window = UIWindow(frame: CGRect(origin: .zero, size: size))
    window.rootViewController = controller
    window.makeKeyAndVisible()
    let png = try #require(window.snapshotImage()?.pngData())
    return try Image(pngData: [UInt8](png))
}

@MainActor
@Suite("Seed ports")
struct SeedPortTests {
    @Test("004: the Health-style line chart")
    func healthChart() throws {
        let image = try render(ChartViewController(), size: CGSize(width: 375, height: 320))
        try expectImage(image, matchesGolden: "\(resources)/seed-004.png", mean: 0.5, over8: 0.5)
    }
}
