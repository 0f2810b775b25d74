import Foundation
import StrataGraphics
import StrataTestSupport
import Testing
import UIKit

@Suite("Images, contexts, colours, fonts and paths")
struct UIGraphicsTests {
    @Test("An image renderer draws y down at its scale, on any thread")
    func renderer() async throws {
        let image = await Task.detached {
            let format = UIGraphicsImageRendererFormat()
            format.scale = 2
            return UIGraphicsImageRenderer(size: CGSize(width: 30, height: 20), format: format).image { context in
                UIColor.blue.setFill()
                context.fill(CGRect(x: 0, y: 0, width: 30, height: 5))
                #expect(UIGraphicsGetCurrentContext() === context.cgContext)
                // The CTM is iOS's: the scale, and Core Graphics' y up flipped.
                #expect(context.cgContext.ctm == CGAffineTransform(a: 2, b: 0, c: 0, d: -2, tx: 0, ty: 40))
            }
        }.value
        #expect(image.size == CGSize(width: 30, height: 20))
        #expect(image.scale == 2)
        let p = try pixels(image)
        #expect(p.width == 60 && p.height == 40)
        #expect(p[30, 4] == Pixel(r: 0, g: 0, b: 255, a: 255))
        #expect(p[30, 20].a == 0)
        // A renderer with bounds draws in them.
        let offset = UIGraphicsImageRenderer(bounds: CGRect(x: 100, y: 100, width: 10, height: 10)).image { _ in
            UIColor.red.setFill()
            UIRectFill(CGRect(x: 100, y: 100, width: 5, height: 10))
        }
        let q = try pixels(offset)
        #expect(q[2, 5].r == 255 && q[7, 5].a == 0)
        #expect(UIGraphicsGetCurrentContext() == nil)
    }

    @Test("Sizes that are empty, negative, NaN or huge make empty images, not crashes")
    func hostileSizes() {
        for size in [CGSize.zero, CGSize(width: -5, height: 10), CGSize(width: CGFloat.nan, height: 3), CGSize(width: 1e12, height: 1e12)] {
            var ran = false
            let image = UIGraphicsImageRenderer(size: size).image { _ in ran = true }
            #expect(image.size == .zero)
            #expect(!ran)
            UIGraphicsBeginImageContextWithOptions(size, false, 1)
            #expect(UIGraphicsGetCurrentContext() == nil)
            #expect(UIGraphicsGetImageFromCurrentImageContext() == nil)
            UIGraphicsEndImageContext()
        }
    }

