import Foundation
import StrataGraphics
import Testing

@testable import StrataLayers

/// The bookkeeping behind fast commits: copy-on-write layer states, dirty
/// marks, the animation registry and the remembered host clock.
@Suite @MainActor struct CommitTests {
    /// A frame after `invalidateFrame` draws every layer again, with the
    /// same pixels; without it, a frame with no change draws nothing.
    @Test func invalidatingTheFrameRedrawsEverything() throws {
        let host = try LayerHost(width: 64, height: 48)
        let layer = Layer()
        layer.frame = Rect(x: 8, y: 8, width: 20, height: 10)
        layer.backgroundColor = Color(red: 0.2, green: 0.5, blue: 0.9)
        host.rootLayer.addSublayer(layer)
        host.renderFrame()
        let first = host.makeImage()
        #expect(host.renderFrame().isEmpty)
        host.invalidateFrame()
        let damage = host.renderFrame()
        let covered = damage.reduce(0.0) { $0 + $1.width * $1.height }
        #expect(covered >= 64 * 48, "\(damage)")
        #expect(host.makeImage() == first)
    }

    @Test func layerStateCopiesAreIndependent() {
        var a = LayerState()
        a.cornerRadius = 5
        a.shape = ShapeState()
        var b = a
        b.cornerRadius = 9
        b.backgroundColor = .white
        b.shape!.lineWidth = 7
        b.position = Point(x: 3, y: 4)
        #expect(a.cornerRadius == 5 && a.backgroundColor == nil && a.shape!.lineWidth == 1 && a.position == .zero)
        #expect(b.cornerRadius == 9 && b.backgroundColor == .white && b.shape!.lineWidth == 7)
        // Two fresh states share the default appearance until one is written.
        var c = LayerState(), d = LayerState()
        c.borderWidth = 2
        #expect(c.borderWidth == 2 && d.borderWidth == 0)
        d.shadowOpacity = 1
        #expect(c.shadowOpacity == 0 && LayerState().shadowOpacity == 0)
    }

    @Test func renderTreesKeepTheirSnapshot() {
        let host = try! LayerHost(width: 16, height: 16)
        let l = Layer()
        l.frame = Rect(x: 0, y: 0, width: 8, height: 8)
        l.backgroundColor = .black
        host.rootLayer.addSublayer(l)
        host.renderFrame()
        let before = host.renderTree!.sublayers[0]
        Transaction.perform {
            Transaction.disableActions = true
            l.backgroundColor = .white
            l.cornerRadius = 3
            l.position = Point(x: 10, y: 10)
        }
        let after = host.renderTree!.sublayers[0]
        #expect(before.state.backgroundColor == .black && before.state.cornerRadius == 0)
        #expect(before.state.position == Point(x: 4, y: 4))
        #expect(after.state.backgroundColor == .white && after.state.cornerRadius == 3)
        #expect(after.state.position == Point(x: 10, y: 10))
    }

    @Test func keyPathsOverlapByPrefix() {
        #expect(LayerState.keysOverlap("position", "position"))
        #expect(LayerState.keysOverlap("position", "position.x"))
        #expect(LayerState.keysOverlap("transform.rotation.z", "transform"))
        #expect(!LayerState.keysOverlap("position", "positionX"))
        #expect(!LayerState.keysOverlap("position.x", "position.y"))
        #expect(!LayerState.keysOverlap("bounds", "position"))
    }

    /// A layer with an endless animation that nothing else holds any more is
    /// let go by the registry at the next frame.
    @Test func animationsOfUnreachableLayersAreDropped() {
        let host = try! LayerHost(width: 16, height: 16)
        weak var gone: Layer?
        weak var kept: Layer?
        let held = Layer()
        do {
            let a = Layer(), b = held
            for l in [a, b] {
                host.rootLayer.addSublayer(l)
                var spin = BasicAnimation(keyPath: "opacity", from: 0.0, to: 1.0, duration: 1)
                spin.repeatCount = .infinity
                l.add(spin, forKey: "spin")
            }
            host.renderFrame()
            a.removeFromSuperlayer()
            b.removeFromSuperlayer()
            gone = a
            kept = b
        }
        host.advance()
        #expect(gone == nil)
        #expect(kept === held && held.animationKeys == ["spin"])
    }

