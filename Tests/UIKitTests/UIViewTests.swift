import StrataGraphics
import StrataTestSupport
import Synchronization
import Testing
import UIKit

@testable import QuartzCore

/// The pixels of `image`.
func pixels(_ image: UIImage) throws -> Image {
    try Image(pngData: [UInt8](try #require(image.pngData())))
}

/// A shown offscreen window of `size` holding `view`.
@MainActor
func window(_ size: CGSize = CGSize(width: 100, height: 80), holding view: UIView) -> UIWindow {
    let w = UIWindow(frame: CGRect(origin: .zero, size: size))
    w.addSubview(view)
    w.makeKeyAndVisible()
    return w
}

@MainActor
final class Recorder: UIView {
    var calls: [String] = []
    var drawnContextWasCurrent = false
    override func draw(_ rect: CGRect) {
        calls.append("draw \(rect)")
        drawnContextWasCurrent = UIGraphicsGetCurrentContext() != nil
        UIColor.red.setFill()
        UIRectFill(CGRect(x: 0, y: 0, width: bounds.width, height: 10))
    }
    override func layoutSubviews() { calls.append("layout") }
    override func willMove(toSuperview newSuperview: UIView?) { calls.append("willMoveSuperview \(newSuperview != nil)") }
    override func didMoveToSuperview() { calls.append("didMoveToSuperview") }
    override func willMove(toWindow newWindow: UIWindow?) { calls.append("willMoveWindow \(newWindow != nil)") }
    override func didMoveToWindow() { calls.append("didMoveToWindow") }
}

@MainActor
@Suite("UIView")
struct UIViewTests {
    @Test("Frame, bounds and centre are the layer's, and a transform changes the frame, not the bounds")
    func geometry() {
        let v = UIView(frame: CGRect(x: 10, y: 20, width: 40, height: 30))
        #expect(v.bounds == CGRect(x: 0, y: 0, width: 40, height: 30))
        #expect(v.center == CGPoint(x: 30, y: 35))
        #expect(v.layer.position == v.center)
        v.center = CGPoint(x: 50, y: 50)
        #expect(v.frame == CGRect(x: 30, y: 35, width: 40, height: 30))
        v.transform = CGAffineTransform(rotationAngle: .pi / 2)
        #expect(v.bounds.size == CGSize(width: 40, height: 30))
        #expect(abs(v.frame.width - 30) < 1e-9 && abs(v.frame.height - 40) < 1e-9)
        #expect(v.frame.midX == 50 && v.frame.midY == 50)
        v.transform = .identity
        v.alpha = 0.25
        #expect(v.layer.opacity == 0.25)
        v.isHidden = true
        #expect(v.layer.isHidden)
        v.clipsToBounds = true
        #expect(v.layer.masksToBounds)
        v.backgroundColor = .blue
        #expect(v.layer.backgroundColor == UIColor.blue.cgColor)
        #expect(v.backgroundColor == .blue)
    }

    @Test("Subviews keep their layers in the same order, among plain sublayers")
    func subviewOrder() {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let a = UIView(), b = UIView(), c = UIView()
        let plain = CALayer()
        root.addSubview(a)
        root.layer.addSublayer(plain)
        root.addSubview(b)
        root.insertSubview(c, belowSubview: b)
        #expect(root.subviews.map { ObjectIdentifier($0) } == [a, c, b].map { ObjectIdentifier($0) })
        #expect(root.layer.sublayers?.map { ObjectIdentifier($0) } == [a.layer, plain, c.layer, b.layer].map { ObjectIdentifier($0) })
        root.bringSubviewToFront(a)
        #expect(root.subviews.last === a)
        #expect(root.layer.sublayers?.last === a.layer)
        root.sendSubviewToBack(b)
        #expect(root.subviews.first === b)
        root.insertSubview(c, aboveSubview: a)
        #expect(root.subviews.map { ObjectIdentifier($0) } == [b, a, c].map { ObjectIdentifier($0) })
        // A view cannot contain itself or an ancestor.
        c.addSubview(root)
        #expect(root.superview == nil)
        root.addSubview(root)
        #expect(root.subviews.count == 3)
        a.removeFromSuperview()
        #expect(a.superview == nil && a.layer.superlayer == nil)
        #expect(root.subviews.count == 2)
        c.tag = 7
        #expect(root.viewWithTag(7) === c)
        #expect(c.isDescendant(of: root) && !root.isDescendant(of: c))
    }

    @Test("Moving into a window calls the superview and window callbacks in UIKit's order")
    func moveCallbacks() {
        let v = Recorder()
        let w = window(holding: UIView())
        w.subviews[0].addSubview(v)
        #expect(
            v.calls.filter { !$0.hasPrefix("draw") && $0 != "layout" } == [
                "willMoveSuperview true", "willMoveWindow true", "didMoveToSuperview", "didMoveToWindow",
            ])
        #expect(v.window === w)
        v.calls = []
        v.removeFromSuperview()
        #expect(v.calls == ["willMoveSuperview false", "willMoveWindow false", "didMoveToSuperview", "didMoveToWindow"])
        #expect(v.window == nil)
    }

    @Test("draw(_:) draws into the layer's context, y down, when shown and after setNeedsDisplay")
    func drawing() throws {
        let v = Recorder(frame: CGRect(x: 0, y: 0, width: 100, height: 80))
        let w = window(holding: v)
        let image = try pixels(try #require(w.snapshotImage()))
        #expect(v.calls.contains("draw \(CGRect(x: 0, y: 0, width: 100, height: 80))"))
        #expect(v.drawnContextWasCurrent)
        #expect(UIGraphicsGetCurrentContext() == nil)
        // Red across the top ten points, white below.
        #expect(image[50, 5] == Pixel(r: 255, g: 0, b: 0, a: 255))
        #expect(image[50, 40] == Pixel(r: 255, g: 255, b: 255, a: 255))
        let draws = v.calls.filter { $0.hasPrefix("draw") }.count
        v.setNeedsDisplay()
        _ = w.snapshotImage()
        #expect(v.calls.filter { $0.hasPrefix("draw") }.count == draws + 1)
        // A view that does not draw keeps no backing image.
        let plain = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        w.addSubview(plain)
        _ = w.snapshotImage()
        #expect(plain.layer.contents == nil)
    }

    @Test("layoutSubviews runs after setNeedsLayout and when the size changes, not when it stays")
    func layout() {
        let v = Recorder(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        v.layoutIfNeeded()
        v.calls = []
        v.layoutIfNeeded()
        #expect(!v.calls.contains("layout"))
        v.setNeedsLayout()
        v.layoutIfNeeded()
        #expect(v.calls.filter { $0 == "layout" }.count == 1)
        v.frame.origin.x = 10
        v.layoutIfNeeded()
        #expect(v.calls.filter { $0 == "layout" }.count == 1)
        v.frame.size.width = 70
        v.layoutIfNeeded()
        #expect(v.calls.filter { $0 == "layout" }.count == 2)
    }

    @Test("Autoresizing masks share a change of size among the flexible parts")
    func autoresizing() {
        let parent = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let fill = UIView(frame: CGRect(x: 10, y: 10, width: 80, height: 80))
        fill.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        let corner = UIView(frame: CGRect(x: 80, y: 80, width: 10, height: 10))
        corner.autoresizingMask = [.flexibleLeftMargin, .flexibleTopMargin]
        let shared = UIView(frame: CGRect(x: 20, y: 0, width: 60, height: 10))
        shared.autoresizingMask = [.flexibleLeftMargin, .flexibleWidth, .flexibleRightMargin]
        let fixed = UIView(frame: CGRect(x: 5, y: 5, width: 5, height: 5))
        for v in [fill, corner, shared, fixed] { parent.addSubview(v) }
        parent.frame.size = CGSize(width: 200, height: 150)
        #expect(fill.frame == CGRect(x: 10, y: 10, width: 180, height: 130))
        #expect(corner.frame == CGRect(x: 180, y: 130, width: 10, height: 10))
        // 100 more points shared as 20 : 60 : 20.
        #expect(shared.frame == CGRect(x: 40, y: 0, width: 120, height: 10))
        #expect(fixed.frame == CGRect(x: 5, y: 5, width: 5, height: 5))
        parent.autoresizesSubviews = false
        parent.frame.size = CGSize(width: 100, height: 100)
        #expect(fill.frame.width == 180)
    }

    @Test("Coordinates convert between views, nil meaning the window")
    func conversion() {
        let inner = UIView(frame: CGRect(x: 10, y: 20, width: 30, height: 30))
        let outer = UIView(frame: CGRect(x: 5, y: 5, width: 90, height: 70))
        outer.addSubview(inner)
        // Kept: UIApplication holds windows weakly, as UIKit does.
        let w = window(holding: outer)
        defer { withExtendedLifetime(w) {} }
        #expect(inner.convert(CGPoint(x: 1, y: 2), to: nil) == CGPoint(x: 16, y: 27))
        #expect(inner.convert(CGPoint(x: 16, y: 27), from: nil) == CGPoint(x: 1, y: 2))
        #expect(inner.convert(CGRect(x: 0, y: 0, width: 5, height: 5), to: outer) == CGRect(x: 10, y: 20, width: 5, height: 5))
        #expect(outer.convert(CGPoint(x: 10, y: 20), to: inner) == .zero)
    }

    @Test("Hit testing skips hidden, transparent and non-interactive views, front to back")
    func hitTesting() {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let back = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        let front = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        root.addSubview(back)
        root.addSubview(front)
        #expect(root.hitTest(CGPoint(x: 10, y: 10), with: nil) === front)
        front.isHidden = true
        #expect(root.hitTest(CGPoint(x: 10, y: 10), with: nil) === back)
        back.alpha = 0.005
        #expect(root.hitTest(CGPoint(x: 10, y: 10), with: nil) === root)
        back.alpha = 1
        back.isUserInteractionEnabled = false
        #expect(root.hitTest(CGPoint(x: 10, y: 10), with: nil) === root)
        #expect(root.hitTest(CGPoint(x: 150, y: 10), with: nil) == nil)
        #expect(root.hitTest(CGPoint(x: CGFloat.nan, y: 10), with: nil) == nil)
    }
}

/// A view backed by a tiled layer, as zooming image and PDF views are: its
/// `draw(_:)` runs on the tiles' threads, once a tile, with the tile's
/// rectangle, so it is nonisolated (as under Swift 6 on iOS).
final class TiledView: UIView {
    override class var layerClass: AnyClass { CATiledLayer.self }
    let rects = Mutex<[CGRect]>([])
    let onMain = Mutex<[Bool]>([])

    nonisolated override func draw(_ rect: CGRect) {
        rects.withLock { $0.append(rect) }
        onMain.withLock { $0.append(Thread.isMainThread || MainQueue.isCurrent) }
        // The tile's context is current: UIKit's drawing works.
        let even = (Int(rect.minX / 64) + Int(rect.minY / 64)).isMultiple(of: 2)
        (even ? UIColor.red : UIColor.blue).setFill()
        UIRectFill(rect)
    }
}

@MainActor
@Suite("UIView backed by CATiledLayer")
struct TiledViewTests {
    @Test("draw(_:) runs once a tile, off the main actor, with the tile's rectangle")
    func tiles() async throws {
        let view = TiledView(frame: CGRect(x: 0, y: 0, width: 128, height: 128))
        let tiled = try #require(view.layer as? CATiledLayer)
        tiled.tileSize = CGSize(width: 64, height: 64)
        let w = window(CGSize(width: 128, height: 128), holding: view)
        var image = try pixels(try #require(w.snapshotImage()))
        for _ in 0..<300 where image[96, 96] != Pixel(r: 255, g: 0, b: 0, a: 255) || image[32, 32] != Pixel(r: 255, g: 0, b: 0, a: 255) {
            try await Task.sleep(for: .milliseconds(10))
            w.advance(by: 0.5)
            image = try pixels(try #require(w.snapshotImage()))
        }
        #expect(
            Set(view.rects.withLock { $0 }.map { [$0.minX, $0.minY, $0.width, $0.height] }) == [
                [0, 0, 64, 64], [64, 0, 64, 64], [0, 64, 64, 64], [64, 64, 64, 64],
            ])
        #expect(view.rects.withLock { $0.count } == 4)
        #expect(view.onMain.withLock { $0 }.allSatisfy { !$0 })
        #expect(image[32, 32] == Pixel(r: 255, g: 0, b: 0, a: 255))
        #expect(image[96, 32] == Pixel(r: 0, g: 0, b: 255, a: 255))
        #expect(image[96, 96] == Pixel(r: 255, g: 0, b: 0, a: 255))
    }
}