    @Test("Image contexts nest; ending one pops only an image context")
    func imageContexts() throws {
        UIGraphicsBeginImageContextWithOptions(CGSize(width: 4, height: 4), true, 1)
        let outer = UIGraphicsGetCurrentContext()
        UIGraphicsBeginImageContext(CGSize(width: 2, height: 2))
        UIColor.green.setFill()
        UIRectFill(CGRect(x: 0, y: 0, width: 2, height: 2))
        let inner = try #require(UIGraphicsGetImageFromCurrentImageContext())
        UIGraphicsEndImageContext()
        #expect(UIGraphicsGetCurrentContext() === outer)
        #expect(inner.size == CGSize(width: 2, height: 2))
        #expect(try pixels(inner)[1, 1] == Pixel(r: 0, g: 255, b: 0, a: 255))
        // Opaque contexts start white.
        let white = try #require(UIGraphicsGetImageFromCurrentImageContext())
        #expect(try pixels(white)[0, 0] == Pixel(r: 255, g: 255, b: 255, a: 255))
        // A pushed plain context is not ended by UIGraphicsEndImageContext.
        let plain = try #require(
            CGContext(
                data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        UIGraphicsPushContext(plain)
        UIGraphicsEndImageContext()
        #expect(UIGraphicsGetCurrentContext() === plain)
        UIGraphicsPopContext()
        UIGraphicsEndImageContext()
        #expect(UIGraphicsGetCurrentContext() == nil)
    }

    @Test("Colours: components, hue at each sixth of the wheel, alpha, held components")
    func colors() {
        var r: CGFloat = 0, g: CGFloat = 0, b: CGFloat = 0, a: CGFloat = 0
        let cases: [(CGFloat, (CGFloat, CGFloat, CGFloat))] = [
            (0, (1, 0, 0)), (1.0 / 6, (1, 1, 0)), (2.0 / 6, (0, 1, 0)), (3.0 / 6, (0, 1, 1)), (4.0 / 6, (0, 0, 1)),
            (5.0 / 6, (1, 0, 1)), (1.0 / 12, (1, 0.5, 0)),
        ]
        for (hue, rgb) in cases {
            let c = UIColor(hue: hue, saturation: 1, brightness: 1, alpha: 1)
            c.getRed(&r, green: &g, blue: &b, alpha: &a)
            #expect(abs(r - rgb.0) < 1e-9 && abs(g - rgb.1) < 1e-9 && abs(b - rgb.2) < 1e-9, "hue \(hue)")
            var h: CGFloat = 0, s: CGFloat = 0, v: CGFloat = 0
            c.getHue(&h, saturation: &s, brightness: &v, alpha: &a)
            #expect(abs(h - hue) < 1e-9 && s == 1 && v == 1)
        }
        let half = UIColor(hue: 0.5, saturation: 0.5, brightness: 0.8, alpha: 1)
        half.getRed(&r, green: &g, blue: &b, alpha: &a)
        #expect(abs(r - 0.4) < 1e-9 && abs(g - 0.8) < 1e-9 && abs(b - 0.8) < 1e-9)
        let faded = UIColor.red.withAlphaComponent(0.25)
        faded.getRed(nil, green: nil, blue: nil, alpha: &a)
        #expect(a == 0.25)
        var white: CGFloat = 0
        #expect(UIColor.gray.getWhite(&white, alpha: nil) && white == 0.5)
        #expect(!UIColor.red.getWhite(&white, alpha: nil))
        UIColor(red: .nan, green: 2, blue: -1, alpha: 1).getRed(&r, green: &g, blue: &b, alpha: &a)
        #expect(r == 0 && g == 1 && b == 0)
        #expect(UIColor(hue: .nan, saturation: .nan, brightness: 1, alpha: 1) == UIColor(white: 1, alpha: 1))
    }

    @Test("Fonts: system fonts by weight, names that are not installed, sizes out of range")
    func fonts() {
        let body = UIFont.systemFont(ofSize: 17)
        #expect(body.pointSize == 17)
        #expect(body.lineHeight > 17 && body.ascender > 0 && body.descender < 0)
        #expect(UIFont.boldSystemFont(ofSize: 17) != body)
        let named = UIFont(name: "Helvetica-Bold", size: 20)
        #expect(named != nil && named?.pointSize == 20 && named?.fontName == "Helvetica-Bold")
        #expect(UIFont(name: "No Such Font 123", size: 12) != nil)
        #expect(body.withSize(30).pointSize == 30)
        #expect(UIFont.systemFont(ofSize: .nan).pointSize == 12)
        #expect(UIFont.systemFont(ofSize: -4).pointSize == 12)
        #expect(UIFont.preferredFont(forTextStyle: .headline).pointSize == 17)
    }

    @Test("Images from files and data; damaged data is nil")
    func images() throws {
        #expect(UIImage(data: Data([1, 2, 3])) == nil)
        #expect(UIImage(named: "no-such-image") == nil)
        #expect(UIImage(contentsOfFile: "/no/such/file.png") == nil)
        let image = UIGraphicsImageRenderer(size: CGSize(width: 8, height: 6)).image { _ in
            UIColor.red.setFill()
            UIRectFill(CGRect(x: 0, y: 0, width: 8, height: 3))
        }
        let folder = try temporaryFolder("uiimage")
        let path = folder + "/dot@2x.png"
        try #require(image.pngData()).write(to: URL(fileURLWithPath: path))
        let loaded = try #require(UIImage(contentsOfFile: path))
        #expect(loaded.scale == 2 && loaded.size == CGSize(width: 4, height: 3))
        let jpeg = try #require(image.jpegData(compressionQuality: 0.8))
        #expect(UIImage(data: jpeg)?.size == CGSize(width: 8, height: 6))
        // Drawn upright in a UIKit context: red on top.
        let redrawn = UIGraphicsImageRenderer(size: CGSize(width: 8, height: 6)).image { _ in image.draw(in: CGRect(x: 0, y: 0, width: 8, height: 6))
        }
        let p = try pixels(redrawn)
        #expect(p[4, 1].r == 255 && p[4, 5].a == 0)
        #expect(UIImage().size == .zero && UIImage().pngData() == nil)
    }

    @Test("Bézier paths: arcs clockwise on screen, rounded corners, containment")
    @MainActor
    func bezierPaths() {
        // Clockwise on screen (y down) from 0 to π/2 passes below the centre.
        let arc = UIBezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        #expect(arc.bounds.minY > -0.001 && abs(arc.bounds.maxY - 10) < 0.01)
        let other = UIBezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        #expect(other.bounds.minY < -9.9)
        let rounded = UIBezierPath(
            roundedRect: CGRect(x: 0, y: 0, width: 40, height: 20), byRoundingCorners: [.topLeft], cornerRadii: CGSize(width: 10, height: 10))
        #expect(!rounded.contains(CGPoint(x: 0.5, y: 0.5)))
        #expect(rounded.contains(CGPoint(x: 39.5, y: 0.5)))
        #expect(rounded.contains(CGPoint(x: 0.5, y: 19.5)))
        let oval = UIBezierPath(ovalIn: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(oval.contains(CGPoint(x: 5, y: 5)) && !oval.contains(CGPoint(x: 0.5, y: 0.5)))
        let image = UIGraphicsImageRenderer(size: CGSize(width: 10, height: 10)).image { _ in
            UIColor.black.setStroke()
            let line = UIBezierPath()
            line.move(to: CGPoint(x: 0, y: 5))
            line.addLine(to: CGPoint(x: 10, y: 5))
            line.lineWidth = 2
            line.stroke()
        }
        let p = try? pixels(image)
        #expect(p?[5, 5].a == 255 && p?[5, 1].a == 0)
        let huge = UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 10, height: 10), cornerRadius: .infinity)
        #expect(!huge.isEmpty)
    }
}

@MainActor
@Suite("Image views")
struct UIImageViewTests {
    @Test("An image view made with an image shows it at its size")
    func initWithImage() throws {
        let image = UIGraphicsImageRenderer(size: CGSize(width: 6, height: 4)).image { _ in
            UIColor.red.setFill()
            UIRectFill(CGRect(x: 0, y: 0, width: 6, height: 4))
        }
        let view = UIImageView(image: image)
        #expect(view.frame.size == CGSize(width: 6, height: 4))
        #expect(view.layer.contents != nil)
        let w = window(CGSize(width: 10, height: 10), holding: view)
        let p = try pixels(try #require(w.snapshotImage()))
        #expect(p[3, 2] == Pixel(r: 255, g: 0, b: 0, a: 255))
        #expect(p[8, 8] == Pixel(r: 255, g: 255, b: 255, a: 255))
        view.image = nil
        #expect(view.layer.contents == nil)
    }
}