    /// Marks are not lost when a changed layer moves to another parent and
    /// changes again before the commit.
    @Test func changesAfterMovingBetweenParentsReachTheScreen() {
        let host = try! LayerHost(width: 40, height: 20, backgroundColor: .white)
        let left = Layer(), right = Layer(), dot = Layer()
        left.frame = Rect(x: 0, y: 0, width: 20, height: 20)
        right.frame = Rect(x: 20, y: 0, width: 20, height: 20)
        dot.frame = Rect(x: 5, y: 5, width: 10, height: 10)
        dot.backgroundColor = .black
        host.rootLayer.addSublayer(left)
        host.rootLayer.addSublayer(right)
        left.addSublayer(dot)
        host.renderFrame()
        Transaction.perform {
            Transaction.disableActions = true
            dot.backgroundColor = Color(red: 1, green: 0, blue: 0)
            right.addSublayer(dot)
            dot.backgroundColor = Color(red: 0, green: 0, blue: 1)
        }
        host.renderFrame()
        let frame = Bitmap(image: host.makeImage())
        #expect(frame[10, 10] == Pixel(r: 255, g: 255, b: 255, a: 255))
        #expect(frame[30, 10] == Pixel(r: 0, g: 0, b: 255, a: 255))
    }

    @Test func mediaTimeFollowsTheHostALayerIsIn() {
        let c1 = ManualClock(), c2 = ManualClock()
        c2.advance(by: 5)
        let h1 = try! LayerHost(width: 8, height: 8, clock: c1)
        let h2 = try! LayerHost(width: 8, height: 8, clock: c2)
        let parent = Layer(), l = Layer()
        parent.addSublayer(l)
        h1.rootLayer.addSublayer(parent)
        #expect(l.currentMediaTime == c1.now)
        h2.rootLayer.addSublayer(parent)
        #expect(l.currentMediaTime == c2.now)
        c2.advance(by: 1)
        #expect(l.currentMediaTime == c2.now)
    }
}

/// A layer whose layout hides a sibling committed before it.
private final class HidesSibling: Layer {
    var sibling: Layer?
    override func layoutSublayers() { sibling?.isHidden = true }
}

/// A layer whose layout takes a sibling out of their parent and puts a new
/// one at the end.
private final class ReshapesParent: Layer {
    var victim: Layer?
    var added: Layer?
    override func layoutSublayers() {
        victim?.removeFromSuperlayer()
        if let added { superlayer?.addSublayer(added) }
    }
}

private final class Drawn: Layer {
    var clips: [Rect] = []
    override func draw(in canvas: Canvas) {
        clips.append(canvas.clipBoundingBox)
        canvas.fillColor = .black
        canvas.fill(bounds)
    }
}

@Suite @MainActor struct CommitEdgeCaseTests {
    /// A change made during a commit, to a layer the commit has passed,
    /// reaches the next commit, and so do later changes to it.
    @Test func changesMadeDuringACommitAreNotLost() {
        let host = try! LayerHost(width: 16, height: 16)
        let a = Layer(), b = HidesSibling()
        host.rootLayer.addSublayer(a)
        host.rootLayer.addSublayer(b)
        host.renderFrame()
        b.sibling = a
        b.setNeedsLayout()
        Transaction.flush()
        host.renderFrame()
        #expect(host.renderTree!.sublayers[0].state.isHidden)
        b.sibling = nil
        a.isHidden = false
        host.renderFrame()
        #expect(!host.renderTree!.sublayers[0].state.isHidden)
    }

    /// In a long list of sublayers (which the commit walks asking for the
    /// layers ahead), a layout that removes a later sibling and adds a new
    /// one commits the list as it was, and the next commit the new one.
    @Test func aLayoutThatChangesItsParentsLongListCommits() {
        let host = try! LayerHost(width: 16, height: 16)
        let layers = (0..<12).map { i -> Layer in
            let l = i == 3 ? ReshapesParent() : Layer()
            l.frame = Rect(x: Double(i), y: 0, width: 1, height: 1)
            host.rootLayer.addSublayer(l)
            return l
        }
        host.renderFrame()
        let reshaper = layers[3] as! ReshapesParent
        let extra = Layer()
        reshaper.victim = layers[8]
        reshaper.added = extra
        for l in layers { l.opacity = 0.5 }
        reshaper.setNeedsLayout()
        Transaction.flush()
        let first = host.renderTree!.sublayers
        #expect(first.count == 12 && first.allSatisfy { $0.state.opacity == 0.5 })
        reshaper.victim = nil
        reshaper.added = nil
        Transaction.flush()
        let second = host.renderTree!.sublayers
        #expect(second.count == 12 && !second.contains { $0.id == layers[8].id } && second.last?.id == extra.id)
    }

    /// Without any host rendering frames, animated layers nothing else holds
    /// are still let go.
    @Test func theRegistryLetsGoWithoutFrames() {
        weak var first: Layer?
        for i in 0..<1000 {
            let l = Layer()
            l.add(BasicAnimation(keyPath: "opacity", from: 0.0, to: 1.0, duration: 100), forKey: "fade")
            if i == 0 { first = l }
        }
        #expect(first == nil)
        #expect(AnimationRegistry.animated.count < 1000)
    }

    /// A partial redraw starts from the old backing image only if the
    /// contents are still that image.
    @Test func partialRedisplayAfterNewContentsRedrawsAll() throws {
        let host = try! LayerHost(width: 20, height: 20)
        let l = Drawn()
        l.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        host.rootLayer.addSublayer(l)
        l.setNeedsDisplay()
        host.renderFrame()
        l.contents = try Image(width: 10, height: 10, premultipliedPixels: [UInt8](repeating: 255, count: 400))
        l.setNeedsDisplay(in: Rect(x: 0, y: 0, width: 2, height: 2))
        host.renderFrame()
        #expect(l.clips.last == Rect(x: 0, y: 0, width: 10, height: 10))
        l.setNeedsDisplay(in: Rect(x: 0, y: 0, width: 2, height: 2))
        host.renderFrame()
        #expect(l.clips.last == Rect(x: 0, y: 0, width: 2, height: 2))
    }

    @Test func aGoneHostsClockIsNotUsed() {
        let clock = ManualClock()
        clock.advance(by: 1000)
        let l = Layer()
        do {
            let host = try! LayerHost(width: 8, height: 8, clock: clock)
            host.rootLayer.addSublayer(l)
            #expect(l.currentMediaTime == 1000)
        }
        Transaction.flush()  // the pending commit holds the host until then
        #expect(abs(l.currentMediaTime - SystemClock.shared.now) < 1)
    }
}

@Suite @MainActor struct HostResizeTests {
    /// A host resized to another scale (a window moved to another screen)
    /// draws at it: the root layer keeps its size in points.
    @Test func aResizeMayChangeTheScale() throws {
        let host = try LayerHost(width: 100, height: 50)
        let square = Layer()
        square.frame = Rect(x: 10, y: 10, width: 20, height: 20)
        square.backgroundColor = .black
        host.rootLayer.addSublayer(square)
        host.renderFrame()
        try host.resize(width: 200, height: 100, scale: 2)
        #expect(host.scale == 2 && host.width == 200 && host.height == 100)
        #expect(host.rootLayer.bounds == Rect(x: 0, y: 0, width: 100, height: 50))
        host.renderFrame()
        let image = host.makeImage()
        #expect(image[21, 21] == Pixel(r: 0, g: 0, b: 0, a: 255) && image[59, 59] == Pixel(r: 0, g: 0, b: 0, a: 255))
        #expect(image[61, 61] == Pixel(r: 255, g: 255, b: 255, a: 255))
        // A scale that is not a positive number keeps the one there is.
        try host.resize(width: 100, height: 50, scale: .nan)
        #expect(host.scale == 2)
        try host.resize(width: 100, height: 50, scale: -1)
        #expect(host.scale == 2 && host.width == 100)
        try host.resize(width: 100, height: 50, scale: .infinity)
        #expect(host.scale == 2)
        // A huge or tiny scale is taken; the root layer's bounds are held
        // to the layers' limits, and a frame still renders.
        for extreme in [1e30, 5e-324] {
            try host.resize(width: 100, height: 50, scale: extreme)
            #expect(host.scale == extreme && host.rootLayer.bounds.width.isFinite)
            host.renderFrame()
        }
    }
}
